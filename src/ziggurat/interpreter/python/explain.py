"""Explaining a move: `explain_<action>(st, m)` (`explain_move`) is None when move m of that action
is legal here, else the reason it is not, in the rules' own words (a rule's `else "..."` text, or
the rule as written). Effects between stages are applied for real and taken back before it returns."""

from __future__ import annotations

import ast
from typing import Optional

from .. import steps as P
from .effects import Fresh, Statements
from ...dsl import ir
from ...dsl import types as T
from .emit import at, const, drop_unused_loads, expr as E, name, stmt as S
from .exprs import Env, Var, pyname
from .generate import PROLOGUE, prologue


def applies_effects(steps) -> bool:
    """Whether explaining the steps changes the board: effects that more choices follow (a Stage,
    in a repeat's pass or an after part too), made for real and taken back before it returns."""
    return any(isinstance(s, P.Stage) or (isinstance(s, (P.Repeat, P.AfterPart)) and applies_effects(s.steps))
               for s in steps)


class Explainer:
    def __init__(self, exprs, hashing: bool):
        self.x = exprs
        self.stmts = Statements(exprs, hashing)
        self.pass_choice: Optional[str] = None  # inside a repeat: the name of its pass's choice

    def explain(self, plan: P.ActionPlan, fname: str) -> ast.FunctionDef:
        fn = at(ast.FunctionDef(fname, ast.arguments([], [ast.arg("st"), ast.arg("m")], None, [], [], None, []),
                                [], [], None), plan.pos)
        fn.body = prologue()
        self.fresh, self.plan = Fresh(), plan
        inner: list = []
        if self.run(list(plan.steps), Env(), inner) is not None:  # None: it always returns a reason
            inner.append(S("return None"))
        if applies_effects(plan.steps):  # taken back however it returns
            restore = S("while len(log) > _mark:\n    _l, _i, _o = log.pop()\n    _l[_i] = _o")
            fn.body += [S("_mark = len(log)"), ast.Try(inner, [], [], [restore])]
        else:
            fn.body += inner
        drop_unused_loads(fn, len(PROLOGUE))
        return fn

    def reason(self, body: list, cond, message: str, pos=None) -> bool:
        """`if not cond: return message`; False when the condition can never hold (the rest is
        then never reached)."""
        test = self.x.expr(cond, self.env)
        if isinstance(test, ast.Constant):
            if test.value:
                return True
            body.append(at(S("return _0", const(message)), pos))
            return False
        body.append(at(S("if not _0:\n    return _1", test, const(message)), pos))
        return True

    def run(self, steps: list, env: Env, body: list, each: Optional[str] = None) -> Optional[Env]:
        """Check steps in order; `each` names the value of the pass's choice inside a repeat. The
        bindings after them, or None when the code written always returns (a condition that never
        holds, a measure read): nothing may be written after it."""
        x = self.x
        for s in steps:
            self.env = env
            match s:
                case P.Guard(kind="when"):
                    if not self.reason(body, s.cond, "not now: " + s.text, s.pos):
                        return None  # it always returns the reason: nothing after it is reached
                case P.Guard():
                    if not self.reason(body, s.cond, s.message or "it must hold that " + s.text, s.pos):
                        return None
                case P.Bind(var=var, value=value):
                    code = x.expr(value, env)
                    body.append(at(S("_0 = _1", pyname(var), code), s.pos))
                    env = env.bind(var, Var(pyname(var), value.type))
                case P.Choose():
                    env = self.choose(s, env, body, each if s.name == self.pass_choice else None)
                    if env is None:
                        return None
                case P.Stage(body=effects):
                    body.extend(self.stmts.block(effects, env.in_effects(), self.fresh))
                    env = env.forget_cells()
                case P.Apply():
                    pass  # nothing is checked after the last effects
                case P.Repeat():
                    env = self.repeat(s, env, body)
                    if env is None:
                        return None
                case P.Measure():
                    if self.measure(s, env, body):
                        return None
                case P.AfterPart(steps=part, has_choices=has_choices):
                    if s.may_decline:  # declined: nothing of it to check (it is the last step)
                        body.append(S("if m[_0] is None:\n    return None", s.first))
                    elif has_choices:
                        body.append(S("if m[_0] is None:\n    return _1", s.first,
                                      const("the turn must end with: " + (self.plan.spec.after_fmt or ""))))
                    after = self.run(list(part), env, body)
                    if after is None:
                        return None
                    env = after
        return env

    def measure(self, s: P.Measure, env: Env, body: list) -> bool:
        """Explaining reads no measure (see python.measure); True would end the function there."""
        return False

    def choose(self, s: P.Choose, env: Env, body: list, value=None):
        x = self.x
        var = pyname(s.name)
        body.append(at(S("_0 = _1", var, name(value) if value else E("m[_0]", s.index)), s.pos))
        dom = s.domain
        if isinstance(dom, ir.Call) and dom.fn == "ray":
            frm, dirs, reach = (x.expr(a, env) for a in dom.args)
            src = E("_ray(cells, RAYS[_1][_0], _2)", frm, dirs, reach)
        else:
            src = x.collection(dom, env)
        why = self.spot_reason(dom, env, var)  # the table's reason, after the rules' own words
        if why is not None and s.message:
            why = E("_0 + _1", const(s.message + ": "), why)
        body.append(S("if _0 not in _1:\n    return _2", var, src,
                      why or const(s.message or f"{s.name} must be in {s.domain_text}")))
        env = env.bind(s.name, Var(var, s.type))
        if s.cond is not None:
            self.env = env
            if not self.reason(body, s.cond, s.message or f"{s.name}: it must hold that {s.cond_text}"):
                return None
        return env

    def spot_reason(self, dom, env: Env, var: str):
        """The table's reason a spot is not in a domain made by `lattice(...)` or `flush(...)` (or
        a choice between such domains, or a list of `flush` over anchors), as an expression; None
        for any other domain (spot_reasons.py)."""
        x = self.x
        if isinstance(dom, ir.Ternary):
            then, orelse = self.spot_reason(dom.then, env, var), self.spot_reason(dom.orelse, env, var)
            if then is None or orelse is None:
                return None
            return ast.IfExp(x.expr(dom.cond, env), then, orelse)
        if isinstance(dom, ir.Call) and dom.fn == "lattice":
            args = [x.collection(a, env) if T.is_list(a.type) else x.expr(a, env) for a in dom.args]
            return E("_lattice_reason(table[0], PITCH, _0" + "".join(f", _{i + 1}" for i in range(len(args))) + ")",
                     name(var), *args)
        if isinstance(dom, ir.Call) and dom.fn == "flush":
            return E("_flush_reason(table[0], WIDTH, LENGTH, _0, (_1,))", name(var), self.flush_place(dom.args, env))
        if (isinstance(dom, ir.Comp) and dom.func == "list" and dom.fors and dom.fors[-1].cond is None
                and isinstance(dom.fors[-1].iter, ir.Call) and dom.fors[-1].iter.fn == "flush"
                and isinstance(dom.elt, ir.Local) and dom.elt.name == dom.fors[-1].var):
            call = dom.fors[-1].iter
            anchors = ir.Comp("list", ir.ListLit(tuple(call.args) + (ir.Const(3, T.INT),) * (3 - len(call.args)),
                                                 T.list_of(T.INT)), dom.fors[:-1], T.list_of(T.INT))
            return E("_flush_reason(table[0], WIDTH, LENGTH, _0, _1)", name(var), x.expr(anchors, env))
        return None

    def flush_place(self, args, env: Env) -> ast.expr:
        """(anchor, piece, offsets) of a `flush(...)` call, offsets 3 when left out."""
        return ast.Tuple([self.x.expr(a, env) for a in args] + [ast.Constant(3)] * (3 - len(args)), ast.Load())

    def repeat(self, s: P.Repeat, env: Env, body: list):
        """Each pass checked in turn, with its effects applied for the next; a pass after one whose
        `while` failed is refused."""
        x = self.x
        var, each = pyname(s.var), "_e_" + s.choice
        body.append(at(S("_0 = _1", var, x.expr(s.start, env)), s.pos))
        body.append(S("if not m[_0]:\n    return _1", s.index, const(f"{s.choice}: the move makes at least one pass")))
        if s.previous:
            body.append(S("_0 = -1", pyname(s.previous)))
        body.append(S("_go = True"))
        loop = ast.For(ast.Name(each, ast.Store()), E("m[_0]", s.index), [], [])
        body.append(loop)
        if s.cond is not None:
            loop.body.append(S("if not _go:\n    return _0",
                               const("the move ends before that: it goes on only while " + s.cond_text)))
        inner = env.bind(s.var, Var(var, s.start.type))
        if s.previous:
            inner = inner.bind(s.previous, Var(pyname(s.previous), s.start.type))
        for lst, local in s.earlier:
            body.insert(-1, S("_0 = []", pyname(lst)))
            inner = inner.bind(lst, Var(pyname(lst), T.list_of(local.type)))
        saved, self.pass_choice = self.pass_choice, s.choice
        try:
            end = self.run(list(s.steps), inner, loop.body, each)
        finally:
            self.pass_choice = saved
        if end is not None:
            if s.cond is not None:
                loop.body.append(S("_go = _0", x.expr(s.cond, end)))
            for lst, local in s.earlier:
                loop.body.append(S("_0.append(_1)", pyname(lst), x.expr(local, end)))
            if s.previous:
                loop.body.append(S("_0 = _1", pyname(s.previous), var))
            loop.body.append(S("_0 = _1", var, pyname(s.choice)))
        out = env.forget_cells()
        out = out.bind(s.var, Var(var, s.elem))
        return out.bind(s.choice, Var(pyname(s.choice), s.elem, value=E("m[_0]", s.index)))
