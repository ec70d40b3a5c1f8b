"""Effects: the calls that change the game, each with its arguments typed in order.

| effect | arguments | what it does |
|---|---|---|
| move(a, k, b) | cell, level, cell | the pieces of a from level k up go on top of b |
| take(c, z) | cell, zone | the whole stack of c goes to the end of zone z |
| place(p, c) | piece or pieces, cell | new pieces on top of c |
| remove(c, k, z) | cell, level, zone | the piece at level k of c goes to zone z |
| put(z, p, c) | zone, piece, cell | one piece p leaves zone z for the top of c |
| put(z, p, s) | zone, piece, spot | one piece p leaves zone z for the open table, at spot s (`put_table`) |
| insert(z, p, c, k) | zone, piece, cell, level | the same, slipped in to stand at level k of c |
| insert(a, j, c, k) | cell, level, cell, level | the piece at level j of a leaves it, slipped in at level k of c |
| change(c, k, p) | cell, level, piece | the piece at level k of c becomes p |
| add(z, p) | zone, piece or pieces | new pieces at the end of zone z |
| transfer(z, p, y) | zone, piece, zone | one piece p leaves zone z for the end of zone y |
| swap_seats(a, b) | player, player | the two seats trade sides |
| extra_turn() | | the mover moves again |
| turn_to(p) | player | p moves next (a response out of turn, the winner of a trick leading) |
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
    "put_table": ((T.ZONE, "the zone"), (T.PIECE, "the piece"), (T.SPOT, "the spot on the table")),
    "insert": ((T.ZONE, "the zone"), (T.PIECE, "the piece"), (T.CELL, "the cell"), (T.INT, "the level")),
    "insert_stack": ((T.CELL, "the cell to take from"), (T.INT, "the level to take"), (T.CELL, "the cell"),
                     (T.INT, "the level")),
    "change": ((T.CELL, "the cell"), (T.INT, "the level"), (T.PIECE, "the new piece")),
    "transfer": ((T.ZONE, "the zone to take from"), (T.PIECE, "the piece"), (T.ZONE, "the zone to put it in")),
    "swap_seats": ((T.PLAYER, "the first side"), (T.PLAYER, "the second side")),
    "extra_turn": (),
    "turn_to": ((T.PLAYER, "the player to move next"),),
}


def effect(r: Resolver, call: ast.Call, ctx: Ctx) -> ir.Effect:
    fn, args = call.func, call.args
    if not ctx.where.changes_game:
        r.fail(call, f"{fn}() changes the game, so it belongs in a 'do:' or 'setup:' block")
    if fn in ("place", "add"):
        return place(r, call, ctx)
    want = SIGNATURES[fn]
    if len(args) != len(want):
        n = len(want)
        r.fail(call, f"{fn}() takes {n} argument{'s' if n != 1 else ''}, not {len(args)}")
    if fn == "put" and r.m.surface_node is not None:
        fn, want = "put_table", SIGNATURES["put_table"]  # onto the open table
    if fn == "insert" and r.expr(args[0], ctx).type == T.CELL:
        fn, want = "insert_stack", SIGNATURES["insert_stack"]  # a piece taken from a stack, not a zone
    out = []
    for i, (typ, what) in enumerate(want):
        if i >= len(args):
            r.fail(call, f"{call.func}() is missing {what}")
        out.append(r.expect(r.expr(args[i], ctx), typ, args[i], f"{what} of {call.func}()"))
    if fn in ("extra_turn", "turn_to") and ctx.where != Where.EFFECTS:
        r.fail(call, f"{fn}() is for moves")
    return ir.Effect(fn, tuple(out), call.pos)


def place(r: Resolver, call: ast.Call, ctx: Ctx) -> ir.Effect:
    """place(pieces, cell) and add(zone, pieces): new pieces, one or a list."""
    args, fn = call.args, call.func
    if len(args) != 2:
        r.fail(call, f"{fn}() takes 2 arguments, not {len(args)}")
    where, what = (args[1], args[0]) if fn == "place" else (args[0], args[1])
    p = r.expr(what, ctx)
    if p.type != T.PIECE:
        p = r.expect(p, T.STACK, what, f"the pieces to {fn}")
    if fn == "place":
        return ir.Effect(fn, (p, r.expect(r.expr(where, ctx), T.CELL, where, "the cell of place()")), call.pos)
    return ir.Effect(fn, (r.expect(r.expr(where, ctx), T.ZONE, where, "the zone of add()"), p), call.pos)
