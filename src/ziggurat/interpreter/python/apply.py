"""Applying a move: `do_<action>(st, m)` (`do_move`) makes the effects of a move of that action, in
the order the rules list them; a let is computed only if an effect needs it. Every change is logged
for undo."""

from __future__ import annotations

import ast

from ...dsl import types as T
from .. import steps as P
from ..facts import needed_lets
from .effects import Fresh, Statements
from .emit import at, drop_unused_loads, expr as E, name, stmt as S
from .exprs import Env, Var, pyname
from .generate import PROLOGUE, prologue


class Applier:
    def __init__(self, exprs, hashing: bool, ends: tuple = ()):
        self.x = exprs
        self.ends = ends  # what ends every move (dsl.sets.turn_clears: sets emptied as the turn passes)
        self.hashing = hashing
        self.stmts = Statements(exprs, hashing)

    def do(self, plan: P.ActionPlan, fname: str) -> ast.FunctionDef:
        fn = at(ast.FunctionDef(fname, _args("st", "m"), [], [], None), plan.pos)
        fn.body = prologue()
        self.fresh = Fresh()
        self.needed = needed_lets(plan)
        env = Env()
        for k, (n, typ) in enumerate(plan.spec.choices):
            fn.body.append(S("_0 = m[_1]", pyname(n), k + 1))
            assert typ is not None  # a checked plan types every choice (resolve refuses one it cannot)
            env = env.bind(n, Var(pyname(n), typ))
        self.run(list(plan.steps), env, fn.body)
        fn.body += self.stmts.block(self.ends, env, self.fresh)
        if self.hashing:
            fn.body.append(S("st.h = h"))
        fn.body.append(S("return nxt"))
        drop_unused_loads(fn, len(PROLOGUE))
        return fn

    def run(self, steps: list, env: Env, body: list, guards: bool = False) -> Env:
        x = self.x
        for s in steps:
            match s:
                case P.Guard(cond=cond) if guards:  # an after part without choices: applied if it holds
                    inner: list[ast.stmt] = []
                    body.append(at(ast.If(x.expr(cond, env), inner, []), s.pos))
                    body = inner
                case P.Bind(var=var, value=value) if var in self.needed:
                    code = x.expr(value, env)
                    if isinstance(code, ast.Constant):
                        env = env.bind(var, Var(pyname(var), value.type, value=code))
                    else:
                        body.append(at(S("_0 = _1", pyname(var), code), s.pos))
                        env = env.bind(var, Var(pyname(var), value.type))
                case P.Stage(body=effects) | P.Apply(body=effects):
                    body.extend(self.stmts.block(effects, env.in_effects(), self.fresh))
                case P.Repeat():
                    env = self.repeat(s, env, body)
                case P.AfterPart(steps=part, has_choices=True):
                    inner = []
                    body.append(S("if m[_0] is not None:\n    pass", s.first))
                    body[-1].body = inner
                    self.run(list(part), env, inner)
                    if not inner:
                        inner.append(ast.Pass())
                case P.AfterPart(steps=part):
                    self.run(list(part), env, body, guards=True)
                case _:
                    pass  # choices are bound from the move; other guards were checked already
        if not body:
            body.append(ast.Pass())
        return env

    def repeat(self, s: P.Repeat, env: Env, body: list) -> Env:
        """The passes of a repeat, one loop turn each, over the values the move holds."""
        x = self.x
        var, each = pyname(s.var), "_e_" + s.choice
        body.append(at(S("_0 = _1", var, x.expr(s.start, env)), s.pos))
        inner = env.bind(s.var, Var(var, s.start.type)).bind(s.choice, Var(each, s.elem))
        if s.previous:
            body.append(S("_0 = -1", pyname(s.previous)))
            inner = inner.bind(s.previous, Var(pyname(s.previous), s.start.type))
        lists = [(lst, local) for lst, local in s.earlier if lst in self.needed]
        for lst, local in lists:
            body.append(S("_0 = []", pyname(lst)))
            inner = inner.bind(lst, Var(pyname(lst), T.list_of(local.type)))
        loop = ast.For(ast.Name(each, ast.Store()), name(pyname(s.choice)), [], [])
        body.append(loop)
        end = self.run(list(s.steps), inner, loop.body)
        for lst, local in lists:
            loop.body.append(S("_0.append(_1)", pyname(lst), self.x.expr(local, end)))
        if s.previous:
            loop.body.append(S("_0 = _1", pyname(s.previous), var))
        loop.body.append(S("_0 = _1", var, each))
        return env.bind(s.var, Var(var, s.elem))  # where the last pass ended


def _args(*names) -> ast.arguments:
    return ast.arguments([], [ast.arg(n) for n in names], None, [], [], None, [])


__all__ = ["Applier", "needed_lets", "E"]
