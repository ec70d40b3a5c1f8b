"""The switch `ZIGGURAT_NATIVE_DIRECT=1` (off by default): a native module's game functions that
the loops and the searches call (ROOTS) compiled by the direct path instead of Numba's front end.

`native()` (game.py) runs the module's text, then, with the switch on, calls `bind(module,
text)` before any loop compiles: the roots the module defines, and every function of the module
they reach, are translated (translate.py) into one LLVM module and compiled (compile.py); each
root's C-ABI entry is given to LLVM by a symbol of its own (`llvm.add_symbol`), and the module's
name of the root is bound to a one-line @njit wrapper calling it as a Numba `ExternalFunction`
(an array passed as its data pointer and its length). The loops, compiled afterwards, find the
wrappers in the module's globals. If the translator refuses `legal` or `apply` (REQUIRED), nothing
is replaced: the whole module stays Numba's (said once, at debug level), and the cache works as
without the switch; another root it refuses (RYB's `pick_chance`) stays Numba's alone.

The cache: the machine code of a loop that calls a direct symbol may only be loaded by a process
that has added that symbol first, and the direct code itself is not kept yet. So a module bound
here keeps nothing in Numba's on-disk cache and loads nothing from it (every function of the
module is made `cache=False`), and the direct code is compiled again in each process. (The next
step: the direct object code kept in the sealed cache and added before the loops' entries load.)

Arrays are assumed C-contiguous at the boundary (every array the kernel passes is: a position
vector, a row of a C-contiguous table, a buffer of its own).
"""

from __future__ import annotations

import ast
import logging
import os
from typing import Optional

from .irtypes import ARRAYS, BOOL, F64, I64, SIG, U64, VOID, Refused

SWITCH = "ZIGGURAT_NATIVE_DIRECT"

# What the kernel's loops (kernel_loops.py) and the searches (search_kernel.py) call of the
# written part, and their parameters' types (irtypes.SIG letters: `a` an int64 array, `f` a
# float64 array, `i` an int64, `u` a uint64). `legal_parts` (the parts policy) stays Numba's.
ROOTS = {"legal": "aa", "apply": "ai", "outcome": "aifai", "pick_chance": "aaiu", "heuristic": "ai",
         "chance_weight": "ai"}
REQUIRED = ("legal", "apply")  # refused, the whole module is Numba's; any other root refused stays Numba's alone

log = logging.getLogger(__name__)


def wanted() -> bool:
    """Whether the switch is on."""
    return os.environ.get(SWITCH, "") == "1"


def translate(module, text: str) -> tuple:
    """(library, {root: signature letters}) of the roots the module defines that the translator
    takes, compiled into one LLVM module; or (None, why) when it refuses a REQUIRED one. A refused
    root that is not required (say a `pick_chance` that makes a buffer in a loop) stays Numba's:
    the direct code and Numba's never call each other, only the loops call both."""
    from .compile import compile_ir
    from .translate import Translator

    tree = ast.parse(text)
    roots, refused = {}, {}
    for name, sig in ROOTS.items():
        if name not in module.__dict__:
            continue
        try:  # each alone first (translation only: milliseconds), so that one refusal spares the rest
            exports = {name: sig}
            tr = Translator(text, module.__dict__, tree)
            tr.module_ir(exports)
            if isinstance(tr.done[(name, tuple(SIG[c] for c in sig), True)][1], tuple):
                raise Refused(f"{name} returns a tuple")  # (its C entry would take a pointer more)
            roots[name] = sig
        except Refused as why:
            if name in REQUIRED:
                return None, f"{name}: {why}"
            refused[name] = str(why)
    if refused:
        log.debug("%s: the direct path left to Numba %s", module.__name__, refused)
    tr = Translator(text, module.__dict__, tree)  # the module's own globals: the values the text names
    return compile_ir(tr.module_ir(roots), tr), roots


def bind(module, text: str) -> Optional[list]:
    """The module's roots replaced by wrappers calling the direct code, and every function of the
    module made `cache=False`; the names replaced. None (nothing changed) where the translator
    refuses a root, or where Numba's JIT is disabled (NUMBA_DISABLE_JIT: plain Python)."""
    import llvmlite.binding as llvm  # type: ignore[import-untyped]
    from numba import config

    if getattr(config, "DISABLE_JIT", False):
        return None
    lib, roots = translate(module, text)
    if lib is None:
        log.debug("%s: the direct path refused (%s); the module is compiled by Numba", module.__name__, roots)
        return None
    module._direct_library = lib  # kept alive: its engine owns the machine code the symbols point to
    ret = {name: lib.translator.done[(name, tuple(SIG[c] for c in sig), True)][1] for name, sig in roots.items()}
    namespace: dict = {}
    for name, sig in roots.items():
        symbol = f"{module.__name__}_direct_{name}"
        llvm.add_symbol(symbol, lib.address(name + "_c"))
        namespace[f"ext_{name}"] = external(symbol, sig, ret[name])
    exec(compile(wrappers_text(module, roots), f"<direct wrappers of {module.__name__}>", "exec"), namespace)
    uncached(module)
    for name in roots:
        setattr(module, name, namespace[name])
    return list(roots)


def external(symbol: str, sig: str, ret):
    """Numba's `ExternalFunction` of a C-ABI entry (an array: a pointer and its dims)."""
    from numba import types
    from numba.core.typing import signature

    scalar = {I64: types.int64, U64: types.uint64, BOOL: types.boolean, F64: types.float64, VOID: types.void}
    args: list = []
    for c in sig:
        t = SIG[c]
        args += [types.voidptr] + [types.int64] * ARRAYS[t] if t in ARRAYS else [scalar[t]]
    return types.ExternalFunction(symbol, signature(scalar[ret], *args))


def wrappers_text(module, roots: dict) -> str:
    """The wrappers' Python text: for each root, a function of its parameters' names calling
    `ext_NAME` (arrays as `a.ctypes.data, a.shape[0]`)."""
    lines = ["from ziggurat.interpreter.native.numbacache import njit", ""]
    for name, sig in roots.items():
        params = list(module.__dict__[name].py_func.__code__.co_varnames[:len(sig)])
        args: list = []
        for p, c in zip(params, sig):
            t = SIG[c]
            args += [f"{p}.ctypes.data"] + [f"{p}.shape[{k}]" for k in range(ARRAYS[t])] if t in ARRAYS else [p]
        lines += ["@njit", f"def {name}({', '.join(params)}):", f"    return ext_{name}({', '.join(args)})", ""]
    return "\n".join(lines)


def uncached(module) -> None:
    """Every compiled function of the module keeps nothing in Numba's cache and loads nothing."""
    from numba.core.caching import NullCache
    from numba.core.registry import CPUDispatcher

    for value in list(module.__dict__.values()):
        if isinstance(value, CPUDispatcher) and value.py_func.__globals__ is module.__dict__:
            value._cache = NullCache()  # type: ignore[attr-defined]  # (Numba's, not declared for type checkers)
