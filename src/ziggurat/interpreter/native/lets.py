"""The lets the moves' listing reads: a `let` of an action's steps that no later condition,
choice domain, `require`, Stage (effects made while listing), pass, after part or packed choice
reads, directly or through another let that is read, is left out of the listing (it is pure; the
move's own effects, written in do_N from the plan, still compute it where they read it)."""

from __future__ import annotations

from ...dsl import ir
from .. import steps as P


class _All:
    """Every name (a step the writer cannot see into)."""

    def __contains__(self, name) -> bool:
        return True


def _reads(node) -> set:
    return {n.name for n in ir.walk(node) if isinstance(n, ir.Local)}


def read_after(steps, i: int, tail: set):
    """The names steps[i:] read in the listing (`tail`: those read once they all hold)."""
    live: set = set(tail)
    for s in reversed(steps[i:]):
        match s:
            case P.Bind():
                if s.var in live:
                    live.discard(s.var)
                    live |= _reads(s.value)
            case P.Apply() | P.Measure():  # run once a move is made (do_N), not while listing
                pass
            case P.Guard():
                live |= _reads(s.cond)
            case P.Choose():
                live.discard(s.name)
                live |= _reads(s.domain) | _reads(s.cond)
            case P.Stage() | P.AfterPart():  # everything in them
                live |= _reads(s)
            case _:
                return _All()
    return live


def needed(s: P.Bind, steps, i: int, plan) -> bool:
    """Whether the listing reads the let at steps[i] (s): its packed choices count as read."""
    if plan is None:
        return True
    return s.var in read_after(steps, i + 1, {c[0] for c in plan.spec.choices})
