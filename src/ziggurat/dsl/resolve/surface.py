"""The open table's functions: where a piece may go, what it touches, what its point meets.

Their arguments are typed here like the board's functions in `calls`; a table function in a
game with a board, or a board function in a game on the table, is a mistake at its name.
"""

from __future__ import annotations

from .. import ast, ir
from .. import types as T
from .core import Ctx, Resolver

SPOTS = T.list_of(T.SPOT)

# name -> the forms it may take: (argument types, result type), fewest arguments first.
SURFACE_FUNCS = {
    "lattice": (((T.INT,), SPOTS), ((T.INT, SPOTS, T.INT), SPOTS)),
    "flush": (((T.SPOT, T.PIECE), SPOTS), ((T.SPOT, T.PIECE, T.INT), SPOTS)),
    "overlaps": (((T.SPOT, T.PIECE), T.BOOL),),
    "hit": (((T.SPOT, T.INT), T.SPOT),),
    "piece_at": (((T.SPOT,), T.PIECE),),
    "standing": (((T.SPOT,), T.BOOL),),
    "pointing": (((T.SPOT,), T.DIR),),
    "on_table": (((T.SPOT,), T.BOOL),),
    "nearest": (((T.SPOT, SPOTS), T.SPOT),),
}
FORMS = {
    "lattice": "lattice(REACH) or lattice(REACH, AVOID, GAP)",
    "flush": "flush(SPOT, PIECE) or flush(SPOT, PIECE, OFFSETS)",
}


def surface_call(r: Resolver, node: ast.Call, ctx: Ctx) -> ir.Call:
    fn, args = node.func, node.args
    if r.m.surface_node is None:
        r.fail(node, f"{fn}() looks at an open table, and this game is played on a board",
               hint="declare 'surface:' instead of 'board:' for a game on the table")
    forms = SURFACE_FUNCS[fn]
    form = next((f for f in forms if len(f[0]) == len(args)), None)
    if form is None:
        counts = " or ".join(str(len(f[0])) for f in forms)
        r.fail(node, f"{fn}() takes {counts} argument{'s' if counts != '1' else ''}, not {len(args)}",
               hint=FORMS.get(fn))
    want, result = form
    codes = tuple(r.expect(r.expr(a, ctx), w, a, f"argument {i + 1} of {fn}()")
                  for i, (a, w) in enumerate(zip(args, want)))
    if ctx.where.before_board:
        r.fail(node, f"{fn}() looks at the table, which has nothing on it yet here")
    return ir.Call(fn, codes, result, node.pos)


def is_spot_distance(r: Resolver, node) -> bool:
    """Whether a node is `distance(a, b)` in a game on the table (between two spots)."""
    return isinstance(node, ast.Call) and node.func == "distance" and r.m.surface_node is not None


def spot_distance(r: Resolver, node: ast.Call, ctx: Ctx) -> ir.Call:
    """The squared distance between two spots' centres: `distance(a, b) <= R` is compared
    exactly as `dist2(a, b) <= R * |R|` (a distance on the table is seldom a whole number)."""
    if len(node.args) != 2:
        r.fail(node, f"distance() takes 2 arguments, not {len(node.args)}")
    a, b = (r.expect(r.expr(x, ctx), T.SPOT, x, f"argument {i + 1} of distance()") for i, x in enumerate(node.args))
    return ir.Call("dist2", (a, b), T.INT, node.pos)


def distance_alone(r: Resolver, node: ast.Call) -> None:
    r.fail(node, "a distance on the table is seldom a whole number, so it can only be compared",
           hint="compare it with a length: distance(a, b) <= 6in")
