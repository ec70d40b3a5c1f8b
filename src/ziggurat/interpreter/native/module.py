"""The native module of one game: its text, written from the same step plans as the Python
backend's (`interpreter.steps`), for Numba to compile.

| function | what |
|---|---|
| `legal(s, out)` | the legal moves, packed, into `out`; returns how many (more than `MAXM`: too many to hold) |
| `do_N(s, m)`, `apply(s, m)` | make a move in place (perft copies the vector first) |
| `outcome(s, nmoves, res, hist, nhist)` | the end block: 0 while the game goes on, else which outcome; `res` gets the result per side |
| `perft`, `playout`, `playouts` | the whole loops (`loops.TEMPLATE`) |

Each choice is a loop and each condition an `if`, in the order the action states them, as in the
Python backend; what this backend does not compile raises `errors.Unsupported`.
"""

from __future__ import annotations

import re
from typing import Optional

from ...dsl import ir
from ...dsl import types as T
from .. import steps as P
from ..python.apply import needed_lets
from ..python.exprs import pyname
from ..python.generate import MAX_PASSES
from ...errors import Unsupported
from .exprs import Code, Exprs, fail
from .layout import BIAS, MOVE_BITS, Codec, Layout
from .loops import TEMPLATE, keeps_hash
from .search_eval import search_functions, search_kernel

MAXM = 16384  # moves one position may have in native code (more: the loop stops, Python runs it)


CAP = 64  # the deepest stack a native position holds (a deeper one: the loop falls back to Python)
CAP_MADE = 16  # the same when moves make pieces (no supply bounds the stacks)


def plan_layout(folded, supply: int) -> Layout:
    """The layout of a game whose setup places `supply` pieces (0: moves make pieces, no bound).
    A stack holds at most the pieces there are, at most CAP, and at most what an invariant
    `all(height(c) <= K for c in cells)` declares; a stack that outgrows it anyway stops the
    native loop (the position's OVER flag), which then runs in Python."""
    w = folded.world
    cap = max(1, min(supply, CAP)) if supply else CAP_MADE
    declared = height_bound(folded.plan)
    if declared is not None:
        cap = max(1, min(cap, declared))
    zcap = max(1, supply) if supply else CAP  # a zone holds at most every piece there is
    return Layout(len(folded.plan.players), w.ncells, cap, w.npieces, len(w.zone_names), len(w.counter_names), zcap)


def height_bound(plan) -> Optional[int]:
    """K of an invariant `all(height(c) <= K for c in cells)` (alone, or one part of an `and`)."""
    for inv in plan.invariants:
        parts = inv.expr.values if isinstance(inv.expr, ir.BoolOp) and inv.expr.op == "and" else (inv.expr,)
        for e in parts:
            if not (isinstance(e, ir.Comp) and e.func == "all" and len(e.fors) == 1 and e.fors[0].cond is None):
                continue
            f, elt = e.fors[0], e.elt
            if (isinstance(f.iter, ir.Global) and f.iter.what == "cells" and isinstance(elt, ir.Compare)
                    and elt.op == "<=" and isinstance(elt.left, ir.Call) and elt.left.fn == "height"
                    and isinstance(elt.left.args[0], ir.Local) and elt.left.args[0].name == f.var
                    and isinstance(elt.right, ir.Const) and isinstance(elt.right.value, int)):
                return elt.right.value
    return None


class _Hook:
    """A step of the writer's own: call fn(env, code) where the steps before it all hold."""

    def __init__(self, fn):
        self.fn = fn


def _shape(part) -> str:
    """An after part's text with its bindings' fresh numbers (`c#3`, `c#11` and `c` alike) and
    its choices' places in the move left out: the same after block in every action."""
    return re.sub(r"#\d+|index=\d+", "", repr(part.steps))


def count_stages(steps) -> int:
    """The most Stages one path through the steps passes (each saves a copy of the position)."""
    n = 0
    for s in steps:
        if isinstance(s, P.Stage):
            n += 1
        elif isinstance(s, P.Repeat):
            n += count_stages(s.steps)
    return n


class Offset:
    """Where the next field of a packed move starts: a number while every field before it has a
    fixed width, then a local of the generated code (after a list)."""

    def __init__(self, code: Code, start: int):
        self.code, self.static, self.var = code, start, code.fresh("o")

    def at(self) -> str:
        return str(self.static) if self.static is not None else self.var

    def advance(self, k: int) -> None:
        if self.static is not None:
            self.static += k
        else:
            self.code(f"{self.var} += {k}")

    def dynamic(self) -> None:
        if self.static is not None:
            self.code(f"{self.var} = {self.static}")
            self.static = None


class NativeWriter:
    """Writes the native module of one folded game, or raises Unsupported."""

    def __init__(self, folded, plans: list, layout: Layout, hashing: bool):
        self.game, self.plans, self.layout, self.hashing = folded, plans, layout, hashing
        self.tables: dict = {}
        self.x = Exprs(folded, self.tables)
        self.x.cap = layout.cap
        self.outcomes: list = []  # (kind, reason) of each outcome statement, code = index + 1
        self.fresh = [0]
        self.codec = layout.codec = Codec([p.spec for p in plans], self.field_of)
        self.refuse_moves_too_long()
        self.afters: dict = {}  # an after part's shape -> K of its functions after_K, after_do_K
        self.after_texts: list = []
        self.after_key = None
        self.lists = any(f.is_list for fs in self.codec.fields for f in fs)

    def refuse_moves_too_long(self) -> None:
        """Unsupported, at the action's rules line, before any code is written (and so before
        Numba compiles anything), when even the shortest moves of an action do not fit in one
        packed move, or its shortest moves holding the after block's choices do not: every
        such move would stop the native loop. Moves that only sometimes pass the limit (a
        long list) still stop it where they are made."""
        for p in self.plans:
            own, whole = self.codec.shortest(p.index)
            if own > MOVE_BITS or whole > MOVE_BITS:
                part, bits = ("its moves", own) if own > MOVE_BITS else ("its moves with the after block's choices", whole)
                raise Unsupported(f"action {p.spec.name!r}: {part} take at least {bits} bits, and a packed move "
                                  f"holds {MOVE_BITS}", p.pos)
        # The actions whose moves may still be too long (a list longer than it fits): named
        # when a loop meets one (NativeGame._check).
        self.layout.growing = [(p.spec.name, p.pos) for p in self.plans
                               if any(f.is_list for f in self.codec.fields[p.index])]

    def field_of(self, typ) -> tuple:
        """(bits, bias) of one value of a type in a packed move."""
        w, lay = self.game.world, self.layout
        if typ == T.CELL:
            return max(1, (w.ncells - 1).bit_length()), 0
        if typ == T.PIECE:
            return max(1, (lay.npieces - 1).bit_length()), 0
        if typ == T.PLAYER:
            return max(1, (lay.nplayers - 1).bit_length()), 0
        if typ == T.BOOL:
            return 1, 0
        attr = self.game.plan.attributes.get(typ.attr) if typ.name == "enum" else None
        if attr is not None and attr.numbers and min(attr.numbers) >= 0:
            return max(1, max(attr.numbers).bit_length()), 0
        return 16, -BIAS  # stored as v + BIAS

    # ---- legal ------------------------------------------------------------------------------

    def legal(self) -> str:
        code = Code(self.fresh)
        code("@njit(cache=True)")
        code("def legal(s, out):")
        code.depth += 1
        code("mover = s[SIDE]")
        code("ply = s[PLY]")
        code("n = 0")
        stages = max([count_stages(p.steps) for p in self.plans] + [0])
        if self.lists:
            code("toolong = False")  # a move too long to pack: the loop stops (OVER = 2)
        if stages:  # effects made while generating are taken back from a copy of the position
            code("nxt = NEXT[mover]")
            code(f"saved = np.empty(({stages}, SIZE), np.int64)")
        self.stage = 0
        groups: dict = {}
        for p in self.plans:
            # nature's moves first (where it has one, no one else moves), `otherwise` last
            groups.setdefault(-1e18 if p.chance else 1e9 if p.fallback else -p.priority, []).append(p)
        for gi, key in enumerate(sorted(groups)):
            if gi:
                code("if n > 0:")
                if self.lists:
                    code("    if toolong:")
                    code("        s[OVER] = 2")
                code("    return n")
            for p in groups[key]:
                self.plan = p
                self.gen(list(p.steps), 0, {}, code)
        if self.lists:
            code("if toolong:")
            code("    s[OVER] = 2")
        code("return n")
        return code.text()

    def gen(self, steps: list, i: int, env: dict, code: Code) -> None:
        if i == len(steps):
            self.add(env, code)
            return
        s, x = steps[i], self.x
        if isinstance(s, P.Guard):
            test = x.expr(s.cond, env, code)
            code(f"if {test}:")
            code.depth += 1
            self.gen(steps, i + 1, env, code)
            code.depth -= 1
        elif isinstance(s, P.Bind):
            self.gen(steps, i + 1, self.bind(s.var, s.value, env, code), code)
        elif isinstance(s, P.AfterPart):
            if i != len(steps) - 1:
                fail(s)
            if not s.has_choices:  # it decides nothing in the move: one move either way
                self.add(env, code)
                return
            # the action's part of the move, then the after block's moves (one function for
            # every action), else the move without them
            head, off = self.pack(env, code, 0, self.codec.after[self.plan.index])
            if off.static is None:  # the presence bit must fit too
                code(f"if {off.var} + 1 > {MOVE_BITS}:")
                code("    toolong = True")
            elif off.static + 1 > MOVE_BITS:
                raise Unsupported(f"a move of more than {MOVE_BITS} bits ({self.plan.spec.name})", self.plan.pos)
            before, tl = code.fresh("before"), code.fresh("tl")
            code(f"{before} = n")
            code(f"n, {tl} = after_{self.after_function(s)}(s, out, n, {head}, {off.at()}, mover, ply)")
            if self.lists:
                code(f"if {tl}:")
                code("    toolong = True")
            code(f"if n == {before}:")
            code(f"    if n < MAXM:")
            code(f"        out[n] = {head}")
            code("    n += 1")
        elif isinstance(s, P.Choose):
            var = pyname(s.name)
            if T.is_list(s.type):
                levels = self.choose_list(s, var, env, code)
            elif s.domain.type == T.ZONE:  # one move per kind of piece the zone holds, first come first
                z, k, j, dup = code.fresh("z"), code.fresh("k"), code.fresh("j"), code.fresh("dup")
                code(f"{z} = ZON + {x.zone(s.domain, env, code)} * ZW")
                code(f"for {k} in range(s[{z}]):")
                code.depth += 1
                code(f"{var} = s[{z} + 1 + {k}]")
                code(f"{dup} = False")
                code(f"for {j} in range({k}):")
                code(f"    if s[{z} + 1 + {j}] == {var}:")
                code(f"        {dup} = True")
                code("        break")
                code(f"if not {dup}:")
                code.depth += 1
                levels = [[], []]
            else:
                levels = x.open_loop(s.domain, var, env, code)
            inner = {**env, s.name: var}
            if s.cond is not None:
                code(f"if {x.expr(s.cond, inner, code)}:")
                code.depth += 1
                levels.append([])
            self.gen(steps, i + 1, inner, code)
            x.close_loop(levels, code)
        elif isinstance(s, (P.Apply, P.Measure)):
            self.gen(steps, i + 1, env, code)
        elif isinstance(s, P.Stage):
            k = self.stage
            self.stage += 1
            code(f"copy_state(saved[{k}], s)")
            self.block(s.body, env, code)
            self.gen(steps, i + 1, env, code)
            code(f"copy_state(s, saved[{k}])")
            self.stage -= 1
        elif isinstance(s, P.Repeat):
            self.repeat(s, steps, i, env, code)
        elif isinstance(s, _Hook):
            s.fn(env, code)
        else:
            fail(s)

    # ---- a repeated part: the passes searched with a stack of levels, not by recursion --------

    def repeat(self, s: P.Repeat, steps: list, i: int, env: dict, code: Code) -> None:
        """Every chain of passes, depth first, as python.generate makes them: level d holds the
        candidates of pass d + 1 (the values of its choice whose conditions hold), the position
        before it and the move count before its continuations. A chain ends (the rest of the
        action follows) where no further pass makes a move, or after any pass with `may stop`."""
        x, lay = self.x, self.layout
        field = self.codec.fields[self.plan.index][s.index - 1]
        body = list(s.steps)
        k = next((j for j, st in enumerate(body) if isinstance(st, P.Choose)), None)
        if k is None or any(isinstance(st, (P.Choose, P.Repeat, P.Stage, P.Apply)) for st in body[:k]) or any(
                isinstance(st, (P.Choose, P.Repeat)) for st in body[k + 1:]):
            fail(s, "a repeated part that is not one choice with its conditions and effects")
        first_stage = next((j for j in range(k + 1, len(body)) if isinstance(body[j], (P.Stage, P.Apply))), len(body))
        passes = min(MAX_PASSES, field.lmask)  # more would not fit the move: the loop stops
        names = {n: code.fresh(n) for n in ("d", "ci", "nc", "cands", "sv", "atb", "prevb", "cnt", "go", "ok",
                                          "entering", "finishing", "v")}
        d, ci, nc, cands, sv = (names[n] for n in ("d", "ci", "nc", "cands", "sv"))
        atb, prevb, cnt, go, ok = (names[n] for n in ("atb", "prevb", "cnt", "go", "ok"))
        entering, finishing, v = names["entering"], names["finishing"], names["v"]
        path = code.fresh("path")  # the values chosen, one a pass (the pass's own choice is a number)
        cap = x.iter_cap(body[k].domain, {**env, s.var: "_"})
        if cap is None:
            fail(body[k].domain, "a repeated choice over a collection of unknown size")
        for name, shape in ((ci, (passes,)), (nc, (passes,)), (atb, (passes,)), (prevb, (passes,)),
                            (cnt, (passes,)), (path, (passes,)), (cands, (passes, cap)), (sv, (passes, lay.size))):
            code.buffer(name, *shape)
        x.caps[path] = passes
        lists = {}
        for lst, _local in s.earlier:
            lists[lst] = code.fresh("earlier")
            code.buffer(lists[lst], passes)
            x.caps[lists[lst]] = passes
        code(f"{atb}[0] = {x.expr(s.start, env, code)}")
        code(f"{prevb}[0] = -1")
        code(f"{d} = 0")
        code(f"{entering} = True")
        code(f"{finishing} = False")
        code("while True:")
        code.depth += 1

        def pass_env() -> dict:
            inner = {**env, s.var: f"{atb}[{d}]"}
            if s.previous:
                inner[s.previous] = f"{prevb}[{d}]"
            for lst, buf in lists.items():
                code(f"{buf}_n = {d}")
                inner[lst] = buf
            return inner

        # the candidates of the pass at level d
        code(f"if {entering}:")
        code.depth += 1
        code(f"{entering} = False")
        code(f"{nc}[{d}] = 0")
        code(f"{ci}[{d}] = 0")
        choice = body[k]

        def record(e, c):
            c(f"{cands}[{d}, {nc}[{d}]] = {e[choice.name]}")
            c(f"{nc}[{d}] += 1")

        self.gen(body[:first_stage] + [_Hook(record)], 0, pass_env(), code)
        code.depth -= 1
        # a pass whose continuations are all made: the move may end here
        code(f"if {finishing}:")
        code.depth += 1
        code(f"{finishing} = False")
        test = "True" if s.may_stop else f"n == {cnt}[{d}]"
        code(f"if {test}:")
        code.depth += 1
        code(f"{path}_n = {d} + 1")
        last = code.fresh("last")
        code(f"{last} = {path}[{d}]")
        self.gen(steps, i + 1, {**env, s.choice: path, s.var: last}, code)
        code.depth -= 1
        code(f"s[:] = {sv}[{d}, :]")
        code.depth -= 1
        # the next candidate: make the pass, then go on to the next level if the chain may
        code(f"if {ci}[{d}] < {nc}[{d}]:")
        code.depth += 1
        code(f"{v} = {cands}[{d}, {ci}[{d}]]")
        code(f"{ci}[{d}] += 1")
        code(f"{sv}[{d}, :] = s")
        inner = {**pass_env(), choice.name: v}
        code(f"{ok} = True")
        for st in [b for b in body[:k] if isinstance(b, P.Bind)] + body[k + 1:]:
            if isinstance(st, P.Bind):
                inner = self.bind(st.var, st.value, inner, code)
            elif isinstance(st, (P.Stage, P.Apply)):
                code(f"if {ok}:")
                code.depth += 1
                self.block(st.body, inner, code)
                code.depth -= 1
            elif isinstance(st, P.Guard) and body.index(st) > first_stage:
                code(f"if {ok} and not {x.expr(st.cond, inner, code)}:")
                code(f"    {ok} = False")
        code(f"if not {ok}:")
        code(f"    s[:] = {sv}[{d}, :]")
        code("    continue")
        code(f"{path}[{d}] = {v}")
        for lst, local in s.earlier:
            code(f"{lists[lst]}[{d}] = {x.expr(local, inner, code)}")
        code(f"{cnt}[{d}] = n")
        code(f"{go} = {x.expr(s.cond, inner, code) if s.cond is not None else 'True'}")
        code(f"if {go} and {d} + 1 >= {passes}:")
        code(f"    toolong = True")  # a chain longer than a move holds: Python makes this game
        code(f"    {go} = False")
        code(f"if {go}:")
        code(f"    {d} += 1")
        code(f"    {atb}[{d}] = {v}")
        code(f"    {prevb}[{d}] = {atb}[{d} - 1]")
        code(f"    {entering} = True")
        code("    continue")
        code(f"{finishing} = True")
        code.depth -= 1
        code("else:")
        code(f"    if {d} == 0:")
        code("        break")
        code(f"    {d} -= 1")
        code(f"    {finishing} = True")
        code.depth -= 1

    def choose_list(self, s, var: str, env: dict, code: Code) -> list:
        """Open the loop(s) binding `var` (a buffer, with `var_n`) to each list of a choice
        whose values are lists: a list of lists, `list(LIST for ...)`, or `product(...)`."""
        x, dom = self.x, s.domain
        if isinstance(dom, ir.ListLit):
            x.caps[var] = max(x.list_cap(item, env) for item in dom.items)
            code.buffer(var, x.caps[var])
            j = code.fresh("j")
            code(f"for {j} in range({len(dom.items)}):")
            code.depth += 1
            for k, item in enumerate(dom.items):
                code(f"{'if' if k == 0 else 'elif'} {j} == {k}:")
                code.depth += 1
                x.fill(item, env, code, lambda q: f"{var}[{q}]", f"{var}_n")
                code.depth -= 1
            return [[]]
        if isinstance(dom, ir.Comp) and dom.func == "list":
            inner = dict(env)
            opened = x.open_fors(dom.fors, inner, code)
            x.caps[var] = x.list_cap(dom.elt, inner)
            code.buffer(var, x.caps[var])
            x.fill(dom.elt, inner, code, lambda q: f"{var}[{q}]", f"{var}_n")
            return [lv for levels in opened for lv in levels]
        if isinstance(dom, ir.Comp) and dom.func == "product" and len(dom.fors) == 1 and dom.fors[0].cond is None:
            # one list per item of the `for`, then every way of taking one value from each
            f = dom.fors[0]
            rows = x.list_cap(f.iter, env)
            opts, optn, idx = code.fresh("opts"), code.fresh("optn"), code.fresh("idx")
            ok, i, q = code.fresh("ok"), code.fresh("i"), code.fresh("q")
            v = pyname(f.var)
            x.caps[var] = rows
            code.buffer(var, rows)
            code.buffer(optn, rows)
            code.buffer(idx, rows)
            rn = code.fresh("rn")
            code(f"{rn} = 0")
            levels = x.open_loop(f.iter, v, env, code)
            inner = {**env, f.var: v}
            width = x.list_cap(dom.elt, inner)
            code.buffer(opts, rows, width)
            x.fill(dom.elt, inner, code, lambda k: f"{opts}[{rn}, {k}]", f"{optn}[{rn}]")
            code(f"{idx}[{rn}] = 0")
            code(f"{rn} += 1")
            x.close_loop(levels, code)
            code(f"{ok} = True")
            code(f"for {i} in range({rn}):")
            code(f"    if {optn}[{i}] == 0:")
            code(f"        {ok} = False")
            code(f"while {ok}:")
            code.depth += 1
            code(f"for {i} in range({rn}):")
            code(f"    {var}[{i}] = {opts}[{i}, {idx}[{i}]]")
            code(f"{var}_n = {rn}")
            # after the rest of the move: the next combination (the last item turns fastest)
            step = [f"{q} = {rn} - 1", f"while {q} >= 0:", f"    {idx}[{q}] += 1",
                    f"    if {idx}[{q}] < {optn}[{q}]:", "        break", f"    {idx}[{q}] = 0", f"    {q} -= 1",
                    f"if {q} < 0:", f"    {ok} = False"]
            return [step]
        fail(dom, f"a choice of lists made as {type(dom).__name__}")

    def add(self, env: dict, code: Code) -> None:
        """Pack the move made so far into out[n] (see layout.Codec); n counts it even when out is full."""
        if self.after_key is not None:  # in an after function: the head is given
            m, off = code.fresh("m"), Offset(code, None)
            code(f"{m} = head | (1 << o0)")
            code(f"{off.var} = o0 + 1")
            a = self.plan.index
            m, off = self.pack(env, code, self.codec.after[a], len(self.codec.fields[a]), m, off)
        else:
            m, off = self.pack(env, code, 0, len(self.plan.spec.choices))
        if off.static is None:
            code(f"if {off.var} > {MOVE_BITS}:")
            code("    toolong = True")
        code("if n < MAXM:")
        code(f"    out[n] = {m}")
        code("n += 1")

    def pack(self, env: dict, code: Code, lo: int, hi: int, m: Optional[str] = None, off=None) -> tuple:
        """(local, offset): the action and the choices lo..hi-1 packed into a local; with `m`,
        added to that local from `off` on. The after block's choices start with the bit saying
        the move holds them."""
        a = self.plan.index
        fields, first = self.codec.fields[a], self.codec.after[a]
        if m is None:
            m = code.fresh("m")
            code(f"{m} = {a}")
            off = Offset(code, self.codec.abits)
        for k in range(lo, hi):
            name, f = self.plan.spec.choices[k][0], fields[k]
            if name not in env:
                raise Unsupported(f"a move without its choice {name}", self.plan.pos)
            v = env[name]
            if f.is_list:
                off.dynamic()
                o, ln, i = off.var, code.fresh("ln"), code.fresh("i")
                code(f"{ln} = {v}_n")
                code(f"if {ln} > {f.lmask}:")
                code("    toolong = True")
                code(f"    {ln} = {f.lmask}")
                code(f"{m} |= {ln} << {o}")
                code(f"{o} += {f.lwidth}")
                code(f"for {i} in range({ln}):")
                code(f"    if {o} + {f.width} <= {MOVE_BITS}:")
                code(f"        {m} |= ({v}[{i}] - {f.bias}) << {o}")
                code(f"    {o} += {f.width}")
            else:
                value = f"({v} - {f.bias})" if f.bias else v
                if off.static is not None and off.static + f.width > MOVE_BITS:
                    raise Unsupported(f"a move of more than {MOVE_BITS} bits ({self.plan.spec.name})", self.plan.pos)
                if off.static is None:
                    code(f"if {off.var} + {f.width} <= {MOVE_BITS}:")
                    code(f"    {m} |= {value} << {off.var}")
                else:
                    code(f"{m} |= {value} << {off.at()}")
                off.advance(f.width)
        return m, off

    # ---- the after block: one function for every action ------------------------------------------

    def after_function(self, part) -> int:
        """The number K of the functions `after_K` (its moves, given the action's part of the
        move) and `after_do_K` (its effects) written for this after part: one for all the
        actions whose after parts differ only in the names of their bindings."""
        key = _shape(part)
        if key not in self.afters:
            k = len(self.afters)
            self.afters[key] = k
            plan = self.plan
            self.after_key = key
            saved_stage, saved_needed = self.stage, getattr(self, "needed", None)
            try:
                code = Code(self.fresh)
                code("@njit(cache=True)")
                code(f"def after_{k}(s, out, n, head, o0, mover, ply):")
                code.depth += 1
                code("toolong = False")
                stages = count_stages(part.steps)
                if stages:
                    code("nxt = NEXT[mover]")
                    code(f"saved = np.empty(({stages}, SIZE), np.int64)")
                self.stage = 0
                self.gen(list(part.steps), 0, {}, code)
                code("return n, toolong")
                self.after_texts.append(code.text())
                code = Code(self.fresh)
                code("@njit(cache=True)")
                code(f"def after_do_{k}(s, m, o0, mover, ply, nxt):")
                code.depth += 1
                code("if (m >> o0) & 1:")
                code.depth += 1
                off = Offset(code, None)
                code(f"{off.var} = o0 + 1")
                self.needed = needed_lets(plan)
                env = self.unpack(plan, self.codec.after[plan.index], len(plan.spec.choices), off, {}, code)
                self.do_steps(plan, list(part.steps), env, off, code)
                code.depth -= 1
                code("return nxt")
                self.after_texts.append(code.text())
            finally:
                self.after_key = None
                self.plan = plan
                self.stage, self.needed = saved_stage, saved_needed
        return self.afters[key]

    # ---- making a move ----------------------------------------------------------------------

    def do(self, p) -> str:
        code = Code(self.fresh)
        code('@njit(cache=True, inline="always")')
        code(f"def do_{p.index}(s, m):")
        code.depth += 1
        code("mover = s[SIDE]")
        code("ply = s[PLY]")
        code("nxt = NEXT[mover]")
        self.needed = needed_lets(p)
        fields, first = self.codec.fields[p.index], self.codec.after[p.index]
        off = Offset(code, self.codec.abits)
        env = self.unpack(p, 0, first if first is not None else len(fields), off, {}, code)
        self.do_steps(p, list(p.steps), env, off, code)
        code("put(s, SIDE, nxt)")
        code("s[PLY] = ply + 1")
        code("s[LAST] = m")
        return code.text()

    def do_repeat(self, p, s: P.Repeat, env: dict, code: Code) -> dict:
        """The passes of a repeat, one loop turn each, over the values the move holds."""
        x = self.x
        path = env[s.choice]
        at, prev, j = code.fresh("at"), code.fresh("prev"), code.fresh("j")
        code(f"{at} = {x.expr(s.start, env, code)}")
        code(f"{prev} = -1")
        lists = {}
        for lst, _local in s.earlier:
            lists[lst] = code.fresh("earlier")
            code.buffer(lists[lst], x.caps[path])
            x.caps[lists[lst]] = x.caps[path]
        code(f"for {j} in range({path}_n):")
        code.depth += 1
        inner = {**env, s.var: at, s.choice: f"{path}[{j}]"}
        if s.previous:
            inner[s.previous] = prev
        for lst, buf in lists.items():
            code(f"{buf}_n = {j}")
            inner[lst] = buf
        for st in s.steps:
            if isinstance(st, P.Bind):
                inner = self.bind(st.var, st.value, inner, code)
            elif isinstance(st, (P.Stage, P.Apply)):
                self.block(st.body, inner, code)
        for lst, local in s.earlier:
            code(f"{lists[lst]}[{j}] = {x.expr(local, inner, code)}")
        code(f"{prev} = {at}")
        code(f"{at} = {path}[{j}]")
        code.depth -= 1
        return {**env, s.var: at}

    def unpack(self, p, lo: int, hi: int, off: Offset, env: dict, code: Code) -> dict:
        """Bind the choices lo..hi-1 of a move of plan p from the packed move `m`."""
        env = dict(env)
        fields = self.codec.fields[p.index]
        for k in range(lo, hi):
            name, f = p.spec.choices[k][0], fields[k]
            var = pyname(name)
            if f.is_list:
                off.dynamic()
                o, i = off.var, code.fresh("i")
                code.buffer(var, f.lmask)
                self.x.caps[var] = f.lmask
                code(f"{var}_n = (m >> {o}) & {f.lmask}")
                code(f"{o} += {f.lwidth}")
                code(f"for {i} in range({var}_n):")
                code(f"    {var}[{i}] = ((m >> {o}) & {f.mask}) + {f.bias}")
                code(f"    {o} += {f.width}")
            else:
                code(f"{var} = ((m >> {off.at()}) & {f.mask}) + {f.bias}" if f.bias else
                     f"{var} = (m >> {off.at()}) & {f.mask}")
                off.advance(f.width)
            env[name] = var
        return env

    def do_steps(self, p, steps: list, env: dict, off: Offset, code: Code, guards: bool = False) -> None:
        """The effects of a move (its choices bound in env), as python.apply makes them."""
        depth = code.depth
        for s in steps:
            if isinstance(s, P.Bind):
                if s.var not in self.needed:
                    continue
                env = self.bind(s.var, s.value, env, code)
            elif isinstance(s, (P.Apply, P.Stage)):
                self.block(s.body, env, code)
            elif isinstance(s, P.Guard):
                if guards:  # an after part without choices: applied where it holds
                    code(f"if {self.x.expr(s.cond, env, code)}:")
                    code.depth += 1
            elif isinstance(s, P.AfterPart):
                if s.has_choices:
                    self.plan = p
                    code(f"nxt = after_do_{self.after_function(s)}(s, m, {off.at()}, mover, ply, nxt)")
                else:
                    self.do_steps(p, list(s.steps), env, off, code, guards=True)
            elif isinstance(s, P.Repeat):
                env = self.do_repeat(p, s, env, code)
            elif isinstance(s, (P.Choose, P.Measure)):
                continue
            else:
                fail(s)
        if code.depth > depth:
            code("pass")
            code.depth = depth

    def weight(self) -> str:
        """`pick_chance(s, buf, n, z)`: the index of nature's move among the n in buf, drawn with
        the random word z: `z mod n` when every outcome is as likely as the others, else by the
        weights (`weight` of each move, at this position), z's top 53 bits as a fraction."""
        code = Code(self.fresh)
        code("@njit(cache=True)")
        code("def pick_chance(s, buf, n, z):")
        code.depth += 1
        weighted = [p for p in self.plans if p.chance and p.spec.weighted]
        if not weighted:
            code("return np.int64(z % np.uint64(n))")
            return code.text()
        code("mover = s[SIDE]")
        code("ply = s[PLY]")
        code("total = 0.0")
        code("w = np.empty(n, np.float64)")
        code("for i in range(n):")
        code("    w[i] = weight_of(s, buf[i])")
        code("    total += w[i]")
        code("r = np.float64(z >> np.uint64(11)) * (1.0 / 9007199254740992.0) * total")
        code("for i in range(n):")
        code("    r -= w[i]")
        code("    if r < 0.0:")
        code("        return i")
        code("return n - 1")
        text = code.text()
        code = Code(self.fresh)
        code("@njit(cache=True)")
        code("def weight_of(s, m):")
        code.depth += 1
        code("mover = s[SIDE]")
        code("ply = s[PLY]")
        code("a = m & AMASK")
        for p in weighted:
            code(f"if a == {p.index}:")
            code.depth += 1
            self.needed = set()
            measure = next(st for st in p.steps if isinstance(st, P.Measure) and st.kind == "weight")
            off = Offset(code, self.codec.abits)
            fields, first = self.codec.fields[p.index], self.codec.after[p.index]
            env = self.unpack(p, 0, first if first is not None else len(fields), off, {}, code)
            for st in p.steps:
                if st is measure:
                    break
                if isinstance(st, P.Bind):
                    env = self.bind(st.var, st.value, env, code)
                elif isinstance(st, (P.Stage, P.Repeat)):
                    fail(st, "a weight after effects or a repeated part")
            code(f"return np.float64({self.x.expr(measure.value, env, code)})")
            code.depth -= 1
        code("return 1.0")
        return code.text() + "\n\n\n" + text

    def apply(self) -> str:
        code = Code(self.fresh)
        code("@njit(cache=True)")  # a call: inlined, it would be compiled again in each loop
        code("def apply(s, m):")
        code.depth += 1
        code("a = m & AMASK")
        for k, p in enumerate(self.plans):
            code(f"{'if' if k == 0 else 'elif'} a == {p.index}:")
            code(f"    do_{p.index}(s, m)")
        if not self.plans:
            code("pass")
        return code.text()

    # ---- statements and effects ---------------------------------------------------------------

    def block(self, stmts, env: dict, code: Code) -> None:
        start = len(code.lines)
        for st in stmts:
            env = self.stmt(st, env, code)
        if len(code.lines) == start:
            code("pass")

    def bind(self, name: str, value, env: dict, code: Code) -> dict:
        """env with `name` bound to `value` (a list into its buffer, anything else into a local)."""
        var = pyname(name)
        if T.is_list(value.type):
            self.x.bind_list(var, value, env, code)
        else:
            code(f"{var} = {self.x.expr(value, env, code)}")
        return {**env, name: var}

    def stmt(self, st, env: dict, code: Code) -> dict:
        x = self.x
        if isinstance(st, ir.Let):
            return self.bind(st.var, st.value, env, code)
        if isinstance(st, ir.If):
            code(f"if {x.expr(st.cond, env, code)}:")
            code.depth += 1
            self.block(st.body, env, code)
            code.depth -= 1
            if st.orelse:
                code("else:")
                code.depth += 1
                self.block(st.orelse, env, code)
                code.depth -= 1
            return env
        if isinstance(st, ir.For):
            var = pyname(st.var)
            levels = x.open_loop(st.iter, var, env, code)
            inner = {**env, st.var: var}
            if st.cond is not None:
                code(f"if {x.expr(st.cond, inner, code)}:")
                code.depth += 1
                levels.append([])
            self.block(st.body, inner, code)
            x.close_loop(levels, code)
            return env
        if isinstance(st, ir.SetCounter):
            slot = x.counter_slot(st.target, env, code)
            value = x.expr(st.value, env, code)
            new = {"=": value, "+=": f"s[CNT + {slot}] + {value}", "-=": f"s[CNT + {slot}] - ({value})"}[st.op]
            code(f"put(s, CNT + {slot}, {new})")
            return env
        if isinstance(st, ir.Effect):
            self.effect(st, env, code)
            return env
        if isinstance(st, ir.Outcome):
            self.outcomes.append((st.kind, st.reason))
            k = len(self.outcomes)
            who = x.expr(st.who, env, code) if st.who is not None else "-1"
            w = code.fresh("who")
            code(f"{w} = {who}")
            code("for _q in range(NPLAYERS):")
            if st.kind == "win":
                code(f"    res[_q] = 1.0 if _q == {w} else 0.0")
            elif st.kind == "lose":
                code(f"    res[_q] = 0.0 if _q == {w} else 1.0")
            else:
                code("    res[_q] = 0.5")
            code(f"res[NPLAYERS] = {w}")
            code(f"return {k}")
            return env
        if isinstance(st, ir.RankBy):
            self.outcomes.append(("rank", st.reason))
            k = len(self.outcomes)
            var = pyname(st.var)
            keys = code.fresh("keys")
            code(f"{keys} = np.empty((NPLAYERS, {len(st.keys)}), np.int64)")
            code(f"for {var} in range(NPLAYERS):")
            code.depth += 1
            inner = {**env, st.var: var}
            for j, key in enumerate(st.keys):
                code(f"{keys}[{var}, {j}] = {x.expr(key, inner, code)}")
            code.depth -= 1
            code(f"rank_results({keys}, res)")
            code(f"return {k}")
            return env
        fail(st)

    def effect(self, st: ir.Effect, env: dict, code: Code) -> None:
        x, fn = self.x, st.fn

        def arg(i, stem):
            t = code.fresh(stem)
            code(f"{t} = {x.expr(st.args[i], env, code)}")
            return t

        if fn == "move":
            a, k, b = arg(0, "a"), arg(1, "k"), arg(2, "b")
            code(f"move_stack(s, {a}, {k} - 1, {b})")
        elif fn == "take":
            c = arg(0, "c")
            z = code.fresh("z")
            code(f"{z} = {x.zone(st.args[1], env, code)}")
            code(f"take_stack(s, {c}, {z})")
        elif fn == "place":
            if st.args[0].type != T.PIECE:
                fail(st, "place() of several pieces in a move")
            p, c = arg(0, "p"), arg(1, "c")
            code(f"place_piece(s, {p}, {c})")
        elif fn == "change":
            c, k, p = arg(0, "c"), arg(1, "k"), arg(2, "p")
            code(f"put(s, STK + {c} * CAP + {k} - 1, {p})")
        elif fn == "remove":
            c, k = arg(0, "c"), arg(1, "k")
            z = code.fresh("z")
            code(f"{z} = {x.zone(st.args[2], env, code)}")
            code(f"remove_piece(s, {c}, {k} - 1, {z})")
        elif fn == "add":
            if st.args[1].type != T.PIECE:
                fail(st, "add() of several pieces")
            z = code.fresh("z")
            code(f"{z} = {x.zone(st.args[0], env, code)}")
            p = arg(1, "p")
            code(f"zone_add(s, {z}, {p})")
        elif fn in ("put", "insert"):  # one piece of the zone onto a stack (insert: at a level)
            if st.args[1].type != T.PIECE:
                fail(st)
            z = code.fresh("z")
            code(f"{z} = {x.zone(st.args[0], env, code)}")
            p, c = arg(1, "p"), arg(2, "c")
            if fn == "insert":
                k = arg(3, "k")
            code(f"zone_drop(s, {z}, {p})")
            code(f"insert_piece(s, {p}, {c}, {k + ' - 1' if fn == 'insert' else f's[HGT + {c}]'})")
        elif fn == "transfer":  # one such piece from a zone to another
            z, y = code.fresh("z"), code.fresh("y")
            code(f"{z} = {x.zone(st.args[0], env, code)}")
            p = arg(1, "p")
            code(f"{y} = {x.zone(st.args[2], env, code)}")
            code(f"zone_drop(s, {z}, {p})")
            code(f"zone_add(s, {y}, {p})")
        elif fn == "insert_stack":  # the piece at level j of a leaves it and is slipped into c at level k
            a, j, c, k = arg(0, "a"), arg(1, "j"), arg(2, "c"), arg(3, "k")
            p = code.fresh("p")
            code(f"{p} = s[STK + {a} * CAP + {j} - 1]")
            code(f"lift_piece(s, {a}, {j} - 1)")
            code(f"insert_piece(s, {p}, {c}, {k} - 1)")
        elif fn == "swap_seats":
            a, b = arg(0, "a"), arg(1, "b")
            sa, sb = code.fresh("seat"), code.fresh("seat")
            code(f"{sa}, {sb} = s[SEATS + {a}], s[SEATS + {b}]")
            code(f"put(s, SEATS + {a}, {sb})")
            code(f"put(s, SEATS + {b}, {sa})")
        elif fn == "extra_turn":
            code("nxt = mover")
        elif fn == "turn_to":
            code(f"nxt = {x.expr(st.args[0], env, code)}")
        else:
            fail(st)

    # ---- the end block ----------------------------------------------------------------------

    def outcome(self) -> str:
        code = Code(self.fresh)
        code("@njit(cache=True)")
        code("def outcome(s, nmoves, res, hist, nhist):")
        code.depth += 1
        code("mover = s[SIDE]")
        code("ply = s[PLY]")
        self.block(self.game.plan.end or (), {}, code)
        code("return 0")
        return code.text()

    def cell_shifts(self, p) -> list:
        """Where each chosen cell of a move of plan p starts in the packed move (for `last`):
        the cells before any list or after-block choice."""
        out, o = [], self.codec.abits
        for k, ((_, typ), f) in enumerate(zip(p.spec.choices, self.codec.fields[p.index])):
            if f.is_list or k == self.codec.after[p.index]:
                if self.x.uses_last:
                    raise Unsupported(f"'last' with a move holding lists or after choices ({p.spec.name})", p.pos)
                break
            if typ == T.CELL:
                out.append(o)
            o += f.width
        return out

    # ---- the whole ----------------------------------------------------------------------------

    def write(self, title: str) -> str:
        """The module's text."""
        functions = [self.legal()] + [self.do(p) for p in self.plans] + [self.apply(), self.outcome(), self.weight()]
        functions.append(search_functions(self))  # the heuristic and weights the search kernel reads
        functions[1:1] = self.after_texts
        lay = self.layout
        n = lay.nplayers
        head = [f"# Generated by ziggurat's native backend from {title}. Do not edit.",
                "import numpy as np", "from ziggurat.interpreter.native.numbacache import njit", ""]
        consts = dict(lay.constants())
        consts.update({"FILES": self.game.world.files, "SIDE": 0, "PLY": 1, "LAST": 2, "OVER": 3, "SEATS": 4, "MAXM": MAXM,
                       "HASHING": self.hashing, "NACTIONS": len(self.plans),
                       "AMASK": (1 << self.codec.abits) - 1, "CELLMASK": (1 << self.field_of(T.CELL)[0]) - 1,
                       "INCREMENTAL": self.hashing and keeps_hash("\n".join(functions) + TEMPLATE + HELPERS)})
        lines = [f"{k} = {v!r}" for k, v in consts.items()]
        lines.append(f"NEXT = np.array({[(p + 1) % max(1, n) for p in range(n)]!r}, dtype=np.int64)")
        lines.append(f"CHANCE = {any(p.chance for p in self.plans)!r}")
        lines.append(f"CHANCEACT = np.array({[int(p.chance) for p in self.plans] or [0]!r}, dtype=np.int64)")
        lines.append(f"CTRL = np.array({list(self.game.ctrl) or [-1]!r}, dtype=np.int64)")
        cells_of = [self.cell_shifts(p) for p in self.plans]
        width = max([len(c) for c in cells_of] + [1])
        lines.append(f"LASTCELLS = np.array({[c + [0] * (width - len(c)) for c in cells_of] or [[0]]!r}, dtype=np.int64)")
        lines.append(f"LASTN = np.array({[len(c) for c in cells_of] or [0]!r}, dtype=np.int64)")
        self.x.lines_table()  # the helpers read LN
        for name in sorted(self.tables):
            rows = self.tables[name] if self.tables[name] is not None else self.x.geometry(name)
            lines.append(f"{name} = np.array({rows!r}, dtype=np.int64)")
        return "\n".join(head + lines + ["", ""] + [f + "\n\n" for f in functions] + [TEMPLATE, HELPERS, search_kernel()])


HELPERS = '''

@njit(cache=True)
def insert_piece(s, p, c, k):
    """Slip piece p into the stack on c so that it stands at level k + 1 (k = height: on top);
    the hash kept (the stack's slots from level k + 1 taken out of it, then put back)."""
    h = s[HGT + c]
    if h >= CAP:
        s[OVER] = 1
        return
    b = STK + c * CAP
    hs = stack_unhash(s, b, k, h)
    for i in range(h, k, -1):
        s[b + i] = s[b + i - 1]
    s[b + k] = p
    s[HGT + c] = h + 1
    stack_rehash(s, b, k, h + 1, hs)


@njit(cache=True, inline="always")
def stack_unhash(s, b, k, h):
    """The hash without the stack slots b + k .. b + h - 1 (before they are rewritten)."""
    hs = np.uint64(s[HSH])
    if HASHING:
        for i in range(k, h):
            hs -= np.uint64(s[b + i] + 1) * ZK[b + i]
    return hs


@njit(cache=True, inline="always")
def stack_rehash(s, b, k, h, hs):
    """Put the stack slots b + k .. b + h - 1 (rewritten) back into the hash hs, and keep it."""
    if HASHING:
        for i in range(k, h):
            hs += np.uint64(s[b + i] + 1) * ZK[b + i]
        s[HSH] = np.int64(hs)


@njit(cache=True)
def step_k(s, c, d, k):
    """The cell k steps from c along direction d; -1 (off the board) past the edge."""
    if k == 0:
        return c
    if c < 0 or k < 0 or k > LNN[d, c]:
        return -1
    return LN[d, c, k - 1]


@njit(cache=True)
def between_n(a, b):
    """How many cells lie strictly between a and b on one file, rank or diagonal (0: none)."""
    if a < 0 or b < 0:
        return 0
    df, dr = b % FILES - a % FILES, b // FILES - a // FILES
    if not (df == 0 or dr == 0 or abs(df) == abs(dr)):
        return 0
    return max(abs(df), abs(dr)) - 1


@njit(cache=True)
def between_at(a, b, k):
    """The k-th cell (from 1, nearest a first) strictly between a and b."""
    df, dr = b % FILES - a % FILES, b // FILES - a // FILES
    sf = 1 if df > 0 else (-1 if df < 0 else 0)
    sr = 1 if dr > 0 else (-1 if dr < 0 else 0)
    return a + k * (sf + sr * FILES)


@njit(cache=True)
def connected_cells(cells, n, ds, mark, todo):
    """Whether cells[:n] form one group through steps in the directions of ds (none: they do)."""
    if n == 0:
        return True
    for c in range(NC):
        mark[c] = 0
    for i in range(n):
        mark[cells[i]] = 1
    members = 0
    for c in range(NC):
        members += mark[c]
    mark[cells[0]] = 2
    todo[0] = cells[0]
    top = 1
    seen = 1
    while top > 0:
        top -= 1
        c = todo[top]
        for k in range(NBN[ds, c]):
            x = NB[ds, c, k]
            if mark[x] == 1:
                mark[x] = 2
                seen += 1
                todo[top] = x
                top += 1
    return seen == members


@njit(cache=True)
def repeats_board(hist, nhist, s):
    """How many of the positions so far (this one included) match this one whoever is to move."""
    if nhist == 0:
        return 0
    zk = ZK[SIDE]  # the hash is linear: the side to move adds (side + 1) * ZK[SIDE] (loops.hash_state)
    base = np.uint64(hist[nhist - 1]) - np.uint64(s[SIDE] + 1) * zk
    n = 0
    for i in range(nhist):
        hi = np.uint64(hist[i])
        for q in range(NPLAYERS):
            if hi == base + np.uint64(q + 1) * zk:
                n += 1
    return n


@njit(cache=True)
def zone_drop(s, z, p):
    """Take the first piece p out of zone z (those after it move up; the slot freed is 0)."""
    b = ZON + z * ZW
    n = s[b]
    for i in range(n):
        if s[b + 1 + i] == p:
            for j in range(i, n - 1):
                put(s, b + 1 + j, s[b + 2 + j])
            put(s, b + n, 0)
            put(s, b, n - 1)
            return


@njit(cache=True)
def zone_has(s, z, p):
    b = ZON + z * ZW
    for i in range(s[b]):
        if s[b + 1 + i] == p:
            return True
    return False


@njit(cache=True)
def dice_ways(n, faces, total):
    """How many throws of n dice numbered 1..faces add up to total (as dsl.dice.ways)."""
    if n < 0 or faces < 1:
        return 0
    if n == 0:
        return 1 if total == 0 else 0
    if not n <= total <= n * faces:
        return 0
    row = np.zeros(total + 1, np.int64)  # ways for the dice so far, by sum
    row[0] = 1
    for _ in range(n):
        nxt = np.zeros(total + 1, np.int64)
        for t in range(total + 1):
            if row[t] != 0:
                for f in range(1, faces + 1):
                    if t + f <= total:
                        nxt[t + f] += row[t]
        row = nxt
    return row[total]


@njit(cache=True)
def dice_showing(n, faces, k):
    """How many throws of n dice show one chosen face on exactly k of them (dsl.dice.showing)."""
    if faces < 1 or not 0 <= k <= n:
        return 0
    c = 1
    for i in range(k):
        c = c * (n - i) // (i + 1)
    for _ in range(n - k):
        c *= faces - 1
    return c


@njit(cache=True)
def lift_piece(s, c, k):
    """Take the piece at level k + 1 out of the stack on c (those above drop down); the hash kept."""
    h = s[HGT + c]
    b = STK + c * CAP
    hs = stack_unhash(s, b, k, h)
    for i in range(k, h - 1):
        s[b + i] = s[b + i + 1]
    s[HGT + c] = h - 1
    stack_rehash(s, b, k, h - 1, hs)
'''
