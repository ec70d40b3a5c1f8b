"""The range of every number a move may choose, found by the compiler: what gives a ruleset a
fixed action space (`ziggurat.bridges.actions`) when its number choices are bounded only at run
time (`level: 1..height(from)`, `shown: n..6 * n`).

A bound is worked out over the folded plan by interval arithmetic. A lower bound is a whole number;
an upper bound is `a * P + b` (kept as the pair `(a, b)`, `a >= 0`), where P is the most pieces a
position holds: a height, a zone's count, or a count over a zone's pieces is at most P, and the
game knows P only when it is loaded (`Game.piece_supply()`). Counters are followed to a fixed
point (the union of their start and of every value the rules give them; one that only ever grows
has no upper bound), and a local name by every place it is bound. A bound that cannot be found is
None, and the bridge names that choice rather than guess.
"""

from __future__ import annotations


from ..dsl import ir
from ..dsl import types as T

ROUNDS = 12  # passes over the counters before a counter still growing is taken as unbounded


def choice_bounds(plan, ncells: int) -> dict:
    """{(action index, choice name): (lo, a, b) or None} for every number choice of a folded
    plan: lo <= value <= a * P + b at any position (P: the most pieces a position holds)."""
    return _Bounds(plan, ncells).choices()


def _join(x, y):
    """The smallest interval holding both (None: unknown, on either side)."""
    if x is None or y is None:
        return None
    lo = None if x[0] is None or y[0] is None else min(x[0], y[0])
    hi = None if x[1] is None or y[1] is None else (max(x[1][0], y[1][0]), max(x[1][1], y[1][1]))
    return (lo, hi)


def _const(v: int):
    return (v, (0, v))


class _Bounds:
    def __init__(self, plan, ncells: int):
        self.plan, self.ncells = plan, ncells
        self.nplayers = len(plan.players)
        # Each block is a scope of its own (an action with its after block, or the setup).
        scopes = [("setup", list(plan.setup))] + [(a.index, list(a.items) + list(a.after_items or ()))
                                                   for a in plan.actions]
        self.nodes = [(scope, n) for scope, b in scopes for n in ir.walk(b)]
        self.binds: dict = {}  # (scope, local name) -> [(kind, expression)]
        for scope, n in self.nodes:
            if isinstance(n, ir.Let):
                self.binds.setdefault((scope, n.var), []).append(("value", n.value))
            elif isinstance(n, (ir.For, ir.CompFor)):
                self.binds.setdefault((scope, n.var), []).append(("item", n.iter))
            elif isinstance(n, ir.Choice):
                self.binds.setdefault((scope, n.name), []).append(("item", n.domain))
            elif isinstance(n, ir.Repeat):
                self.binds.setdefault((scope, n.var), []).append(("never", None))
                if n.previous:
                    self.binds.setdefault((scope, n.previous), []).append(("never", None))
        self.scope = "setup"
        self.counters: dict = {name: self.value(c.init) if c.type == T.INT else None
                               for name, c in plan.counters.items()}
        self.locals: dict = {}
        self._solve()

    def choices(self) -> dict:
        out = {}
        for a in self.plan.actions:
            self.scope = a.index
            for n in ir.walk(list(a.items) + list(a.after_items or ())):
                if isinstance(n, ir.Choice) and n.type == T.INT:
                    b = self.items(n.domain)
                    out[(a.index, n.name)] = None if b is None or b[0] is None or b[1] is None else (b[0],) + b[1]
        return out

    # ---- the fixed point over counters and locals ----------------------------------------

    def _solve(self) -> None:
        sets = [(scope, n) for scope, n in self.nodes if isinstance(n, ir.SetCounter)]
        for round_ in range(ROUNDS + 1):
            self.locals = {}
            changed = False
            for scope, st in sets:
                self.scope = scope
                name = st.target.name
                old = self.counters.get(name)
                if old is None:
                    continue
                v = self.value(st.value)
                if v is None:
                    new = None
                elif st.op == "=":
                    new = _join(old, v)
                else:  # += or -=: a counter that may move keeps moving
                    up = v[1] is None or v[1][0] > 0 or v[1][1] > 0
                    down = v[0] is None or v[0] < 0
                    grows, shrinks = (up, down) if st.op == "+=" else (down, up)
                    new = (None if shrinks else old[0], None if grows else old[1])
                if round_ == ROUNDS and new != old:
                    new = None
                if new != old:
                    self.counters[name] = new
                    changed = True
            if not changed:
                return

    def local(self, name: str):
        key = (self.scope, name)
        if key in self.locals:
            return self.locals[key]
        self.locals[key] = None  # a name bound in terms of itself is unknown
        out: object = "empty"  # no binding seen yet, else the join of their bounds
        for kind, e in self.binds.get(key, [("never", None)]):
            v = self.value(e) if kind == "value" else self.items(e) if kind == "item" else None
            out = v if out == "empty" else _join(out, v)
        self.locals[key] = None if out == "empty" else out
        return self.locals[key]

    # ---- expressions ---------------------------------------------------------------------

    def items(self, domain):
        """The interval of the numbers a domain (a range or a list) holds."""
        if isinstance(domain, ir.Range):
            lo, hi = self.value(domain.lo), self.value(domain.hi)
            return None if lo is None or hi is None else (lo[0], hi[1])
        if isinstance(domain, ir.ListLit):
            out = None
            for x in domain.items:
                v = self.value(x)
                out = v if out is None else _join(out, v)
                if v is None:
                    return None
            return out
        if isinstance(domain, ir.Ternary):
            a, b = self.items(domain.then), self.items(domain.orelse)
            return _join(a, b)
        if isinstance(domain, ir.Const) and isinstance(domain.value, tuple) and domain.value \
                and all(type(v) is int for v in domain.value):  # a list folded to its values
            return (min(domain.value), (0, max(domain.value)))
        return None

    def size(self, domain):
        """An upper bound (a, b) on how many items a domain holds, or None."""
        if isinstance(domain, ir.ZoneRef):
            return (1, 0)
        if isinstance(domain, ir.Global):
            return {"cells": (0, self.ncells), "players": (0, self.nplayers)}.get(domain.what)
        if isinstance(domain, ir.Range):
            lo, hi = self.value(domain.lo), self.value(domain.hi)
            if lo is None or hi is None or lo[0] is None or hi[1] is None:
                return None
            return (hi[1][0], max(0, hi[1][1] - lo[0] + 1))
        if isinstance(domain, ir.ListLit):
            return (0, len(domain.items))
        if isinstance(domain, ir.Const) and isinstance(domain.value, tuple):
            return (0, len(domain.value))
        if isinstance(domain, ir.Ternary):
            a, b = self.size(domain.then), self.size(domain.orelse)
            return None if a is None or b is None else (max(a[0], b[0]), max(a[1], b[1]))
        if isinstance(domain, ir.Comp) and domain.func == "list":
            return self.comp_size(domain)
        return None

    def comp_size(self, comp):
        out = (0, 1)
        for f in comp.fors:
            s = self.size(f.iter)
            if s is None or out[0] and s[0]:
                return None
            out = (out[0] * s[1] + s[0] * out[1], out[1] * s[1])
        return out

    def value(self, e):
        """The interval (lo, (a, b)) of a number expression, or None."""
        if isinstance(e, ir.Const):
            if type(e.value) is bool:
                return (0, (0, 1))
            return _const(e.value) if type(e.value) is int else None
        if isinstance(e, ir.CounterRef):
            return self.counters.get(e.name)
        if isinstance(e, ir.Local):
            return self.local(e.name)
        if isinstance(e, ir.Global):
            return (0, None) if e.what == "ply" else None
        if isinstance(e, ir.Attr):
            return self.attr(e)
        if isinstance(e, ir.TableGet):
            t = self.plan.tables.get(e.name)
            vals = [getattr(v, "value", None) for _, v in getattr(t, "entries", ())]
            if vals and all(type(v) is int for v in vals):
                return (min(vals), (0, max(vals)))
            return None
        if isinstance(e, ir.Call):
            return self.call(e)
        if isinstance(e, ir.Comp):
            return self.comp(e)
        if isinstance(e, ir.Ternary):
            return _join(self.value(e.then), self.value(e.orelse))
        if isinstance(e, ir.Neg):
            v = self.value(e.operand)
            if v is None or v[1] is None or v[1][0]:
                return None
            return (-v[1][1], None if v[0] is None else (0, -v[0]))
        if isinstance(e, ir.Arith):
            return self.arith(e.op, self.value(e.left), self.value(e.right))
        if isinstance(e, (ir.Compare, ir.BoolOp, ir.Not)):
            return (0, (0, 1))
        return None

    def attr(self, e):
        a = self.plan.attributes.get(e.name)
        if a is not None and getattr(a, "numeric", False) and a.numbers:
            return (min(a.numbers), (0, max(a.numbers)))
        if e.name in ("rank", "file"):
            return (0, (0, self.ncells))
        return None

    def call(self, e):
        if e.fn in ("height", "len", "count"):
            return (0, (1, 0)) if e.fn == "height" else self._len(e.args[0] if e.args else None)
        if e.fn in ("distance", "run"):
            return (0, (0, self.ncells))
        if e.fn in ("min", "max"):
            vals = [self.value(a) for a in e.args]
            if not vals or any(v is None for v in vals):
                return None
            out = vals[0]
            for v in vals[1:]:
                out = _join(out, v)
            return out
        if e.fn == "abs":
            v = self.value(e.operand if hasattr(e, "operand") else e.args[0])
            if v is None or v[0] is None or v[1] is None or v[1][0] and v[0] < 0:
                return None
            return (0, (v[1][0], max(v[1][1], -v[0])))
        return None

    def _len(self, arg):
        s = self.size(arg) if arg is not None else None
        return None if s is None else (0, s)

    def comp(self, e):
        if e.func in ("any", "all"):
            return (0, (0, 1))
        if e.func == "count":
            s = self.comp_size(e)
            return None if s is None else (0, s)
        if e.func in ("min", "max"):
            return self.value(e.elt)
        if e.func == "sum":
            s, v = self.comp_size(e), self.value(e.elt)
            if s is None or v is None:
                return None
            return self.arith("*", (0, s), _join(v, _const(0)))
        return None

    def arith(self, op: str, x, y):
        if x is None or y is None:
            return None
        (xl, xh), (yl, yh) = x, y
        if op == "+":
            lo = None if xl is None or yl is None else xl + yl
            hi = None if xh is None or yh is None else (xh[0] + yh[0], xh[1] + yh[1])
            return (lo, hi)
        if op == "-":
            lo = None if xl is None or yh is None or yh[0] else xl - yh[1]
            hi = None if xh is None or yl is None else (xh[0], xh[1] - yl)
            return (lo, hi)
        if op == "*":
            if xl is None or yl is None or xl < 0 or yl < 0 or xh is None or yh is None or xh[0] and yh[0]:
                return None
            return (xl * yl, (xh[0] * yh[1] + yh[0] * xh[1], xh[1] * yh[1]))
        if op == "//":
            if yl is None or yl <= 0 or xl is None or xl < 0 or xh is None:
                return None
            return (0, (-(-xh[0] // yl), -(-xh[1] // yl)))
        if op == "%":
            if yl is None or yl <= 0 or yh is None or yh[0] or xl is None or xl < 0:
                return None
            return (0, (0, yh[1] - 1))
        return None
