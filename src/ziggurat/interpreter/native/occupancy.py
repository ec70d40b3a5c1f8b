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


def own_cells(domain, cond, name: str) -> Optional[tuple]:
    """(what is left of the where, None for nothing) of a choice `name: cells where mine(name)`,
    alone or first of an `and`; None for any other choice."""
    if not (isinstance(domain, ir.Global) and domain.what == "cells") or cond is None:
        return None
    first, rest = cond, None
    if isinstance(cond, ir.BoolOp) and cond.op == "and":
        first, more = cond.values[0], cond.values[1:]
        rest = more[0] if len(more) == 1 else attrs.evolve(cond, values=tuple(more))
    if (isinstance(first, ir.Call) and first.fn == "mine" and len(first.args) == 1
            and isinstance(first.args[0], ir.Local) and first.args[0].name == name
            and first.args[0].type == T.CELL):
        return (rest,)
    return None


def wanted(plans: list, folded) -> bool:
    """Whether a game's positions hold the occupancy words: some choice of its moves goes over the
    mover's own cells, and control does not depend on the cell."""
    if folded.ctrl_at is not None or not folded.plan.players:
        return False
    return any(_choice_of_own(step) for plan in plans for step in plan.steps)


def _choice_of_own(step) -> bool:
    if isinstance(step, P.Choose):
        return own_cells(step.domain, step.cond, step.name) is not None
    return any(_choice_of_own(s) for s in getattr(step, "steps", ()) or ())


def open_own(var: str, nw: int, code: Code, only: Optional[tuple] = None) -> list:
    """The loop binding `var` to each cell whose top the mover controls, lowest first (open_loop's
    levels). One loop, so that a `break` of the body leaves it all. `only`: (a test, a cell) where
    the loop keeps that cell's bit alone while the test holds (a part already drawn, parts.py)."""
    b = code.fresh("bits")

    def read(word: str) -> None:
        code(f"{b} = np.uint64(s[U(OCC + mover * NW + {word})])" if nw > 1 else f"{b} = np.uint64(s[U(OCC + mover)])")
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
