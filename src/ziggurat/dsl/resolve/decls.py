"""Declarations: options, checks, the board, control, zones, counters, tables, setup, actions,
the end block, invariants and the heuristic, each resolved once into the plan."""

from __future__ import annotations

from typing import Optional

from .. import ast, ir
from .. import types as T
from ..model import Model
from .actions import after_fmt, check_notation_clash, resolve_action
from .core import CheckError, Ctx, Resolver, ScopeError, Where, name_pos
from .names import counter_type, option_type
from .sets import set_decl
from .calls import CELL_FUNCS, EFFECTS, OTHER_FUNCS
from .procedures import unused_procedures
from .statements import WINDOW_CALLS


def resolve_model(model: Model) -> tuple[ir.Plan, list]:
    """The checked plan of a model, and every diagnostic found on the way."""
    r = Resolver(model)
    m = model
    plan = ir.Plan(m.title, m.description, tuple(m.players), tuple(m.files))
    plan.attributes = dict(m.attributes)
    names: list[str] = []
    for opt in m.options.values():
        decl = r.attempt(option_decl, r, opt, tuple(names))
        names.append(opt.name)
        if decl is None:  # reported: the option keeps a value of its kind, so that others can use it
            kind = opt.type.kind if opt.type else "int"
            decl = ir.OptionDecl(opt.name, kind, None, doc=opt.doc, pos=opt.pos, type=option_type(opt))
            plan.broken.add(("option", opt.name))
        plan.options[opt.name] = decl
    for chk in m.checks:
        cond = r.attempt(lambda c: r.expect(r.expr(c.cond, Ctx(Where.OPTION)), T.BOOL, c.cond, "a check"), chk)
        if cond is not None:
            plan.checks.append(ir.CheckDecl(cond, chk.message, chk.pos))
    board(r, plan)
    surface(r, plan)
    for d in m.defs.values():  # a def's parameters hide, inside its body, what the ruleset names alike
        for p in d.params:
            r.warn_if_global(p, d, "parameter")
    procedure_names(r)
    if m.control is not None:
        top = ir.Local("top", T.PIECE, m.control.pos)
        cell = ir.Local("cell", T.CELL, m.control.pos)  # control by place: the cell the stack stands on
        plan.control = r.attempt(r.expr, m.control.expr, Ctx(Where.TABLE, {"top": top, "cell": cell}))
        plan.control_pos = m.control.pos
        if plan.control is None:
            plan.broken.add(("control", ""))
    for z in m.zones.values():
        plan.zones[z.name] = ir.ZoneDecl(z.name, z.per_player, z.hidden, z.pos)
    for c in m.counters.values():
        if c.kind == "set":
            set_decl(r, plan, c)
            continue
        init = r.attempt(r.expr, c.init, Ctx(Where.OPTION))
        plan.counters[c.name] = ir.CounterDecl(c.name, c.per_player, init, counter_type(c), c.pos,
                                               c.bookkeeping)
        if init is not None and init.type != plan.counters[c.name].type and init.type != T.ANY:
            r.report(c.init.pos, f"counter {c.name!r} holds {T.a(plan.counters[c.name].type)}, "
                                 f"not {T.a(init.type)}")
    for whole in m.tables.values():
        for t in [whole.column(c) for c in whole.columns] or [whole]:
            decl = r.attempt(table_decl, r, t)
            if decl is not None:
                plan.tables[t.name] = decl
            else:
                plan.broken.add(("table", t.name))
    for d in m.directions.values():
        from .names import directions

        r.attempt(directions, r, d)
    for s in m.setup:
        body = r.attempt(r.block, s.body, Ctx(Where.SETUP))
        plan.setup.append(body if body is not None else ())
    if m.after is not None:
        plan.after = ir.After(after_fmt(m.after), [[c.name, None] for c in m.after.choices], pos=m.after.pos,
                              may_decline=m.after.may_decline)
    for i, a in enumerate(m.actions.values()):
        made = r.attempt(resolve_action, r, i, a, None if a.by_chance else m.after)  # nature has no end of turn
        if made is None:
            made = ir.Action(i, a.name, a.fmt or a.name, (), None, [[c.name, None] for c in a.choices], pos=a.pos,
                             broken=True)
        if made.broken:
            plan.broken.add(("action", a.name))
        plan.actions.append(made)
    if plan.after is not None and plan.actions:
        plan.after.choices = plan.actions[0].choices[plan.actions[0].nbase:]
        plan.after.repeated = frozenset(n for n, _ in plan.after.choices if n in plan.actions[0].repeated)
    check_notation_clash(r, plan.actions)
    if m.end is not None:
        plan.end = r.attempt(r.block, m.end.body, Ctx(Where.END))
        plan.end_pos = m.end.pos
        if plan.end is None:
            plan.broken.add(("end", ""))
            plan.end = ()
        check_points(r, plan.end)
    for inv in m.invariants:
        e = r.attempt(lambda i: r.expect(r.expr(i.expr, Ctx(Where.INVARIANT)), T.BOOL, i.expr, "an invariant"), inv)
        if e is not None:
            plan.invariants.append(ir.InvariantDecl(inv.text, e, inv.pos))
        else:
            plan.broken.add(("invariant", inv.text))
    for st in m.statistics:
        e = r.attempt(lambda x: r.expr(x.expr, Ctx(Where.INVARIANT)), st)
        if e is not None and e.type not in (T.INT, T.BOOL, T.ANY):
            r.report(st.expr.pos, f"a statistic is a number or a truth, not {T.a(e.type)}")
        elif e is not None:
            plan.statistics.append(ir.StatisticDecl(st.text, e, st.pos))
    if m.heuristic is not None:
        h = m.heuristic
        plan.heuristic = r.attempt(lambda: r.expect(r.expr(h.expr, Ctx(Where.INVARIANT)), T.INT, h.expr,
                                                    "a heuristic"))
        plan.heuristic_pos = h.pos
    unused_defs(r)
    unused_procedures(r)
    return plan, r.diagnostics


def option_decl(r: Resolver, opt: ast.Option, earlier: tuple) -> ir.OptionDecl:
    ctx = Ctx(Where.OPTION, options=earlier)
    kind = opt.type.kind if opt.type else "int"
    lo = hi = None
    if opt.type is not None and kind == "range":
        lo = r.expect(r.expr(opt.type.lo, ctx), T.INT, opt.type.lo, "the low end of the range")
        hi = r.expect(r.expr(opt.type.hi, ctx), T.INT, opt.type.hi, "the high end of the range")
    default = r.expr(opt.default, ctx)
    values = tuple(opt.type.values) if opt.type is not None and kind == "enum" else ()
    return ir.OptionDecl(opt.name, kind, default, lo, hi, values, opt.doc, opt.pos,
                         opt.type.pos if opt.type is not None else None, option_type(opt))


SURFACE_MEASURES = {"width": "a standing piece's side, and a lying piece's base",
                    "length": "a lying piece, from its base to its point"}


def surface(r: Resolver, plan: ir.Plan) -> None:
    """The open table: its lattice, and the measures of each piece (evaluated for every kind)."""
    m = r.m
    if m.surface_node is None:
        return
    plan.surface_pos = m.surface_node.pos
    for name, setting in m.surface.items():
        if name == "lattice":
            if setting.param is not None:
                r.report(setting.pos, "the lattice is one length for the whole table: write 'lattice: 1in'")
                continue
            value = r.attempt(lambda s: r.expect(r.expr(s.value, Ctx(Where.BOARD)), T.INT, s.value,
                                                 "the lattice's step"), setting)
            if value is not None:
                plan.surface[name] = value
        elif name in SURFACE_MEASURES:
            if setting.param is None:
                r.report(setting.pos, f"the {name} is measured for each piece: write '{name}(x): ...' with x the piece",
                         hint=f"for example {name}(x): sizes[x.size].{name}")
                continue
            piece = ir.Local(setting.param, T.PIECE, setting.pos)
            # r.attempt calls the lambda at once, so it reads this pass's piece and name (B023 is for later calls)
            value = r.attempt(lambda s: r.expect(r.expr(s.value, Ctx(Where.TABLE, {s.param: piece})),  # noqa: B023
                                                 T.INT, s.value, f"the {name} of a piece"), setting)  # noqa: B023
            if value is not None:
                plan.surface[name] = (piece, value)
        else:
            r.report(setting.pos, f"unknown surface setting {name!r}",
                     hint="the open table has a lattice, and a width(x) and length(x) for each piece x")
    for name in ("lattice", "width", "length"):
        if name not in m.surface:
            what = ("the step of its lattice" if name == "lattice"
                    else f"the {name} of each piece ({SURFACE_MEASURES[name]})")
            r.report(m.surface_node.pos, f"the surface needs {what}: '{name}{'' if name == 'lattice' else '(x)'}: ...'")
        if name not in plan.surface:  # missing, or written wrongly (reported above): nothing may read it
            plan.broken.add(("surface", name))


def board(r: Resolver, plan: ir.Plan) -> None:
    m = r.m
    if m.surface_node is not None and m.board_node is not None:
        r.report(m.surface_node.pos, "a game is played on a board or on an open table, not both",
                 hint="keep 'board:' for a grid of cells or 'surface:' for the table")
    if m.surface_node is not None:
        return
    for name, setting in m.board.items():
        if name not in ("files", "ranks"):
            r.report(setting.pos, f"unknown board setting {name!r}", hint="a grid board has files and ranks")
            continue
        value = r.attempt(lambda s, n: r.expect(r.expr(s.value, Ctx(Where.BOARD)), T.INT, s.value,
                                                f"the number of {n}"), setting, name)
        if value is not None:
            plan.board[name] = value
        else:
            plan.broken.add(("board", name))
    if m.board_node is None and m.players:
        from ...errors import diagnostic_at

        first = m.owner[next(iter(m.owner))] if m.owner else None
        r.diagnostics.append(diagnostic_at(ast.Pos(1, 1), "the ruleset declares no board", fallback=first,
                                           hint="add: board:\\n    files: 8\\n    ranks: 8"))
    elif m.board_node is not None:
        plan.board_pos = m.board_node.pos
        for name in ("files", "ranks"):
            if name not in m.board:
                r.report(m.board_node.pos, f"the board needs a number of {name}")


def table_decl(r: Resolver, table: ast.Table) -> ir.TableDecl:
    """A table's entries, typed (their values are fixed by `fold`); resolved once."""
    cache = r.table_decls
    if table.name in cache:
        found = cache[table.name]
        if isinstance(found, CheckError):
            raise found
        return found
    try:
        decl = _table(r, table)
    except CheckError as e:
        cache[table.name] = e
        raise
    cache[table.name] = decl
    return decl


def _table(r: Resolver, table: ast.Table) -> ir.TableDecl:
    ctx = Ctx(Where.TABLE)
    entries: list[tuple[ir.Expr, ir.Expr]] = []
    first: Optional[tuple[T.Type, T.Type]] = None  # the types of the first entry's key and value
    for key_node, value_node in table.entries:
        k = r.expr(key_node, ctx)
        v = r.expr(value_node, ctx)
        if first is None:
            first = (k.type, v.type)
        elif not r.compatible(k.type, first[0]):
            r.fail(key_node, f"the keys of a table are one kind of thing: this is a {k.type}, the first a {first[0]}")
        elif not r.compatible(v.type, first[1]):
            r.fail(value_node, f"the entries of a table are one kind of thing: this is a {v.type}, "
                               f"the first a {first[1]}")
        entries.append((k, v))
    if first is None:
        r.fail(table, f"table {table.name!r} is empty")
    return ir.TableDecl(table.name, first[0], first[1], tuple(entries), table.pos)


def procedure_names(r: Resolver) -> None:
    """A procedure is called as an effect is: it cannot take an effect's or a built-in function's
    name. Its parameters warn where they hide a name the whole ruleset declares."""
    for d in r.m.procedures.values():
        if d.name in EFFECTS or d.name in WINDOW_CALLS:
            what = f"the effect {d.name}()"
        elif d.name in CELL_FUNCS or d.name in OTHER_FUNCS:
            what = f"the built-in function {d.name}()"
        else:
            what = None
        if what is not None:
            r.report(name_pos(d.pos, d.name), f"the procedure {d.name!r} would hide {what}",
                     hint="give it another name")
        for p in d.params:
            r.warn_if_global(p, d, "parameter")


def unused_defs(r: Resolver) -> None:
    """The bodies of defs no rule calls are checked for the names they use (their parameters
    standing for anything, so types cannot be checked): an unknown name, or a name that hides
    another, is an error there too."""
    for d in r.m.defs.values():
        if d.name in r.inlined:
            continue
        scope = {p: ir.Local(p, T.ANY, d.pos) for p in d.params}
        try:
            r.expr(d.body, Ctx(Where.DEF, scope, inlining=(d.name,)))
        except CheckError as e:
            if isinstance(e, ScopeError) or e.message.startswith("unknown "):
                r.report(e.pos, e.message, hint=e.hint)


def check_points(r, end) -> None:
    """A game whose results are points (`win P by K`, `win by points`) ends in points only: a
    `rank by` there gives an order, not points."""
    if not ir.scores_points(end):
        return
    for n in ir.walk(end):
        if isinstance(n, ir.RankBy) and not n.scored:
            r.report(n.pos, "'rank by' in a game whose results are points ('win ... by' elsewhere in the end block)",
                     hint="write 'win by NAME': each player scores NAME(p) and the most points win")
