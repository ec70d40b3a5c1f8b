"""Folded expressions to Python expression trees, with what the generator knows about its locals.

The generator knows things the rules do not say: a chosen cell's stack is already in a local, the
cell is known to be empty or occupied (so `empty(to)` is a constant), the top piece and its
controller are in locals, a piece's attributes were read once. `Var` holds that knowledge for
one bound name, `Env` for all of them; after effects the board may have changed, so what is known
about cells is forgotten (`Env.forget_cells`).
"""

from __future__ import annotations

import ast
from typing import Optional

from attrs import define, evolve, field

from ...dsl import ir
from ...dsl import types as T
from ...dsl.model import BUILTIN_DIRECTIONS
from ...dsl.resolve.names import UNLIMITED
from ..names import pyname
from .emit import Hoist, const, expr as E, hoist_into, name, stmt as S, to_expr

DIRECTION_NAMES = list(BUILTIN_DIRECTIONS)


def table_name(table: str) -> str:
    """The Python name of a table: `T_home`; a column `deck.colour` of a table with columns is
    `TC4_deck_colour` (the length keeps two tables' columns apart whatever their names)."""
    if "." in table:
        whole, column = table.split(".")
        return f"TC{len(whole)}_{whole}_{column}"
    return "T_" + table


@define
class Var:
    """What the generated code knows about one bound name."""

    py: str
    type: T.Type
    stack: Optional[str] = None  # a local holding cells[py] (valid while the board is unchanged)
    occupied: Optional[bool] = None  # for a cell: known to hold a stack, or to be empty
    top: Optional[str] = None  # a local holding the top piece of that stack
    ctrl: Optional[str] = None  # a local holding who controls it
    attrs: dict = field(factory=dict)  # for a piece: attribute -> a local holding its value
    hoist: Optional[tuple] = None  # for a chosen cell: (block, Hoist mark) where reads of its stack go
    hoisted: dict = field(factory=dict)  # what was hoisted there already: key -> local
    value: Optional[ast.expr] = None  # a let bound to a constant: the constant itself


@define
class Env:
    """The names in scope, and whether the board may be changing (in effects)."""

    vars: dict = field(factory=dict)
    effects: bool = False

    def bind(self, local: str, var: Var) -> "Env":
        v = dict(self.vars)
        v[local] = var
        return Env(v, self.effects)

    def in_effects(self) -> "Env":
        return Env(self.vars, True)

    def forget_cells(self) -> "Env":
        """After effects: cells may hold other stacks now, so nothing known about them stays."""
        return Env({k: (Var(v.py, v.type, value=v.value) if v.type == T.CELL else v) for k, v in self.vars.items()},
                   self.effects)


class Exprs:
    """Writes expressions of one folded game."""

    def __init__(self, game):
        self.game = game  # fold.Folded
        self.world = game.world
        self.suffix_sums: set = set()  # attributes summed over stacks (memo tables SUF_<attr>)

    # ---- values -----------------------------------------------------------------------------

    def constant(self, value, typ: T.Type) -> ast.expr:
        """A fixed value as Python: direction sets by number, everything else as it is."""
        if typ == T.DIRSET:
            return ast.Constant(self.world.dirset(value))
        if value == UNLIMITED and typ == T.INT:
            return name("UNLIMITED")
        if isinstance(value, tuple) and T.is_list(typ) and typ.elem == T.DIRSET:
            return const(tuple(self.world.dirset(v) for v in value))
        return ast.Constant(value)

    def expr(self, e, env: Env) -> ast.expr:
        return getattr(self, "x_" + type(e).__name__)(e, env)

    def x_Const(self, e, env):
        return self.constant(e.value, e.type)

    def x_Local(self, e, env):
        var = env.vars[e.name]
        return var.value if var.value is not None else name(var.py)

    def x_Global(self, e, env):
        if e.what == "cells":
            return name("ALLCELLS")
        if e.what == "players":
            return name("ALLPLAYERS")
        if e.what == "no_moves":
            return E("not moves")
        if e.what == "last":
            return E("_last_cells(_last, LASTCELLS) if _last else ALLCELLS")
        if e.what == "placed":
            return E("_placed(table[0])")
        return name(e.what)

    def zone(self, e: ir.ZoneRef, env) -> ast.expr:
        base = self.world.zone_index[e.name]
        if e.player is None:
            return ast.Constant(base)
        p = self.expr(e.player, env)
        if isinstance(p, ast.Constant):
            return ast.Constant(base + p.value)
        return E("_0 + _1", base, p) if base else p

    def x_ZoneRef(self, e, env):
        return self.zone(e, env)

    def x_CounterRef(self, e, env):
        return E("counters[_0]", self.counter_slot(e, env))

    def counter_slot(self, e: ir.CounterRef, env) -> ast.expr:
        base = self.world.counter_index[e.name]
        if e.cell is not None:  # a set's mark of one cell (dsl.sets)
            per = len(self.world.players) if e.player is not None else 1
            return E("_0 + _1 * _2", self.counter_slot(evolve(e, cell=None), env), self.expr(e.cell, env), per)
        if e.player is None:
            return ast.Constant(base)
        p = self.expr(e.player, env)
        return E("_0 + _1", base, p) if base else p

    def collection(self, e, env) -> ast.expr:
        """Python for iterating over a value: a zone's pieces, a direction set's directions, a list."""
        src = self.expr(e, env)
        if e.type == T.ZONE:
            return E("zones[_0]", src)
        if e.type == T.DIRSET:
            return E("DIRS[_0]", src)
        return src

    # ---- operators --------------------------------------------------------------------------

    def x_Not(self, e, env):
        operand = self.expr(e.operand, env)
        if isinstance(operand, ast.Constant):
            return ast.Constant(not operand.value)
        return ast.UnaryOp(ast.Not(), operand)

    def x_Neg(self, e, env):
        return ast.UnaryOp(ast.USub(), self.expr(e.operand, env))

    _BIN = {"+": ast.Add, "-": ast.Sub, "*": ast.Mult, "//": ast.FloorDiv, "%": ast.Mod}
    _CMP = {"==": ast.Eq, "!=": ast.NotEq, "<": ast.Lt, "<=": ast.LtE, ">": ast.Gt, ">=": ast.GtE,
            "in": ast.In, "not in": ast.NotIn}

    def x_Arith(self, e, env):
        return ast.BinOp(self.expr(e.left, env), self._BIN[e.op](), self.expr(e.right, env))

    def x_Compare(self, e, env):
        right = self.collection(e.right, env) if e.op in ("in", "not in") else self.expr(e.right, env)
        return ast.Compare(self.expr(e.left, env), [self._CMP[e.op]()], [right])

    def x_BoolOp(self, e, env):
        """`and` / `or`, with what the generator knows folded: a known-true part of an `and`
        disappears, a known-false one makes it false."""
        kept = []
        for v in (self.expr(v, env) for v in e.values):
            if isinstance(v, ast.Constant):
                if (e.op == "and") != bool(v.value):
                    return ast.Constant(e.op == "or")
                continue
            kept.append(v)
        if not kept:
            return ast.Constant(e.op == "and")
        if len(kept) == 1:
            return kept[0]
        return ast.BoolOp(ast.And() if e.op == "and" else ast.Or(), kept)

    def x_Ternary(self, e, env):
        test = self.expr(e.cond, env)
        if isinstance(test, ast.Constant):
            return self.expr(e.then if test.value else e.orelse, env)
        return ast.IfExp(test, self.expr(e.then, env), self.expr(e.orelse, env))

    def x_Range(self, e, env):
        lo, hi = self.expr(e.lo, env), self.expr(e.hi, env)
        if isinstance(lo, ast.Constant) and isinstance(hi, ast.Constant):
            return E("range(_0, _1)", lo.value, hi.value + 1)
        return E("range(_0, _1 + 1)", lo, hi)

    def x_ListLit(self, e, env):
        return ast.Tuple([self.expr(i, env) for i in e.items], ast.Load())

    def x_ListJoin(self, e, env):
        return E("tuple(_0) + tuple(_1)", self.expr(e.left, env), self.expr(e.right, env))

    def x_AsDirset(self, e, env):
        self.world.single_dirsets()
        return E("DIRSET1[_0]", self.expr(e.operand, env))

    def x_DirUnion(self, e, env):  # folded away (fold refuses one that is not fixed)
        raise AssertionError("a direction set union left after folding")

    def x_PieceLit(self, e, env):
        offset, parts = self.world.piece_terms(e.parts)
        terms = []
        for v, stride, a, lookup in parts:
            index = self.expr(v, env)
            if lookup:
                index = E("VIDX_" + a.name + "[_0]", index)
            terms.append(index if stride == 1 else E("_0 * _1", stride, index))
        out = terms[0] if terms else ast.Constant(offset)
        for t in terms[1:]:
            out = E("_0 + _1", out, t)
        if terms and offset:
            out = E("_0 + _1", out, offset)
        return out

    # ---- pieces, cells, lists ---------------------------------------------------------------

    def x_Attr(self, e, env):
        if e.obj.type == T.CELL:
            return E(("RANK" if e.name == "rank" else "FILE") + "[_0]", self.expr(e.obj, env))
        if isinstance(e.obj, ir.Local):
            var = env.vars[e.obj.name]
            if e.name in var.attrs:
                return name(var.attrs[e.name])
        return E("A_" + e.name + "[_0]", self.expr(e.obj, env))

    def x_Index(self, e, env):
        idx = self.expr(e.index, env)
        if e.obj.type == T.CELL:
            return E("_0[_1 - 1]", self.stack_of(e.obj, env), idx)
        src = E("zones[_0]", self.expr(e.obj, env)) if e.obj.type == T.ZONE else self.expr(e.obj, env)
        return E("_0[_1 - 1]", src, idx)

    def x_TableGet(self, e, env):
        return E(table_name(e.name) + "[_0]", self.expr(e.key, env))

    def stack_of(self, cell, env) -> ast.expr:
        """The stack on a cell: a local alias where the board cannot change meanwhile."""
        if isinstance(cell, ir.Local) and not env.effects:
            var = env.vars[cell.name]
            if var.stack is not None:
                return name(var.stack)
        return E("cells[_0]", self.expr(cell, env))

    def cell_var(self, cell, env) -> Optional[Var]:
        if isinstance(cell, ir.Local) and not env.effects:
            return env.vars[cell.name]
        return None

    # ---- calls ------------------------------------------------------------------------------

    STACK_CALLS = {
        "height": "len(_s)", "top": "_s[-1]", "bottom": "_s[0]", "stack": "_s", "above": "_s[_1:]",
        "below": "_s[:_1 - 1]", "empty": "not _s", "occupied": "_s != ()",
        "controller": "CTRL[_s[-1]] if _s else -1", "mine": "_s != () and CTRL[_s[-1]] == mover",
        "theirs": "_s != () and -1 != CTRL[_s[-1]] != mover",
    }
    PLACE_CALLS = {  # the same, where control reads the cell (`control:` by place): stack _0 on cell _1
        "controller": "CTRLAT[_1 * NPIECES + _0[-1]] if _0 else -1",
        "mine": "_0 != () and CTRLAT[_1 * NPIECES + _0[-1]] == mover",
        "theirs": "_0 != () and -1 != CTRLAT[_1 * NPIECES + _0[-1]] != mover",
    }
    CELL_CALLS = {
        "corner": "CORNER[_0]", "edge": "EDGE[_0]", "ray": "_ray(cells, RAYS[_1][_0], _2)",
        "neighbours": "NEIGH[_1][_0]", "line": "LINES[_1][_0]", "step": "STEP[_1][_0]", "on_board": "_0 >= 0",
        "distance": "DIST[_0][_1]", "direction": "DIRTO[_0][_1]", "flanked": "_flanked(cells, CTRL, LINE1[_1][_0], _2)",
        "connected": "_connected(_0, NEIGH[_1])", "between": "_between(_0, _1, FILES)",
        "run": "_run(cells, CTRL, LINE1[_1][_0], _2)",
        "abs": "abs(_0)", "len": "len(_0)", "shuffled": "_shuffled(rng, _0)", "ways": "_ways(_0, _1, _2)",
        "showing": "_showing(_0, _1, _2)",
    }

    TABLE_CALLS = {  # the open table's functions (interpreter/geometry.py), by number of arguments
        ("lattice", 1): "_lattice(table[0], WIDTH, LENGTH, PITCH, _0)",
        ("lattice", 3): "_lattice(table[0], WIDTH, LENGTH, PITCH, _0, _1, _2)",
        ("flush", 2): "_flush(table[0], WIDTH, LENGTH, _0, _1)",
        ("flush", 3): "_flush(table[0], WIDTH, LENGTH, _0, _1, _2)",
        ("overlaps", 2): "_overlaps(table[0], WIDTH, LENGTH, _0, _1)",
        ("hit", 2): "_hit(table[0], WIDTH, LENGTH, _0, _1)",
        ("piece_at", 1): "_piece_at(table[0], _0)",
        ("on_table", 1): "_on_table(table[0], _0)",
        ("standing", 1): "_0 & 7 == 0",
        ("pointing", 1): "(_0 & 7) - 1",
        ("dist2", 2): "_dist2(_0, _1)",
        ("nearest", 2): "_nearest(_0, _1)",
    }

    def x_Call(self, e, env):
        fn = e.fn
        if (fn, len(e.args)) in self.TABLE_CALLS:
            args = [self.collection(a, env) if T.is_list(a.type) else self.expr(a, env) for a in e.args]
            return E(self.TABLE_CALLS[fn, len(e.args)], *args)
        if fn in self.PLACE_CALLS and self.game.ctrl_at is not None:  # control by place: the cell too
            return E(self.PLACE_CALLS[fn], self.stack_of(e.args[0], env), self.expr(e.args[0], env))
        if fn in self.STACK_CALLS:
            known = self.known_occupancy(fn, e.args[0], env)
            if known is not None:
                return known
            s = self.stack_of(e.args[0], env)
            rest = [self.expr(a, env) for a in e.args[1:]]
            return _fill_stack(self.STACK_CALLS[fn], s, rest)
        if fn == "step" and len(e.args) == 3:
            c, d, k = (self.expr(a, env) for a in e.args)
            if isinstance(k, ast.Constant) and 0 <= k.value <= self.world.longest:  # a table lookup
                return E("STEPK[_0][_1][_2]", k.value, d, c)
            return E("_stepk(_0, LINE1[_1][_0], _2)", c, d, k)
        if fn in self.CELL_CALLS:
            args = [self.collection(a, env) if fn == "len" else self.expr(a, env) for a in e.args]
            return E(self.CELL_CALLS[fn], *args)
        if fn in ("min", "max") and len(e.args) >= 2:
            return ast.Call(name(fn), [self.expr(a, env) for a in e.args], [])
        if fn in ("sum", "any", "all"):
            return E(fn + "(_0)", self.collection(e.args[0], env))
        if fn in ("min", "max"):
            return E(fn + "(_0, default=0)", self.collection(e.args[0], env))
        if fn == "repeated_board":  # the same pieces everywhere, whoever is to move
            return E("sum(seen.get(st.h ^ _k, 0) for _k in SIDEKEY) >= _0", self.expr(e.args[0], env))
        if fn == "repeated":
            return E("seen.get(st.h ^ SIDEKEY[mover], 0) >= _0", self.expr(e.args[0], env))
        raise AssertionError(f"no Python for the built-in {fn!r}")

    def known_occupancy(self, fn: str, cell, env) -> Optional[ast.expr]:
        """Fold a cell test when the generator already knows whether the cell is empty."""
        var = self.cell_var(cell, env)
        if var is None or var.occupied is None or var.stack is None:
            return None
        if fn == "empty":
            return ast.Constant(not var.occupied)
        if fn == "occupied":
            return ast.Constant(var.occupied)
        if not var.occupied:
            return {"height": ast.Constant(0), "mine": ast.Constant(False), "theirs": ast.Constant(False),
                    "controller": ast.Constant(-1)}.get(fn)
        top = name(var.top) if var.top else E("_0[-1]", var.stack)
        ctrl = name(var.ctrl) if var.ctrl else E("CTRL[_0]", top)
        if fn == "mine":
            return E("_0 == mover", ctrl)
        if fn == "theirs":
            return E("-1 != _0 != mover", ctrl)
        if fn == "controller":
            return ctrl
        if fn == "top" and var.top:
            return top
        return None

    # ---- comprehensions ---------------------------------------------------------------------

    def x_Comp(self, e, env):
        fast = self.attribute_sum(e, env)
        if fast is not None:
            return fast
        inner = env
        gens = []
        for f in e.fors:
            it = self.collection(f.iter, inner)
            var = pyname(f.var)
            inner = inner.bind(f.var, Var(var, T.element(f.iter.type) or T.ANY))
            ifs = [self.expr(f.cond, inner)] if f.cond is not None else []
            gens.append(ast.comprehension(ast.Name(var, ast.Store()), it, ifs, 0))
        gen = ast.GeneratorExp(self.expr(e.elt, inner), gens)
        fn = e.func
        if fn in ("sum", "all", "any"):
            return E(fn + "(_0)", gen)
        if fn == "count":
            return E("sum((1 for _ in _0 if _))", gen)
        if fn in ("min", "max"):
            return E(fn + "(_0, default=0)", gen)
        if fn == "list":
            return E("tuple(_0)", gen)
        if fn == "product":
            return E("_product(_0)", gen)
        raise AssertionError(fn)

    def attribute_sum(self, e: ir.Comp, env) -> Optional[ast.expr]:
        """sum(x.attr for x in S): a stack's or zone's sums are kept per distinct stack (stacks are
        tuples, so equal stacks share an entry); any other list is summed by a table lookup map."""
        if e.func != "sum" or len(e.fors) != 1 or e.fors[0].cond is not None:
            return None
        f, elt = e.fors[0], e.elt
        if not (isinstance(elt, ir.Attr) and isinstance(elt.obj, ir.Local) and elt.obj.name == f.var
                and elt.obj.type == T.PIECE and elt.name in self.game.plan.attributes):
            return None
        attr, it = elt.name, f.iter
        memo = f"SUF_{attr}"
        if it.type == T.ZONE:
            self.suffix_sums.add(attr)
            zone = E("zones[_0]", self.expr(it, env))
            return E(f"({memo}.get(_0) or _suffix({memo}, A_{attr}, _0))[0]", zone)
        if isinstance(it, ir.Call) and it.fn in ("stack", "above", "below"):
            self.suffix_sums.add(attr)
            cell = it.args[0]
            stack = self.stack_of(cell, env)
            suf = E(f"{memo}.get(_0) or _suffix({memo}, A_{attr}, _0)", stack)
            var = self.cell_var(cell, env)
            if var is not None and var.hoist is not None and var.stack is not None:
                suf = name(self.hoisted(var, f"_u{len(attr)}_{attr}_{var.py}", suf))
            if it.fn == "stack":
                return E("_0[0]", suf)
            k = self.expr(it.args[1], env)
            if it.fn == "above":
                return E("_0[_1]", suf, k)
            return E("_0[0] - _0[_1 - 1]", suf, k)
        return E(f"sum(map(A_{attr}.__getitem__, _0))", self.collection(it, env))

    @staticmethod
    def hoisted(var: Var, alias: str, value: ast.expr) -> str:
        """`value`, which reads only the chosen cell's stack, computed once where the cell was
        chosen rather than in every loop below it; the local's name."""
        if alias not in var.hoisted:
            assert var.hoist is not None  # the caller asks only for a chosen cell (var.hoist set)
            block, mark = var.hoist
            hoist_into(block, mark, S("_0 = _1", alias, value))
            var.hoisted[alias] = alias
        return alias


def _fill_stack(template: str, stack: ast.expr, rest: list) -> ast.expr:
    """A stack template: `_s` is the stack, `_1`, `_2` the other arguments."""
    text = template.replace("_s", "_0")
    return E(text, stack, *rest)


__all__ = ["Env", "Exprs", "Var", "pyname", "Hoist", "to_expr", "evolve"]
