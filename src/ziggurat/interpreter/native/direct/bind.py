"""The switch `ZIGGURAT_NATIVE_DIRECT=1` (off by default): a native module's game functions that
the loops and the searches call (ROOTS) compiled by the direct path instead of Numba's front end.

`native()` (game.py) runs the module's text, then, with the switch on, calls `bind(module,
text)` before any loop compiles: the roots the module defines, and every function of the module
they reach, are translated (translate.py) into one LLVM module and compiled (compile.py); each
root's C-ABI entry is given to LLVM by a symbol of its own (`llvm.add_symbol`), and the module's
name of the root is bound to a one-line @njit wrapper calling it as a Numba `ExternalFunction`
(an array passed as its data pointer and its length). The loops, compiled afterwards, find the
wrappers in the module's globals. If the translator refuses `legal` or `apply` (REQUIRED), nothing
is replaced: the whole module stays Numba's (said at debug level where it is translated); another
root it refuses (a `pick_chance` that makes a buffer in a loop) stays Numba's alone.

The cache: the direct code is kept as object code, a sealed entry in `native/direct/` named as the
module's file and the machine it was made for (`compile.target_tag`: llvmlite's and LLVM's versions,
the target triple, the host CPU's name and features; `compiled`); a refusal is kept too. The machine
code of a loop that calls a direct symbol may only be loaded by a process that has added that symbol
first (LLVM ends a process that loads code calling a symbol it cannot find). So with the switch on,
`native()` runs the module from a file of its own (its name ends in `d`) under a module name of its
own, whose functions have Numba cache entries of their own, never loaded by a process with the
switch off; and every process that runs that file calls `bind` first, which adds the same symbols
(the same roots: the file's name is a hash of the module's text and of the engine's code, this
package's included). Anything else that loads such a file (not `native()`) must not: it would not
add the symbols.

Arrays are assumed C-contiguous at the boundary (every array the kernel passes is: a position
vector, a row of a C-contiguous table, a buffer of its own).
"""

from __future__ import annotations

import ast
import logging
import os
import pickle
from pathlib import Path
from typing import Optional

from .irtypes import ARRAYS, BOOL, F64, I64, SIG, U64, VOID, Refused

SWITCH = "ZIGGURAT_NATIVE_DIRECT"
FOLDER = ("native", "direct")  # the direct object code, sealed entries of the cache folder

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
    """(IR text, {root: signature letters}, {root: return type}) of the roots the module defines
    that the translator takes; or (None, why, None) when it refuses a REQUIRED one. A refused
    root that is not required (say a `pick_chance` that makes a buffer in a loop) stays Numba's:
    the direct code and Numba's never call each other, only the loops call both."""
    from .translate import Translator

    tree = ast.parse(text)
    roots, refused, faulting = {}, {}, set()
    for name, sig in ROOTS.items():
        if name not in module.__dict__:
            continue
        try:  # each alone first (translation only: milliseconds), so that one refusal spares the rest
            tr = Translator(text, module.__dict__, tree)
            tr.module_ir({name: sig})
            if isinstance(tr.done[(name, tuple(SIG[c] for c in sig), True)][1], tuple):
                raise Refused(f"{name} returns a tuple")  # (its C entry would take a pointer more)
            roots[name] = sig
            if tr.faulting:  # it may divide by zero (translate.py): its wrapper looks at the fault word
                faulting.add(name)
        except Refused as why:
            if name in REQUIRED:
                return None, f"{name}: {why}", None
            refused[name] = str(why)
    if refused:
        log.debug("%s: the direct path left to Numba %s", module.__name__, refused)
    tr = Translator(text, module.__dict__, tree)  # the module's own globals: the values the text names
    ir = tr.module_ir(roots, faulting)
    return ir, roots, {name: tr.done[(name, tuple(SIG[c] for c in sig), True)][1] for name, sig in roots.items()}


def compiled(module, text: str) -> Optional[tuple]:
    """(library, roots, return types) of the module's direct code: its object code from the
    sealed cache (`native/direct/`, named as the module's file, whose name is a hash of its text
    and of the engine's code, this package's included, and as the machine: `target_tag`), else
    translated, compiled and kept
    there. A refusal is kept too (as None), so that every process decides alike."""
    from .... import cachedir
    from .compile import load_object, object_code, target_tag

    folder = cachedir.subfolder(*FOLDER)
    path = None if folder is None else folder / f"{Path(module.__file__).stem}-{target_tag()}.pickle"
    data = cachedir.read_sealed(path) if path is not None else None
    if data is not None:
        kept = pickle.loads(data)
        if kept is None:
            return None
        obj, roots, rets = kept
        lib = load_object(obj)
        lib.from_cache = True
        return lib, roots, rets
    ir, roots, rets = translate(module, text)
    if ir is None:
        log.debug("%s: the direct path refused (%s); the module is compiled by Numba", module.__name__, roots)
        if path is not None:
            cachedir.write_sealed(path, pickle.dumps(None))
        return None
    obj = object_code(ir)
    if path is not None:
        cachedir.write_sealed(path, pickle.dumps((obj, roots, rets)))
    lib = load_object(obj)
    lib.from_cache = False
    return lib, roots, rets


def bind(module, text: str) -> Optional[list]:
    """The module's roots replaced by wrappers calling the direct code (before any of its loops
    compiles or loads from Numba's cache); the names replaced. None (nothing changed) where the
    translator refuses a REQUIRED root, or where Numba's JIT is disabled (NUMBA_DISABLE_JIT)."""
    import llvmlite.binding as llvm  # type: ignore[import-untyped]
    from numba import config

    if getattr(config, "DISABLE_JIT", False):
        return None
    made = compiled(module, text)
    if made is None:
        return None
    lib, roots, ret = made
    module._direct_library = lib  # kept alive: its engine owns the machine code the symbols point to
    namespace: dict = {}
    for name, sig in roots.items():
        symbol = f"{module.__name__}_{name}"  # the module's name is a hash of its text and of the engine's code
        llvm.add_symbol(symbol, lib.address(name + "_c"))
        namespace[f"ext_{name}"] = external(symbol, sig, ret[name])
    faulting = {name for name in roots if lib.address(name + "_faults_c")}  # may divide by zero (translate.py)
    if faulting:
        llvm.add_symbol(f"{module.__name__}_fault", lib.address("fault_c"))
        namespace["ext_fault"] = external(f"{module.__name__}_fault", "", I64)
    exec(compile(wrappers_text(module, roots, faulting), f"<direct wrappers of {module.__name__}>", "exec"),
         namespace)
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


def wrappers_text(module, roots: dict, faulting=frozenset()) -> str:
    """The wrappers' Python text: for each root, a function of its parameters' names calling
    `ext_NAME` (arrays as `a.ctypes.data, a.shape[0]`); a root in `faulting` (it may divide by
    zero) then reads and clears the module's fault word (`ext_fault`) and raises ZeroDivisionError
    if a division by zero set it, as Numba's own code of the function would have raised."""
    lines = ["from ziggurat.interpreter.native.numbacache import njit", ""]
    for name, sig in roots.items():
        params = list(module.__dict__[name].py_func.__code__.co_varnames[:len(sig)])
        args: list = []
        for p, c in zip(params, sig):
            t = SIG[c]
            args += [f"{p}.ctypes.data"] + [f"{p}.shape[{k}]" for k in range(ARRAYS[t])] if t in ARRAYS else [p]
        call = f"ext_{name}({', '.join(args)})"
        if name not in faulting:
            lines += ["@njit", f"def {name}({', '.join(params)}):", f"    return {call}", ""]
            continue
        lines += ["@njit", f"def {name}({', '.join(params)}):", f"    r = {call}", "    if ext_fault() != 0:",
                  "        raise ZeroDivisionError('division by zero')", "    return r", ""]
    return "\n".join(lines)
