"""A choice over the board's cells narrowed by the test of membership that follows it, for the
native `legal`.

A choice `x: cells where P(x)` followed (through other conditions and lets only) by `require x in
S1 or x in S2 ...`, or whose own `where` has such a test as one part of an `and`, where each S is
a collection of cells the writer can go over (a ray, a line, neighbours, the cells between two, a
flanked run) that reads neither x nor anything bound after it, goes over the members of the S's
only: they are marked, once, in a bit mask (a board of at most 64 cells), and the loop visits the
marked cells in the board's order, lowest first, as the loop over every cell would have. The test
itself is then left out (every value visited passes it). Where x was tested against each S once a
cell (a ray walked 64 times for one `from`), S is walked once.

Safe because nothing between the choice and the test changes the position (only conditions and
lets, which have no effects, may stand between) and S reads only what was bound before the
choice: it has the same members when walked before the loop as when the test walked it for each
x. The order of the moves is kept (a set bit per cell, visited from the lowest), so seeded
playouts and listings are the same. A loop fixed to one value (`legal_parts` past its part) is
not narrowed.
"""

from __future__ import annotations

from typing import Optional

import attrs

from ...dsl import ir
from ...dsl import types as T
from .. import steps as P
from .code import Code
from . import fuse

SETS = ("ray", "line", "neighbours", "between", "flanked")  # the collections walked into the mask
MASK_CELLS = 64  # a board of more cells is not narrowed (one int64 of bits)
MAGIC = 0x03F79D71B4CB0A89  # a de Bruijn sequence: the lowest set bit's index from one multiply


def bit_table() -> list:
    """BITIDX[(low * MAGIC >> 58) & 63] is the index of the one bit set in `low` (64 bits)."""
    out = [0] * 64
    for i in range(64):
        out[((1 << i) * MAGIC & (2 ** 64 - 1)) >> 58] = i
    return out


def members(e, name: str) -> Optional[list]:
    """The S's of `name in S1 or name in S2 ...` (or of `name in S`), else None."""
    parts = e.values if isinstance(e, ir.BoolOp) and e.op == "or" else (e,)
    out = []
    for p in parts:
        if not (isinstance(p, ir.Compare) and p.op == "in" and isinstance(p.left, ir.Local)
                and p.left.name == name and isinstance(p.right, ir.Call) and p.right.fn in SETS
                and T.element(p.right.type) == T.CELL):
            return None
        out.append(p.right)
    return out


def split(cond, name: str, env: dict) -> Optional[tuple]:
    """(the S's, what is left of cond or None) where cond is a test of membership (alone or one
    part of an `and`) whose S's read neither `name` nor anything not bound in env."""
    if cond is None:
        return None
    parts = cond.values if isinstance(cond, ir.BoolOp) and cond.op == "and" else (cond,)
    for k, part in enumerate(parts):
        sets = members(part, name)
        if sets is not None and all(fuse.closed(s, env) and not reads(s, name) for s in sets):
            rest = parts[:k] + parts[k + 1:]
            left = None if not rest else rest[0] if len(rest) == 1 else attrs.evolve(cond, values=tuple(rest))
            return sets, left
    return None


def reads(e, name: str) -> bool:
    return any(isinstance(n, ir.Local) and n.name == name for n in ir.walk(e))


def find(lg, s: P.Choose, steps: list, i: int, env: dict) -> Optional[tuple]:
    """(the S's, the choice's where left, the steps with the test left out) of a choice at
    steps[i] that can be narrowed, else None."""
    if lg.x.world.ncells > MASK_CELLS or getattr(lg, "fixing", None) is not None:
        return None
    if not (isinstance(s.domain, ir.Global) and s.domain.what == "cells"):
        return None
    if fuse.cells_by_line(ir.CompFor(s.name, s.domain, s.cond)) is not None:
        return None  # a rank's or file's cells only: that loop is shorter already
    own = split(s.cond, s.name, env)
    if own is not None:
        return own[0], own[1], steps
    bound = set()
    for j in range(i + 1, len(steps)):
        st = steps[j]
        if isinstance(st, P.Bind):
            bound.add(st.var)
            continue
        if not isinstance(st, P.Guard):
            return None  # a choice, an effect, the end: no test to narrow by
        found = split(st.cond, s.name, env)
        if found is not None and not any(reads(x, b) for x in found[0] for b in bound):
            sets, left = found
            rest = list(steps)
            if left is None:
                del rest[j]
            else:
                rest[j] = attrs.evolve(st, cond=left)
            return sets, s.cond, rest
    return None


def open_marked(lg, sets: list, var: str, env: dict, code: Code) -> list:
    """The loop binding `var` to the cells of the S's, once each, lowest first (see the module's
    text); its levels, as Loops.open_loop's."""
    lg.x.tables["BITIDX"] = bit_table()
    mask, rest, low, c = code.fresh("mask"), code.fresh("rest"), code.fresh("low"), code.fresh("c")
    code(f"{mask} = 0")
    for e in sets:
        levels = lg.loops.open_loop(e, c, env, code)
        code(f"{mask} |= 1 << {c}")
        lg.loops.close_loop(levels, code)
    code(f"{rest} = {mask}")
    code(f"while {rest} != 0:")
    code.depth += 1
    code(f"{low} = {rest} & -{rest}")
    code(f"{rest} ^= {low}")
    code(f"{var} = BITIDX[(({low} * {MAGIC:#x}) >> 58) & 63]")
    return [[]]
