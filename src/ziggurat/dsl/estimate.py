"""How many moves an action may make at one position, counted before the game runs from its folded
choices (budgets.MAX_ESTIMATED_MOVES says how the estimate is made and what it is held to; fold
refuses an action past it, and the Python backend checks MAX_MOVES in the loops it cannot bound)."""

from __future__ import annotations

from typing import Iterable, Optional

from . import ir


def domain_values(dom: ir.Expr, ncells: int) -> Optional[int]:
    """The number of values a folded choice domain holds, when it is known before the game runs
    (None: only while it runs)."""
    if isinstance(dom, ir.Range):
        if isinstance(dom.lo, ir.Const) and isinstance(dom.hi, ir.Const):
            lo, hi = dom.lo.value, dom.hi.value
            if isinstance(lo, int) and isinstance(hi, int):  # always, once resolve typed them
                return max(0, hi - lo + 1)
        return None
    if isinstance(dom, ir.ListLit):
        return len(dom.items)
    if isinstance(dom, ir.Const) and isinstance(dom.value, (tuple, list)):
        return len(dom.value)
    if isinstance(dom, ir.Global) and dom.what == "cells":
        return ncells
    if isinstance(dom, ir.Call) and dom.fn in ("ray", "line", "neighbours", "between", "flanked"):
        return ncells
    if isinstance(dom, ir.Comp) and dom.func == "list" and len(dom.fors) == 1:
        return domain_values(dom.fors[0].iter, ncells)
    return None


def moves_estimate(items: Iterable[ir.Item], ncells: int) -> tuple[int, list[ir.Choice]]:
    """(estimate, unknown) for the items of an action (its after block's appended): the product
    of the known numbers of values of its choices (a repeat's choice counted once), and the
    choices whose number of values is known only while the game runs."""
    estimate, unknown = 1, list[ir.Choice]()
    for it in items:
        if isinstance(it, ir.Repeat):
            inner, more = moves_estimate(it.items, ncells)
            estimate, unknown = estimate * inner, unknown + more
        elif isinstance(it, ir.Choice):
            n = domain_values(it.domain, ncells)
            if n is None:
                unknown.append(it)
            else:
                estimate *= max(1, n)
    return estimate, unknown
