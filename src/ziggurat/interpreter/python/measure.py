"""Reading a measure of a legal move: `weight_<action>(st, m)` (how likely a chance outcome is,
relative to the others) and `seen_<action>(st, m)` (the player, or list of players, who see what
the move is).

A measure is read at the position before the move, with the move's choices and lets bound as
generation binds them. It walks the step plan as explaining does (effects that more choices follow
are applied and taken back), but checks nothing: the move is known to be legal."""

from __future__ import annotations

import ast

from .. import steps as P
from .emit import at, expr as E, name, stmt as S
from .exprs import Env, Var, pyname
from .explain import Explainer


class Reader(Explainer):
    def __init__(self, exprs, hashing: bool, kind: str):
        super().__init__(exprs, hashing)
        self.kind = kind  # weight / seen

    def read(self, plan: P.ActionPlan, fname: str) -> ast.FunctionDef:
        return self.explain(plan, fname)

    def reason(self, body: list, cond, message: str, pos=None) -> bool:
        return True  # a legal move: every condition holds

    def choose(self, s: P.Choose, env: Env, body: list, value=None):
        var = pyname(s.name)
        body.append(at(S("_0 = _1", var, name(value) if value else E("m[_0]", s.index)), s.pos))
        return env.bind(s.name, Var(var, s.type))

    def measure(self, s: P.Measure, env: Env, body: list) -> bool:
        if s.kind != self.kind:
            return False
        body.append(at(ast.Return(self.x.expr(s.value, env)), s.pos))
        return True


def measured(plan: P.ActionPlan, kind: str) -> bool:
    return any(isinstance(s, P.Measure) and s.kind == kind for s in plan.steps)
