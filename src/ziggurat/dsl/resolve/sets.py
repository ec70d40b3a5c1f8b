"""Sets of cells: their declaration, and the rules that read and change them (`c in visited`,
`count(visited)`, `for c in visited`, `add`, `remove`, `clear`), resolved to the counter IR of
dsl.sets."""

from __future__ import annotations

from typing import Optional

from ...errors import did_you_mean
from .. import ast, ir
from .. import sets as S
from .. import types as T
from .core import Ctx, Resolver

SET_EFFECTS = ("add", "remove", "clear")


def set_decl(r: Resolver, plan: ir.Plan, c: ast.Counter) -> None:
    """`set NAME of cells [per player] [, cleared each turn] [bookkeeping]`."""
    if r.m.surface_node is not None:
        r.report(c.pos, f"set {c.name!r} holds cells, and this game is played on an open table (surface:)",
                 hint="keep what the rules must remember in counters or zones")
    plan.counters[c.name] = ir.CounterDecl(c.name, c.per_player, ir.Const(0, T.INT, c.pos), T.INT, c.pos,
                                           c.bookkeeping, holds="cells", cleared=c.cleared)


def _sets(r: Resolver) -> list:
    return [n for n, d in r.m.counters.items() if d.kind == "set"]


def set_ref(r: Resolver, node, ctx: Ctx) -> Optional[tuple]:
    """(name, player) when node names a set (`visited`, `seen[mover]`), else None."""
    if isinstance(node, ast.Index) and isinstance(node.obj, ast.Name):
        name, index = node.obj.id, node.index
    elif isinstance(node, ast.Name):
        name, index = node.id, None
    else:
        return None
    d = r.m.counters.get(name)
    if d is None or d.kind != "set" or name in ctx.scope:
        return None
    if d.per_player and index is None:
        r.fail(node, f"set {name!r} is kept per player: write {name}[PLAYER]", hint=f"for example {name}[mover]")
    if not d.per_player and index is not None:
        r.fail(node, f"set {name!r} is one for the whole game, not per player: write {name}",
               hint=f"or declare it set {name} of cells per player")
    player = None
    if index is not None:
        player = r.expect(r.expr(index, ctx), T.PLAYER, index, f"the player of set {name!r}")
    return name, player


def not_a_value(r: Resolver, node, name: str):
    r.fail(node, f"set {name!r} is not a value of its own",
           hint=f"read it as c in {name}, count({name}) or for c in {name}")


def member(r: Resolver, node, ctx: Ctx):
    """`x in SET` / `x not in SET`, or None when the right side is no set."""
    ref = set_ref(r, node.right, ctx)
    if ref is None:
        return None
    cell = r.expect(r.expr(node.left, ctx), T.CELL, node.left, f"what is looked for in set {ref[0]!r}")
    return S.member(ref[0], ref[1], cell, node.pos, negate=node.op == "not in")


def size(r: Resolver, node: ast.Call, ctx: Ctx):
    """`count(SET)` / `size(SET)`, or None when the argument is no set."""
    ref = set_ref(r, node.args[0], ctx) if len(node.args) == 1 else None
    if ref is None:
        return None
    return S.size(ref[0], ref[1], r.fresh("set_cell"), node.pos)


def loop_over(r: Resolver, f, ctx: Ctx):
    """`for VAR in SET [where COND]`: (var, the board's cells, the condition with membership,
    the context inside), or None when the loop is over something else."""
    ref = set_ref(r, f.iter, ctx)
    if ref is None:
        return None
    from ..binder_pos import name_pos

    var = r.binder(f.var, ctx, f)
    local = ir.Local(var, T.CELL, f.pos)
    inner = ctx.bind(f.var, local, "loop variable", name_pos(f.pos, f.var))
    cond = S.member(ref[0], ref[1], local, f.iter.pos)
    if f.cond is not None:
        extra = r.expect(r.expr(f.cond, inner), T.BOOL, f.cond, "a 'where' condition")
        cond = ir.BoolOp("and", (cond, extra), pos=f.cond.pos)
    return var, S.all_cells(f.iter.pos), cond, inner


def loop(r: Resolver, f, ctx: Ctx):
    """Resolver.loop, or loop_over for a loop over a set (`for c in visited where ...`)."""
    over_set = loop_over(r, f, ctx)
    return over_set if over_set is not None else r.loop(f, ctx)


def effect(r: Resolver, call: ast.Call, ctx: Ctx):
    """add(SET, c), remove(SET, c), clear(SET); None when the call is another effect."""
    fn, args = call.func, call.args
    ref = set_ref(r, args[0], ctx) if args else None
    if ref is None:
        if fn == "clear":
            named = args[0].id if args and isinstance(args[0], ast.Name) else None
            r.fail(call, "clear() empties a set" + (f", and {named!r} is not one" if named else ": clear(SET)"),
                   hint=did_you_mean(named, _sets(r)) if named else None)
        return None
    name, player = ref
    if not ctx.where.changes_game:
        r.fail(call, f"{fn}() changes the game, so it belongs in a 'do:' or 'setup:' block")
    want = 1 if fn == "clear" else 2
    if len(args) != want:
        r.fail(call, f"{fn}() of a set takes {want} argument{'s' if want > 1 else ''}, not {len(args)}",
               hint=f"clear({name})" if fn == "clear" else f"{fn}({name}, CELL)")
    if fn == "clear":
        return S.clear(name, player, r.fresh("set_cell"), call.pos)
    e = r.expr(args[1], ctx)
    if e.type != T.CELL:
        r.fail(args[1], f"set {name!r} holds cells, not {T.a(e.type)}")
    return S.write(name, player, e, 1 if fn == "add" else 0, call.pos)
