"""The native module of one game: its text, written from the same step plans as the Python
backend's (`interpreter.steps`), for Numba to compile.

| function | what |
|---|---|
| `legal(s, out)` | the legal moves, packed, into `out`; returns how many (more than `MAXM`: too many to hold) |
| `do_N(s, m)`, `apply(s, m)` | make a move in place (perft copies the vector first) |
| `outcome(s, nmoves, res, hist, nhist)` | the end block: 0 while the game goes on, else which outcome; `res` gets the result per side |
| `perft`, `playout`, `playouts` | the whole loops (`loops.TEMPLATE`) |

Each choice is a loop and each condition an `if`, in the order the action states them, as in the
Python backend; what this backend does not compile raises `exprs.Unsupported`.
"""

from __future__ import annotations

from typing import Optional

from ...dsl import ir
from ...dsl import types as T
from .. import steps as P
from ..python.exprs import pyname
from .exprs import Code, Exprs, Unsupported, fail
from .layout import BIAS, MAX_CHOICES, Layout
from .loops import TEMPLATE, keeps_hash

MAXM = 4096  # moves one position may have in native code


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
    return Layout(len(folded.plan.players), w.ncells, cap, w.npieces, len(w.zone_names), len(w.counter_names))


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


class NativeWriter:
    """Writes the native module of one folded game, or raises Unsupported."""

    def __init__(self, folded, plans: list, layout: Layout, hashing: bool):
        self.game, self.plans, self.layout, self.hashing = folded, plans, layout, hashing
        self.tables: dict = {}
        self.x = Exprs(folded, self.tables)
        self.outcomes: list = []  # (kind, reason) of each outcome statement, code = index + 1
        self.fresh = [0]

    # ---- legal ------------------------------------------------------------------------------

    def legal(self) -> str:
        code = Code(self.fresh)
        code("@njit(cache=True)")
        code("def legal(s, out):")
        code.depth += 1
        code("mover = s[SIDE]")
        code("ply = s[PLY]")
        code("n = 0")
        stages = max([sum(isinstance(x, P.Stage) for x in p.steps) for p in self.plans] + [0])
        if stages:  # effects made while generating are taken back from a copy of the position
            code("nxt = NEXT[mover]")
            code(f"saved = np.empty(({stages}, SIZE), np.int64)")
        self.stage = 0
        groups: dict = {}
        for p in self.plans:
            if p.chance:
                raise Unsupported(f"nature's moves (the action {p.spec.name}, by chance)", p.pos)
            if len(p.spec.choices) > MAX_CHOICES:
                raise Unsupported(f"an action of more than {MAX_CHOICES} choices ({p.spec.name})", p.pos)
            groups.setdefault(1e9 if p.fallback else -p.priority, []).append(p)
        for gi, key in enumerate(sorted(groups)):
            if gi:
                code("if n > 0:")
                code("    return n")
            for p in groups[key]:
                self.plan = p
                self.gen(list(p.steps), 0, {}, code)
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
            value = x.expr(s.value, env, code)
            var = pyname(s.var)
            code(f"{var} = {value}")
            self.gen(steps, i + 1, {**env, s.var: var}, code)
        elif isinstance(s, P.Choose):
            var = pyname(s.name)
            if s.domain.type == T.ZONE:  # one move per kind of piece the zone holds
                z = code.fresh("z")
                code(f"{z} = ZON + {x.zone(s.domain, env, code)} * NPIECES")
                code(f"for {var} in range(NPIECES):")
                code.depth += 1
                code(f"if s[{z} + {var}] > 0:")
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
        elif isinstance(s, P.Apply):
            self.gen(steps, i + 1, env, code)
        elif isinstance(s, P.Stage):
            k = self.stage
            self.stage += 1
            code(f"copy_state(saved[{k}], s)")
            self.block(s.body, env, code)
            self.gen(steps, i + 1, env, code)
            code(f"copy_state(s, saved[{k}])")
            self.stage -= 1
        else:
            fail(s)

    def add(self, env: dict, code: Code) -> None:
        parts = [str(self.plan.index)]
        for k, (name, _) in enumerate(self.plan.spec.choices):
            if name not in env:
                raise Unsupported(f"a move without its choice {name}", self.plan.pos)
            parts.append(f"(({env[name]} + {BIAS}) << {8 + 16 * k})")
        code("if n < MAXM:")
        code(f"    out[n] = {' | '.join(parts)}")
        code("n += 1")

    # ---- making a move ----------------------------------------------------------------------

    def do(self, p) -> str:
        code = Code(self.fresh)
        code('@njit(cache=True, inline="always")')
        code(f"def do_{p.index}(s, m):")
        code.depth += 1
        code("mover = s[SIDE]")
        code("ply = s[PLY]")
        code("nxt = NEXT[mover]")
        env = {}
        for k, (name, _) in enumerate(p.spec.choices):
            var = pyname(name)
            code(f"{var} = ((m >> {8 + 16 * k}) & 0xFFFF) - {BIAS}")
            env[name] = var
        for s in p.steps:
            if isinstance(s, P.Bind):
                var = pyname(s.var)
                code(f"{var} = {self.x.expr(s.value, env, code)}")
                env[s.var] = var
            elif isinstance(s, (P.Apply, P.Stage)):
                self.block(s.body, env, code)
            elif isinstance(s, (P.Guard, P.Choose)):
                continue
            else:
                fail(s)
        code("put(s, SIDE, nxt)")
        code("s[PLY] = ply + 1")
        code("s[LAST] = m")
        return code.text()

    def apply(self) -> str:
        code = Code(self.fresh)
        code("@njit(cache=True)")  # a call: inlined, it would be compiled again in each loop
        code("def apply(s, m):")
        code.depth += 1
        code("a = m & 0xFF")
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

    def stmt(self, st, env: dict, code: Code) -> dict:
        x = self.x
        if isinstance(st, ir.Let):
            var = pyname(st.var)
            code(f"{var} = {x.expr(st.value, env, code)}")
            return {**env, st.var: var}
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
            code(f"put(s, ZON + {z} * NPIECES + {p}, s[ZON + {z} * NPIECES + {p}] + 1)")
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

    # ---- the whole ----------------------------------------------------------------------------

    def write(self, title: str) -> str:
        """The module's text."""
        functions = [self.legal()] + [self.do(p) for p in self.plans] + [self.apply(), self.outcome()]
        lay = self.layout
        n = lay.nplayers
        head = [f"# Generated by ziggurat's native backend from {title}. Do not edit.",
                "import numpy as np", "from numba import njit", ""]
        consts = dict(lay.constants())
        consts.update({"SIDE": 0, "PLY": 1, "LAST": 2, "OVER": 3, "SEATS": 4, "MAXM": MAXM,
                       "HASHING": self.hashing, "NACTIONS": len(self.plans),
                       "INCREMENTAL": self.hashing and keeps_hash("\n".join(functions) + TEMPLATE)})
        lines = [f"{k} = {v!r}" for k, v in consts.items()]
        lines.append(f"NEXT = np.array({[(p + 1) % max(1, n) for p in range(n)]!r}, dtype=np.int64)")
        lines.append(f"CTRL = np.array({list(self.game.ctrl) or [-1]!r}, dtype=np.int64)")
        cells_of = [[k + 1 for k, (_, t) in enumerate(p.spec.choices) if t == T.CELL] for p in self.plans]
        width = max([len(c) for c in cells_of] + [1])
        lines.append(f"LASTCELLS = np.array({[c + [0] * (width - len(c)) for c in cells_of] or [[0]]!r}, dtype=np.int64)")
        lines.append(f"LASTN = np.array({[len(c) for c in cells_of] or [0]!r}, dtype=np.int64)")
        self.x.lines_table()  # the helpers read LN
        for name in sorted(self.tables):
            rows = self.tables[name] if self.tables[name] is not None else self.x.geometry(name)
            lines.append(f"{name} = np.array({rows!r}, dtype=np.int64)")
        return "\n".join(head + lines + ["", ""] + [f + "\n\n" for f in functions] + [TEMPLATE])
