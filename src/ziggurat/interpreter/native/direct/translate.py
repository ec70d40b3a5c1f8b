"""The translator: a written native module's game functions translated from their Python text
straight to LLVM IR text (no Numba front end), then compiled by llvmlite (parse, O3, machine code).

    from ziggurat.interpreter.native.direct import Translator, compile_ir
    t = Translator(module_text)                       # the module's globals read by exec (njit off)
    ir = t.module_ir({"legal_4": "aaiii"})            # exported: `a` a 1-D int64 array, `i` an int64
    lib = compile_ir(ir, t)                           # llvmlite: parse, Numba's O3 passes, MCJIT
    f = lib.cfunc("legal_4")                          # ctypes; arrays as (pointer, length) pairs

The subset (anything else is refused with `Refused` naming the line, so a caller could fall back
to Numba for that function): locals typed int64 (`i64`), uint64 (`u64`, from `np.uint64`/`U`),
bool, float64, 1-D int64/float64 arrays (parameters, `np.empty(K, dtype)`: K known, or known when
run outside loops), 2-D int64 local arrays (`np.empty((A, B))`, `.reshape((A, B))`, rows), slices,
tuples of ints (parallel assignment, kept, iterated); module globals of known int/bool/float value
or constant numpy arrays (any rank, indexed by a tuple); arithmetic with Numba's meaning
(int64 `+ - *` nsw as Numba writes them: an overflow undefined; uint64 wraps; floor `//` and `%`,
`/` a float64; int64 with float64 is float64), comparisons,
`and`/`or`/`not`, conditional expressions, `if`/`for ... in range(...)` (constant step), over a
tuple or a local array/`while`/`break`/`continue`/`return` (a value, a tuple, or nothing); calls of
the module's other functions (specialised by argument types, as Numba does), `min`/`max`/`bool`/
`int`/`float`/`abs`/`len`/`U`/`np.uint64`/`np.int64`/`np.float64`/`low_bit`, `a.shape[k]`. `if`
tests and sub-expressions made only of constants and global scalars are folded in Python (Numba's
dead-branch pruning of `if HASHING:`). A negative signed index wraps around (Numba's meaning); no
bounds check (Numba's default). A divisor known only when run that is 0 sets the module's fault
word (`fault_c` reads and clears it) and the division goes on by 1; the callers' wrappers raise
ZeroDivisionError after the call, as Numba's code of the function raises it (bind.py).
"""

from __future__ import annotations

import ast
import ctypes
import re
import types
from typing import Optional

import numpy as np

from .function import FunctionWriter
from .irtypes import ARRAYS, BOOL, F64, I64, LL, SIG, U64, VOID, Refused, fconst, lltype, refuse
from ..module import plain_text

__all__ = ["Translator", "Refused", "exported", "plain_namespace"]

def plain_namespace(text: str) -> dict:
    """The module run as plain Python (njit the identity): its globals' values, and the oracle."""
    ns = types.ModuleType("direct_plain").__dict__
    exec(compile(plain_text(text), "<module>", "exec"), ns)
    return ns


class Translator:
    """The module's text parsed once; functions translated on demand, specialised by arg types."""

    FAULT = "@fault"  # the module's fault word: set by a division by zero, read and cleared by `fault_c`

    def __init__(self, text: str, ns: Optional[dict] = None, tree=None):
        self.tree = ast.parse(text) if tree is None else tree
        if ns is None:
            ns = plain_namespace(text)
        self.ns = ns
        self.defs = {n.name: n for n in self.tree.body if isinstance(n, ast.FunctionDef)}
        self.done: dict = {}  # (name, argtypes) -> (symbol, return type); None while in progress
        self.out: list = []  # function definitions' text
        self.tables: dict = {}  # global array name -> (symbol, shape, elem type)
        self.faulting = False  # a division whose divisor may be 0 was written (expr.fault)

    # ---- globals ---------------------------------------------------------------------------------
    def scalar(self, name):
        v = self.ns.get(name)
        if isinstance(v, (bool, np.bool_)):
            return bool(v)
        if isinstance(v, (int, np.integer)):
            return int(v)
        return None

    def table(self, name, node):
        if name in self.tables:
            return self.tables[name]
        arr = self.ns.get(name)
        if not isinstance(arr, np.ndarray) or arr.dtype not in (np.int64, np.uint64, np.bool_, np.int32, np.int8,
                                                                np.float64):
            refuse(node, f"global {name} is not an int or float64 array")
        ety = {np.dtype(np.uint64): U64, np.dtype(np.float64): F64}.get(arr.dtype, I64)
        flat = arr.ravel()
        sym, n, lt = f"@T.{name}", max(1, flat.size), LL[ety]
        if ety == F64:
            items = [fconst(x) for x in flat]
        else:
            items = [str(int(x)) for x in (flat.astype(np.int64) if ety == I64 else flat.view(np.int64))]
        body = ", ".join(f"{lt} {x}" for x in items) if items else f"{lt} 0"
        self.out.insert(0, f"{sym} = private unnamed_addr constant [{n} x {lt}] [{body}], align 8\n")
        self.tables[name] = (sym, arr.shape, ety, n)
        return self.tables[name]

    # ---- functions -------------------------------------------------------------------------------
    def function(self, name: str, argtypes: tuple, node=None, export: bool = False):
        key = (name, argtypes, export)
        if key in self.done:
            if self.done[key] is None:
                refuse(node or self.defs[name], f"recursive call of {name}")
            return self.done[key]
        fdef = self.defs.get(name)
        if fdef is None:
            refuse(node, f"unknown function {name}")
        if len(fdef.args.args) != len(argtypes) or fdef.args.defaults or fdef.args.vararg or fdef.args.kwonlyargs:
            refuse(node or fdef, f"{name}: only plain positional parameters, all given")
        self.done[key] = None
        sym = name if export else f"{name}.{len(self.done)}"
        first = FunctionWriter(self, fdef, argtypes, sym, None)  # pass 1: the locals' types, the return type
        first.write()
        for _ in range(3):  # a local widened from bool to int64 late: again, from the types found
            if not first.widened:
                break
            first = FunctionWriter(self, fdef, argtypes, sym, None, seed=first.vars)
            first.write()
        final = FunctionWriter(self, fdef, argtypes, sym, first)
        text = final.write(export=export)
        self.out.append(text)
        self.done[key] = (sym, final.rettype)
        return self.done[key]

    def declare(self, line: str) -> None:
        if line not in self.tables:
            self.tables[line] = None
            self.out.insert(0, line + "\n")

    def private_table(self, items: list):
        if tuple(items) in self.tables:
            return self.tables[tuple(items)]
        sym = f"@P.{len(self.tables)}"
        self.tables[tuple(items)] = sym, len(items)
        body = ", ".join(f"i64 {x}" for x in items)
        self.out.insert(0, f"{sym} = private unnamed_addr constant [{len(items)} x i64] [{body}], align 8\n")
        return sym, len(items)

    def module_ir(self, exports: dict, faulting=()) -> str:
        """The IR text of `exports` (name -> signature letters: irtypes.SIG) and
        all they call; each export also gets a C-ABI wrapper `NAME_c` (arrays as pointer, length;
        a tuple's first item returned, the rest written to a trailing i64* argument); each export
        named in `faulting` (one that may divide by zero: its translation alone set `faulting`) a
        symbol `NAME_faults_c`, so that whoever loads the object code knows which calls to follow
        by a look at the fault word (`fault_c`)."""
        for name, sig in exports.items():
            argtypes = tuple(SIG[c] for c in sig)
            self.function(name, argtypes, export=True)
            self.out.append(self.wrapper(name, argtypes))
            if name in faulting:
                self.out.append(f'define i64 @"{name}_faults_c"() {{\n  ret i64 1\n}}\n')
        if self.faulting:  # the fault word, read and cleared: the callers' wrappers raise when it was set
            self.out.append(f'define i64 @"fault_c"() {{\n  %f = load i64, i64* {self.FAULT}\n'
                            f'  store i64 0, i64* {self.FAULT}\n  ret i64 %f\n}}\n')
        return "".join(self.out)

    def wrapper(self, name, argtypes) -> str:
        sym, ret = self.done[(name, argtypes, True)]
        params, args = [], []
        for i, t in enumerate(argtypes):
            if t in ARRAYS:
                params += [f"i64* %p{i}"] + [f"i64 %n{i}.{k}" for k in range(ARRAYS[t])]
                args += [f"i64* %p{i}"] + [f"i64 %n{i}.{k}" for k in range(ARRAYS[t])]
            else:
                params.append(f"{LL[t]} %p{i}")
                args.append(f"{LL[t]} %p{i}")
        body = [f"  %r = call {lltype(ret)} @\"{sym}\"({', '.join(args)})"]
        if ret == VOID:
            body = [body[0][len("  %r = "):].join(["  ", ""]), "  ret void"]
            rty = "void"
        elif isinstance(ret, tuple):
            params.append("i64* %rest")
            for k in range(1, len(ret)):
                body.append(f"  %e{k} = extractvalue {lltype(ret)} %r, {k}")
                val = f"%e{k}"
                if ret[k] == BOOL:
                    body.append(f"  %z{k} = zext i1 %e{k} to i64")
                    val = f"%z{k}"
                elif ret[k] == F64:
                    body.append(f"  %z{k} = bitcast double %e{k} to i64")
                    val = f"%z{k}"
                body.append(f"  %g{k} = getelementptr i64, i64* %rest, i64 {k - 1}")
                body.append(f"  store i64 {val}, i64* %g{k}")
            body.append(f"  %e0 = extractvalue {lltype(ret)} %r, 0")
            body.append(f"  ret {LL[ret[0]]} %e0")
            rty = LL[ret[0]]
        else:
            body.append(f"  ret {LL[ret]} %r")
            rty = LL[ret]
        return f"define {rty} @\"{name}_c\"({', '.join(params)}) {{\n" + "\n".join(body) + "\n}\n"

    def ctypes_signature(self, name, sig):
        argtypes = tuple(SIG[c] for c in sig)
        ret = self.done[(name, argtypes, True)][1]
        scalar = {BOOL: ctypes.c_bool, F64: ctypes.c_double}
        cargs = []
        for t in argtypes:
            cargs += ([ctypes.c_void_p] + [ctypes.c_int64] * ARRAYS[t]) if t in ARRAYS else \
                [scalar.get(t, ctypes.c_int64)]
        if isinstance(ret, tuple):
            cargs.append(ctypes.c_void_p)
            ret = ret[0]
        cret = None if ret == VOID else scalar.get(ret, ctypes.c_int64)
        return ctypes.CFUNCTYPE(cret, *cargs)


def exported(text: str) -> list:
    """The module's game functions this prototype is for: legal_K, dos_K (their signatures)."""
    names = re.findall(r"(?m)^def ((?:legal|dos)_\d+)\(", text)
    return [(n, "aaiii" if n.startswith("legal") else "aii") for n in names]
