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


def piece_facts(folded) -> tuple:
    """Per piece code, what the ruleset's tables of columns keyed by a piece's attribute say of it,
    as a card would print it (the columns the rules read in play): a column of 0s and 1s by its
    name where it is 1 (`yellow`), another by its name and value where that is not 0 (`target
    18`), in the order of the columns."""
    world, plan = folded.world, folded.plan
    # A column only the setup reads (how many copies the deck holds) says nothing of a piece in play.
    read = {n.name for n in ir.walk([plan.actions, plan.after, plan.end, plan.invariants, plan.statistics,
                                     plan.heuristic, plan.control]) if isinstance(n, ir.TableGet)}
    columns = []
    for name, t in folded.tables.items():
        whole, dot, column = name.partition(".")
        attr = getattr(t.key_type, "attr", None)
        if dot and attr in world.attr_tables and t.value_type == T.INT and name in read:
            flag = set(t.values.values()) <= {0, 1}
            columns.append((column, attr, t.values, flag))
    out = []
    for code in range(world.npieces):
        facts = []
        for column, attr, values, flag in columns:
            v = values.get(world.attr_tables[attr][code], 0)
            if v:
                facts.append(column if flag else f"{column} {v}")
        out.append(tuple(facts))
    return tuple(out)


def listed_pieces(folded) -> tuple:
    """The piece codes a table of columns keyed by a piece's attribute gives a row that is not all
    0s: the cards of a deck the ruleset lists as data (a `table cards(...)` keyed by a piece's
    kind: a kind with its copies and values is a card; a kind listed with 0s only, such as a die,
    is not). They are drawn as cards."""
    world = folded.world
    out = set()
    for name, t in folded.tables.items():
        attr = getattr(t.key_type, "attr", None)
        if "." in name and attr in world.attr_tables and t.value_type == T.INT:
            out |= {code for code in range(world.npieces) if t.values.get(world.attr_tables[attr][code], 0)}
    return tuple(sorted(out))
