"""Folded expressions to the native module's Python (the subset Numba compiles), over the
position vector `s` (see `layout`).

Every construct the native backend handles has a case here; anything else raises `Unsupported`
with the construct's name and where the rules wrote it, and the game falls back to the Python
backend. What reaches the text is only numbers, names made from checked rules names (`v_...`,
as in the Python backend) and the module's own names: no text from a ruleset is pasted in.

Expressions that need a loop (a sum, `any`, `count`, a flanked run's length) write their loop into
the code before the line that uses them, and stand for the local holding the result; loops over a
collection (`cells`, a direction set, neighbours, a ray, a stack, a zone) are `open_loop` /
`close_loop`.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Optional

from ...dsl import ir
from ...dsl import types as T
from ...dsl.model import BUILTIN_DIRECTIONS
from ..names import pyname
from ...errors import Unsupported

DIRECTION_NAMES = list(BUILTIN_DIRECTIONS)


class Code:
    """Lines of Python with their indentation, and fresh local names."""

    def __init__(self, fresh=None, top=None):
        self.lines: list = []
        self.depth = 0
        self._fresh = fresh if fresh is not None else [0]
        self.top = top if top is not None else {}  # buffers allocated once, at the function's top

    def sub(self) -> "Code":
        """Lines written apart (to be pasted in later), sharing fresh names and buffers."""
        return Code(self._fresh, self.top)

    def buffer(self, name: str, *shape: int) -> None:
        """A fixed int64 array `name` allocated once at the top of the function (not in a loop);
        the same name asked for again gets the larger shape."""
        old = self.top.get(name)
        self.top[name] = tuple(max(a, b) for a, b in zip(old, shape)) if old else tuple(max(1, s) for s in shape)

    def __call__(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)

    def fresh(self, stem: str) -> str:
        self._fresh[0] += 1
        return f"_{stem}{self._fresh[0]}"

    @contextmanager
    def block(self, header: str):
        self(header)
        self.depth += 1
        start = len(self.lines)
        yield
        if len(self.lines) == start:
            self("pass")
        self.depth -= 1

    def text(self) -> str:
        """The function's text; buffers go right after its `def` line (the second line)."""
        alloc = [f"    {n} = np.empty({s[0] if len(s) == 1 else s}, np.int64)" for n, s in sorted(self.top.items())]
        return "\n".join(self.lines[:2] + alloc + self.lines[2:])


def fail(e, what: Optional[str] = None):
    raise Unsupported(what or _describe(e), getattr(e, "pos", None))


def _describe(e) -> str:
    kind = type(e).__name__
    if isinstance(e, ir.Call):
        return f"the built-in {e.fn}()"
    if isinstance(e, ir.Effect):
        return f"the effect {e.fn}()"
    return {"Comp": "this comprehension", "ListLit": "a list used as a value", "ListJoin": "a joined list",
            "Range": "a range used as a value", "Index": "an index into a list or zone", "TableGet": "this table",
            "Repeat": "a repeated part (repeat ... while)", "Stage": "effects followed by more choices",
            "AfterPart": "the after block", "Measure": "weight / seen by", "DirUnion": "a union of directions",
            }.get(kind, f"the construct {kind}")


class Exprs:
    """Writes expressions of one folded game into `Code`."""

    def __init__(self, folded, tables: dict):
        self.game = folded
        self.world = folded.world
        self.tables = tables  # name -> numpy-able rows (filled as the expressions use them)
        self.uses_last = False
        self.cap = 64  # the deepest stack (the writer sets the layout's)
        self.caps: dict = {}  # a list buffer's name -> the most items it holds
        self.table_names: dict = {}  # a table's name in the module -> its name in the rules

    # ---- values ---------------------------------------------------------------------------------

    def const(self, value, typ, e=None) -> str:
        if typ == T.DIRSET:
            return str(self.world.dirset(value))
        if isinstance(value, bool):
            return "True" if value else "False"
        if isinstance(value, int):
            return str(value)
        fail(e, "a value that is not a number" if e is None else None)

    def expr(self, e, env: dict, code: Code) -> str:
        method = getattr(self, "x_" + type(e).__name__, None)
        if method is None:
            fail(e)
        return method(e, env, code)

    def x_Const(self, e, env, code):
        if isinstance(e.value, tuple) and e.type != T.DIRSET:
            fail(e, "a list used as a value")
        return self.const(e.value, e.type, e)

    def x_Local(self, e, env, code):
        if e.name not in env:
            fail(e, f"the name {e.name.split('#')[0]!r} here")
        return env[e.name]

    def x_Global(self, e, env, code):
        if e.what in ("mover", "ply"):
            return e.what
        if e.what == "files":
            return str(self.world.files)
        if e.what == "ranks":
            return str(self.world.ranks)
        if e.what == "no_moves":
            return "(nmoves == 0)"
        fail(e, f"'{e.what}' used as a value")

    def zone(self, e: ir.ZoneRef, env, code) -> str:
        if isinstance(e, ir.Ternary):
            c = self.expr(e.cond, env, code)
            return f"({self.zone(e.then, env, code)} if {c} else {self.zone(e.orelse, env, code)})"
        if not isinstance(e, ir.ZoneRef):
            fail(e, "a zone written as " + _describe(e))
        base = self.world.zone_index[e.name]
        if e.player is None:
            return str(base)
        return f"({base} + {self.expr(e.player, env, code)})"

    def x_ZoneRef(self, e, env, code):
        fail(e, "a zone used as a value")

    def x_CounterRef(self, e, env, code):
        return f"s[CNT + {self.counter_slot(e, env, code)}]"

    def counter_slot(self, e: ir.CounterRef, env, code) -> str:
        base = self.world.counter_index[e.name]
        if e.player is None:
            return str(base)
        return f"({base} + {self.expr(e.player, env, code)})"

    # ---- operators --------------------------------------------------------------------------

    def x_Not(self, e, env, code):
        return f"(not {self.expr(e.operand, env, code)})"

    def x_Neg(self, e, env, code):
        return f"(-{self.expr(e.operand, env, code)})"

    def x_Arith(self, e, env, code):
        if e.op not in ("+", "-", "*", "//", "%"):
            fail(e, f"the operator {e.op}")
        return f"({self.expr(e.left, env, code)} {e.op} {self.expr(e.right, env, code)})"

    def x_Compare(self, e, env, code):
        left = self.expr(e.left, env, code)
        if e.op in ("in", "not in"):
            items = self.constant_items(e.right)
            if items is None:
                found = self.member(left, e, env, code)
                return found if e.op == "in" else f"(not {found})"
            t = code.fresh("x")
            code(f"{t} = {left}")
            test = " or ".join(f"{t} == {v}" for v in items) or "False"
            return f"({test})" if e.op == "in" else f"(not ({test}))"
        return f"({left} {e.op} {self.expr(e.right, env, code)})"

    def member(self, left: str, e, env, code) -> str:
        """Whether the value `left` is in the collection e.right: a zone's count, else a loop."""
        if e.right.type == T.ZONE:
            return f"zone_has(s, {self.zone(e.right, env, code)}, {left})"
        t = code.fresh("x")
        code(f"{t} = {left}")
        name = f"in#{t}"
        elem = T.element(e.right.type) or e.left.type
        local = ir.Local(name, elem)
        probe = ir.Compare("==", local, ir.Local(f"{name}=", elem), T.BOOL)
        return self.fold_fors("any", probe, [ir.CompFor(name, e.right, None)], {**env, f"{name}=": t}, code)

    # ---- lists: a buffer `b` (an int64 array allocated once) and its length `b_n` ------------

    def iter_cap(self, it, env) -> Optional[int]:
        """The most values a loop over `it` binds (None: not known before the game runs)."""
        w = self.world
        if isinstance(it, ir.Global):
            return {"cells": w.ncells, "players": len(self.game.plan.players)}.get(it.what)
        if isinstance(it, ir.Local) and T.is_list(it.type):
            return self.caps.get(env.get(it.name))
        if isinstance(it, ir.Const) and isinstance(it.value, tuple):
            return len(it.value)
        if isinstance(it, ir.ListLit):
            return len(it.items)
        if isinstance(it, ir.Range):
            if isinstance(it.lo, ir.Const) and isinstance(it.hi, ir.Const):
                return max(0, it.hi.value - it.lo.value + 1)
            if isinstance(it.hi, ir.Call) and it.hi.fn in ("height", "len") and isinstance(it.lo, ir.Const):
                if it.hi.fn == "height":
                    return self.cap
                return self.iter_cap(it.hi.args[0], env)
            return None
        if it.type == T.DIRSET:
            return 8
        if isinstance(it, ir.Call):
            if it.fn in ("stack", "above", "below"):
                return self.cap
            if it.fn == "between":
                return max(1, w.longest)
            if it.fn == "neighbours":
                return 8
            if it.fn in ("ray", "line"):
                return 8 * max(1, w.longest)
            if it.fn == "flanked":
                return max(1, w.longest)
        if isinstance(it, ir.Comp) and it.func == "list":
            return self.comp_cap(it, env)
        if isinstance(it, (ir.ListJoin, ir.Ternary)):
            a, b = (self.iter_cap(it.left, env), self.iter_cap(it.right, env)) if isinstance(it, ir.ListJoin) else (
                self.iter_cap(it.then, env), self.iter_cap(it.orelse, env))
            if a is None or b is None:
                return None
            return a + b if isinstance(it, ir.ListJoin) else max(a, b)
        return None

    def comp_cap(self, e, env) -> Optional[int]:
        n = 1
        inner = dict(env)
        for f in e.fors:
            k = self.iter_cap(f.iter, inner)
            if k is None:
                return None
            n *= k
            inner[f.var] = pyname(f.var)
        return n

    def list_cap(self, e, env) -> int:
        cap = self.iter_cap(e, env)
        if cap is None:
            fail(e, f"a list whose length is not bounded ({_describe(e)})")
        return cap

    def bind_list(self, var: str, e, env, code) -> None:
        """var (a buffer) and var_n := the list e."""
        cap = self.list_cap(e, env)
        code.buffer(var, cap)
        self.caps[var] = cap
        self.fill(e, env, code, lambda k: f"{var}[{k}]", f"{var}_n")

    def fill(self, e, env, code, slot, n: str, append: bool = False) -> None:
        """Write the items of the list e into slot(0), slot(1), ... and their count into n (with
        `append`, after the n items already there)."""
        if not append:
            code(f"{n} = 0")
        if isinstance(e, ir.ListJoin):
            self.fill(e.left, env, code, slot, n, True)
            self.fill(e.right, env, code, slot, n, True)
            return
        if isinstance(e, ir.Ternary):
            code(f"if {self.expr(e.cond, env, code)}:")
            code.depth += 1
            self.fill(e.then, env, code, slot, n, True)
            code.depth -= 1
            code("else:")
            code.depth += 1
            self.fill(e.orelse, env, code, slot, n, True)
            code.depth -= 1
            return
        items = self.constant_items(e) if isinstance(e, (ir.Const, ir.ListLit)) else None
        if items is None and isinstance(e, ir.ListLit):
            items = [self.expr(i, env, code) for i in e.items]
        if items is not None:
            for v in items:
                code(f"{slot(n)} = {v}")
                code(f"{n} += 1")
            return
        inner = dict(env)
        if isinstance(e, ir.Comp) and e.func == "list":
            fors, elt = e.fors, e.elt
        else:  # any collection a loop can go over
            name = f"item#{code.fresh('')}"
            fors, elt = [ir.CompFor(name, e, None)], ir.Local(name, T.element(e.type) or T.INT)
        opened = self.open_fors(fors, inner, code)
        code(f"{slot(n)} = {self.expr(elt, inner, code)}")
        code(f"{n} += 1")
        for levels in reversed(opened):
            self.close_loop(levels, code)

    def materialize(self, e, env, code) -> str:
        """A buffer holding the list e (its own, if e names one)."""
        if isinstance(e, ir.Local) and T.is_list(e.type):
            return self.expr(e, env, code)
        b = code.fresh("l")
        self.bind_list(b, e, env, code)
        return b

    def constant_items(self, e) -> Optional[list]:
        elem = T.element(e.type)
        if isinstance(e, ir.Const) and isinstance(e.value, tuple):
            return [self.const(v, elem) for v in e.value]
        if isinstance(e, ir.ListLit) and all(isinstance(i, ir.Const) for i in e.items):
            return [self.const(i.value, i.type, i) for i in e.items]
        return None

    def x_BoolOp(self, e, env, code):
        """`and` / `or`, short-circuit: a part that needs a loop (a sum, an `any`) is computed
        only when the parts before it leave the answer open."""
        parts = []
        for v in e.values:
            sub = code.sub()
            parts.append((self.expr(v, env, sub), sub.lines))
        if all(not lines for _, lines in parts[1:]):
            for _, lines in parts[:1]:
                code.lines.extend("    " * code.depth + line for line in lines)
            return "(" + f" {e.op} ".join(text for text, _ in parts) + ")"
        acc = code.fresh("b")
        text, lines = parts[0]
        code.lines.extend("    " * code.depth + line for line in lines)
        code(f"{acc} = bool({text})")
        opened = 0
        for text, lines in parts[1:]:
            code(f"if {acc}:" if e.op == "and" else f"if not {acc}:")
            code.depth += 1
            opened += 1
            code.lines.extend("    " * code.depth + line for line in lines)
            code(f"{acc} = bool({text})")
        code.depth -= opened
        return acc

    def x_Ternary(self, e, env, code):
        c = self.expr(e.cond, env, code)
        then, orelse = code.sub(), code.sub()
        a, b = self.expr(e.then, env, then), self.expr(e.orelse, env, orelse)
        if not then.lines and not orelse.lines:
            return f"({a} if {c} else {b})"
        t = code.fresh("t")
        code(f"if {c}:")
        code.lines.extend("    " * (code.depth + 1) + line for line in then.lines)
        code(f"    {t} = {a}")
        code("else:")
        code.lines.extend("    " * (code.depth + 1) + line for line in orelse.lines)
        code(f"    {t} = {b}")
        return t

    def x_PieceLit(self, e, env, code):
        offset, parts = self.world.piece_terms(e.parts)
        terms = []
        for v, stride, a, lookup in parts:
            attr = a.name
            index = self.expr(v, env, code)
            if lookup:
                if min(a.numbers) < 0 or max(a.numbers) > 4096:
                    fail(e, f"a piece made from the attribute {attr}'s values")
                row = [0] * (max(a.numbers) + 1)
                for i, n in enumerate(a.numbers):
                    row[n] = i
                self.tables[f"VIDX_{attr}"] = row
                index = f"VIDX_{attr}[{index}]"
            terms.append(index if stride == 1 else f"{stride} * {index}")
        return "(" + " + ".join(terms + [str(offset)]) + ")"

    def x_AsDirset(self, e, env, code):
        self.world.single_dirsets()
        self.tables["DIRSET1"] = list(self.world.DIRSET1)
        return f"DIRSET1[{self.expr(e.operand, env, code)}]"

    # ---- pieces, cells ------------------------------------------------------------------------

    def x_Attr(self, e, env, code):
        obj = self.expr(e.obj, env, code)
        if e.obj.type == T.CELL:
            table = "RANK" if e.name == "rank" else "FILE"
            self.tables[table] = list(getattr(self.world, table))
            return f"{table}[{obj}]"
        if e.obj.type == T.PIECE and e.name in self.world.attr_tables:
            self.tables[f"A_{e.name}"] = list(self.world.attr_tables[e.name])
            return f"A_{e.name}[{obj}]"
        fail(e, f"the attribute .{e.name} here")

    def x_Index(self, e, env, code):
        if e.obj.type == T.ZONE:  # its pieces in the order they came
            return f"s[ZON + {self.zone(e.obj, env, code)} * ZW + {self.expr(e.index, env, code)}]"
        if isinstance(e.obj, ir.Call) and e.obj.fn == "between":
            a, b = (self.expr(x, env, code) for x in e.obj.args)
            return f"between_at({a}, {b}, {self.expr(e.index, env, code)})"
        if e.obj.type == T.CELL:
            c = self.expr(e.obj, env, code)
            return f"s[STK + {c} * CAP + {self.expr(e.index, env, code)} - 1]"
        if T.is_list(e.obj.type) and e.obj.type != T.ZONE:
            b = self.materialize(e.obj, env, code)
            return f"{b}[{self.expr(e.index, env, code)} - 1]"
        fail(e)

    def x_TableGet(self, e, env, code):
        t = self.game.tables.get(e.name)  # a table of several columns: one table a column, "name.column"
        if t is None:
            fail(e)
        keys = list(t.values)
        if not keys or not all(isinstance(k, int) and not isinstance(k, bool) and 0 <= k <= 4096 for k in keys):
            fail(e, f"the table {e.name} (its keys are not small numbers)")
        row = []
        size = max(keys) + 1
        if t.key_type == T.PLAYER:
            owner = next((a for a in self.game.plan.attributes.values() if a.players), None)
            size = max(size, len(owner.values) if owner else 0)
        for k in range(size):
            if k not in t.values:
                row.append(0)  # no entry: fold refuses a key that can be asked for
                continue
            v = t.values[k]
            if t.value_type == T.DIRSET:
                v = self.world.dirset(v)
            if isinstance(v, bool):
                v = int(v)
            if not isinstance(v, int):
                fail(e, f"the table {e.name} (its values are not numbers)")
            row.append(v)
        name = "T_" + e.name.replace(".", "__")  # a column: "T_table__column"
        if self.table_names.setdefault(name, e.name) != e.name:
            fail(e, f"the table {e.name} (its name in the module is taken)")
        self.tables[name] = row
        return f"{name}[{self.expr(e.key, env, code)}]"

    # ---- calls ------------------------------------------------------------------------------

    STACK = {
        "height": "s[HGT + {c}]", "top": "s[STK + {c} * CAP + s[HGT + {c}] - 1]", "bottom": "s[STK + {c} * CAP]",
        "empty": "(s[HGT + {c}] == 0)", "occupied": "(s[HGT + {c}] > 0)",
        # written out rather than called: Numba does not inline its calls, and these run in every loop
        "controller": "(CTRL[s[STK + {c} * CAP + s[HGT + {c}] - 1]] if s[HGT + {c}] > 0 else -1)",
        "mine": "(s[HGT + {c}] > 0 and CTRL[s[STK + {c} * CAP + s[HGT + {c}] - 1]] == mover)",
        "theirs": "(s[HGT + {c}] > 0 and CTRL[s[STK + {c} * CAP + s[HGT + {c}] - 1]] != mover"
                  " and CTRL[s[STK + {c} * CAP + s[HGT + {c}] - 1]] != -1)",
    }

    def x_Call(self, e, env, code):
        fn, args = e.fn, e.args
        if fn in self.STACK:
            c = self.cell(args[0], env, code)
            return self.STACK[fn].format(c=c)
        if fn == "abs":
            return f"abs({self.expr(args[0], env, code)})"
        if fn in ("min", "max") and len(args) >= 2:
            return f"{fn}({', '.join(self.expr(a, env, code) for a in args)})"
        if fn == "on_board":
            return f"({self.expr(args[0], env, code)} >= 0)"
        if fn in ("corner", "edge"):
            table = fn.upper()
            self.tables[table] = [int(x) for x in getattr(self.world, table)]
            return f"({table}[{self.expr(args[0], env, code)}] != 0)"
        if fn == "distance":
            self.tables["DIST"] = [list(r) for r in self.world.DIST]
            return f"DIST[{self.expr(args[0], env, code)}, {self.expr(args[1], env, code)}]"
        if fn == "step" and len(args) == 3:
            self.lines_table()
            c, d, k = (self.expr(a, env, code) for a in args)
            return f"step_k(s, {c}, {d}, {k})"
        if fn == "between":
            fail(e, "between() used as a value")
        if fn == "step" and len(args) == 2:
            self.tables["STEP"] = [list(r) for r in self.world.STEP]
            return f"STEP[{self.expr(args[1], env, code)}, {self.expr(args[0], env, code)}]"
        if fn == "run":
            self.lines_table()
            c, d, p = (self.expr(a, env, code) for a in args)
            return f"run_of(s, {c}, {d}, {p})"
        if fn == "len":
            return self.length(args[0], env, code, e)
        if fn == "repeated":
            return f"(repeats(hist, nhist) >= {self.expr(args[0], env, code)})"
        if fn == "repeated_board":
            return f"(repeats_board(hist, nhist, s) >= {self.expr(args[0], env, code)})"
        if fn in ("ways", "showing") and len(args) == 3:  # the arithmetic of dice (dsl.dice)
            return f"dice_{fn}({', '.join(self.expr(a, env, code) for a in args)})"
        if fn == "connected":
            self.neighbours_table()
            b = self.materialize(args[0], env, code)
            code.buffer("_mark", self.world.ncells)
            code.buffer("_todo", self.world.ncells)
            return f"connected_cells({b}, {b}_n, {self.expr(args[1], env, code)}, _mark, _todo)"
        if fn in ("sum", "any", "all", "min", "max") and len(args) == 1:
            return self.fold_loop(fn, None, "x", args[0], None, env, code, e)
        fail(e)

    def cell(self, e, env, code) -> str:
        """A cell expression, in a local unless it is a name or a number (it is read several times)."""
        c = self.expr(e, env, code)
        if c.isidentifier() or c.lstrip("-").isdigit():
            return c
        t = code.fresh("c")
        code(f"{t} = {c}")
        return t

    def lines_table(self) -> None:
        self.tables["LN"] = self.tables["LNN"] = None  # geometry: built once every direction set is known

    def dirsets_table(self) -> None:
        self.tables["DS"] = self.tables["DSN"] = None

    def neighbours_table(self) -> None:
        self.tables["NB"] = self.tables["NBN"] = None

    def geometry(self, name: str):
        """The rows of a geometry table, from the world as it stands (every direction set the
        expressions named registered)."""
        w = self.world
        longest = max(1, w.longest)
        if name == "LN":
            return [[list(line) + [-1] * (longest - len(line)) for line in per_dir] for per_dir in w.LINE1]
        if name == "LNN":
            return [[len(line) for line in per_dir] for per_dir in w.LINE1]
        if name == "DS":
            return [list(d) + [0] * (8 - len(d)) for d in w.DIRS] or [[0] * 8]
        if name == "DSN":
            return [len(d) for d in w.DIRS] or [0]
        if name == "NB":
            return [[list(n) + [-1] * (8 - len(n)) for n in per_set] for per_set in w.NEIGH] or [[[-1] * 8]]
        if name == "NBN":
            return [[len(n) for n in per_set] for per_set in w.NEIGH] or [[0]]
        raise KeyError(name)

    def length(self, e, env, code, whole) -> str:
        if isinstance(e, ir.Call) and e.fn == "flanked":
            self.lines_table()
            c, d, p = (self.expr(a, env, code) for a in e.args)
            return f"flank_len(s, {c}, {d}, {p})"
        if isinstance(e, ir.Call) and e.fn in ("stack",):
            return f"s[HGT + {self.expr(e.args[0], env, code)}]"
        if e.type == T.ZONE:
            z = self.zone(e, env, code)
            return f"zone_len(s, {z})"
        if isinstance(e, ir.Local) and T.is_list(e.type):
            return f"{self.expr(e, env, code)}_n"
        return self.fold_loop("count", ir.Const(True, T.BOOL), "_", e, None, env, code, whole)

    # ---- loops ------------------------------------------------------------------------------

    def x_Comp(self, e, env, code):
        if e.func not in ("sum", "count", "any", "all", "min", "max"):
            fail(e, f"{e.func}(...) of a comprehension")
        return self.fold_fors(e.func, e.elt, list(e.fors), env, code)

    def fold_loop(self, fn, elt, var, iterable, cond, env, code, e) -> str:
        """fn(x for x in iterable): sum, any, all, min, max of a collection itself."""
        name = f"{var}#loop{code.fresh('')}"
        local = ir.Local(name, T.element(iterable.type) or T.INT)
        f = ir.CompFor(name, iterable, cond)
        return self.fold_fors(fn, elt if elt is not None else local, [f], env, code)

    def fold_fors(self, fn: str, elt, fors: list, env, code: Code) -> str:
        acc = code.fresh("acc")
        stop = None
        if fn in ("any", "all"):
            code(f"{acc} = {'False' if fn == 'any' else 'True'}")
            stop = code.fresh("stop")
            code(f"{stop} = False")
        elif fn in ("min", "max"):
            code(f"{acc} = 0")
            first = code.fresh("first")
            code(f"{first} = True")
        else:
            code(f"{acc} = 0")
        inner = dict(env)
        opened = self.open_fors(fors, inner, code)
        value = self.expr(elt, inner, code)
        if fn == "sum":
            code(f"{acc} += {value}")
        elif fn == "count":
            code(f"if {value}:")
            code(f"    {acc} += 1")
        elif fn == "any":  # the answer known: out of the innermost loop here, of the others by `stop`
            code(f"if {value}:")
            code(f"    {acc} = True")
            code(f"    {stop} = True")
            code("    break")
        elif fn == "all":
            code(f"if not {value}:")
            code(f"    {acc} = False")
            code(f"    {stop} = True")
            code("    break")
        else:
            v = code.fresh("v")
            code(f"{v} = {value}")
            code(f"if {first} or {v} {'<' if fn == 'min' else '>'} {acc}:")
            code(f"    {acc} = {v}")
            code(f"    {first} = False")
        for k in range(len(opened) - 1, -1, -1):
            self.close_loop(opened[k], code, stop)
            if stop and k:  # the loop of the comprehension's previous `for` ends too
                code(f"if {stop}:")
                code("    break")
        return acc

    def open_fors(self, fors, inner: dict, code: Code) -> list:
        """Open a comprehension's `for`s (each with its `where`) in code, one inside the other;
        `inner` gains their variables. The levels opened, one list a `for` (see close_loop)."""
        opened = []
        for f in fors:
            var = pyname(f.var)
            levels = self.open_loop(f.iter, var, inner, code)
            opened.append(levels)
            inner[f.var] = var
            if f.cond is not None:
                code(f"if {self.expr(f.cond, inner, code)}:")
                code.depth += 1
                levels.append([])
        return opened

    def open_loop(self, it, var: str, env: dict, code: Code) -> list:
        """Write the loop header(s) binding `var` to each value of `it`; a list with, per level
        opened, the lines that end that level's body (innermost last)."""
        if isinstance(it, ir.Global):
            if it.what == "cells":
                code(f"for {var} in range(NC):")
                code.depth += 1
                return [[]]
            if it.what == "players":
                code(f"for {var} in range(NPLAYERS):")
                code.depth += 1
                return [[]]
            if it.what == "last":
                self.uses_last = True
                k = code.fresh("k")
                code(f"for {k} in range(last_count(s)):")  # no array made: this runs every ply
                code.depth += 1
                code(f"{var} = last_cell(s, {k})")
                return [[]]
        if it.type == T.DIRSET:
            self.dirsets_table()
            d, j = code.fresh("d"), code.fresh("j")
            code(f"{d} = {self.expr(it, env, code)}")
            code(f"for {j} in range(DSN[{d}]):")
            code.depth += 1
            code(f"{var} = DS[{d}, {j}]")
            return [[]]
        if it.type == T.ZONE:
            z, k = code.fresh("z"), code.fresh("k")
            code(f"{z} = ZON + {self.zone(it, env, code)} * ZW")
            code(f"for {k} in range(s[{z}]):")
            code.depth += 1
            code(f"{var} = s[{z} + 1 + {k}]")
            return [[]]
        if isinstance(it, ir.Local) and T.is_list(it.type):
            b, k = self.expr(it, env, code), code.fresh("k")
            code(f"for {k} in range({b}_n):")
            code.depth += 1
            code(f"{var} = {b}[{k}]")
            return [[]]
        spans = self.ternary_ranges(it) if isinstance(it, ir.Ternary) else None
        if spans is not None:  # a ternary of ranges: one range, its ends chosen
            c = self.expr(it.cond, env, code)
            (a, b), (p, q) = spans
            lo, hi = code.fresh("lo"), code.fresh("hi")
            code(f"{lo} = {self.expr(a, env, code)} if {c} else {self.expr(p, env, code)}")
            code(f"{hi} = {self.expr(b, env, code)} if {c} else {self.expr(q, env, code)}")
            code(f"for {var} in range({lo}, {hi} + 1):")
            code.depth += 1
            return [[]]
        if isinstance(it, (ir.Comp, ir.ListJoin)) and (it.func == "list" if isinstance(it, ir.Comp) else True) or (
                isinstance(it, ir.Ternary) and it.type != T.DIRSET):
            b = code.fresh("l")
            self.bind_list(b, it, env, code)
            k = code.fresh("k")
            code(f"for {k} in range({b}_n):")
            code.depth += 1
            code(f"{var} = {b}[{k}]")
            return [[]]
        if isinstance(it, ir.Range):
            lo, hi = self.expr(it.lo, env, code), self.expr(it.hi, env, code)
            code(f"for {var} in range({lo}, {hi} + 1):")
            code.depth += 1
            return [[]]
        items = self.constant_items(it) if isinstance(it, (ir.Const, ir.ListLit)) else None
        if items is not None:
            if not items:
                code(f"for {var} in range(0):")
            else:
                code(f"for {var} in ({', '.join(items)},):")
            code.depth += 1
            return [[]]
        if isinstance(it, ir.ListLit):
            t = code.fresh("t")
            code(f"{t} = ({', '.join(self.expr(i, env, code) for i in it.items)},)")
            code(f"for {var} in {t}:")
            code.depth += 1
            return [[]]
        if isinstance(it, ir.Call):
            fn, args = it.fn, it.args
            if fn == "neighbours":
                self.neighbours_table()
                c, ds, k = code.fresh("c"), code.fresh("d"), code.fresh("k")
                code(f"{c} = {self.expr(args[0], env, code)}")
                code(f"{ds} = {self.expr(args[1], env, code)}")
                code(f"for {k} in range(NBN[{ds}, {c}]):")
                code.depth += 1
                code(f"{var} = NB[{ds}, {c}, {k}]")
                return [[]]
            if fn in ("ray", "line"):
                self.lines_table()
                self.dirsets_table()
                c, ds, j, d, k = (code.fresh(x) for x in ("c", "ds", "j", "d", "k"))
                code(f"{c} = {self.expr(args[0], env, code)}")
                code(f"{ds} = {self.expr(args[1], env, code)}")
                reach = f"LNN[{d}, {c}]"
                if fn == "ray":
                    r = code.fresh("reach")
                    code(f"{r} = {self.expr(args[2], env, code)}")
                    reach = f"min({r}, LNN[{d}, {c}])"
                code(f"for {j} in range(DSN[{ds}]):")
                code.depth += 1
                code(f"{d} = DS[{ds}, {j}]")
                code(f"for {k} in range({reach}):")
                code.depth += 1
                code(f"{var} = LN[{d}, {c}, {k}]")
                return [[], ([f"if s[HGT + {var}] > 0:", "    break"] if fn == "ray" else [])]
            if fn == "flanked":
                self.lines_table()
                c, d, n, k = code.fresh("c"), code.fresh("d"), code.fresh("n"), code.fresh("k")
                code(f"{c} = {self.expr(args[0], env, code)}")
                code(f"{d} = {self.expr(args[1], env, code)}")
                code(f"{n} = flank_len(s, {c}, {d}, {self.expr(args[2], env, code)})")
                code(f"for {k} in range({n}):")
                code.depth += 1
                code(f"{var} = LN[{d}, {c}, {k}]")
                return [[]]
            if fn == "between":
                a, b, k = code.fresh("a"), code.fresh("b"), code.fresh("k")
                code(f"{a} = {self.expr(args[0], env, code)}")
                code(f"{b} = {self.expr(args[1], env, code)}")
                code(f"for {k} in range(1, between_n({a}, {b}) + 1):")
                code.depth += 1
                code(f"{var} = between_at({a}, {b}, {k})")
                return [[]]
            if fn in ("stack", "above", "below"):
                c, k = code.fresh("c"), code.fresh("k")
                code(f"{c} = {self.expr(args[0], env, code)}")
                if fn == "stack":
                    span = f"0, s[HGT + {c}]"
                elif fn == "above":
                    span = f"{self.expr(args[1], env, code)}, s[HGT + {c}]"
                else:
                    span = f"0, {self.expr(args[1], env, code)} - 1"
                code(f"for {k} in range({span}):")
                code.depth += 1
                code(f"{var} = s[STK + {c} * CAP + {k}]")
                return [[]]
        fail(it, f"a loop over {_describe(it) if not isinstance(it, ir.Call) else it.fn + '()'}")

    @staticmethod
    def ternary_ranges(e) -> Optional[tuple]:
        """((lo, hi), (lo, hi)) of a ternary whose branches are ranges or one fixed number each."""
        out = []
        for b in (e.then, e.orelse):
            if isinstance(b, ir.Range):
                out.append((b.lo, b.hi))
            elif isinstance(b, ir.ListLit) and len(b.items) == 1 and isinstance(b.items[0], ir.Const):
                out.append((b.items[0], b.items[0]))
            elif isinstance(b, ir.Const) and isinstance(b.value, tuple) and len(b.value) == 1:
                one = ir.Const(b.value[0], T.element(b.type) or T.INT)
                out.append((one, one))
            else:
                return None
        return tuple(out)

    @staticmethod
    def close_loop(levels: list, code: Code, stop: Optional[str] = None) -> None:
        """End the levels `open_loop` opened (innermost first); with `stop`, a flag that ends
        every level once set."""
        for i, ending in enumerate(reversed(levels)):
            for line in ending:
                code(line)
            code.depth -= 1
            if stop and i < len(levels) - 1:
                code(f"if {stop}:")
                code("    break")
