"""Statements: lets, ifs, loops, counter assignments, effects and outcomes."""

from __future__ import annotations

from ...errors import did_you_mean
from .. import ast, ir
from .. import types as T
from .calls import EFFECTS, inline
from .core import STATEMENTS, Ctx, Resolver, Where, handles, may_be_neutral, name_pos
from .effects import effect
from .procedures import call_procedure
from .sets import SET_EFFECTS, effect as set_effect, loop


@handles(STATEMENTS, ast.Let)
def let(r: Resolver, s: ast.Let, ctx: Ctx):
    value = r.expr(s.value, ctx)
    var = r.binder(s.name, ctx, s, "let")
    local = ir.Local(var, value.type, s.pos, neutral=may_be_neutral(value))
    return ir.Let(var, value, s.pos), ctx.bind(s.name, local, "let", name_pos(s.pos, s.name))


@handles(STATEMENTS, ast.If)
def if_(r: Resolver, s: ast.If, ctx: Ctx):
    cond = r.expect(r.expr(s.cond, ctx), T.BOOL, s.cond, "the condition of 'if'")
    return ir.If(cond, r.block(s.body, ctx), r.block(s.orelse, ctx), s.pos)


@handles(STATEMENTS, ast.For)
def for_(r: Resolver, s: ast.For, ctx: Ctx):
    var, it, cond, inner = loop(r, s, ctx)
    return ir.For(var, it, cond, r.block(s.body, inner), s.pos)


@handles(STATEMENTS, ast.Assign)
def assign(r: Resolver, s: ast.Assign, ctx: Ctx):
    if not ctx.where.changes_game:
        r.fail(s, "the game state can only change in a 'do:' or 'setup:' block")
    m, target = r.m, s.target
    from .names import counter_type

    if isinstance(target, ast.Name) and target.id in m.counters and not m.counters[target.id].per_player:
        ref = ir.CounterRef(target.id, None, counter_type(m.counters[target.id]), target.pos)
    elif (isinstance(target, ast.Index) and isinstance(target.obj, ast.Name)
          and target.obj.id in m.counters and m.counters[target.obj.id].per_player):
        p = r.expect(r.expr(target.index, ctx), T.PLAYER, target.index, "the player of a counter")
        ref = ir.CounterRef(target.obj.id, p, counter_type(m.counters[target.obj.id]), target.pos)
    else:
        r.fail(target, "only counters can be assigned", hint="declare one: counter NAME = 0")
    if ref.type == T.CELL:
        if s.op != "=":
            r.fail(s, f"a counter that holds a cell is set with '=', not {s.op!r}")
        value = r.expect(r.expr(s.value, ctx), T.CELL, s.value, "a cell counter's value")
    else:
        value = r.expect(r.expr(s.value, ctx), T.INT, s.value, "a counter's value")
    return ir.SetCounter(ref, s.op, value, s.pos)


WINDOW_CALLS = {"ask": "one argument, the players to ask in order", "pass_on": "no argument",
                "close": "no argument"}  # written out before resolving (dsl/windows.py) unless misused


@handles(STATEMENTS, ast.ExprStmt)
def expr_stmt(r: Resolver, s: ast.ExprStmt, ctx: Ctx):
    if isinstance(s.expr, ast.Call) and s.expr.func in WINDOW_CALLS:  # left unexpanded: wrong arguments
        r.fail(s.expr, f"{s.expr.func}() takes {WINDOW_CALLS[s.expr.func]}, not {len(s.expr.args)} arguments",
               hint="ask([target]) or ask(list of players, in the order they answer); pass_on(); close()")
    if isinstance(s.expr, ast.Call) and s.expr.func in r.m.procedures:
        return call_procedure(r, r.m.procedures[s.expr.func], s.expr, ctx)
    if isinstance(s.expr, ast.Call) and s.expr.func in SET_EFFECTS and (done := set_effect(r, s.expr, ctx)):
        return done
    if isinstance(s.expr, ast.Call) and s.expr.func not in EFFECTS and s.expr.func not in r.m.defs:
        r.fail(s.expr, f"unknown effect {s.expr.func!r}",
               hint=did_you_mean(s.expr.func, list(EFFECTS) + list(r.m.procedures))
               or "effects are " + ", ".join(sorted(EFFECTS)) + "()")
    if not isinstance(s.expr, ast.Call) or s.expr.func not in EFFECTS:
        r.fail(s, "this line does nothing: a statement must be an effect, an assignment or an outcome",
               hint="effects are " + ", ".join(sorted(EFFECTS)) + "()")
    return effect(r, s.expr, ctx)


@handles(STATEMENTS, ast.Outcome)
def outcome(r: Resolver, s: ast.Outcome, ctx: Ctx):
    if ctx.where != Where.END:
        r.fail(s, f"'{s.kind}' ends the game, so it belongs in the end block")
    who = None
    if s.who is not None:
        who = r.expect(r.expr(s.who, ctx), T.PLAYER, s.who, f"who '{s.kind}'s")
    points = None
    if s.points is not None:
        points = r.expect(r.expr(s.points, ctx), T.INT, s.points, f"the points of '{s.kind} ... by'")
        if isinstance(points, ir.Const) and isinstance(points.value, int) and points.value <= 0:
            r.fail(s.points, f"'{s.kind} ... by {points.value}': a result is worth 1 point or more",
                   hint=f"{s.kind} ... by 1 is the same as a plain '{s.kind}'; the other players share "
                        "what it is worth")
    return ir.Outcome(s.kind, who, s.reason, s.pos, points)


@handles(STATEMENTS, ast.Rank)
def rank(r: Resolver, s: ast.Rank, ctx: Ctx):
    word = "win by" if s.scored else "rank by"
    if ctx.where != Where.END:
        r.fail(s, f"'{word}' ends the game, so it belongs in the end block")
    var = r.fresh("p")
    player = ir.Local(var, T.PLAYER, s.pos)
    keys = tuple(rank_key(r, key.id, key, player, ctx, word) for key in s.keys)
    return ir.RankBy(var, keys, s.reason, s.pos, s.scored)


def rank_key(r: Resolver, name: str, s, player: ir.Local, ctx: Ctx, word: str = "rank by"):
    """One key of `rank by` (or the points of `win by`) for one player: a def of one player, or a
    per-player counter."""
    m = r.m
    if name in m.counters and m.counters[name].per_player:
        c = m.counters[name]
        if c.bookkeeping:
            r.fail(s, f"'{word}' ranks the players by counter {name!r}, which is marked bookkeeping: "
                      "players must see what they are ranked by",
                   hint=f"remove 'bookkeeping' from counter {name} (line {c.pos.line})")
        return ir.CounterRef(name, player, T.INT, s.pos)
    if name not in m.defs:
        r.fail(s, f"'{word}' needs a def of one player (or a per-player counter), and {name!r} is neither",
               hint=did_you_mean(name, list(m.defs) + [k for k, c in m.counters.items() if c.per_player])
               or f"declare one: def {name}(p): ...")
    d = m.defs[name]
    if len(d.params) != 1:
        r.fail(s, f"'{word}' calls {name}() with one player, but it takes {len(d.params)} arguments",
               hint=f"def {name}(p): ... (line {d.pos.line})")
    call = ast.Call(name, (ast.Name("_rp", s.pos),), s.pos)
    c = inline(r, d, call, ctx.bind("_rp", player))
    r.expect(c, T.INT, s, f"{name}(), a key of '{word}',")
    return c
