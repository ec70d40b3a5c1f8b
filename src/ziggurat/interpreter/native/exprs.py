"""Folded expressions to the native module's Python (the subset Numba compiles), over the
position vector `s` (see `layout`).

Every construct the native backend handles has a case here (`x_` and the node's kind); anything
else raises `Unsupported` with the construct's name and where the rules wrote it, and the game
falls back to the Python backend. What reaches the text is only numbers, names made from checked
rules names (`v_...`, as in the Python backend) and the module's own names: no text from a ruleset
is pasted in.

Expressions that need a loop (a sum, `any`, `count`, a flanked run's length) write their loop into
the code before the line that uses them, and stand for the local holding the result; those loops,
and every loop over a collection, are `iteration.Loops` (`self.loops`). The tables an expression
reads (a piece's attribute, a cell's rank, the geometry) are registered in `tables` as it is
written, for the module to define.
"""

from __future__ import annotations

from typing import Optional

from ...dsl import ir
from ...dsl import types as T
from ...dsl.dice import ways
from . import fuse, occupancy
from . import table as open_table
from .code import Code, describe, fail
from .control import PLACE, TOP, place_call
from .iteration import Loops
from .sets import cell_slot

WAYS_CELLS = 1024  # the most numbers in a table of ways(n, faces, total) (8 KB: 12 dice of 6 faces)


class Exprs:
    """Writes expressions of one folded game into `Code`."""

    def __init__(self, folded, tables: dict):
        self.game = folded
        self.world = folded.world
        self.tables = tables  # name -> numpy-able rows (filled as the expressions use them)
        self.uses_last = False
        self.cap = 64  # the deepest stack (the writer sets the layout's)
        self.nw = 0  # the occupancy words a player (occupancy.py; the writer sets the layout's)
        self.caps: dict = {}  # a list buffer's name -> the most items it holds
        self.table_names: dict = {}  # a table's name in the module -> its name in the rules
        self.loops = Loops(self)
        self.memo: dict = {}  # a fold (fuse.memo_key) -> the local holding it, where it is hoisted
        self.outline = None  # an outline.Outline: folds written once, as functions
        self.tcap = 0  # the pieces the open table holds (the writer sets the layout's; 0: no table)
        self.tlist = 0  # the points a list of the open table's lattice holds (the module's MAXM)

    def hoist(self, var: str, cond, later: list, env: dict, code: Code) -> list:
        """Folds computed once where `var` is bound (see fuse.hoist); the keys to forget."""
        return fuse.hoist(self, var, cond, later, env, code)

    def forget(self, keys: list) -> None:
        for k in keys:
            self.memo.pop(k, None)

    # ---- values ---------------------------------------------------------------------------------

    def const(self, value, typ, e=None) -> str:
        if typ == T.DIRSET:
            return str(self.world.dirset(value))
        if isinstance(value, bool):
            return "True" if value else "False"
        if isinstance(value, int):
            return str(value)
        fail(e, "a value that is not a number" if e is None else None)

    def expr(self, e, env: dict, code: Code, outline: bool = True) -> str:
        fold = (self.memo or self.outline) and fuse.foldable(e)
        if fold or (outline and self.outline is not None and self.outline.large(e)):
            hit = self.memo.get(fuse.memo_key(e, env)) if self.memo and fold else None
            if hit is None and outline and self.outline is not None:
                hit = self.outline.call(self, e, env, code)  # a function of the module (outline.py)
            if hit is not None:
                return hit
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
        if e.what in ("mover", "ply", "nxt"):  # nxt: who moves next, at the end of a move (dsl.sets)
            return e.what
        if e.what == "files":
            return str(self.world.files)
        if e.what == "ranks":
            return str(self.world.ranks)
        if e.what == "no_moves":
            return "(nmoves == 0)"
        fail(e, f"'{e.what}' used as a value")

    def zone(self, e: ir.Expr, env, code) -> str:
        if isinstance(e, ir.Ternary):
            c = self.expr(e.cond, env, code)
            return f"({self.zone(e.then, env, code)} if {c} else {self.zone(e.orelse, env, code)})"
        if not isinstance(e, ir.ZoneRef):
            fail(e, "a zone written as " + describe(e))
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
        if e.cell is not None:  # a set's mark of one cell: sets.cell_slot
            return cell_slot(self, e, env, code)
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
        early = fuse.positive_test(e)  # a sum or count against 0: out at the first term that decides
        if early is not None and not (self.memo and fuse.memo_key(early[0], env) in self.memo):
            return self.expr(early[1], env, code)
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
        return self.loops.fold_fors("any", probe, [ir.CompFor(name, e.right, None)], {**env, f"{name}=": t}, code)

    # ---- lists: a buffer `b` (an int64 array allocated once) and its length `b_n` ------------


    def constant_items(self, e) -> Optional[list]:
        elem = T.element(e.type)
        if isinstance(e, ir.Const) and isinstance(e.value, tuple):
            return [self.const(v, elem) for v in e.value]
        if isinstance(e, ir.ListLit):
            consts = [i for i in e.items if isinstance(i, ir.Const)]
            if len(consts) == len(e.items):  # every item a constant
                return [self.const(i.value, i.type, i) for i in consts]
        return None

    def x_BoolOp(self, e, env, code):
        """`and` / `or`, short-circuit: a part that needs a loop (a sum, an `any`) is computed
        only when the parts before it leave the answer open."""
        parts = []
        for v in e.values:
            sub = code.sub()
            parts.append((self.expr(v, env, sub), sub))
        if all(not sub.lines for _, sub in parts[1:]):
            for _, sub in parts[:1]:
                code.paste(sub)
            return "(" + f" {e.op} ".join(text for text, _ in parts) + ")"
        acc = code.fresh("b")
        text, sub = parts[0]
        code.paste(sub)
        code(f"{acc} = bool({text})")
        opened = 0
        for text, sub in parts[1:]:
            code(f"if {acc}:" if e.op == "and" else f"if not {acc}:")
            code.depth += 1
            opened += 1
            code.paste(sub)
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
        code.paste(then, 1)
        code(f"    {t} = {a}")
        code("else:")
        code.paste(orelse, 1)
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
        if isinstance(e.obj, ir.Call) and e.obj.fn == "line" and isinstance(e.obj.args[1], ir.AsDirset):
            # the k-th cell of a line in one direction: from the table, no list made (-1 past its end)
            self.lines_table()
            c = self.cell(e.obj.args[0], env, code)
            d, k = code.fresh("d"), code.fresh("k")
            code(f"{d} = {self.expr(e.obj.args[1].operand, env, code)}")
            code(f"{k} = {self.expr(e.index, env, code)} - 1")
            return f"(LN[{d}, {c}, {k}] if 0 <= {k} < LNN[{d}, {c}] else -1)"
        if isinstance(e.obj, ir.Call) and e.obj.fn == "between":
            a, b = (self.expr(x, env, code) for x in e.obj.args)
            return f"between_at({a}, {b}, {self.expr(e.index, env, code)})"
        if e.obj.type == T.CELL:
            c = self.expr(e.obj, env, code)
            return f"s[STK + {c} * CAP + {self.expr(e.index, env, code)} - 1]"
        if isinstance(e.obj, ir.Global) and e.obj.what in ("cells", "players"):  # cells[k]: cell k - 1, no list made
            return f"({self.expr(e.index, env, code)} - 1)"
        if T.is_list(e.obj.type) and e.obj.type != T.ZONE:
            b = self.loops.materialize(e.obj, env, code)
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

    # U(i): an index that cannot be below 0 (a cell is -1 at least, HGT above 0; a piece in a stack
    # 0 or more; a top read only where the height is above 0), which Numba indexes without its
    # test for a negative index (kernel.py)
    STACK = {
        "height": "s[U(HGT + {c})]", "top": "s[STK + {c} * CAP + s[U(HGT + {c})] - 1]", "bottom": "s[STK + {c} * CAP]",
        "empty": "(s[U(HGT + {c})] == 0)", "occupied": "(s[U(HGT + {c})] > 0)",
        # written out rather than called: Numba does not inline its calls, and these run in every loop
        "controller": f"(CTRL[U({TOP})] if s[U(HGT + {{c}})] > 0 else -1)",
        "mine": f"(s[U(HGT + {{c}})] > 0 and CTRL[U({TOP})] == mover)",
        "theirs": f"(s[U(HGT + {{c}})] > 0 and CTRL[U({TOP})] != mover and CTRL[U({TOP})] != -1)",
    }

    def stack_call(self, fn: str) -> str:
        """STACK's text for fn, with two shortcuts the layout allows: where each piece's number is
        its controller's (CTRL_ID in kernel.py), the top's number is its controller (no read of
        the table CTRL waiting on the slot's); where a stack holds one piece at most, its top is
        its one slot (read beside the height, not after it)."""
        text = self.STACK[fn]
        ctrl = list(self.game.ctrl)
        if ctrl and ctrl == list(range(len(ctrl))):
            text = text.replace(f"CTRL[U({TOP})]", TOP)
        return text.replace(TOP, "s[U(STK + {c})]") if self.cap == 1 else text

    def x_Call(self, e, env, code):
        fn, args = e.fn, e.args
        if self.tcap:  # the open table's built-ins (table.py)
            on_table = open_table.value(self, e, env, code)
            if on_table is not None:
                return on_table
        if fn in self.STACK:
            c = self.cell(args[0], env, code)
            if fn in PLACE and self.game.ctrl_at is not None:  # control by place (native/control.py)
                return place_call(self, fn, c)
            return self.stack_call(fn).format(c=c)
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
        if fn == "direction":
            self.tables["DIRTO"] = [list(r) for r in self.world.DIRTO]
            return f"DIRTO[{self.expr(args[0], env, code)}, {self.expr(args[1], env, code)}]"
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
            table = self.ways_table(args[1]) if fn == "ways" else None
            n, faces, total = (self.expr(a, env, code) for a in args)
            if table is None:
                return f"dice_{fn}({n}, {faces}, {total})"
            return f"dice_ways_in({table[0]}, {table[1]}, {n}, {faces}, {total})"
        if fn == "connected":
            self.neighbours_table()
            b = self.loops.materialize(args[0], env, code)
            code.buffer("_mark", self.world.ncells)
            code.buffer("_todo", self.world.ncells)
            return f"connected_cells({b}, {b}_n, {self.expr(args[1], env, code)}, _mark, _todo)"
        if fn in ("sum", "any", "all", "min", "max") and len(args) == 1:
            return self.loops.fold_loop(fn, None, "x", args[0], None, env, code, e)
        fail(e)

    def cell(self, e, env, code) -> str:
        """A cell expression, in a local unless it is a name or a number (it is read several times)."""
        c = self.expr(e, env, code)
        if c.isidentifier() or c.lstrip("-").isdigit():
            return c
        t = code.fresh("c")
        code(f"{t} = {c}")
        return t

    def ways_table(self, faces) -> Optional[tuple]:
        """(name, totals a row) of a table of `ways(n, faces, total)` for a constant number of
        faces, made here: rows n = 0, 1, ... for as many dice as keep every count below 2**62 and
        the table within WAYS_CELLS numbers, row after row, then the number of rows; None for
        faces not constant, or too many for a table of one die."""
        if not (isinstance(faces, ir.Const) and isinstance(faces.value, int) and 1 <= faces.value < WAYS_CELLS):
            return None
        f = faces.value
        most = 0
        while f ** (most + 1) < 1 << 62 and (most + 2) * ((most + 1) * f + 1) <= WAYS_CELLS:
            most += 1
        if most == 0:
            return None
        cols, name = most * f + 1, f"WAYS_{f}"
        if name not in self.tables:  # one table for every call with these faces
            self.tables[name] = [ways(n, f, t) for n in range(most + 1) for t in range(cols)] + [most + 1]
        return name, cols

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
        if name == "NBM":  # [set][cell][word]: the bits of the first neighbours (occupancy.flank_probe)
            return occupancy.near_rows(w, self.nw)
        if name == "DSN":
            return [len(d) for d in w.DIRS] or [0]
        if name == "NB":
            return [[list(n) + [-1] * (8 - len(n)) for n in per_set] for per_set in w.NEIGH] or [[[-1] * 8]]
        if name == "NBN":
            return [[len(n) for n in per_set] for per_set in w.NEIGH] or [[0]]
        if name in ("NBR", "NBRN", "NBF", "NBFN"):  # [set][rank (file) - the cell's + 1][cell]: neighbours
            at = w.RANK if name.startswith("NBR") else w.FILE
            by = [[[[x for x in n if at[x] - at[c] == k] for c, n in enumerate(per_set)] for k in (-1, 0, 1)]
                  for per_set in w.NEIGH] or [[[[]]] * 3]
            if name.endswith("N"):
                return [[[len(n) for n in per_k] for per_k in per_set] for per_set in by]
            return [[[n + [-1] * (8 - len(n)) for n in per_k] for per_k in per_set] for per_set in by]
        raise KeyError(name)

    def length(self, e, env, code, whole) -> str:
        if isinstance(e, ir.Call) and e.fn == "flanked":
            self.lines_table()
            c, d, p = (self.expr(a, env, code) for a in e.args)
            return f"flank_len(s, {c}, {d}, {p})"
        if isinstance(e, ir.Call) and e.fn == "line" and isinstance(e.args[1], ir.AsDirset):  # one direction's
            self.lines_table()
            return f"LNN[{self.expr(e.args[1].operand, env, code)}, {self.expr(e.args[0], env, code)}]"
        if isinstance(e, ir.Call) and e.fn in ("stack",):
            return f"s[HGT + {self.expr(e.args[0], env, code)}]"
        if e.type == T.ZONE:
            z = self.zone(e, env, code)
            return f"s[ZON + {z if z.isdigit() else f'({z})'} * ZW]"  # zone_len's body: no call inlined to pay for
        if isinstance(e, ir.Local) and T.is_list(e.type):
            return f"{self.expr(e, env, code)}_n"
        if open_table.is_placed(e) and self.tcap:
            return "s[TBL]"
        if isinstance(e, ir.Global) and e.what in ("cells", "players"):  # no loop to count them
            return "NC" if e.what == "cells" else "NPLAYERS"
        return self.loops.fold_loop("count", ir.Const(True, T.BOOL), "_", e, None, env, code, whole)

    # ---- loops ------------------------------------------------------------------------------


    def x_Comp(self, e, env, code):
        if e.func not in ("sum", "count", "any", "all", "min", "max"):
            fail(e, f"{e.func}(...) of a comprehension")
        return self.loops.fold_fors(e.func, e.elt, list(e.fors), env, code)
