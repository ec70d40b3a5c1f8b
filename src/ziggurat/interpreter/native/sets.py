"""Sets of cells in the native module: a set is a block of counter slots, one 0/1 mark per cell
(dsl.sets), so the state vector, its hash, copies, undo and perft hold it as they hold counters.
Here: the slot of one cell's mark (`cell_slot`, for exprs.counter_slot), and the statements that
end every move (`turn_end`: the sets `cleared each turn` emptied when the turn passes)."""

from __future__ import annotations

from attrs import evolve

from ...dsl import ir
from ...dsl.sets import turn_clears


def cell_slot(x, e: ir.CounterRef, env, code) -> str:
    """The counter slot of a set's mark of cell `e.cell`: first + cell * (players or 1) + player."""
    per = len(x.world.players) if e.player is not None else 1
    return f"({x.counter_slot(evolve(e, cell=None), env, code)} + {x.expr(e.cell, env, code)} * {per})"


def turn_end(stmts, plan, env: dict, code) -> None:
    """At the end of a move (`nxt` known): empty the sets cleared each turn if the turn passes."""
    block = turn_clears(plan)
    if block:
        stmts.block(block, env, code)
