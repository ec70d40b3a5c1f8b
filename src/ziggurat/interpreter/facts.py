"""What both backends read from the plans alike: the lets applying a move needs, whether the
rules ask about repetition, and how many passes a repeat may make."""

from __future__ import annotations

from ..dsl import ir
from . import steps as P

MAX_PASSES = 200  # passes a repeat may make before the game is stopped as broken


def uses_repetition(plan: ir.Plan) -> bool:
    """Whether the end block asks about repetition (then positions are hashed)."""
    return any(isinstance(n, ir.Call) and n.fn in ("repeated", "repeated_board") for n in ir.walk(plan.end or ()))


def needed_lets(plan: P.ActionPlan) -> set:
    """The lets that applying a move needs: those its effects (and the conditions of an after
    part without choices, and the starts of repeats) read, and the lets those read."""
    lets: dict = {}
    roots: list = []

    def visit(steps, conditional_guards: bool):
        for s in steps:
            match s:
                case P.Bind():
                    lets[s.var] = s.value
                case P.Stage() | P.Apply():
                    roots.extend(s.body)
                case P.Guard() if conditional_guards:
                    roots.append(s.cond)
                case P.Repeat():
                    roots.append(s.start)
                    for lst, local in s.earlier:  # a list follows its Local's values
                        lets[lst] = local
                    visit(s.steps, False)
                case P.AfterPart():
                    visit(s.steps, not s.has_choices)

    visit(plan.steps, False)
    needed: set = set()
    todo = [n.name for n in ir.walk(roots) if isinstance(n, ir.Local)]
    while todo:
        v = todo.pop()
        if v in needed:
            continue
        needed.add(v)
        if v in lets:
            todo.extend(n.name for n in ir.walk(lets[v]) if isinstance(n, ir.Local))
    return needed
