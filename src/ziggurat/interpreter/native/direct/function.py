"""One function's Python text written as LLVM IR text (the direct translator, translate.py; its docstring
says the subset). Two passes over the same AST: the first finds every local's type, each
`and`/`or`/conditional expression's type and the return type (its IR thrown away), the second
writes the IR with those. Locals live in allocas (LLVM's mem2reg/SROA makes them registers)."""

from __future__ import annotations

import ast

from .expr import Expressions
from .irtypes import (ARR, ARRAYS, BOOL, ELEM, F64, I64, LL, NSW, U64, VOID, V, array_params, const, lltype,
                               refuse, unify)


# A helper not inline="always" is called (`noinline`), as Numba's shared code is, unless it has at
# most this many statements: then LLVM's inliner decides. Measured (CPU s of the module's LLVM
# passes and machine code, cold; load ~4.5): letting LLVM decide for every helper, RYB 1.8 -> 6.0,
# RGB 2.0 -> 3.0, Homeworlds 1.6 -> 2.3; up to 5 statements RYB 1.8 -> 2.1, RGB and Homeworlds
# the same, and Homeworlds' legal 1.15x -> 1.04x Numba's time per call (a 5-line zone search
# inlined, its index then known not negative); up to 3 statements: no faster than 0.
SMALL_HELPER = 5


class FunctionWriter(Expressions):
    def __init__(self, tr, fdef, argtypes, sym, first, seed=None):
        self.tr, self.fdef, self.argtypes, self.sym, self.first = tr, fdef, argtypes, sym, first
        self.vars = dict(first.vars) if first else dict(seed or {})
        self.widened = False
        self.exprtypes = first.exprtypes if first else {}
        self.rettype = first.rettype if first else None
        self.params = [a.arg for a in fdef.args.args]
        self.locals = set(self.params)
        for n in ast.walk(fdef):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                self.locals.add(n.id)
        self.lines, self.entry, self.loops = [], [], []
        self.tmp, self.dead, self.statics = 0, False, {}
        for p, t in zip(self.params, argtypes):
            self.vars[p] = t

    # ---- IR text -----------------------------------------------------------------------------
    def t(self) -> str:
        self.tmp += 1
        return f"%t{self.tmp}"

    def label(self) -> str:
        self.tmp += 1
        return f"L{self.tmp}"

    def emit(self, line: str) -> None:
        if self.dead:
            self.lines.append(f"{self.label()}:")  # code after a return/break: a block nothing reaches
            self.dead = False
        self.lines.append("  " + line)

    def op(self, text: str) -> str:
        r = self.t()
        self.emit(f"{r} = {text}")
        return r

    def block(self, lab: str) -> None:
        if not self.dead:
            self.lines.append(f"  br label %{lab}")
        self.lines.append(f"{lab}:")
        self.dead = False

    def jump(self, lab: str) -> None:
        self.emit(f"br label %{lab}")
        self.dead = True

    def branch(self, c: str, yes: str, no: str) -> None:
        self.emit(f"br i1 {c}, label %{yes}, label %{no}")
        self.dead = True

    def slot(self, ty) -> str:
        r = self.t()
        self.entry.append(f"  {r} = alloca {LL[ty]}")
        return r

    def var_slots(self, name):
        return f"%v.{name}"

    # ---- the function ---------------------------------------------------------------------------
    def write(self, export: bool = False) -> str:
        for p, ty in zip(self.params, self.argtypes):
            ref = (f"%a.{p}", *(f"%d{k}.{p}" for k in range(ARRAYS[ty]))) if ty in ARRAYS else f"%a.{p}"
            self.store_var(p, V(ref, ty), self.fdef)
        self.body(self.fdef.body)
        if not self.dead:
            if self.first is None:
                self.rettype = VOID if self.rettype is None else self.rettype
            if self.rettype != VOID:
                refuse(self.fdef, f"{self.fdef.name} may end without a return (None) where it returns values")
            self.emit("ret void")
        if self.rettype is None:
            self.rettype = VOID
        if self.first is None:
            return ""
        params: list = []
        for p, ty in zip(self.params, self.argtypes):
            params += array_params(ty, p) if ty in ARRAYS else [f"{LL[ty]} %a.{p}"]
        allocas = []
        for name, ty in self.vars.items():
            if ty in ARRAYS:
                allocas.append(f"  %v.{name}.p = alloca i64*")
                allocas += [f"  %v.{name}.d{k} = alloca i64" for k in range(ARRAYS[ty])]
            elif not isinstance(ty, tuple):
                allocas.append(f"  %v.{name} = alloca {LL[ty]}")
        link = "" if export else "internal "
        attrs = "nounwind" if export else ("nounwind alwaysinline" if self.inline_always() else
                                           "nounwind noinline" if self.size() > SMALL_HELPER else "nounwind")
        head = f"define {link}{lltype(self.rettype)} @\"{self.sym}\"({', '.join(params)}) {attrs} {{\nentry:\n"
        return head + "\n".join(allocas + self.entry + ["  br label %start", "start:"] + self.lines) + "\n}\n"

    def size(self) -> int:
        """The function's statements (a helper of at most SMALL_HELPER: LLVM decides)."""
        return sum(isinstance(n, ast.stmt) for n in ast.walk(self.fdef)) - 1

    def inline_always(self) -> bool:
        """Whether the source's decorator says inline="always" (Numba inlines it at every call)."""
        for d in self.fdef.decorator_list:
            if isinstance(d, ast.Call):
                for kw in d.keywords:
                    if kw.arg == "inline" and isinstance(kw.value, ast.Constant) and kw.value.value == "always":
                        return True
        return False

    def body(self, stmts) -> None:
        for s in stmts:
            self.stmt(s)

    # ---- locals --------------------------------------------------------------------------------
    def store_var(self, name, v: V, node) -> None:
        if isinstance(v.ty, tuple) or v.ty == VOID:
            refuse(node, "a tuple or None kept in a local")
        have = self.vars.get(name)
        if have is None or self.first is None:
            ty = v.ty if have is None else (have if have == v.ty else unify(have, v.ty, node))
            if (ty in ARRAYS or v.ty in ARRAYS) and ty != v.ty:
                refuse(node, f"{name} both an array and a number, or arrays of different ranks")
            self.widened |= have is not None and ty != have
            self.vars[name] = ty
        ty = self.vars[name]
        if ty in ARRAYS:
            if v.ty != ty:
                refuse(node, f"{name} both an array and a number, or arrays of different ranks")
            self.emit(f"store i64* {v.ref[0]}, i64** %v.{name}.p")
            for k, d in enumerate(v.ref[1:]):
                self.emit(f"store i64 {d}, i64* %v.{name}.d{k}")
            return
        self.emit(f"store {LL[ty]} {self.conv(v, ty, node).ref}, {LL[ty]}* %v.{name}")

    def load_var(self, name, node) -> V:
        ty = self.vars.get(name)
        if ty is None:
            refuse(node, f"{name} read before it is given a value")
        if ty in ARRAYS:
            dims = [self.op(f"load i64, i64* %v.{name}.d{k}") for k in range(ARRAYS[ty])]
            return V((self.op(f"load i64*, i64** %v.{name}.p"), *dims), ty)
        return V(self.op(f"load {LL[ty]}, {LL[ty]}* %v.{name}"), ty)

    def conv(self, v: V, ty, node) -> V:
        if v.ty == ty:
            return v
        if v.ty == BOOL and ty in (I64, U64):
            return V(self.op(f"zext i1 {v.ref} to i64"), ty)
        if ty == F64 and v.ty in (I64, U64, BOOL):
            op = {I64: "sitofp i64", U64: "uitofp i64", BOOL: "uitofp i1"}[v.ty]
            return V(self.op(f"{op} {v.ref} to double"), F64)
        refuse(node, f"a {v.ty} where a {ty} is wanted")

    # ---- statements ------------------------------------------------------------------------------
    def stmt(self, s) -> None:
        if isinstance(s, ast.Assign):
            if len(s.targets) != 1:
                refuse(s, "chained assignment")
            self.assign(s.targets[0], s.value, s)
        elif isinstance(s, ast.AugAssign):
            self.assign(s.target, ast.BinOp(left=self.reload(s.target), op=s.op, right=s.value, lineno=s.lineno), s)
        elif isinstance(s, ast.If):
            self.if_stmt(s)
        elif isinstance(s, ast.For):
            self.for_stmt(s)
        elif isinstance(s, ast.While):
            if s.orelse:
                refuse(s, "while ... else")
            top, body, end = self.label(), self.label(), self.label()
            self.block(top)
            self.branch(self.cond(s.test), body, end)
            self.block(body)
            self.loops.append((top, end))
            self.body(s.body)
            self.loops.pop()
            self.jump(top)
            self.block(end)
        elif isinstance(s, (ast.Break, ast.Continue)):
            if not self.loops:
                refuse(s, "break/continue outside a loop")
            self.jump(self.loops[-1][1 if isinstance(s, ast.Break) else 0])
        elif isinstance(s, ast.Return):
            self.ret(s)
        elif isinstance(s, ast.Expr):
            if isinstance(s.value, ast.Constant):
                return  # a docstring
            if not isinstance(s.value, ast.Call):
                refuse(s, "an expression statement other than a call")
            self.call(s.value, statement=True)
        elif isinstance(s, ast.Pass):
            return
        else:
            refuse(s, f"statement {type(s).__name__}")

    def reload(self, target):
        if isinstance(target, ast.Name):
            return ast.Name(id=target.id, ctx=ast.Load(), lineno=target.lineno)
        if isinstance(target, ast.Subscript):
            return ast.Subscript(value=target.value, slice=target.slice, ctx=ast.Load(), lineno=target.lineno)
        refuse(target, "augmented assignment to this target")

    def assign(self, target, value, node) -> None:
        if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple):
            if len(target.elts) != len(value.elts):
                refuse(node, "unpacking a tuple of another size")
            vals = [self.expr(e) for e in value.elts]  # all the values first, then the targets, as Python
            for t, v in zip(target.elts, vals):
                self.store(t, v, node)
            return
        if isinstance(target, ast.Tuple):
            v = self.expr(value)
            if not isinstance(v.ty, tuple) or len(v.ty) != len(target.elts):
                refuse(node, "tuple unpacking of a value that is not a tuple of that size")
            for k, (t, ty) in enumerate(zip(target.elts, v.ty)):
                if not isinstance(t, ast.Name):
                    refuse(node, "unpacking into a non-name")
                self.store_var(t.id, V(self.op(f"extractvalue {lltype(v.ty)} {v.ref}, {k}"), ty), node)
            return
        if isinstance(target, ast.Name):
            if isinstance(value, ast.Call) and self.numpy_fn(value.func) in ("empty", "zeros"):
                self.store_var(target.id, self.buffer(value), node)
            elif isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Slice):
                self.store_var(target.id, self.slice(value), node)
            elif isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                    and value.func.attr == "reshape" and self.numpy_fn(value.func) is None:
                self.store_var(target.id, self.reshape(value), node)
            elif isinstance(value, ast.Tuple):
                self.store_var(target.id, self.tuple_buffer(value.elts, node), node)
            else:
                self.store_var(target.id, self.expr(value), node)
            return
        self.store(target, self.expr(value), node)

    def store(self, target, v: V, node) -> None:
        """v into a name or an element of a local array (the value already made)."""
        if isinstance(target, ast.Name):
            self.store_var(target.id, v, node)
            return
        if isinstance(target, ast.Subscript):
            base = target.value
            if not (isinstance(base, ast.Name) and base.id in self.locals):
                refuse(node, "a write to anything but a local array")
            arr = self.load_var(base.id, node)
            if arr.ty not in ARRAYS:
                refuse(node, "subscript of a number")
            if v.ty not in (I64, U64, BOOL, F64):
                refuse(node, "storing a non-number")
            ety = ELEM[arr.ty]
            val = v.ref if (v.ty == U64 and ety == I64) else self.conv(v, ety, node).ref
            self.emit(f"store {LL[ety]} {val}, {LL[ety]}* {self.element(arr, target.slice, node)}")
            return
        refuse(node, "assignment target")

    def if_stmt(self, s) -> None:
        known = self.static(s.test)
        if known is not None:
            self.body(s.body if known else s.orelse)
            return
        yes, no, end = self.label(), self.label(), self.label()
        self.branch(self.cond(s.test), yes, no if s.orelse else end)
        self.block(yes)
        self.body(s.body)
        if s.orelse:
            self.jump(end)
            self.block(no)
            self.body(s.orelse)
        self.block(end)

    def for_stmt(self, s) -> None:
        if s.orelse or not isinstance(s.target, ast.Name):
            refuse(s, "for ... else, or a loop target that is not a name")
        it = s.iter
        table = None
        arr = None
        if isinstance(it, ast.Tuple) and all(self.static(e) is not None for e in it.elts):
            items = [int(self.static(e)) for e in it.elts]
            table = self.tr.private_table(items)
            start, stop, step = const(0), const(len(items)), 1
        elif isinstance(it, ast.Tuple) or (isinstance(it, ast.Name) and self.vars.get(it.id) == ARR):
            arr = self.tuple_buffer(it.elts, s) if isinstance(it, ast.Tuple) else self.load_var(it.id, s)
            start, stop, step = const(0), V(arr.ref[1], I64), 1
        elif isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" \
                and "range" not in self.locals and 1 <= len(it.args) <= 3 and not it.keywords:
            args = [self.conv(self.expr(a), I64, s) for a in it.args[:2]]
            start, stop = (const(0), args[0]) if len(args) == 1 else args
            step = 1 if len(it.args) < 3 else self.static(it.args[2])
            if not isinstance(step, int) or isinstance(step, bool) or step == 0:
                refuse(s, "range with a step not a known nonzero int")
        else:
            refuse(s, "a loop over anything but range(...), a tuple or a local 1-D array")
        cnt = self.slot(I64)
        self.emit(f"store i64 {start.ref}, i64* {cnt}")
        top, body, inc, end = self.label(), self.label(), self.label(), self.label()
        self.block(top)
        c = self.op(f"load i64, i64* {cnt}")
        self.branch(self.op(f"icmp {'slt' if step > 0 else 'sgt'} i64 {c}, {stop.ref}"), body, end)
        self.block(body)
        if arr is not None:
            val = self.op(f"load i64, i64* {self.op(f'getelementptr inbounds i64, i64* {arr.ref[0]}, i64 {c}')}")
            self.store_var(s.target.id, V(val, I64), s)
        elif table is not None:
            sym, n = table
            at = self.op(f"getelementptr inbounds [{n} x i64], [{n} x i64]* {sym}, i64 0, i64 {c}")
            val = self.op(f"load i64, i64* {at}")
            self.store_var(s.target.id, V(val, I64), s)
        else:
            self.store_var(s.target.id, V(c, I64), s)
        self.loops.append((inc, end))
        self.body(s.body)
        self.loops.pop()
        self.block(inc)
        c2 = self.op(f"load i64, i64* {cnt}")
        # a step of 1 (-1) cannot wrap: the counter was below (above) the stop, an int64
        add = "add" + (NSW if abs(step) == 1 else "")
        self.emit(f"store i64 {self.op(f'{add} i64 {c2}, {step}')}, i64* {cnt}")
        self.jump(top)
        self.block(end)

    def ret(self, s) -> None:
        if s.value is None:
            v = V(None, VOID)
        elif isinstance(s.value, ast.Tuple):
            items = [self.expr(e) for e in s.value.elts]
            if any(i.ty not in (I64, U64, BOOL, F64) for i in items):
                refuse(s, "a returned tuple holding a non-number")
            v = V(items, tuple(i.ty for i in items))
        else:
            v = self.expr(s.value)
        if self.first is None:
            if self.rettype is not None and self.rettype != v.ty and VOID in (self.rettype, v.ty):
                refuse(s, "None returned on some paths")
            self.rettype = v.ty if self.rettype is None else unify(self.rettype, v.ty, s)
        ty = self.rettype
        if ty == VOID:
            if v.ty != VOID:
                refuse(s, "None returned on some paths")
            self.emit("ret void")
        elif isinstance(ty, tuple):
            if not isinstance(v.ty, tuple):
                refuse(s, "a tuple returned on some paths only")
            agg = "undef"
            for k, (item, ity) in enumerate(zip(v.ref, ty)):
                agg = self.op(f"insertvalue {lltype(ty)} {agg}, {LL[ity]} {self.conv(item, ity, s).ref}, {k}")
            self.emit(f"ret {lltype(ty)} {agg}")
        else:
            if v.ty == VOID:
                refuse(s, "None returned on some paths")
            self.emit(f"ret {LL[ty]} {self.conv(v, ty, s).ref}")
        self.dead = True

