"""The direct path, on by default (`ZIGGURAT_NATIVE_DIRECT=0` turns it off; so does Numba's bounds
checking, `NUMBA_BOUNDSCHECK=1`, which the direct code does not do): a native module's game
functions that the loops and the searches call (ROOTS) compiled by the direct path instead of
Numba's front end.

`native()` (game.py) runs the module's text, then, with the switch on, calls `bind(module,
text)` before any loop compiles: the roots the module defines, and every function of the module
they reach, are translated (translate.py) into one LLVM module and compiled (compile.py); each
root's C-ABI entry is given to LLVM by a symbol of its own (`llvm.add_symbol`), and the module's
name of the root is bound to a one-line @njit wrapper calling it as a Numba `ExternalFunction`
(an array passed as its data pointer and its length). The loops, compiled afterwards, find the
wrappers in the module's globals. If the translator refuses `legal` or `apply` (REQUIRED), nothing
is replaced: the whole module stays Numba's (said at debug level where it is translated); another
root it refuses (a `pick_chance` that makes a buffer in a loop) stays Numba's alone.

The cache (`objects.py`): the direct code is kept as object code, a sealed entry named as the
module's file (a hash of its text and of the engine's code) and as the machine code's target
(`target.tag`: the versions, Numba's JIT target as Numba takes it, NUMBA_CPU_NAME honoured); a
refusal is kept too (`compiled`). The machine code of a loop that calls a direct symbol may only be
loaded by a process that has added that symbol first (LLVM ends a process that loads code calling
a symbol it cannot find). So with the switch on, `native()` runs the module from a file of its own
(its name ends in `d`) under a module name of its own, whose functions have Numba cache entries of
their own, never loaded by a process with the switch off; and every process that runs that file
calls `bind` first, which adds the same symbols (the same roots: the file's name is a hash of the
module's text and of the engine's code, this package's included). Anything else that loads such a
file (not `native()`) must not: it would not add the symbols.

Nothing here stops `native()`: a failure to translate (other than a refusal), compile, load or
bind (`bind`) leaves the whole module Numba's, none of its names replaced (said at debug level),
and its functions compiled in this process without Numba's cache: that file's cache entries may
hold loops calling the direct symbols, which this process did not add. And if Numba refuses to
compile the loops `native()` asks for over the wrappers, `native()` compiles the module again with
the path off (`switched_off`; a loop compiled later, at its first call, is not retried so).

Arrays are assumed C-contiguous at the boundary (every array the kernel passes is: a position
vector, a row of a C-contiguous table, a buffer of its own).
"""

from __future__ import annotations

import ast
import logging
import os
from contextlib import contextmanager
from typing import Optional

from . import objects
from .irtypes import ARRAYS, BOOL, F64, I64, SIG, U64, VOID, Refused

SWITCH = "ZIGGURAT_NATIVE_DIRECT"

# What the kernel's loops (kernel_loops.py) and the searches (search_kernel.py) call of the
# written part, and their parameters' types (irtypes.SIG letters: `a` an int64 array, `f` a
# float64 array, `i` an int64, `u` a uint64). `legal_parts` (the parts policy) stays Numba's.
ROOTS = {"legal": "aa", "apply": "ai", "outcome": "aifai", "pick_chance": "aaiu", "heuristic": "ai",
         "chance_weight": "ai"}
REQUIRED = ("legal", "apply")  # refused, the whole module is Numba's; any other root refused stays Numba's alone

log = logging.getLogger(__name__)


_OFF: list = []  # the direct path switched off in this process for a while (`switched_off`)


def wanted() -> bool:
    """Whether the direct path is on: unless `ZIGGURAT_NATIVE_DIRECT=0`, or Numba is asked to check
    every index (`NUMBA_BOUNDSCHECK`, read as Numba reads it: a number, 0 for off), which Numba's
    code then does and the direct code would not, or `switched_off` runs."""
    if _OFF or os.environ.get(SWITCH, "1") == "0":
        return False
    checks = os.environ.get("NUMBA_BOUNDSCHECK", "").strip()
    return not (checks.lstrip("-").isdigit() and int(checks) != 0)


@contextmanager
def switched_off():
    """The direct path off in this process while the block runs: `native()` compiles a module again
    by Numba alone when Numba would not compile its loops against the direct code's wrappers."""
    _OFF.append(True)
    try:
        yield
    finally:
        _OFF.pop()


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
    """(library, roots, return types) of the module's direct code: its object code from the sealed
    cache (`objects.read`, under this process's target: `compile.target_tag`), else translated,
    compiled and kept there; None when the translator refuses a REQUIRED root (kept too, so that
    every process decides alike). An entry that cannot be loaded here is a miss, made again.
    Raises whatever a failure to translate, compile or load raises (`bind` falls back)."""
    from .compile import load_object, object_code, target_tag

    where = objects.path(module, target_tag())
    kept = objects.read(where)
    if kept is not None and kept[0] == "refused":
        log.debug("%s: the direct path refused (%s, kept); the module is compiled by Numba", module.__name__, kept[1])
        return None
    if kept is not None:
        _, obj, roots, rets = kept
        try:
            lib = load_object(obj, _entries(roots))
        except Exception as e:  # vouched for by its seal, yet not loadable here: made again
            log.debug("%s: the direct path's cache entry did not load (%s): made again", module.__name__, e)
        else:
            lib.from_cache = True
            return lib, roots, rets
    ir, roots, rets = translate(module, text)
    if ir is None:
        log.debug("%s: the direct path refused (%s); the module is compiled by Numba", module.__name__, roots)
        objects.keep_refusal(where, roots)
        return None
    obj = object_code(ir)
    lib = load_object(obj, _entries(roots))
    objects.keep_object(where, obj, roots, rets)  # once it loaded
    lib.from_cache = False
    return lib, roots, rets


def _entries(roots: dict) -> tuple:
    return tuple(name + "_c" for name in roots)  # each root's C-ABI entry (translate.py)


# every library bound, kept for the process's life: code compiled against its symbols may outlive the module
_LIBRARIES: list = []


def bind(module, text: str) -> Optional[list]:
    """The module's roots replaced by wrappers calling the direct code (before any of its loops
    compiles or loads from Numba's cache); the names replaced. None (nothing changed) where the
    translator refuses a REQUIRED root, where Numba's JIT is disabled (NUMBA_DISABLE_JIT), or
    where anything fails (said at debug level; the module's functions then keep no Numba cache:
    `_uncached`). All of the roots are replaced, or none."""
    from numba import config

    if getattr(config, "DISABLE_JIT", False):
        return None
    try:
        made = compiled(module, text)
        if made is None:
            return None
        lib, roots, ret = made
        namespace = _wrappers(module, lib, roots, ret)
    except Exception:
        log.debug("%s: the direct path failed; the module is compiled by Numba, without its cache",
                  module.__name__, exc_info=True)
        _uncached(module)
        return None
    _LIBRARIES.append(lib)
    module._direct_library = lib  # its engine owns the machine code the symbols point to
    for name in roots:  # nothing can fail from here on: every root replaced
        setattr(module, name, namespace[name])
    return list(roots)


def _wrappers(module, lib, roots: dict, ret: dict) -> dict:
    """Each root's C entry given to LLVM by a symbol of its own, and the namespace of the one-line
    @njit wrappers calling them (`wrappers_text`)."""
    import llvmlite.binding as llvm  # type: ignore[import-untyped]

    addresses = {name: lib.address(entry) for name, entry in zip(roots, _entries(roots))}
    if not all(addresses.values()):
        raise LookupError(f"no entry for {[n for n, a in addresses.items() if not a]} in the direct code")
    namespace: dict = {}
    for name, sig in roots.items():
        symbol = f"{module.__name__}_{name}"  # the module's name is a hash of its text and of the engine's code
        llvm.add_symbol(symbol, addresses[name])
        namespace[f"ext_{name}"] = external(symbol, sig, ret[name])
    faulting = {name for name in roots if lib.address(name + "_faults_c")}  # may divide by zero (translate.py)
    if faulting:
        if not lib.address("fault_c"):
            raise LookupError("no fault word's entry (fault_c) in the direct code")
        llvm.add_symbol(f"{module.__name__}_fault", lib.address("fault_c"))
        namespace["ext_fault"] = external(f"{module.__name__}_fault", "", I64)
    exec(compile(wrappers_text(module, roots, faulting), f"<direct wrappers of {module.__name__}>", "exec"),
         namespace)
    return namespace


def _uncached(module) -> None:
    """The module's compiled functions made without Numba's cache in this process (Numba's
    `NullCache`): its file's entries may hold loops calling direct symbols this process did not add."""
    from numba.core.caching import NullCache

    for value in list(module.__dict__.values()):
        py_func = getattr(value, "py_func", None)
        if hasattr(value, "_cache") and getattr(py_func, "__globals__", None) is module.__dict__:
            value._cache = NullCache()


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
