"""Occupancy words, for the native module: a choice `x: cells where mine(x) ...` walks the bits of
the mover's words instead of testing every cell of the board.

Where a game's moves choose among the mover's own cells (`cells where mine(x)`, alone or first
of an `and`), the position holds, after the stacks, NW = ceil(cells / 64) words a player
(`layout`'s OCC): bit i of player p's word w is set where cell 64 w + i holds a stack whose top
piece p controls. Every helper of the kernel that changes a stack (`move_stack`, `take_stack`,
`place_piece`, `remove_piece`, `insert_piece`, `lift_piece`) and every write of a level
(`change`, the inverses of undo.py) puts the cells it changed right again (`occ_fix`), and
`Layout.vector` makes the words of a Python position; the hash leaves them out (they follow from
the stacks). The loop goes over the set bits lowest first, the board's order, so the moves come
out in the order the scan of every cell gives. A game whose control depends on the cell a piece
stands on (`control:`, native/control.py), or whose moves never make that choice, holds no words
(NW = 0, and the kernel's `occ_fix` does nothing).
"""

from __future__ import annotations

from typing import Optional

import attrs

from ...dsl import ir
from ...dsl import types as T
from .. import steps as P
from .code import Code


def own_cells(domain, cond, name: str, empty: bool = False) -> Optional[tuple]:
    """(what is left of the where (None for nothing), "mine" or "empty") of a choice `name: cells
    where mine(name)` (with `empty`, or `where empty(name)`), alone or first of an `and`; None for
    any other choice."""
    if not (isinstance(domain, ir.Global) and domain.what == "cells") or cond is None:
        return None
    first, rest = cond, None
    if isinstance(cond, ir.BoolOp) and cond.op == "and":
        first, more = cond.values[0], cond.values[1:]
        rest = more[0] if len(more) == 1 else attrs.evolve(cond, values=tuple(more))
    if (isinstance(first, ir.Call) and first.fn in (("mine", "empty") if empty else ("mine",)) and len(first.args) == 1
            and isinstance(first.args[0], ir.Local) and first.args[0].name == name
            and first.args[0].type == T.CELL):
        return rest, first.fn
    return None


def owned(folded) -> bool:
    """Whether a stack's top always has a player controlling it (no piece without one, control not
    by place): then the cells in no player's word are the empty ones."""
    return folded.ctrl_at is None and bool(folded.ctrl) and all(c >= 0 for c in folded.ctrl)


def bit_choice(x, domain, cond, name: str) -> Optional[tuple]:
    """own_cells of a choice where the module `x` (Exprs) holds words that answer it."""
    return own_cells(domain, cond, name, owned(x.game)) if x.nw else None


def wanted(plans: list, folded) -> bool:
    """Whether a game's positions hold the occupancy words: some choice of its moves goes over the
    mover's own cells (or over the empty ones, where every top has a controller), and control does
    not depend on the cell."""
    if folded.ctrl_at is not None or not folded.plan.players:
        return False
    empty = owned(folded)
    return any(_choice_of(step, empty) for plan in plans for step in plan.steps)


def _choice_of(step, empty: bool) -> bool:
    if isinstance(step, P.Choose):
        return own_cells(step.domain, step.cond, step.name, empty) is not None
    return any(_choice_of(s, empty) for s in getattr(step, "steps", ()) or ())


def open_own(var: str, x, code: Code, only: Optional[tuple] = None, which: str = "mine") -> list:
    """The loop binding `var` to each cell whose top the mover controls (`which` "empty": each
    empty cell), lowest first (open_loop's levels), in module `x` (Exprs). One loop, so that a
    `break` of the body leaves it all. `only`: (a test, a cell) where the loop keeps that cell's
    bit alone while the test holds (a part already drawn, parts.py)."""
    b = code.fresh("bits")
    nw = x.nw

    def word_of(p: str, word: str) -> str:
        return f"np.uint64(s[U(OCC + {p} * NW + {word})])" if nw > 1 else f"np.uint64(s[U(OCC + {p})])"

    def read(word: str) -> None:
        if which == "mine":
            code(f"{b} = {word_of('mover', word)}")
        else:  # in no player's word; of the last word, the bits of cells on the board only
            taken = " | ".join(word_of(str(p), word) for p in range(len(x.game.plan.players)))
            tail = x.world.ncells - 64 * (nw - 1)
            mask = f"((np.uint64(1) << np.uint64({tail})) - np.uint64(1))"
            board = "" if tail == 64 else f" & {mask}" if nw == 1 else (
                f" & ({mask} if {word} == NW - 1 else ~np.uint64(0))")
            code(f"{b} = ~({taken}){board}")
        if only is not None:
            test, cell = only
            code(f"if {test}:")
            code(f"    {b} &= (np.uint64(1) << np.uint64({cell} & 63)) if ({cell} >> 6) == {word} else np.uint64(0)")

    if nw == 1:
        read("0")
        code(f"while {b} != 0:")
        code.depth += 1
        code(f"{var} = low_bit({b})")
    else:
        w = code.fresh("w")
        code(f"{w} = 0")
        read(w)
        code("while True:")
        code.depth += 1
        code(f"while {b} == 0 and {w} < NW - 1:")
        code.depth += 1
        code(f"{w} += 1")
        read(w)
        code.depth -= 1
        code(f"if {b} == 0:")
        code("    break")
        code(f"{var} = {w} * 64 + low_bit({b})")
    code(f"{b} &= {b} - np.uint64(1)")
    return [[]]


def flank_probe(x, fn: str, fors: list, elt) -> Optional[tuple]:
    """(cell, player) of a fold `any(count(flanked(cell, d, player)) > 0 for d in ds)` (or
    `len`, `!= 0`, `>= 1`) whose cell and player do not read d, in a module `x` that keeps the
    words: no run is flanked in a direction whose first cell is empty, the player's or nobody's
    (helpers._flanked), so the fold is False unless one of those first cells is in another
    player's word. None otherwise."""
    if fn != "any" or len(fors) != 1 or fors[0].cond is not None or fors[0].iter.type != T.DIRSET:
        return None
    if not x.nw or not isinstance(elt, ir.Compare):
        return None
    flip = {">": "<", "<": ">", "!=": "!=", ">=": "<=", "<=": ">="}
    for n, op, k in ((elt.left, elt.op, elt.right), (elt.right, flip.get(elt.op), elt.left)):
        if not (isinstance(k, ir.Const) and type(k.value) is int and (op, k.value) in ((">", 0), ("!=", 0), (">=", 1))):
            continue
        if isinstance(n, ir.Call) and n.fn in ("len", "count") and len(n.args) == 1:
            n = n.args[0]
        if not (isinstance(n, ir.Call) and n.fn == "flanked" and isinstance(n.args[1], ir.Local)
                and n.args[1].name == fors[0].var):
            continue
        cell, player = n.args[0], n.args[2]
        if any(isinstance(v, ir.Local) and v.name == fors[0].var for a in (cell, player) for v in ir.walk(a)):
            continue
        return cell, player
    return None


def near_rows(world, nw: int) -> list:
    """NBM[set][cell][word]: the bits of the first cell of each line from the cell in a
    direction of the set (flank_probe's test), as int64."""
    rows = []
    for dirs in world.DIRS:
        per_cell = []
        for c in range(world.ncells):
            words = [0] * max(1, nw)
            for d in dirs:
                line = world.LINE1[d][c]
                if line:
                    words[line[0] >> 6] |= 1 << (line[0] & 63)
            per_cell.append([v - (1 << 64) if v >= 1 << 63 else v for v in words])
        rows.append(per_cell)
    return rows or [[[0]]]
