"""Expressions of the direct translator: a mixin of FunctionWriter (function.py)."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

import numpy as np

from .irtypes import (ARR, ARR2, ARRAYS, ARRF, BIN, BOOL, CMP_S, CMP_U, ELEM, F64, FBIN, FCMP, I64, LL,
                      MAX_BUFFER, NSW, SIGNED_NSW, STATIC, U64, VOID, V, array_args, const, lltype, refuse, unify)


class Expressions:
    # what FunctionWriter (function.py) provides, declared for type checkers
    tr: Any
    fdef: ast.FunctionDef
    first: Any
    locals: set
    exprtypes: dict
    statics: dict
    entry: list
    loops: list
    if TYPE_CHECKING:
        def t(self) -> str: ...
        def label(self) -> str: ...
        def emit(self, line: str) -> None: ...
        def op(self, text: str) -> str: ...
        def block(self, lab: str) -> None: ...
        def jump(self, lab: str) -> None: ...
        def branch(self, c: str, yes: str, no: str) -> None: ...
        def slot(self, ty) -> str: ...
        def load_var(self, name, node) -> V: ...
        def conv(self, v: V, ty, node) -> V: ...

    # ---- known in Python (constants and global scalars) ---------------------------------------------
    def static(self, node):
        key = id(node)
        if key in self.statics:
            return self.statics[key]
        value = None
        ok = True
        for n in ast.walk(node):
            if not isinstance(n, STATIC):
                ok = False
                break
            if isinstance(n, ast.Name) and (n.id in self.locals or self.tr.scalar(n.id) is None):
                ok = False
                break
        if ok:
            try:
                value = eval(compile(ast.Expression(body=node), "<static>", "eval"), self.tr.ns)
            except Exception:
                value = None
            if isinstance(value, (bool, np.bool_)):
                value = bool(value)
            elif isinstance(value, (int, np.integer)):
                value = int(value)
            elif isinstance(value, (float, np.floating)):
                value = float(value)
            else:
                value = None
        self.statics[key] = value
        return value

    # ---- truth ---------------------------------------------------------------------------------
    def truth(self, v: V) -> str:
        if v.ty == BOOL:
            return v.ref
        if v.ty in (I64, U64):
            return self.op(f"icmp ne i64 {v.ref}, 0")
        if v.ty == F64:
            return self.op(f"fcmp une double {v.ref}, 0.0")
        refuse(self.fdef, f"truth of a {v.ty}")

    def cond(self, node) -> str:
        k = self.static(node)
        if k is not None:
            return "true" if k else "false"
        if isinstance(node, ast.Compare):
            return self.compare(node)
        if isinstance(node, ast.BoolOp):
            return self.shortcircuit(node.values, isinstance(node.op, ast.And), self.cond)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return self.op(f"xor i1 {self.cond(node.operand)}, true")
        return self.truth(self.expr(node))

    def shortcircuit(self, items, conj: bool, each) -> str:
        """`and` (conj) / `or` of i1 values that `each` gives, evaluated left to right."""
        res, end = self.slot(BOOL), self.label()
        for item in items[:-1]:
            c = each(item)
            self.emit(f"store i1 {c}, i1* {res}")
            nxt = self.label()
            self.branch(c, nxt, end) if conj else self.branch(c, end, nxt)
            self.block(nxt)
        self.emit(f"store i1 {each(items[-1])}, i1* {res}")
        self.block(end)
        return self.op(f"load i1, i1* {res}")

    # ---- values --------------------------------------------------------------------------------
    def expr(self, node) -> V:
        k = self.static(node)
        if k is not None:
            try:
                return const(k)
            except OverflowError:
                refuse(node, "an integer outside int64")
        if isinstance(node, ast.Name):
            if node.id in self.locals:
                return self.load_var(node.id, node)
            return self.global_array(node)
        if isinstance(node, ast.BinOp):
            return self.binop(node)
        if isinstance(node, ast.UnaryOp):
            return self.unary(node)
        if isinstance(node, ast.Compare):
            return V(self.compare(node), BOOL)
        if isinstance(node, ast.BoolOp):
            return self.boolop(node)
        if isinstance(node, ast.IfExp):
            return self.ifexp(node)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Subscript):
            return self.subscript(node)
        refuse(node, f"expression {type(node).__name__}")

    def global_array(self, node) -> V:
        sym, shape, ety, n = self.tr.table(node.id, node)
        if len(shape) != 1 or ety != I64:
            refuse(node, "a global array used as a value that is not 1-D int64")
        return V((self.op(f"getelementptr inbounds [{n} x i64], [{n} x i64]* {sym}, i64 0, i64 0"), str(shape[0])), ARR)

    def numeric(self, v: V, node) -> V:
        if v.ty == BOOL:
            return self.conv(v, I64, node)
        if v.ty not in (I64, U64, F64):
            refuse(node, f"arithmetic on a {v.ty}")
        return v

    def binop(self, node) -> V:
        lv, r = self.expr(node.left), self.expr(node.right)
        op = type(node.op)
        if lv.ty == r.ty == BOOL and op in (ast.BitAnd, ast.BitOr, ast.BitXor):
            return V(self.op(f"{BIN[op]} i1 {lv.ref}, {r.ref}"), BOOL)
        lv, r = self.numeric(lv, node), self.numeric(r, node)
        if F64 in (lv.ty, r.ty) or op is ast.Div:  # float64 arithmetic (`/` of ints too, as Python)
            if op not in FBIN:
                refuse(node, f"operator {op.__name__} on float64")
            lv, r = self.conv(lv, F64, node), self.conv(r, F64, node)
            if op is ast.Div and not self.nonzero(node.right):
                self.fault(self.op(f"fcmp oeq double {r.ref}, 0.0"))
            return V(self.op(f"{FBIN[op]} double {lv.ref}, {r.ref}"), F64)
        if lv.ty != r.ty:
            refuse(node, "int64 mixed with uint64 (Numba: float64)")
        ty = lv.ty
        if op in BIN:
            return V(self.op(f"{BIN[op]}{NSW if ty == I64 and op in SIGNED_NSW else ''} i64 {lv.ref}, {r.ref}"), ty)
        if op is ast.RShift:
            return V(self.op(f"{'lshr' if ty == U64 else 'ashr'} i64 {lv.ref}, {r.ref}"), ty)
        if op in (ast.FloorDiv, ast.Mod):
            return self.divide(op, lv, r, node)
        refuse(node, f"operator {op.__name__}")

    def nonzero(self, node) -> bool:
        """Whether an expression is a number known not to be 0 when translated."""
        d = self.static(node)
        return isinstance(d, (int, float)) and not isinstance(d, bool) and d != 0

    def fault(self, zero: str) -> None:
        """Division by zero where Numba raises ZeroDivisionError: the module's fault word is set
        (`Translator.FAULT`), the caller's wrapper raises it after the call (bind.py), and the
        division goes on with a divisor of 1 so that the function still ends."""
        self.tr.faulting = True
        self.tr.declare(f"{self.tr.FAULT} = internal global i64 0")
        was = self.op(f"load i64, i64* {self.tr.FAULT}")
        bit = self.op(f"zext i1 {zero} to i64")
        now = self.op(f"or i64 {was}, {bit}")
        self.emit(f"store i64 {now}, i64* {self.tr.FAULT}")

    def divide(self, op, lv: V, r: V, node) -> V:
        """Python's floor // and % of int64 (uint64: LLVM's). A divisor not known to be nonzero:
        0 sets the fault word (`fault`: the caller raises ZeroDivisionError, as Numba does)."""
        ty, d = lv.ty, self.static(node.right)
        known = self.nonzero(node.right)
        dv = r.ref
        if not known:
            zero = self.op(f"icmp eq i64 {r.ref}, 0")
            self.fault(zero)
            dv = self.op(f"select i1 {zero}, i64 1, i64 {r.ref}")
        if ty == U64:
            res = self.op(f"{'udiv' if op is ast.FloorDiv else 'urem'} i64 {lv.ref}, {dv}")
        else:
            rem = self.op(f"srem i64 {lv.ref}, {dv}")
            if known:  # the remainder's sign not the divisor's
                off = self.op(f"icmp {'slt' if d > 0 else 'sgt'} i64 {rem}, 0")
            else:
                signs = self.op(f"xor i1 {self.op(f'icmp slt i64 {rem}, 0')}, {self.op(f'icmp slt i64 {dv}, 0')}")
                off = self.op(f"and i1 {self.op(f'icmp ne i64 {rem}, 0')}, {signs}")
            if op is ast.Mod:
                res = self.op(f"select i1 {off}, i64 {self.op(f'add i64 {rem}, {dv}')}, i64 {rem}")
            else:
                q = self.op(f"sdiv i64 {lv.ref}, {dv}")
                res = self.op(f"sub i64 {q}, {self.op(f'zext i1 {off} to i64')}")
        if not known:
            res = self.op(f"select i1 {zero}, i64 0, i64 {res}")
        return V(res, ty)

    def unary(self, node) -> V:
        if isinstance(node.op, ast.Not):
            return V(self.cond(node), BOOL)
        v = self.expr(node.operand)
        if isinstance(node.op, ast.UAdd):
            return self.numeric(v, node)
        if isinstance(node.op, ast.USub) and v.ty == F64:
            return V(self.op(f"fneg double {v.ref}"), F64)
        if isinstance(node.op, ast.USub) and v.ty in (I64, BOOL):
            return V(self.op(f"sub i64 0, {self.numeric(v, node).ref}"), I64)
        if isinstance(node.op, ast.Invert) and v.ty in (I64, U64):
            return V(self.op(f"xor i64 {v.ref}, -1"), v.ty)
        refuse(node, f"unary {type(node.op).__name__} of a {v.ty}")

    def compare(self, node) -> str:
        if len(node.ops) == 1:
            return self.compare2(node.ops[0], self.expr(node.left), self.expr(node.comparators[0]), node)
        state = {"left": None}

        def each(k):
            left = self.expr(node.left) if k == 0 else state["left"]
            right = self.expr(node.comparators[k])
            state["left"] = right
            return self.compare2(node.ops[k], left, right, node)
        return self.shortcircuit(list(range(len(node.ops))), True, each)

    def compare2(self, op, lv: V, r: V, node) -> str:
        if type(op) not in CMP_S:
            refuse(node, f"comparison {type(op).__name__}")
        if lv.ty == r.ty == BOOL and type(op) in (ast.Eq, ast.NotEq):
            return self.op(f"icmp {CMP_S[type(op)]} i1 {lv.ref}, {r.ref}")
        lv, r = self.numeric(lv, node), self.numeric(r, node)
        if F64 in (lv.ty, r.ty):
            lv, r = self.conv(lv, F64, node), self.conv(r, F64, node)
            return self.op(f"fcmp {FCMP[type(op)]} double {lv.ref}, {r.ref}")
        if lv.ty != r.ty and not self.nonneg_const(lv if lv.ty == I64 else r):
            refuse(node, "int64 compared with uint64")
        if lv.ty != r.ty:
            lv, r = V(lv.ref, U64), V(r.ref, U64)  # a uint64 and a constant not below 0: the same either way
        return self.op(f"icmp {(CMP_U if lv.ty == U64 else CMP_S)[type(op)]} i64 {lv.ref}, {r.ref}")

    @staticmethod
    def nonneg_const(v: V) -> bool:
        return v.ref.lstrip("-").isdigit() and int(v.ref) >= 0

    def boolop(self, node) -> V:
        conj = isinstance(node.op, ast.And)
        if self.first is None:
            ty = None
            for item in node.values:
                v = self.expr(item)
                ty = v.ty if ty is None else unify(ty, v.ty, node)
            self.exprtypes[id(node)] = ty
            return V(("null",) + ("0",) * ARRAYS[ty] if ty in ARRAYS else "undef", ty)
        ty = self.exprtypes[id(node)]
        if ty == BOOL:
            return V(self.shortcircuit(node.values, conj, self.cond), BOOL)
        if ty not in (I64, U64, F64):
            refuse(node, f"and/or of {ty} values")
        res, end = self.slot(ty), self.label()
        for item in node.values:
            v = self.expr(item)
            self.emit(f"store {LL[ty]} {self.conv(v, ty, node).ref}, {LL[ty]}* {res}")
            if item is node.values[-1]:
                break
            nxt, t = self.label(), self.truth(v)
            self.branch(t, nxt, end) if conj else self.branch(t, end, nxt)
            self.block(nxt)
        self.block(end)
        return V(self.op(f"load {LL[ty]}, {LL[ty]}* {res}"), ty)

    def ifexp(self, node) -> V:
        k = self.static(node.test)
        if k is not None:
            return self.expr(node.body if k else node.orelse)
        if self.first is None:
            self.cond(node.test)
            ty = unify(self.expr(node.body).ty, self.expr(node.orelse).ty, node)
            self.exprtypes[id(node)] = ty
            return V("undef", ty)
        ty = self.exprtypes[id(node)]
        if ty not in (I64, U64, BOOL, F64):
            refuse(node, f"a conditional expression of {ty} values")
        res, yes, no, end = self.slot(ty), self.label(), self.label(), self.label()
        self.branch(self.cond(node.test), yes, no)
        for lab, part in ((yes, node.body), (no, node.orelse)):
            self.block(lab)
            self.emit(f"store {LL[ty]} {self.conv(self.expr(part), ty, node).ref}, {LL[ty]}* {res}")
            self.jump(end)
        self.block(end)
        return V(self.op(f"load {LL[ty]}, {LL[ty]}* {res}"), ty)

    # ---- arrays --------------------------------------------------------------------------------
    def index(self, node, dim: str) -> str:
        k = self.static(node)
        if isinstance(k, int) and not isinstance(k, bool):
            if k >= 0:
                return str(k)
            return self.op(f"add i64 {k}, {dim}")
        v = self.expr(node)
        if v.ty == U64:
            return v.ref  # U(i): known not negative
        v = self.numeric(v, node)
        neg = self.op(f"icmp slt i64 {v.ref}, 0")
        return self.op(f"select i1 {neg}, i64 {self.op(f'add i64 {v.ref}, {dim}')}, i64 {v.ref}")

    def element(self, arr: V, idx, node) -> str:
        parts = idx.elts if isinstance(idx, ast.Tuple) else [idx]
        if len(parts) != ARRAYS[arr.ty] or any(isinstance(p, ast.Slice) for p in parts):
            refuse(node, "a local array indexed by other than one int per dimension")
        flat = self.index(parts[0], arr.ref[1])
        if arr.ty == ARR2:
            row = self.op(f"mul i64 {flat}, {arr.ref[2]}")
            flat = self.op(f"add i64 {row}, {self.index(parts[1], arr.ref[2])}")
        return self.op(f"getelementptr inbounds {LL[ELEM[arr.ty]]}, i64* {arr.ref[0]}, i64 {flat}")

    def subscript(self, node) -> V:
        base = node.value
        if isinstance(base, ast.Attribute) and base.attr == "shape" and isinstance(base.value, ast.Name) \
                and base.value.id in self.locals and isinstance(self.static(node.slice), int):
            arr = self.load_var(base.value.id, node)  # arr.shape[k]: a dim
            k = self.static(node.slice)
            if arr.ty not in ARRAYS or not 0 <= k < ARRAYS[arr.ty]:
                refuse(node, "shape of a number, or past its dims")
            return V(arr.ref[1 + k], I64)
        if not isinstance(base, ast.Name):
            refuse(node, "a subscript of anything but a name")
        if base.id in self.locals:
            arr = self.load_var(base.id, node)
            if arr.ty not in ARRAYS:
                refuse(node, "a subscript of a number")
            if arr.ty == ARR2 and not isinstance(node.slice, (ast.Tuple, ast.Slice)):  # a row: a 1-D view
                start = self.op(f"mul i64 {self.index(node.slice, arr.ref[1])}, {arr.ref[2]}")
                return V((self.op(f"getelementptr inbounds i64, i64* {arr.ref[0]}, i64 {start}"), arr.ref[2]), ARR)
            ety = ELEM[arr.ty]
            return V(self.op(f"load {LL[ety]}, {LL[ety]}* {self.element(arr, node.slice, node)}"), ety)
        sym, shape, ety, n = self.tr.table(base.id, node)
        idx = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if len(idx) != len(shape) or any(isinstance(i, ast.Slice) for i in idx):
            refuse(node, f"a table of {len(shape)} dimensions indexed by {len(idx)} (or a slice)")
        flat, stride = None, 1
        for i, dim in reversed(list(zip(idx, shape))):
            term = self.index(i, str(dim))
            if stride != 1:
                term = self.op(f"mul i64 {term}, {stride}")
            flat = term if flat is None else self.op(f"add i64 {flat}, {term}")
            stride *= dim
        ptr = self.op(f"getelementptr inbounds [{n} x i64], [{n} x i64]* {sym}, i64 0, i64 {flat}")
        return V(self.op(f"load {LL[ety]}, {LL[ety]}* {ptr}"), ety)

    def numpy_fn(self, f):
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and self.tr.ns.get(f.value.id) is np \
                and f.value.id not in self.locals:
            return f.attr
        if isinstance(f, ast.Name) and f.id not in self.locals:
            obj = self.tr.ns.get(f.id)
            for name in ("uint64", "int64", "float64", "empty", "zeros"):
                if obj is getattr(np, name):
                    return name
        return None

    def buffer(self, node) -> V:
        shape = node.args[0] if node.args else None
        dims = [self.static(d) for d in shape.elts] if isinstance(shape, ast.Tuple) else [self.static(shape)]
        dtype = node.args[1] if len(node.args) > 1 else \
            next((kw.value for kw in node.keywords if kw.arg == "dtype"), None)
        kind = self.numpy_fn(dtype) if dtype is not None else None
        if kind not in ("int64", "float64") or len(dims) not in (1, 2) or (kind == "float64" and len(dims) != 1):
            refuse(node, "np.empty/np.zeros other than (K, np.int64 or np.float64) or ((A, B), np.int64)")
        ety = I64 if kind == "int64" else F64
        if dims == [None] and not self.loops:  # a size known when run, outside loops: a dynamic alloca
            n = self.conv(self.expr(shape), I64, node).ref
            n = self.op(f"select i1 {self.op(f'icmp slt i64 {n}, 1')}, i64 1, i64 {n}")
            ptr = self.op(f"alloca {LL[ety]}, i64 {n}")
            if self.numpy_fn(node.func) == "zeros":
                self.tr.declare("declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)")
                self.emit(f"call void @llvm.memset.p0.i64(ptr {ptr}, i8 0, i64 {self.op(f'mul i64 {n}, 8')}, i1 false)")
            return V((ptr, n), ARR if ety == I64 else ARRF)
        if any(not isinstance(d, int) or isinstance(d, bool) or d < 1 for d in dims):
            refuse(node, "np.empty/np.zeros of a shape not 1 or 2 known ints (or one int outside loops: "
                         "a size known when run, in a loop)")
        k = dims[0] * (dims[1] if len(dims) == 2 else 1)
        if k > MAX_BUFFER:
            refuse(node, f"np.empty of more than {MAX_BUFFER} items")
        buf, ptr, lt = self.t(), self.t(), LL[ety]
        self.entry += [f"  {buf} = alloca [{k} x {lt}]",
                       f"  {ptr} = getelementptr inbounds [{k} x {lt}], [{k} x {lt}]* {buf}, i64 0, i64 0"]
        if self.numpy_fn(node.func) == "zeros":
            if k > 16:
                refuse(node, "np.zeros of more than 16 items")
            zero = "0" if ety == I64 else "0.0"
            for j in range(k):
                self.emit(f"store {lt} {zero}, {lt}* {self.op(f'getelementptr inbounds {lt}, i64* {ptr}, i64 {j}')}")
        return V((ptr, *(str(d) for d in dims)), (ARR if len(dims) == 1 else ARR2) if ety == I64 else ARRF)

    def tuple_buffer(self, elts, node) -> V:
        """A tuple of ints kept in a local: a buffer holding them (Numba: a UniTuple)."""
        vals = [self.expr(x) for x in elts]
        if any(v.ty not in (I64, BOOL) for v in vals):
            refuse(node, "a tuple of other than int64 values kept or iterated")
        buf, ptr = self.t(), self.t()
        k = max(1, len(vals))
        self.entry += [f"  {buf} = alloca [{k} x i64]",
                       f"  {ptr} = getelementptr inbounds [{k} x i64], [{k} x i64]* {buf}, i64 0, i64 0"]
        for j, v in enumerate(vals):
            at = self.op(f"getelementptr inbounds i64, i64* {ptr}, i64 {j}")
            self.emit(f"store i64 {self.conv(v, I64, node).ref}, i64* {at}")
        return V((ptr, str(len(vals))), ARR)

    def reshape(self, node) -> V:
        base = node.func.value
        shape = node.args[0] if len(node.args) == 1 else None
        dims = [self.static(d) for d in shape.elts] if isinstance(shape, ast.Tuple) else None
        if dims is None or len(dims) != 2 or any(not isinstance(d, int) for d in dims) or node.keywords:
            refuse(node, "reshape other than to 2 known dims")
        if isinstance(base, ast.Subscript) and isinstance(base.slice, ast.Slice):
            arr = self.slice(base)
        elif isinstance(base, ast.Name) and base.id in self.locals:
            arr = self.load_var(base.id, node)
        else:
            refuse(node, "reshape of anything but a local array or its slice")
        if arr.ty != ARR:
            refuse(node, "reshape of a 2-D array")
        return V((arr.ref[0], str(dims[0]), str(dims[1])), ARR2)

    def slice(self, node) -> V:
        sl = node.slice
        if sl.step is not None or not isinstance(node.value, ast.Name) or node.value.id not in self.locals:
            refuse(node, "a slice with a step, or of anything but a local array")
        arr = self.load_var(node.value.id, node)
        if arr.ty not in (ARR, ARRF):
            refuse(node, "a slice of a 2-D array")
        n = arr.ref[1]
        ends = []
        for part, default in ((sl.lower, "0"), (sl.upper, n)):
            if part is None:
                ends.append(default)
                continue
            i = self.index(part, n)
            i = self.op(f"select i1 {self.op(f'icmp slt i64 {i}, 0')}, i64 0, i64 {i}")
            ends.append(self.op(f"select i1 {self.op(f'icmp sgt i64 {i}, {n}')}, i64 {n}, i64 {i}"))
        size = self.op(f"sub i64 {ends[1]}, {ends[0]}")
        size = self.op(f"select i1 {self.op(f'icmp slt i64 {size}, 0')}, i64 0, i64 {size}")
        at = self.op(f"getelementptr inbounds {LL[ELEM[arr.ty]]}, i64* {arr.ref[0]}, i64 {ends[0]}")
        return V((at, size), arr.ty)

    # ---- calls ---------------------------------------------------------------------------------
    def call(self, node, statement: bool = False) -> V:
        if node.keywords:
            refuse(node, "a call with keywords")
        f = node.func
        if isinstance(f, ast.Name) and f.id not in self.locals:
            if f.id in self.tr.defs:
                return self.user_call(f.id, node)
            if f.id in ("min", "max") and len(node.args) >= 2:
                return self.minmax(node, f.id == "min")
            if f.id == "bool" and len(node.args) == 1:
                return V(self.cond(node.args[0]), BOOL)
            if f.id == "int" and len(node.args) == 1:
                v = self.numeric(self.expr(node.args[0]), node)
                if v.ty == F64:
                    return V(self.op(f"fptosi double {v.ref} to i64"), I64)
                return V(v.ref, I64)
            if f.id == "float" and len(node.args) == 1:
                return self.conv(self.numeric(self.expr(node.args[0]), node), F64, node)
            if f.id == "abs" and len(node.args) == 1:
                v = self.numeric(self.expr(node.args[0]), node)
                if v.ty != I64:
                    refuse(node, "abs of a uint64")
                neg = self.op(f"icmp slt i64 {v.ref}, 0")
                return V(self.op(f"select i1 {neg}, i64 {self.op(f'sub i64 0, {v.ref}')}, i64 {v.ref}"), I64)
            if f.id == "len" and len(node.args) == 1:
                v = self.expr(node.args[0])
                if v.ty not in ARRAYS:
                    refuse(node, "len of a number")
                return V(v.ref[1], I64)
        obj = self.tr.ns.get(f.id) if isinstance(f, ast.Name) and f.id not in self.locals else None
        if getattr(obj, "__name__", "") == "low_bit" and getattr(obj, "__module__", "").endswith("native.lowbit") \
                and len(node.args) == 1:
            v = self.numeric(self.expr(node.args[0]), node)  # the lowest set bit: LLVM's cttz, as Numba's
            self.tr.declare("declare i64 @llvm.cttz.i64(i64, i1)")
            return V(self.op(f"call i64 @llvm.cttz.i64(i64 {v.ref}, i1 false)"), I64)
        kind = self.numpy_fn(f)
        if kind == "float64" and len(node.args) == 1:
            return self.conv(self.numeric(self.expr(node.args[0]), node), F64, node)
        if kind in ("uint64", "int64") and len(node.args) == 1:
            v = self.numeric(self.expr(node.args[0]), node)
            if v.ty == F64:
                return V(self.op(f"{'fptoui' if kind == 'uint64' else 'fptosi'} double {v.ref} to i64"),
                         U64 if kind == "uint64" else I64)
            return V(v.ref, U64 if kind == "uint64" else I64)
        refuse(node, "a call outside the subset (np.empty only as `x = np.empty(K, np.int64)`)")

    def user_call(self, name, node) -> V:
        args = [self.expr(a) for a in node.args]
        sym, ret = self.tr.function(name, tuple(a.ty for a in args), node)
        text: list = []
        for a in args:
            if isinstance(a.ty, tuple) or a.ty == VOID:
                refuse(node, "a tuple or None passed to a function")
            text += array_args(a) if a.ty in ARRAYS else [f"{LL[a.ty]} {a.ref}"]
        call = f"call {lltype(ret)} @\"{sym}\"({', '.join(text)})"
        if ret == VOID:
            self.emit(call)
            return V(None, VOID)
        return V(self.op(call), ret)

    def minmax(self, node, smallest: bool) -> V:
        vals = [self.expr(a) for a in node.args]
        ty = vals[0].ty
        for v in vals[1:]:
            ty = unify(ty, v.ty, node)
        if ty == BOOL:
            ty = I64
        if ty not in (I64, U64, F64):
            refuse(node, f"min/max of {ty}")
        cmp = ("ult" if smallest else "ugt") if ty == U64 else ("slt" if smallest else "sgt")
        test = f"icmp {cmp} i64" if ty != F64 else f"fcmp {'olt' if smallest else 'ogt'} double"
        m = self.conv(vals[0], ty, node).ref
        for v in vals[1:]:
            b = self.conv(v, ty, node).ref
            m = self.op(f"select i1 {self.op(f'{test} {b}, {m}')}, {LL[ty]} {b}, {LL[ty]} {m}")
        return V(m, ty)
