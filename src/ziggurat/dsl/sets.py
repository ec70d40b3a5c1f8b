"""Sets of cells in the state, as plain IR: a set is a block of counter slots, one 0/1 mark per
cell (per player for a `per player` set), so both backends store, hash, copy, undo and print it
as they do counters. These build the IR the rules' set operations stand for.

| rules | IR |
|---|---|
| `c in visited` | `visited[c] != 0` (a `CounterRef` with its `cell`) |
| `add(visited, c)` / `remove(visited, c)` | `visited[c] = 1` / `= 0` |
| `clear(visited)` | `for c in cells where visited[c] != 0: visited[c] = 0` |
| `count(visited)` | `sum(visited[c] for c in cells)` |
| `for c in visited where X` | `for c in cells where visited[c] != 0 and X` |
| `cleared each turn` | at the end of every move: `if nxt != mover: clear(...)` (`turn_clears`) |
"""

from __future__ import annotations

from typing import Optional

from . import ir
from . import types as T
from .ast import NOWHERE, Pos


def mark(name: str, player: Optional[ir.Expr], cell: ir.Expr, pos: Pos = NOWHERE) -> ir.CounterRef:
    """The slot of one cell of a set: 1 when the cell is in it, 0 when not."""
    return ir.CounterRef(name, player, T.INT, pos, cell=cell)


def member(name: str, player: Optional[ir.Expr], cell: ir.Expr, pos: Pos = NOWHERE, negate: bool = False):
    """`cell in set` (`not in` when negate)."""
    return ir.Compare("==" if negate else "!=", mark(name, player, cell, pos), ir.Const(0, T.INT, pos), pos=pos)


def all_cells(pos: Pos = NOWHERE) -> ir.Global:
    return ir.Global("cells", T.list_of(T.CELL), pos)


def write(name: str, player, cell, value: int, pos: Pos = NOWHERE) -> ir.SetCounter:
    """`add` (value 1) or `remove` (value 0) one cell."""
    return ir.SetCounter(mark(name, player, cell, pos), "=", ir.Const(value, T.INT, pos), pos)


def clear(name: str, player, var: str, pos: Pos = NOWHERE) -> ir.For:
    """Empty a set: every marked cell written back to 0 (`var`: a name of the loop's own)."""
    c = ir.Local(var, T.CELL, pos)
    return ir.For(var, all_cells(pos), member(name, player, c, pos), (write(name, player, c, 0, pos),), pos)


def size(name: str, player, var: str, pos: Pos = NOWHERE) -> ir.Comp:
    """How many cells a set holds."""
    c = ir.Local(var, T.CELL, pos)
    return ir.Comp("sum", mark(name, player, c, pos), (ir.CompFor(var, all_cells(pos), None, pos),), T.INT, pos)


def turn_clears(plan: ir.Plan) -> tuple:
    """What ends every move: the sets `cleared each turn` emptied (every player's, for a set kept
    per player) when the next to move is not the mover. Empty for a ruleset without them."""
    body: list = []
    for d in plan.counters.values():
        if d.holds and d.cleared:
            players = [ir.Const(p, T.PLAYER, d.pos) for p in range(len(plan.players))] if d.per_player else [None]
            body += [clear(d.name, p, f"set_{d.name}_{k}", d.pos) for k, p in enumerate(players)]
    if not body:
        return ()
    passes = ir.Compare("!=", ir.Global("nxt", T.PLAYER), ir.Global("mover", T.PLAYER))
    return (ir.If(passes, tuple(body), ()),)
