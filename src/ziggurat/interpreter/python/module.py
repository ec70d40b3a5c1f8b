"""The Python backend's module: every function of a game, its constants, and its loading.

The module holds plain functions over a `State`: `legal`, one `do_<action>` per action (through
`apply` / `undo`, with an undo log; `do_move`, `do_swap`), `explain_<action>` (and `weight_<action>`,
`seen_<action>` where the rules give them), `outcome` (the end block), `setup`, `invariants`,
`heuristic`; the tables `DO`, `EXPLAIN`, `WEIGHT`, `SEEN` list them by action number. Small
tables (piece attributes, who controls a stack, the ruleset's own tables) are written in it; the
board's geometry tables are passed in when it is loaded, computed from FILES, RANKS and DIRSETS
(dsl.world.World), so the module stays readable. `count` is derived from `legal` as the module is
loaded (derive_count): the same walk, counting instead of building moves.
"""

from __future__ import annotations

import ast
import itertools
import os
import re

from ...dsl import ir
from ...dsl import types as T
from ...dsl.world import World
from ...dsl.sets import turn_clears
from .. import steps as P
from ..facts import MAX_PASSES, uses_repetition
from .apply import Applier
from .effects import Fresh, Statements
from .emit import (Comment, at, const, declare_nonlocals, drop_dead_aliases, drop_unused_loads, fold_constants, loads,
                   render, stmt as S, tidy)
from .explain import Explainer
from .measure import Reader, measured
from .exprs import Env, Exprs, table_name
from .generate import Generator
from .load import derive_count, load_module


def uses_last(plan: ir.Plan) -> bool:
    everything: list[object] = list(plan.end or ()) + [i for a in plan.actions for i in a.items + (a.after_items or ())]
    everything += [inv.expr for inv in plan.invariants] + [s.expr for s in plan.statistics]
    everything += ([plan.heuristic] if plan.heuristic is not None else [])
    return any(isinstance(n, ir.Global) and n.what == "last" for n in ir.walk(everything))


def action_names(plans: list) -> dict:
    """Action number -> the name its functions carry after `do_`, `explain_`, `weight_`, `seen_`:
    the action's own name (the grammar's names are Python names, and no two actions share one), or,
    for a name with characters a Python name cannot hold, that name with each of them as `_` and
    the action's number after it (`take_it_3` for `take-it`), so that two names which differ only
    in such characters, or one that becomes another's, still give functions of their own."""
    out = {p.index: p.spec.name for p in plans if p.spec.name.isidentifier() and p.spec.name.isascii()}
    taken = set(out.values())
    for p in plans:
        if p.index not in out:
            name = f"{re.sub(r'[^A-Za-z0-9_]', '_', p.spec.name)}_{p.index}"
            while name in taken:
                name += "_"
            out[p.index] = name
            taken.add(name)
    return out


class ModuleWriter:
    """Writes the module of one folded game from its action plans."""

    def __init__(self, folded, plans: list):
        self.game, self.plans = folded, plans
        self.world: World = folded.world
        self.hashing = uses_repetition(folded.plan)
        self.last = uses_last(folded.plan)
        self.x = Exprs(folded)
        self.names = action_names(plans)

    def fname(self, kind: str, plan) -> str:
        """The name of an action's function of a kind (`do`, `explain`, `weight`, `seen`): `do_move`."""
        return f"{kind}_{self.names[plan.index]}"

    def functions(self) -> list:
        h = self.hashing
        body: list[ast.stmt] = [Generator(self.x, h).legal(self.plans)]
        applier, explainer = Applier(self.x, h, turn_clears(self.game.plan)), Explainer(self.x, h)
        body += [applier.do(p, self.fname("do", p)) for p in self.plans]
        body += [explainer.explain(p, self.fname("explain", p)) for p in self.plans]
        body.append(self.table("DO", [self.fname("do", p) for p in self.plans]))
        body.append(self.table("EXPLAIN", [self.fname("explain", p) for p in self.plans]))
        for kind, table in (("weight", "WEIGHT"), ("seen", "SEEN")):
            reader = Reader(self.x, h, kind)
            body += [reader.read(p, self.fname(kind, p)) for p in self.plans if measured(p, kind)]
            body.append(self.table(table, [self.fname(kind, p) if measured(p, kind) else None for p in self.plans]))
        body += self.apply_undo()
        body.append(self.outcome())
        body.append(self.setup())
        body.append(self.invariants())
        body.append(self.statistics())
        body.append(self.heuristic())
        return body

    @staticmethod
    def table(name: str, functions: list) -> ast.stmt:
        """`NAME = (do_move, do_swap)`: the functions by action number (None where an action has none)."""
        items: list[ast.expr] = [ast.Name(f, ast.Load()) if f is not None else ast.Constant(None) for f in functions]
        return S(f"{name} = _0", ast.Tuple(items, ast.Load()))

    def _fn(self, name: str, args: tuple, pos=None) -> ast.FunctionDef:
        return at(ast.FunctionDef(name, ast.arguments([], [ast.arg(a) for a in args], None, [], [], None, []),
                                  [], [], None), pos)

    def _state(self) -> list:
        return [S("cells = st.cells"), S("zones = st.zones"), S("counters = st.counters"), S("mover = st.side"),
                S("ply = st.ply"), S("seen = st.seen"), S("_last = st.last"), S("table = st.table")]

    def outcome(self) -> ast.FunctionDef:
        fn = self._fn("outcome", ("st", "moves"), self.game.plan.end_pos)
        fn.body = self._state()
        end = self.game.plan.end or ()
        fn.body += Statements(self.x, self.hashing, ir.scores_points(end)).block(end, Env(), Fresh())
        if not isinstance(fn.body[-1], ast.Return):  # an end block that always ends the game has said so
            fn.body.append(S("return None"))
        drop_unused_loads(fn, 8)
        return fn

    def setup(self) -> ast.FunctionDef:
        fn = self._fn("setup", ("st", "rng"))
        fn.body = [S("cells = st.cells"), S("zones = st.zones"), S("counters = st.counters"), S("seats = st.seats"),
                   S("log = []"), S("table = st.table")]
        stmts = Statements(self.x, hashing=False)  # the hash is computed afresh after setup
        for block in self.game.plan.setup:
            fn.body += stmts.block(block, Env(effects=True), Fresh())
        fn.body.append(S("return None"))
        drop_unused_loads(fn, 6)
        return fn

    def invariants(self) -> ast.FunctionDef:
        fn = self._fn("invariants", ("st",))
        fn.body = self._state() + [S("bad = []")]
        for k, inv in enumerate(self.game.plan.invariants):
            fn.body.append(at(S("if not _0:\n    bad.append(_1)", self.x.expr(inv.expr, Env()), k), inv.pos))
        fn.body.append(S("return bad"))
        drop_unused_loads(fn, 8)
        return fn

    def statistics(self) -> ast.FunctionDef:
        """statistics(st): the ruleset's statistics at st, in order (numbers, or truths as bools)."""
        fn = self._fn("statistics", ("st",))
        values = [self.x.expr(s.expr, Env()) for s in self.game.plan.statistics]
        fn.body = self._state() + [S("return _0", ast.List(values, ast.Load()))]
        drop_unused_loads(fn, 8)
        return fn

    def heuristic(self) -> ast.FunctionDef:
        fn = self._fn("heuristic", ("st",), self.game.plan.heuristic_pos)
        h = self.game.plan.heuristic
        fn.body = self._state() + [S("return _0", self.x.expr(h, Env()) if h is not None else ast.Constant(None))]
        drop_unused_loads(fn, 8)
        return fn

    def apply_undo(self) -> list:
        saved = "len(st.log), st.side, st.ply, st.h" + (", st.last" if self.last else "")
        apply = [S(f"st.trail.append(({saved}))"), S("nxt = DO[m[0]](st, m)"), S("st.side = nxt"), S("st.ply += 1")]
        if self.last:
            apply.append(S("st.last = m"))
        if self.hashing:
            apply += [S("k = st.h ^ SIDEKEY[nxt]"), S("seen = st.seen"), S("seen[k] = seen.get(k, 0) + 1")]
        undo = []
        if self.hashing:
            undo += [S("k = st.h ^ SIDEKEY[st.side]"), S("seen = st.seen"), S("c = seen[k] - 1"),
                     S("if c:\n    seen[k] = c\nelse:\n    del seen[k]")]
        undo += [S(f"{saved.replace('len(st.log)', 'mark')} = st.trail.pop()"), S("log = st.log"),
                 S("while len(log) > mark:\n    lst, i, old = log.pop()\n    lst[i] = old")]
        a, u = self._fn("apply", ("st", "m")), self._fn("undo", ("st",))
        a.body, u.body = apply, undo
        return [a, u]

    # ---- constants --------------------------------------------------------------------------

    def constants(self, used: set) -> list:
        g, w = self.game, self.world
        n = len(g.plan.players)
        out = [S(f"FILES = {w.files}"), S(f"RANKS = {w.ranks}"), S(f"NCELLS = {w.ncells}"),
               S(f"LONGEST = {w.longest}"), S(f"NPLAYERS = {n}"),
               S("ALLCELLS = range(NCELLS)"), S("ALLPLAYERS = range(NPLAYERS)"),
               S("UNLIMITED = 1 << 30"), S(f"MAX_PASSES = {MAX_PASSES}"),
               S("NEXT = _0", const(tuple((p + 1) % max(1, n) for p in range(n)))),
               S("SIDEKEY = _0", const(tuple(hash((4, p)) for p in range(n)))),
               S("CTRL = _0", const(tuple(g.ctrl))),
               S("INITIAL_COUNTERS = _0", const(tuple(g.counter_inits)))]
        if g.ctrl_at is not None:  # control by place: by cell and top piece (fold.Folded.ctrl_at)
            out += [S("CTRLAT = _0", const(g.ctrl_at)), S(f"NPIECES = {w.npieces}")]
        if self.world.surface is not None:  # the open table: its lattice, and each kind of piece's measures
            pitch, width, length = self.world.surface
            out += [S("PITCH = _0", ast.Constant(pitch)), S("WIDTH = _0", const(tuple(width))),
                    S("LENGTH = _0", const(tuple(length)))]
        for a in g.plan.attributes.values():
            if f"A_{a.name}" in used:
                out.append(S(f"A_{a.name} = _0", const(w.attr_tables[a.name])))
            if f"VIDX_{a.name}" in used:
                out.append(S(f"VIDX_{a.name} = _0", const({v: i for i, v in enumerate(a.numbers)})))
        for t in g.tables.values():
            if table_name(t.name) in used:
                out.append(S(f"{table_name(t.name)} = _0", const(self.table_constant(t))))
        for attr in sorted(self.x.suffix_sums):
            out.append(S(f"SUF_{attr} = {{}}"))
        if "LASTCELLS" in used:
            out.append(S("LASTCELLS = _0", const(tuple(
                tuple(k + 1 for k, (_, t) in enumerate(p.spec.choices)
                      if t == T.CELL or (t is not None and T.is_list(t) and t.elem == T.CELL)) for p in self.plans))))
        out.append(S("DIRSETS = _0", const(tuple(w.dirsets))))
        return out

    def table_constant(self, t):
        values = {k: self._value(v, t.value_type) for k, v in t.values.items()}
        keys = list(values)
        if all(isinstance(k, int) and not isinstance(k, bool) and 0 <= k <= 64 for k in keys):
            size = max(keys) + 1
            if t.key_type == T.PLAYER:  # room for neutral player values too (no entry: None)
                owner = next((a for a in self.game.plan.attributes.values() if a.players), None)
                size = max(size, len(owner.values) if owner else 0)
            return tuple(values.get(i) for i in range(size))
        return values

    def _value(self, v, typ):
        if typ == T.DIRSET:
            return self.world.dirset(v)
        return v

    # ---- the whole ----------------------------------------------------------------------------

    def write(self, title: str, options: dict, label) -> tuple:
        """(text, line map, board tables used) of the module."""
        functions = self.functions()
        tidied = []
        for f in functions:
            if isinstance(f, ast.FunctionDef):
                f = fold_constants(f)
                drop_dead_aliases(f)
                f.body = tidy(f.body)
                declare_nonlocals(f)
            tidied.append(f)
        used = set().union(*(loads(f) for f in tidied))
        # whether the end block reads the moves (`no_moves`): if not, callers need not list them to judge it
        self.outcome_reads_moves = any(isinstance(f, ast.FunctionDef) and f.name == "outcome" and "moves" in loads(f)
                                       for f in tidied)
        tables = sorted(used & set(World.TABLES))
        head = [Comment(f"Generated by ziggurat from {title}. Do not edit."),
                Comment("Options: " + (", ".join(f"{k}={v!r}" for k, v in options.items()) or "none")),
                Comment("count(st) is legal(st) counting instead of building moves: derived from legal when the"),
                Comment("module is loaded. The board's tables are passed in when it is loaded, computed from"),
                Comment("FILES, RANKS and DIRSETS: " + (", ".join(tables) or "none") + ".")]
        body = head + self.constants(used) + tidied
        text, linemap = render(body, label)
        return text, linemap, tables


__all__ = ["ModuleWriter", "load_module", "derive_count", "itertools", "os", "P"]
