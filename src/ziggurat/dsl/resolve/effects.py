"""Effects: the calls that change the game, each with its arguments typed in order.

| effect | arguments | what it does |
|---|---|---|
| move(a, k, b) | cell, level, cell | the pieces of a from level k up go on top of b |
| take(c, z) | cell, zone | the whole stack of c goes to the end of zone z |
| place(p, c) | piece or pieces, cell | new pieces on top of c |
| remove(c, k, z) | cell, level, zone | the piece at level k of c goes to zone z |
| put(z, p, c) | zone, piece, cell | one piece p leaves zone z for the top of c |
| insert(z, p, c, k) | zone, piece, cell, level | the same, slipped in to stand at level k of c |
| insert(a, j, c, k) | cell, level, cell, level | the piece at level j of a leaves it, slipped in at level k of c |
| change(c, k, p) | cell, level, piece | the piece at level k of c becomes p |
| swap_seats(a, b) | player, player | the two seats trade sides |
| extra_turn() | | the mover moves again |
"""

from __future__ import annotations

from .. import ast, ir
from .. import types as T
from .core import Ctx, Resolver, Where

SIGNATURES = {
    "move": ((T.CELL, "the cell to move from"), (T.INT, "the level"), (T.CELL, "the cell to move to")),
    "take": ((T.CELL, "the cell"), (T.ZONE, "the zone")),
    "remove": ((T.CELL, "the cell"), (T.INT, "the level"), (T.ZONE, "the zone")),
    "put": ((T.ZONE, "the zone"), (T.PIECE, "the piece"), (T.CELL, "the cell")),
    "insert": ((T.ZONE, "the zone"), (T.PIECE, "the piece"), (T.CELL, "the cell"), (T.INT, "the level")),
    "insert_stack": ((T.CELL, "the cell to take from"), (T.INT, "the level to take"), (T.CELL, "the cell"),
                     (T.INT, "the level")),
    "change": ((T.CELL, "the cell"), (T.INT, "the level"), (T.PIECE, "the new piece")),
    "swap_seats": ((T.PLAYER, "the first side"), (T.PLAYER, "the second side")),
    "extra_turn": (),
}


def effect(r: Resolver, call: ast.Call, ctx: Ctx) -> ir.Effect:
    fn, args = call.func, call.args
    if not ctx.where.changes_game:
        r.fail(call, f"{fn}() changes the game, so it belongs in a 'do:' or 'setup:' block")
    if fn == "place":
        return place(r, call, ctx)
    want = SIGNATURES[fn]
    if len(args) != len(want):
        n = len(want)
        r.fail(call, f"{fn}() takes {n} argument{'s' if n != 1 else ''}, not {len(args)}")
    if fn == "insert" and r.expr(args[0], ctx).type == T.CELL:
        fn, want = "insert_stack", SIGNATURES["insert_stack"]  # a piece taken from a stack, not a zone
    out = []
    for i, (typ, what) in enumerate(want):
        if i >= len(args):
            r.fail(call, f"{call.func}() is missing {what}")
        out.append(r.expect(r.expr(args[i], ctx), typ, args[i], f"{what} of {call.func}()"))
    if fn == "extra_turn" and ctx.where != Where.EFFECTS:
        r.fail(call, "extra_turn() is for moves")
    return ir.Effect(fn, tuple(out), call.pos)


def place(r: Resolver, call: ast.Call, ctx: Ctx) -> ir.Effect:
    args = call.args
    if len(args) != 2:
        r.fail(call, f"place() takes 2 arguments, not {len(args)}")
    p = r.expr(args[0], ctx)
    if p.type != T.PIECE:
        p = r.expect(p, T.STACK, args[0], "the pieces to place")
    c = r.expect(r.expr(args[1], ctx), T.CELL, args[1], "the cell of place()")
    return ir.Effect("place", (p, c), call.pos)
