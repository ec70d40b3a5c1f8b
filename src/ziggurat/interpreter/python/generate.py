"""The move generator: `legal(st)`, every legal move as a tuple, written from the step plans.

Each choice becomes a loop and each condition an `if`, in the order the rules state them, so a
move is dropped as early as the rules allow. Specialisations: a chosen cell is written twice,
once known to hold a stack and once known to be empty, so `empty(to)` and `mine(to)` fold; what
the rest of the move reads from the chosen cell's stack alone is computed once where the cell is
chosen; rays are cut to every length in advance. A repeated part is a nested function that makes
one pass and calls itself for the next. `count(st)` is derived from `legal` when the module is
loaded (see module.derive_count), so it is not written twice.
"""

from __future__ import annotations

import ast

from ...dsl import budgets, estimate, ir
from ...dsl import types as T
from ...dsl.resolve.names import UNLIMITED
from .. import steps as P
from ..facts import MAX_PASSES
from .effects import Fresh, Statements
from .emit import Comment, Hoist, at, declare_nonlocals, drop_unused_loads, expr as E, name, stmt as S, tag_all
from .exprs import Env, Var, pyname

PROLOGUE = ("cells = st.cells", "zones = st.zones", "counters = st.counters", "mover = st.side", "ply = st.ply",
            "seats = st.seats", "log = st.log", "h = st.h", "nxt = NEXT[mover]", "_last = st.last", "table = st.table")


def prologue() -> list:
    return [S(line) for line in PROLOGUE]


def used_names(steps) -> set:
    """The bound names (Locals) the steps read while a move is generated (the last effects,
    which generation does not make, are left out)."""
    return {n.name for n in ir.walk(list(_exprs_of(steps, final_effects=False))) if isinstance(n, ir.Local)}


def _exprs_of(steps, final_effects: bool = True):
    for s in steps:
        if isinstance(s, P.Guard):
            yield s.cond
        elif isinstance(s, P.Bind):
            yield s.value
        elif isinstance(s, P.Choose):
            yield s.domain
            if s.cond is not None:
                yield s.cond
        elif isinstance(s, P.Stage) or (final_effects and isinstance(s, P.Apply)):
            yield from s.body
        elif isinstance(s, P.Repeat):
            yield s.start
            if s.cond is not None:
                yield s.cond
            yield from _exprs_of(s.steps, final_effects)
        elif isinstance(s, P.AfterPart):
            yield from _exprs_of(s.steps, final_effects)


def _choices(steps):
    """The choices of a step plan (in its repeats and after part too), as dsl.ir.Choice-like
    items for estimate.moves_estimate."""
    for s in steps:
        if isinstance(s, P.Choose):
            yield ir.Choice(s.name, s.domain, None, None, s.type)
        elif isinstance(s, P.Repeat):
            yield from _choices(s.steps)
        elif isinstance(s, P.AfterPart):
            yield from _choices(s.steps)


def calls_on(steps, local: str) -> set:
    """The built-ins the steps call with the bound name `local` as first argument."""
    return {n.fn for n in ir.walk(list(_exprs_of(steps))) if isinstance(n, ir.Call) and n.args
            and isinstance(n.args[0], ir.Local) and n.args[0].name == local}


def attrs_read(steps, local: str, attributes) -> list:
    return sorted({n.name for n in ir.walk(list(_exprs_of(steps))) if isinstance(n, ir.Attr)
                   and isinstance(n.obj, ir.Local) and n.obj.name == local and n.name in attributes})


# Tests a chosen cell may be asked, that knowing whether it holds a stack answers or simplifies.
SPLIT = {"height", "top", "bottom", "stack", "above", "below", "empty", "occupied", "controller", "mine", "theirs"}


class Generator:
    """Writes `legal` for one game from its action plans."""

    def __init__(self, exprs, hashing: bool):
        self.x = exprs
        self.world = exprs.world
        self.stmts = Statements(exprs, hashing)

    def legal(self, plans) -> ast.FunctionDef:
        fn = ast.FunctionDef("legal", ast.arguments([], [ast.arg("st")], None, [], [], None, []), [], [], None)
        fn.body = prologue() + [S("out = []"), S("add = out.append")]
        self.defs_at = len(fn.body)  # where the functions of repeats go: defined once a call
        self.fn, self.fresh = fn, Fresh()
        self.later: list = []  # for each repeat being written: what follows its pass
        groups: dict = {}
        for p in plans:
            # Nature's moves first (where it has one, no one else moves), `otherwise` last.
            groups.setdefault(-1e18 if p.chance else 1e9 if p.fallback else -p.priority, []).append(p)
        for gi, key in enumerate(sorted(groups)):
            if gi:
                fn.body.append(S("if out:\n    return out"))
            for p in groups[key]:
                fn.body.append(at(Comment(f"action {p.spec.name}"), p.pos))
                self.plan = p
                known, _ = estimate.moves_estimate(list(_choices(p.steps)), self.world.ncells)
                self.limit_every_choice = known > budgets.MAX_MOVES
                self.run(list(p.steps), 0, Env(), fn.body, self.emit)
        fn.body.append(S("return out"))
        drop_unused_loads(fn, len(PROLOGUE) + 2)
        declare_nonlocals(fn)
        return fn

    # ---- the walk ---------------------------------------------------------------------------

    def emit(self, env: Env, body: list) -> None:
        """The move made so far: its action's number, then each choice's value (None if not made)."""
        fields: list[ast.expr] = [ast.Constant(self.plan.index)]
        for n, _ in self.plan.spec.choices:
            var = env.vars.get(n)
            fields.append(var.value if var is not None and var.value is not None
                          else name(var.py) if var is not None else ast.Constant(None))
        body.append(S("add(_0)", ast.Tuple(fields, ast.Load())))

    def run(self, steps: list, i: int, env: Env, body: list, then) -> None:
        """Write steps[i:] into body, then `then(env, body)` where they all hold."""
        if i == len(steps):
            then(env, body)
            return
        s = steps[i]
        nxt = lambda e, b: self.run(steps, i + 1, e, b, then)  # noqa: E731
        x = self.x
        match s:
            case P.Guard(cond=cond):
                test = x.expr(cond, env)
                if isinstance(test, ast.Constant):  # known here: nothing follows a false one
                    if test.value:
                        nxt(env, body)
                    return
                inner: list[ast.stmt] = []
                body.append(at(ast.If(test, inner, []), s.pos))
                nxt(env, inner)
            case P.Bind(var=var, value=value):
                if var not in used_names(steps[i + 1:]) and not self._used_later(var):
                    nxt(env, body)
                    return
                code = x.expr(value, env)
                if isinstance(code, ast.Constant):
                    nxt(env.bind(var, Var(pyname(var), value.type, value=code)), body)
                    return
                first = len(body)
                body.append(S("_0 = _1", pyname(var), code))
                local = self.local(var, value.type, steps[i + 1:], body)
                tag_all(body[first:], s.pos)
                nxt(env.bind(var, local), body)
            case P.Choose():
                self.choose(s, steps, i, env, body, nxt)
            case P.Stage(body=effects):
                mark, saved = self.fresh("mk"), self.fresh("hk")
                body.append(at(S("_0 = len(log)", mark), s.pos))
                body.append(at(S("_0 = h", saved), s.pos))
                body.extend(self.stmts.block(effects, env.in_effects(), self.fresh))
                nxt(env.forget_cells(), body)
                body.append(S("while len(log) > _0:\n    _l, _i, _o = log.pop()\n    _l[_i] = _o", mark))
                body.append(S("h = _0", saved))
            case P.Apply() | P.Measure():
                nxt(env, body)
            case P.Repeat():
                self.repeat(s, env, body, nxt, steps[i + 1:])
            case P.AfterPart(steps=part):
                before = self.fresh("k")
                body.append(S("_0 = len(out)", before))
                self.run(list(part), 0, env, body, then)
                inner = body  # declinable: the move without it always; else only where it offered nothing
                if not s.may_decline:
                    inner = []
                    body.append(S("if len(out) == _0:\n    pass", before))
                    body[-1].body = inner
                own = {n for n, _ in self.plan.spec.choices[self.plan.spec.nbase:]}
                then(Env({k: v for k, v in env.vars.items() if k not in own}, env.effects), inner)
            case _:
                raise AssertionError(f"no generator for the step {s!r}")

    def _used_later(self, var: str) -> bool:
        """Whether a name is read by what the walk writes after the steps it is in: the `while`
        of the repeats around them and the steps after those repeats."""
        return any(var in used_names(later) for later in self.later)

    def local(self, var: str, typ: T.Type, rest, body: list) -> Var:
        """A generator local, with the reads it will need hoisted right after it: the stack on a
        cell, or the attributes of a piece that later conditions look at."""
        py = pyname(var)
        if typ == T.CELL:
            alias = "_s" + py
            body.append(S("_0 = cells[_1]", alias, py))
            return Var(py, typ, stack=alias)
        if typ == T.PIECE:
            attrs = {}
            for attr in attrs_read(rest, var, self.x.game.plan.attributes):
                alias = f"_a{len(attr)}_{attr}_{py}"
                body.append(S("_0 = A_" + attr + "[_1]", alias, py))
                attrs[attr] = alias
            return Var(py, typ, attrs=attrs)
        return Var(py, typ)

    # ---- choices ----------------------------------------------------------------------------

    def choose(self, s: P.Choose, steps, i, env: Env, body: list, nxt) -> None:
        x, var = self.x, pyname(s.name)
        dom = s.domain
        rest = steps[i + 1:]
        if isinstance(dom, ir.Call) and dom.fn == "ray":
            frm, dirs, reach = (x.expr(a, env) for a in dom.args)
            r = self.fresh("r")
            longest = self.world.longest
            if isinstance(reach, ast.Constant) and isinstance(reach.value, int) and reach.value >= UNLIMITED or (
                    isinstance(reach, ast.Name) and reach.id == "UNLIMITED"):
                rays = E("RAYS[_0][_1]", dirs, frm)
            elif isinstance(reach, ast.Constant):
                assert isinstance(reach.value, int)  # a ray's reach type-checks as a number
                rays = E("RAYSTO[_0][_1][_2]", dirs, min(max(reach.value, 0), longest), frm)
            else:
                if isinstance(reach, ast.Name):
                    n = reach.id
                else:
                    n = self.fresh("n")
                    body.append(at(S("_0 = _1", n, reach), s.pos))
                rays = E("RAYSTO[_0][_1 if _1 < LONGEST else LONGEST][_2]", dirs, n, frm)
            loop = at(ast.For(ast.Name(r, ast.Store()), rays, [], []), s.pos)
            along = ast.For(ast.Name(var, ast.Store()), name(r), [], [])
            loop.body.append(along)
            body.append(loop)
            self.move_limit(s, along.body)
            self.cell_choice(s, rest, env, along.body, nxt, ray=True)
            return
        d_type = dom.type
        elem = T.element(d_type)
        if elem == T.CELL and isinstance(dom, ir.Global) and dom.what == "cells":
            loop = at(ast.For(ast.Tuple([ast.Name(var, ast.Store()), ast.Name("_s" + var, ast.Store())], ast.Store()),
                              E("enumerate(cells)"), [], []), s.pos)
            body.append(loop)
            self.move_limit(s, loop.body)
            self.cell_choice(s, rest, env, loop.body, nxt, ray=False, bound=True)
            return
        src = x.collection(dom, env)
        if d_type == T.ZONE:  # a zone may hold equal pieces: one move for each kind of piece
            src = E("dict.fromkeys(_0)", src)
        loop = at(ast.For(ast.Name(var, ast.Store()), src, [], []), s.pos)
        body.append(loop)
        self.move_limit(s, loop.body)
        if elem == T.CELL:
            self.cell_choice(s, rest, env, loop.body, nxt, ray=False)
            return
        assert elem is not None  # a choice's domain is a collection (the checker said so)
        inner = env.bind(s.name, self.local(s.name, elem, rest, loop.body))
        self.choice_body(s, inner, loop.body, nxt)

    def move_limit(self, s: P.Choose, body: list) -> None:
        """In the loop of a choice whose number of values is known only while the game runs (or
        of every choice, when the known ones already multiply past the limit): stop the game
        with MoveLimit, at the choice's rules line, once the position has budgets.MAX_MOVES
        moves (`len(out)` is the moves so far; `n` in count)."""
        if not self.limit_every_choice and estimate.domain_values(s.domain, self.world.ncells) is not None:
            return
        body.append(at(S("if len(out) >= MAX_MOVES:\n    raise MoveLimit(_0, MAX_MOVES)", ast.Constant(s.domain_text)),
                       s.pos))

    def cell_choice(self, s: P.Choose, rest, env: Env, body: list, nxt, ray: bool, bound: bool = False) -> None:
        """The rest of a move after choosing a cell, written twice: once knowing the cell holds
        a stack, once knowing it is empty. On a ray the first occupied cell ends the ray."""
        var = pyname(s.name)
        alias = "_s" + var
        if not bound:
            body.append(S("_0 = cells[_1]", alias, var))
        asks = calls_on([s] + list(rest), s.name)
        if not ray and not asks & SPLIT:  # nothing asks whether it is empty: one body
            self.choice_body(s, env.bind(s.name, Var(var, T.CELL, stack=alias)), body, nxt)
            return
        occupied = Var(var, T.CELL, stack=alias, occupied=True)
        hoisted = []
        if asks & {"top", "mine", "theirs", "controller"}:
            occupied.top = "_t" + var
            hoisted.append(S("_0 = _1[-1]", occupied.top, alias))
            if asks & {"mine", "theirs", "controller"}:
                occupied.ctrl = "_c" + var
                hoisted.append(S("_0 = CTRL[_1]", occupied.ctrl, occupied.top))
        empty_body: list = []
        self.choice_body(s, env.bind(s.name, Var(var, T.CELL, stack=alias, occupied=False)), empty_body, nxt)
        full = hoisted[:]
        self.choice_body(s, env.bind(s.name, occupied), full, nxt)
        if ray:
            full.append(ast.Break())
        if not _does_something(full):  # nothing when it holds a stack: only the empty case
            if _does_something(empty_body):
                body.append(ast.If(E("not _0", name(alias)), empty_body, []))
            return
        node = ast.If(name(alias), full, [])
        body.append(node)
        if _does_something(empty_body):
            if ray:
                body.extend(empty_body)
            else:
                node.orelse = empty_body

    def choice_body(self, s: P.Choose, env: Env, body: list, nxt) -> None:
        if s.cond is not None:
            cond = self.x.expr(s.cond, env)
            if isinstance(cond, ast.Constant):
                if not cond.value:
                    return
            else:
                inner: list[ast.stmt] = []
                body.append(ast.If(cond, inner, []))
                body = inner
        var = env.vars[s.name]
        if var.type == T.CELL and var.stack is not None and var.occupied:
            mark = Hoist()
            body.append(mark)
            var.hoist = (body, mark)
        nxt(env, body)

    # ---- repeated parts ---------------------------------------------------------------------

    def repeat(self, s: P.Repeat, env: Env, body: list, nxt, after: list) -> None:
        """A nested function that makes one pass and calls itself for the next; a pass that
        leads to no complete move ends the move there (the move goes on while it can)."""
        x = self.x
        start = x.expr(s.start, env)
        fn_name, path = self.fresh("rep"), self.fresh("path")
        var = pyname(s.var)
        lists = [pyname(lst) for lst, _ in s.earlier]
        params = [var] + ([pyname(s.previous)] if s.previous else []) + lists + [path]
        fn = at(ast.FunctionDef(fn_name, ast.arguments([], [ast.arg(p) for p in params], None, [], [], None, []),
                                [], [], None), s.pos)
        # Defined once, at the top of legal(): a closure reads the generator's variables (the
        # choices made before the repeat) when it is called, not when defined.
        self.fn.body.insert(self.defs_at, fn)
        self.defs_at += 1
        inner = env.bind(s.var, self.local(s.var, s.start.type, list(s.steps), fn.body))
        if s.previous:
            inner = inner.bind(s.previous, Var(pyname(s.previous), s.start.type))
        for lst, local in s.earlier:
            inner = inner.bind(lst, Var(pyname(lst), T.list_of(local.type)))
        # What the pass's steps are followed by: the `while`, then the steps after the repeat.
        later = [P.Guard(s.cond, "while", None, "", s.pos)] if s.cond is not None else []
        self.later.append(later + list(after))
        try:
            self.run(list(s.steps), 0, inner, fn.body, lambda e, b: self.pass_end(s, env, e, b, fn_name, path, nxt))
        finally:
            self.later.pop()
        if not fn.body:
            fn.body.append(ast.Pass())
        first = ([start] + ([ast.Constant(-1)] if s.previous else [])
                 + [ast.List([], ast.Load()) for _ in range(len(s.earlier) + 1)])
        body.append(at(ast.Expr(ast.Call(name(fn_name), first, [])), s.pos))

    def pass_end(self, s: P.Repeat, before: Env, env: Env, body: list, fn_name: str, path: str, nxt) -> None:
        x = self.x
        here = x.expr(ir.Local(s.choice, s.elem), env)
        body.append(S("_0.append(_1)", path, here))
        count = None
        if not s.may_stop:
            count = self.fresh("k")
            body.append(S("_0 = len(out)", count))
        go = x.expr(s.cond, env) if s.cond is not None else ast.Constant(True)
        block = body
        if not isinstance(go, ast.Constant):
            block = []
            body.append(ast.If(go, block, []))
        if not isinstance(go, ast.Constant) or go.value:  # another pass
            block.append(at(S("if len(_0) >= MAX_PASSES:\n    raise RepeatLimit(_1)", path,
                              ast.Constant(f"the repeat made {MAX_PASSES} passes without coming to an end")), s.pos))
            lists = [pyname(lst) for lst, _ in s.earlier]
            for lst, local in s.earlier:  # this pass's value, for the passes after it
                block.append(S("_0.append(_1)", pyname(lst), x.expr(local, env)))
            again = ([here] + ([x.expr(ir.Local(s.var, s.start.type), env)] if s.previous else [])
                     + [name(n) for n in lists] + [name(path)])
            block.append(ast.Expr(ast.Call(name(fn_name), again, [])))
            for lst in reversed(lists):
                block.append(S("_0.pop()", lst))
        rest = before.forget_cells()
        rest = rest.bind(s.choice, Var(pyname(s.choice), T.list_of(s.elem), value=E("tuple(_0)", path)))
        rest = rest.bind(s.var, Var(pyname(s.var), s.elem, value=here))  # where the last pass ended
        if count is None:  # `may stop`: the move may end after any pass
            nxt(rest, body)
        else:  # only where no further pass is possible
            inner: list[ast.stmt] = []
            body.append(S("if len(out) == _0:\n    pass", count))
            body[-1].body = inner
            nxt(rest, inner)
            if not inner:
                body.pop()
        body.append(S("_0.pop()", path))


def _does_something(body: list) -> bool:
    return any(not isinstance(s, (ast.Pass, Hoist)) for s in body)
