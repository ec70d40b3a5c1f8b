"""Actions: their choices, conditions, lets, effects and repeated parts, in the order written,
with the `after` block resolved after each; and the checks of their notation."""

from __future__ import annotations

import string
from typing import Optional

from attrs import evolve

from .. import ast, ir
from .. import types as T
from .core import CheckError, Ctx, Pass, Resolver, Where, name_pos

CHOICE_TYPES = (T.CELL, T.INT, T.PLAYER, T.DIR, T.PIECE, T.SPOT)


def resolve_action(r: Resolver, index: int, a: ast.Action, after: Optional[ast.After]) -> ir.Action:
    """The action with its after block; a mistake inside raises CheckError (the structure's
    mistakes, like a choice made twice, are reported without stopping)."""
    names = set()
    choices = []
    for c in a.choices:
        if c.name in names:
            r.report(c.pos, f"{a.name}: choice {c.name!r} is made twice")
        names.add(c.name)
        choices.append([c.name, None])
    fmt = a.fmt if a.fmt is not None else " ".join([a.name] + ["{" + c.name + "}" for c in a.choices])
    repeated: set[str] = set()
    for rp in (x for x in a.items if isinstance(x, ast.Repeat)):
        if len(rp.choices) != 1:
            r.report(rp.pos, f"a repeat makes one choice a pass, and this one makes {len(rp.choices)}",
                     hint="keep one choice in the block; a let can name what follows from it")
        if rp.var in names:
            r.report(rp.pos, f"the repeat's {rp.var!r} has the name of a choice", hint="give it another name")
        repeated.update(c.name for c in rp.choices)
    check_format(r, a, fmt, names)
    nbase = len(choices)
    if after is not None:
        after_names = set()
        for c in after.choices:
            if c.name in names or c.name in after_names:
                r.report(c.pos, f"the after block's choice {c.name!r} has the name of a choice "
                         f"of action {a.name!r}", hint="give it another name")
            after_names.add(c.name)
            choices.append([c.name, None])
        repeated.update(c.name for rp in after.items if isinstance(rp, ast.Repeat) for c in rp.choices)
        if index == 0:
            check_format(r, after, after_fmt(after), after_names, kind="after block")
    if a.by_chance and (a.is_fallback or a.priority):
        r.report(a.pos, f"action {a.name!r} is made by chance, so it has no priority: where nature has a move, "
                 "it is the only kind of move", hint="remove its 'priority' or 'otherwise' line")
    for kind in (ast.Weight, ast.SeenBy):
        made = [x for x in a.items if isinstance(x, kind)]
        word = "weight" if kind is ast.Weight else "seen by"
        for extra in made[1:]:
            r.report(extra.pos, f"action {a.name!r} says '{word}' twice", hint="keep one")
        for x in (after.items if after is not None else ()):
            if isinstance(x, kind):
                r.report(x.pos, f"'{word}' belongs to an action, not to the after block",
                         hint="write it in the actions it is about")
    if not a.by_chance:
        for x in a.items:
            if isinstance(x, ast.Weight):
                r.report(x.pos, f"action {a.name!r} is a player's choice, so its moves have no weight",
                         hint="'weight' is for actions made 'by chance'")
    plan = ir.Action(index, a.name, fmt, (), None, choices, frozenset(repeated), a.priority, a.is_fallback,
                     a.pos, nbase, chance=a.by_chance)
    walker = _Walker(r, plan)
    ctx = Ctx(Where.ACTION)
    # The choices' names are the move's: a let or loop variable that has one of them (bound where
    # that choice is not visible: before it, or in an earlier `do:` block) gets a name of its own.
    r.reserved, r.taken = frozenset(n for n, _ in choices), set()
    try:
        plan.items, ctx = walker.items(a.items, ctx)
        if after is not None:
            plan.after_items, _ = walker.items(after.items, ctx)
    finally:
        r.reserved, r.taken = frozenset(), None
    plan.broken = walker.failed
    return plan


def _bound_by(item) -> list:
    """The names an action item binds for the items after it: (name, what binds it, its node)."""
    if isinstance(item, ast.Let):
        return [(item.name, "let", item)]
    if isinstance(item, ast.Choice):
        return [(item.name, "choice", item)]
    if isinstance(item, ast.Repeat):
        return [(c.name, "choice", c) for c in item.choices] + [(item.var, "repeat variable", item)]
    return []


def _is_choice(ctx: Ctx, name: str) -> bool:
    return ctx.bound.get(name, ("",))[0] == "choice"


def after_fmt(after: ast.After) -> str:
    return after.fmt if after.fmt is not None else " ".join("{" + c.name + "}" for c in after.choices)


class _Walker:
    """Resolves the items of one action in order, each in the scope the ones before it made."""

    def __init__(self, r: Resolver, plan: ir.Action):
        self.r, self.plan = r, plan
        self.failed = False

    def items(self, items, ctx: Ctx) -> tuple:
        """The items resolved in order. After a mistake (reported), the names the item would
        have bound stand for anything, and the items after it are still checked."""
        out = []
        for it in items:
            try:
                made, ctx = self.item(it, ctx)
            except CheckError as e:
                self.failed = True
                self.r.report(e.pos, e.message, hint=e.hint, expected=e.expected)
                for name, what, node in _bound_by(it):
                    ctx = ctx.bind(name, ir.Local(name, T.ANY, it.pos), what, name_pos(node.pos, name))
                continue
            if made is not None:
                out.append(made)
        return tuple(out), ctx

    def item(self, it, ctx: Ctx):
        r = self.r
        if isinstance(it, ast.When):
            cond = r.expect(r.expr(it.cond, ctx), T.BOOL, it.cond, "a 'when' condition")
            return ir.When(cond, it.pos, it.cond.pos.snippet()), ctx
        if isinstance(it, ast.Require):
            cond = r.expect(r.expr(it.cond, ctx), T.BOOL, it.cond, "a 'require' condition")
            return ir.Require(cond, it.message, it.pos, it.cond.pos.snippet()), ctx
        if isinstance(it, ast.Let):
            stmt, ctx = r.stmt(it, ctx)
            return stmt, ctx
        if isinstance(it, ast.Choice):
            return self.choice(it, ctx)
        if isinstance(it, ast.Effects):
            return ir.Effects(r.block(it.body, ctx.at(Where.EFFECTS)), it.pos), ctx
        if isinstance(it, ast.Repeat):
            return self.repeat(it, ctx)
        if isinstance(it, ast.Weight):
            value = r.expect(r.expr(it.value, ctx), T.INT, it.value, "a weight")
            return ir.Measure("weight", value, it.pos), ctx
        if isinstance(it, ast.SeenBy):
            value = r.expr(it.value, ctx)
            if value.type != T.list_of(T.PLAYER):
                value = r.expect(value, T.PLAYER, it.value, "'seen by' (a player or a list of players)")
            return ir.Measure("seen", value, it.pos), ctx
        return None, ctx  # `otherwise`, `priority`, `by chance`: kept on the action itself

    def choice(self, it: ast.Choice, ctx: Ctx, repeated_pass: bool = False):
        r = self.r
        dom = it.domain
        if isinstance(dom, ast.Call) and dom.func == "ray" and dom.func not in r.m.defs and len(dom.args) != 3:
            r.fail(dom, "ray() takes 3 arguments: from, directions, how far")
        d = r.expr(dom, ctx)
        elem = T.element(d.type)
        if elem is None:
            r.fail(dom, f"a choice is made from a list, a range or cells, not a {d.type}")
        if it.name in ctx.scope and not _is_choice(ctx, it.name):  # a choice made twice: reported above
            r.hides(it.name, ctx, it, "choice")
        r.warn_if_global(it.name, it, "choice")
        if r.taken is not None:  # always, in an action
            r.taken.add(it.name)  # a name of its own in the action: the move's
        self.record_type(it.name, elem, it)
        inner = ctx.bind(it.name, ir.Local(it.name, elem, it.pos), "choice", name_pos(it.pos, it.name))
        cond = None
        if it.cond is not None:
            cond = r.expect(r.expr(it.cond, inner), T.BOOL, it.cond, "a 'where' condition")
        made = ir.Choice(it.name, d, cond, it.message, elem, it.pos, dom.pos.snippet(),
                         it.cond.pos.snippet() if it.cond is not None else "")
        return made, inner

    def record_type(self, name: str, typ: T.Type, node) -> None:
        plan = self.plan
        if name in plan.repeated:
            if T.is_list(typ):
                raise CheckError(node.pos, "a repeated choice is one value a pass, not a list")
            typ = T.list_of(typ)  # the move holds the value of every pass
        for entry in plan.choices:
            if entry[0] == name:
                item = typ.elem if T.is_list(typ) else typ  # a list: one value per item (`product`)
                if item is None or (item not in CHOICE_TYPES and item.name != "enum"):
                    raise CheckError(node.pos, "a choice must be a cell, number, player, direction, piece, spot or "
                                               f"value (or a list of them), not {T.a(typ)}")
                entry[1] = typ

    def repeat(self, rp: ast.Repeat, ctx: Ctx):
        r = self.r
        if not rp.choices:
            return None, ctx  # reported with the action
        start = r.expr(rp.start, ctx)
        probe = ctx  # a repeat's variable named like a choice is reported with the action
        if _is_choice(ctx, rp.var):
            probe = evolve(ctx, scope={k: v for k, v in ctx.scope.items() if k != rp.var})
        var = r.binder(rp.var, probe, rp, "repeat variable")
        prev = r.fresh(rp.var + "_previous")
        var_pos = name_pos(rp.pos, rp.var)
        inner = ctx.bind(rp.var, ir.Local(var, start.type, rp.pos), "repeat variable", var_pos)
        frame = Pass(rp.var, ctx.scope)
        inner = evolve(inner, previous={**ctx.previous, rp.var: ir.Local(prev, start.type, rp.pos)}, passing=frame)
        items, end = self.items(rp.items, inner)
        choice = rp.choices[0]
        here = end.scope[choice.name]
        if here.type != start.type and T.ANY not in (here.type, start.type):
            r.fail(rp.start, f"the repeat starts from {T.a(start.type)}, but its choice {choice.name!r} is "
                   f"{T.a(here.type)}: each pass starts where the last one ended",
                   hint=f"start it from {T.a(here.type)}")
        cond = None
        if rp.cond is not None:
            cond = r.expect(r.expr(rp.cond, end), T.BOOL, rp.cond, "a repeat's 'while'")
        uses_previous = any(isinstance(x, ir.Local) and x.name == prev for x in ir.walk(list(items) + [cond]))
        made = ir.Repeat(var, start, cond, items, rp.may_stop, rp.pos, prev if uses_previous else None,
                         rp.cond.pos.snippet() if rp.cond is not None else "",
                         tuple((lst.name, local) for local, lst in frame.earlier.values()))
        after = ctx.bind(choice.name, ir.Local(choice.name, T.list_of(here.type), choice.pos), "choice",
                         name_pos(choice.pos, choice.name))
        # the repeat's variable, after it: where the last pass ended
        after = after.bind(rp.var, ir.Local(var, here.type, rp.pos), "repeat variable", var_pos)
        return made, after


def check_format(r: Resolver, a, fmt: str, names: set, kind: Optional[str] = None) -> None:
    what = kind or "action " + repr(a.name)
    try:
        fields = [f for _, f, _, _ in string.Formatter().parse(fmt) if f is not None]
    except ValueError as e:
        r.report(a.pos, f"the notation of {what} is malformed: {e}", hint='write choices in braces: "{from}-{to}"')
        return
    for f in fields:
        if f not in names:
            r.report(a.pos, f"the notation of {what} names {f!r}, which is not one of its choices",
                     hint=f"its choices are: {', '.join(sorted(names)) or 'none'}")
    for n in names:
        if n not in fields:
            r.report(a.pos, f"the notation of {what} leaves out the choice {n!r}, "
                     "so two different moves would print the same", hint=f'add {{{n}}} to "{fmt}"')


def check_notation_clash(r: Resolver, actions: list[ir.Action]) -> None:
    """Two actions whose notations have the same words and the same kinds of choice, in the
    same places, would print different moves the same way."""
    seen: dict[tuple, ir.Action] = {}
    for a in actions:
        try:
            parts = list(string.Formatter().parse(a.fmt))
        except ValueError:
            continue  # reported by check_format
        types = dict((n, t) for n, t in a.choices)
        shape = tuple((literal, None if field is None else str(types.get(field))) for literal, field, _, _ in parts)
        if shape in seen:
            other = seen[shape]
            r.report(a.pos, f"actions {other.name!r} and {a.name!r} write their moves alike "
                     f"({other.fmt!r} and {a.fmt!r}), so a move's text would not say which it is",
                     hint=f'make the notation of {a.name!r} differ, for example "{a.name} ' + a.fmt + '"')
        else:
            seen[shape] = a
