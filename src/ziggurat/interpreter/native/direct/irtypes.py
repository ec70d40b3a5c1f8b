"""The direct path's types and small helpers (translate.py, function.py, expr.py)."""

from __future__ import annotations

import ast
import struct
from typing import NoReturn

import numpy as np

I64, U64, BOOL, F64, ARR, ARR2, ARRF, VOID = "i64", "u64", "bool", "f64", "arr", "arr2", "arrf", "void"
ARRAYS = {ARR: 1, ARR2: 2, ARRF: 1}  # an array's ref: (pointer, its dims: length; or rows, columns)
ELEM = {ARR: I64, ARR2: I64, ARRF: F64}  # its items' type
LL = {I64: "i64", U64: "i64", BOOL: "i1", F64: "double"}
SIG = {"a": ARR, "f": ARRF, "i": I64, "u": U64, "b": BOOL, "d": F64}  # an export's signature letters
FCMP = {ast.Lt: "olt", ast.LtE: "ole", ast.Gt: "ogt", ast.GtE: "oge", ast.Eq: "oeq", ast.NotEq: "une"}
FBIN = {ast.Add: "fadd", ast.Sub: "fsub", ast.Mult: "fmul", ast.Div: "fdiv"}
CMP_S = {ast.Lt: "slt", ast.LtE: "sle", ast.Gt: "sgt", ast.GtE: "sge", ast.Eq: "eq", ast.NotEq: "ne"}
CMP_U = {ast.Lt: "ult", ast.LtE: "ule", ast.Gt: "ugt", ast.GtE: "uge", ast.Eq: "eq", ast.NotEq: "ne"}
# int64 +, -, * carry LLVM's `nsw` (no signed wrap: an overflow is undefined), as Numba writes them
# (numba/cpython/numbers.py: "Telling LLVM to ignore signed overflows allows it to optimize away
# the check for a negative `i+1` if it knows `i` is positive"): without it an index made as
# `b + 1 + k` keeps its wrap-around select, and a loop reading s[b + 1 + k] is vectorised with
# gathers instead of plain loads (a written module's legal ran 4x slower than Numba's). uint64: none.
NSW, SIGNED_NSW = " nsw", (ast.Add, ast.Sub, ast.Mult)
BIN = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.BitAnd: "and", ast.BitOr: "or", ast.BitXor: "xor",
       ast.LShift: "shl"}
STATIC = (ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.IfExp, ast.Constant, ast.Name, ast.operator,
          ast.unaryop, ast.cmpop, ast.boolop, ast.expr_context)
MAX_BUFFER = 65536  # np.empty(K) on the stack up to this many items (512 KB)


class Refused(Exception):
    """A construct outside the subset (the message names the line)."""


def refuse(node, what: str) -> NoReturn:
    raise Refused(f"line {getattr(node, 'lineno', '?')}: {what}: {ast.unparse(node)[:100]!r}")


class V:
    """A value: an LLVM operand (for an array: (pointer, length)) and its type."""
    __slots__ = ("ref", "ty")

    def __init__(self, ref, ty):
        self.ref, self.ty = ref, ty


def lltype(ty) -> str:
    if isinstance(ty, tuple):
        return "{" + ", ".join(LL[t] for t in ty) + "}"
    return "void" if ty == VOID else LL[ty]


def array_params(ty, name: str) -> list:
    """An array parameter's LLVM parameters: its pointer and dims."""
    return [f"i64* %a.{name}"] + [f"i64 %d{k}.{name}" for k in range(ARRAYS[ty])]


def array_args(v) -> list:
    return [f"i64* {v.ref[0]}"] + [f"i64 {d}" for d in v.ref[1:]]


def unify(a, b, node):
    if a == b:
        return a
    if {a, b} == {I64, BOOL}:
        return I64
    if F64 in (a, b) and {a, b} <= {F64, I64, BOOL}:
        return F64  # Numba: an int64 and a float64 unify to float64
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
        return tuple(unify(x, y, node) for x, y in zip(a, b))
    refuse(node, f"a value typed both {a} and {b}")


def fconst(x: float) -> str:
    return "0x%016X" % struct.unpack(">Q", struct.pack(">d", float(x)))[0]


def const(x) -> V:
    if isinstance(x, (bool, np.bool_)):
        return V("true" if x else "false", BOOL)
    if isinstance(x, (float, np.floating)):
        return V(fconst(float(x)), F64)
    x = int(x)
    if not -2**63 <= x < 2**63:
        raise OverflowError(x)
    return V(str(x), I64)
