"""Whether a game's board is a board, or only places to put things.

A card or dice game may keep its goals on the cells of a `board:` (or declare a 1x1 board it
never uses); its rules then read no geometry: no direction, no file or rank, no cell named by its
name, none of the functions that walk the board (`neighbours`, `line`, `distance`, ...). Such a
game is drawn as a table of what it has (`ziggurat.layout`), its cells as places named as in its
moves, not as a chequered board.
"""

from __future__ import annotations

from . import ir
from . import types as T

# The built-in functions that read how cells lie on the board (resolve.calls.BUILTINS).
GEOMETRY_CALLS = frozenset(("corner", "edge", "ray", "neighbours", "line", "step", "on_board", "distance",
                            "flanked", "connected", "between", "run"))
GEOMETRY_TYPES = (T.DIR, T.DIRSET)


def _geometric(node) -> bool:
    if isinstance(node, ir.Call):
        return node.fn in GEOMETRY_CALLS
    if isinstance(node, ir.Attr):
        return node.name in ("file", "rank") and node.obj.type == T.CELL
    if isinstance(node, ir.Global):
        return node.what in ("files", "ranks")
    if isinstance(node, ir.Const):
        return node.type in GEOMETRY_TYPES or (node.type == T.CELL and isinstance(node.value, int)
                                               and node.value >= 0)
    if isinstance(node, (ir.DirUnion, ir.AsDirset)):
        return True
    if isinstance(node, ir.TableDecl):
        return node.key_type in GEOMETRY_TYPES or node.value_type in GEOMETRY_TYPES
    return False


def board_is_places(plan: ir.Plan) -> bool:
    """True when no rule of `plan` reads the board's geometry: its cells are only places."""
    if plan.surface:
        return False
    parts = [list(plan.counters.values()), list(plan.tables.values()), plan.setup, plan.actions, plan.after,
             plan.end, plan.invariants, plan.statistics, plan.heuristic, plan.control]
    return not any(_geometric(node) for node in ir.walk(parts))
