"""The number counters a ruleset never makes negative, found by the compiler from the folded plan
(positions read from text are held to them: see notation)."""

from __future__ import annotations

from ..dsl import ir
from ..dsl import types as T

_NONNEGATIVE_CALLS = {"height", "distance", "run", "abs", "len", "ways", "showing"}


def nonnegative_counters(plan) -> tuple:
    """The number counters of a plan (folded at its option values) that no rule can make
    negative: each starts at 0 or more, and every assignment to it (`=`, `+=`; never `-=`) gives a
    value that is 0 or more when every such counter is (a number, a count, a height, a sum or
    product of such, a loop variable over such a range, ...). Found as the largest set for which
    that holds, so sound by induction over any game: a position with one of them negative is
    never reached. Positions read from text are held to it."""
    blocks = [list(b) for b in plan.setup] + [list(a.items) + list(a.after_items or ()) for a in plan.actions]
    nodes = [n for b in blocks for n in ir.walk(b)]
    counters = {name for name, c in plan.counters.items() if c.type == T.INT}
    sets = [n for n in nodes if isinstance(n, ir.SetCounter)]
    # Each local name with every place it is bound; a name bound in another way is never trusted.
    binds: dict = {}
    for n in nodes:
        if isinstance(n, ir.Let):
            binds.setdefault(n.var, []).append(("value", n.value))
        elif isinstance(n, (ir.For, ir.CompFor)):
            binds.setdefault(n.var, []).append(("item", n.iter))
        elif isinstance(n, ir.Choice):
            binds.setdefault(n.name, []).append(("item", n.domain))
        elif isinstance(n, ir.Repeat):
            binds.setdefault(n.var, []).append(("never", None))
            if n.previous:
                binds.setdefault(n.previous, []).append(("never", None))
    good_counters = {c for c in counters if _nonneg_const(plan.counters[c].init)}
    good_locals = set(binds)

    def nonneg(e) -> bool:
        if isinstance(e, ir.Const):
            return _nonneg_const(e)
        if isinstance(e, ir.CounterRef):
            return e.name in good_counters
        if isinstance(e, ir.Local):
            return e.name in good_locals
        if isinstance(e, ir.Global):
            return e.what in ("ply", "files", "ranks")
        if isinstance(e, ir.Attr):
            return e.name in ("rank", "file")
        if isinstance(e, ir.Call):
            if e.fn in _NONNEGATIVE_CALLS:
                return True
            return e.fn in ("min", "max") and all(nonneg(a) for a in e.args)
        if isinstance(e, ir.Comp):
            return e.func == "count" or (e.func in ("sum", "min", "max", "product") and nonneg(e.elt))
        if isinstance(e, ir.Arith):
            return e.op in ("+", "*", "//", "%") and nonneg(e.left) and nonneg(e.right)
        if isinstance(e, ir.Ternary):
            return nonneg(e.then) and nonneg(e.orelse)
        return False

    def items_nonneg(domain) -> bool:
        if isinstance(domain, ir.Range):
            return nonneg(domain.lo)
        if isinstance(domain, ir.ListLit):
            return all(nonneg(x) for x in domain.items)
        return False

    changed = True
    while changed:
        changed = False
        for name in list(good_locals):
            if not all(kind == "value" and nonneg(v) or kind == "item" and items_nonneg(v)
                       for kind, v in binds[name]):
                good_locals.discard(name)
                changed = True
        for st in sets:
            name = st.target.name
            if name in good_counters and (st.op == "-=" or not nonneg(st.value)):
                good_counters.discard(name)
                changed = True
    return tuple(name for name in plan.counters if name in good_counters)


def _nonneg_const(e) -> bool:
    """Whether an expression is a whole number, 0 or more, written out (`0`, an option's value)."""
    return isinstance(e, ir.Const) and type(e.value) is int and e.value >= 0
