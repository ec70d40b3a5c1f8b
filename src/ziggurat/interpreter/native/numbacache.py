"""Numba's on-disk cache of the native modules, kept in the checked cache folder and sealed.

Numba's own cache (`@njit(cache=True)`) writes an index and the machine code next to the source,
or in a user-wide folder, as pickles it loads unchecked. A native module imports `njit` from here
instead: the same decorator, but `cache=True` gives each function a `SealedCache`, whose files are
in `ZIGGURAT_CACHE_DIR/native/numba/` (every level checked like the rest of the cache) and are
written and read as sealed entries (`ziggurat.cachedir`: a keyed hash checked before unpickling).
With the cache off, or a folder that may not be trusted, nothing is kept on disk.

This reaches into Numba's caching classes (`numba.core.caching`), which Numba documents as the way
to change where and how its cache is kept (custom locators and cache implementations).
"""

from __future__ import annotations

import itertools
import os
import pickle

import numba
from llvmlite import binding as llvm  # type: ignore[import-untyped]
from numba.core import caching, types
from numba.core import compiler as numba_compiler
from numba.core.codegen import JITCodeLibrary
from numba.core.registry import CPUDispatcher
from numba.core.runtime import rtsys

from ... import cachedir
from . import numbacalls, numbapipe

FOLDER = ("native", "numba")

if numbapipe.tested(numbapipe.numba_version()):
    numbacalls.install()  # Numba's per-call overheads made cheaper, before any compile (numbacalls)


def _folder(py_file: str):
    """The checked folder of a source file's cache, or None."""
    return cachedir.subfolder(*FOLDER, caching._CacheLocator.get_suitable_cache_subpath(py_file))


class _Locator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
    """The cache of a function in a real file is in its checked folder below the cache root."""

    def __init__(self, py_func, py_file, where: str):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = where

    def get_cache_path(self):
        return self._cache_path

    def ensure_cache_path(self):
        pass  # made and checked by _folder; a write there checks it again

    @classmethod
    def from_function(cls, py_func, py_file):
        where = _folder(py_file) if os.path.isfile(py_file) else None
        return None if where is None else cls(py_func, py_file, str(where))


class _Impl(caching.CompileResultCacheImpl):
    # mypy infers numba's own list here as list[type[object]], then refuses a locator class of ours
    # in it while it accepts numba's (ZipCacheLocator, of the same bases): its inference, not ours
    _locator_classes = [_Locator]  # type: ignore[list-item]


class _SealedFile(caching.IndexDataCacheFile):
    """Numba's index and data files, each a sealed entry: the index is (Numba's version, the
    source's stamp, the overloads), the data Numba's own serialization."""

    def _load_index(self):
        data = cachedir.read_sealed(self._index_path)
        if data is None:
            return {}
        version, stamp, overloads = pickle.loads(data)
        return overloads if (version, stamp) == (self._version, self._source_stamp) else {}

    def _save_index(self, overloads):
        cachedir.write_sealed(self._index_path, self._dump((self._version, self._source_stamp, overloads)))

    def _load_data(self, name):
        data = cachedir.read_sealed(self._data_path(name))
        if data is None:
            raise OSError(f"no sealed cache entry {name}")  # a miss: the function is compiled
        return pickle.loads(data)

    def _save_data(self, name, data):
        cachedir.write_sealed(self._data_path(name), self._dump(data))


class SealedCache(caching.FunctionCache):
    """Numba's function cache, its files in the checked folder and sealed."""

    _impl_class = _Impl

    def __init__(self, py_func):
        super().__init__(py_func)
        self._cache_file = _SealedFile(self._cache_path, self._impl.filename_base,
                                       self._impl.locator.get_source_stamp())

    def load_overload(self, sig, target_context):
        """Numba's, without its first step: refreshing the target context imports and installs
        every implementation Numba has (a third of a CPU second in a process's first load), for
        nothing here, where machine code is loaded, not compiled: it needs only the runtime (NRT)
        it calls. A miss goes on to Numba's compiler, which refreshes the context itself.

        The functions it calls by symbol (`Shared`) are loaded (or compiled) first: machine code
        whose callee is not in the process cannot be loaded (LLVM ends the process). Should a
        callee now have another symbol (compiled again since, by a process that missed it in
        the cache), this is a miss: compiled again, against the callee there is."""
        rtsys.initialize(target_context)
        with self._guard_against_spurious_io_errors():
            if not self._enabled:
                return None
            data = self._cache_file.load(self._index_key(sig, target_context.codegen()))
            if not (isinstance(data, tuple) and len(data) == 2):
                return None
            payload, callees = data
            if not _load_callees(self._py_func.__globals__, callees):
                return None
            return self._impl.rebuild(target_context, payload)

    def _save_overload(self, sig, data):
        """Numba's, the entry also naming the functions the machine code calls by symbol, and
        without the function's type annotation (`UNANNOTATED` in its stead)."""
        if not self._enabled or not self._impl.check_cachable(data):
            return
        self._impl.locator.ensure_cache_path()
        key = self._index_key(sig, data.codegen)
        self._cache_file.save(key, (self._impl.reduce(data._replace(type_annotation=UNANNOTATED)),
                                    _callees(data.library)))


UNANNOTATED = "(a native function loaded from ziggurat's cache: Numba's type annotation is not kept)"
"""What a cache entry holds for the function's type annotation. Numba's own writes the annotation
as text into every entry (`CompileResult._reduce`: each statement of the typed IR printed with its
type, the tables' values among them), only for `inspect_types()` of a function loaded from the
cache; a shipped ruleset's cold compile spent about a tenth of a CPU second writing them. A
function compiled in the process keeps its own annotation (`inspect_types()` shows it)."""


_SYMBOLS: dict = {}  # the symbol of each `Shared` function in the process -> (its name, its argument types)


def _callees(library) -> tuple:
    """(name, argument types, symbol) of each `Shared` function a code library calls by symbol
    (declared in its module, not linked into it), in the order they were compiled. Each symbol is
    looked up in the module by name: walking the module's functions through LLVM's C API cost
    more than the rest of a cache entry's saving (a large module has hundreds)."""
    module, out = library._final_module, []
    for symbol, (name, args) in _SYMBOLS.items():
        try:
            declared = module.get_function(symbol).is_declaration
        except NameError:  # not in the module: not called
            continue
        if declared:
            out.append((name, args, symbol))
    return tuple(out)


def _load_callees(names: dict, callees: tuple) -> bool:
    """Whether every callee (`_callees`) is now in the process with the symbol it had: each is
    loaded from the cache, or compiled, first."""
    for name, args, symbol in callees:
        callee = names.get(name)
        if not isinstance(callee, Shared):
            return False
        callee.compile(tuple(args))
        if symbol not in _SYMBOLS:
            return False
    return True


class OneOverload(CPUDispatcher):
    """Numba's dispatcher, but a function called from compiled code is compiled for the types of
    its arguments, not for their values: Numba types a constant argument (`after_0(s, out, 0, m,
    11)`) as a literal and compiles the callee again for each value met (one after function
    of a shipped ruleset fourteen times, a third of its compile time). No function here reads an argument as a
    constant, so one machine code serves every call."""

    def get_call_template(self, args, kws):
        return super().get_call_template(tuple(types.unliteral(a) for a in args),
                                         {k: types.unliteral(v) for k, v in kws.items()})


LINKED_UP_TO = 1000  # LLVM instructions: a `Shared` function whose code is larger is called by symbol


class Shared(OneOverload):
    """A function with machine code of its own which, when large (more than LINKED_UP_TO LLVM
    instructions, optimised, with the callees linked into it: `apply` and the `do_N` it calls),
    compiled code calls by its symbol: its code is not linked into each caller. Numba links a
    callee's code into every caller, where LLVM optimises it again and makes it machine code
    again: a game's `legal` and `apply` were optimised and made machine code three times
    (alone, in the perft loop, in the study loop; a shipped ruleset's two loops: 10 of its 70 CPU
    s cold, in one profile). Code this large is not inlined whole into a caller (LLVM's inlining
    threshold is about 225), so a caller gives up one call a use; smaller code stays linked,
    where LLVM may inline it (calling a small game's `apply` and `outcome` by symbol measured
    3-6% of its playouts, at the noise's edge). LLVM's JIT finds the symbol among the code
    loaded before (the callee is compiled, or loaded, while the caller is typed; a caller loaded
    from the cache loads the callees it names first: `SealedCache`)."""

    def add_overload(self, cres):
        super().add_overload(cres)
        if cres.objectmode:
            return
        symbol = cres.fndesc.mangled_name
        _SYMBOLS[symbol] = (self.py_func.__name__, tuple(cres.signature.args))
        linked = (f for f in cres.library._get_module_for_linking().functions if not f.is_declaration
                  and not f.name.startswith(("_ZN7cpython", "cfunc.")))  # (Python's wrappers are not linked in)
        size = _up_to(LINKED_UP_TO + 1, (i for f in linked for block in f.blocks for i in block.instructions))
        if size > LINKED_UP_TO:
            context = self.targetctx
            context.remove_user_function(cres.entry_point)  # Numba's: a call linking cres.library in
            context.insert_user_function(cres.entry_point, cres.fndesc, libs=())
        elif size > INTO_SHARED_UP_TO:
            setattr(cres.library, BY_SYMBOL_FROM_SHARED, True)


def _up_to(n: int, items) -> int:
    """How many items there are, counted up to n at most (counting a large function's LLVM
    instructions one by one through LLVM's C API cost a tenth of a second)."""
    return sum(1 for _ in itertools.islice(items, n))


def _more_than(n: int, items) -> bool:
    """Whether there are more than n items; it stops at the first one past n."""
    return _up_to(n + 1, items) > n


INTO_SHARED_UP_TO = 500  # LLVM instructions: a larger `Shared` function is called by symbol from another one
BY_SYMBOL_FROM_SHARED = "_ziggurat_by_symbol_from_shared"  # the mark of such a function's code library


class SharedLibrary(JITCodeLibrary):
    """The code library of a `Shared` function: the code of a `Shared` callee of more than
    INTO_SHARED_UP_TO LLVM instructions (marked BY_SYMBOL_FROM_SHARED) is not linked in, it is
    called by its symbol (the callee has machine code of its own). A `Shared` function is one
    the loops call (`legal`, `apply`) or a part of one (`legal_K`, `dos_K`); a large caller is
    itself called by symbol, so a callee linked into it was optimised and made machine code
    once more there, for nothing LLVM does with code this size (it inlines a call to code of
    about 50 instructions at most, and infers nothing across a `linkonce_odr` definition, which
    another copy may replace). A small caller (a dispatch over its parts) is linked into the
    loops, declaring its large callees. The loops link smaller `Shared` functions as before."""

    def add_linking_library(self, library):
        if not getattr(library, BY_SYMBOL_FROM_SHARED, False):
            super().add_linking_library(library)


BIG = 300  # a function of more blocks than this (Numba's IR, before inlining) inlines no helper


def inline_unless_big(expr, caller, callee) -> bool:
    """`inline="always"`, but into a function of at most BIG blocks: Numba inlines a call by
    rewriting the caller and analysing it whole again (its variables' liveness, its SSA form),
    so a large function with many calls to small helpers costs the square of its size (a shipped
    `legal` of 359 blocks and 27 calls took most of its compile time). Such a function calls
    them instead (LLVM still inlines what it finds worth it). Decided once per function, by
    its size before anything was inlined into it. The legal moves of most shipped games are
    below BIG (the largest of the classic games' has 257 blocks), so their code is unchanged.
    A function made with `njit(inlines=False)` (the parts of a split `legal`) calls them too.
    The callee's IR is not read (see `_frontend`)."""
    decided = getattr(caller, "_ziggurat_inlines", None)
    if decided is None:
        decided = caller._ziggurat_inlines = (len(caller.blocks) <= BIG
                                              and not getattr(caller.func_id.func, "_ziggurat_calls", False))
    return decided


_run_frontend = numba_compiler.run_frontend


def _frontend(func, *args, **kws):
    """Numba's `run_frontend`, but None for a function whose inlining `inline_unless_big`
    decides: Numba translates the callee's bytecode at every call site only to hand it to the
    cost model (`InlineInlinables._do_work`), which reads the caller alone (a shipped ruleset
    translated one helper 255 times). Inlining itself translates it with arguments (not this)."""
    if not args and not kws and getattr(func, "_ziggurat_sized", False):
        return None
    return _run_frontend(func, *args, **kws)


numba_compiler.run_frontend = _frontend


class LinkedOnly(JITCodeLibrary):
    """The code library of a function only compiled code calls (`njit(internal=True)`): its IR is
    optimised and linked into each caller, as Numba does with every callee, but never made
    machine code of its own. Numba makes each function's machine code when it compiles it, and
    again for each caller it is linked into (its loops): the first copy of a function without
    wrappers is never run (a shipped ruleset of 43 move functions: 9.7 -> 7.4 CPU s of machine
    code in its cold compile). Only the function's environment (a pointer Numba sets after
    compiling) is added to the engine, in a module of its own. Kept in the cache as its IR
    (Numba's `bitcode` form, made machine code if loaded), not as machine code."""

    def _finalize_final_module(self):
        self._finalize_dynamic_globals()
        self._verify_declare_only_symbols()
        envs = [g.name for g in self._final_module.global_variables
                if not g.is_declaration and g.name.startswith("_ZN08NumbaEnv")]
        if envs:
            text = "\n".join(f'@"{name}" = common global i8* null' for name in envs)
            module = llvm.parse_assembly(f'target triple = "{llvm.get_process_triple()}"\n{text}\n')
            self._codegen._add_module(module)
            self._codegen._engine.finalize_object()
        self._finalized = True

    def serialize_using_object_code(self):
        return self.serialize_using_bitcode()


def _compiler_into(library_class, doc: str):
    """The native modules' compiler (`numbapipe.Trimmed`), the function's code library a `library_class`."""

    class Compiler(numbapipe.Trimmed):
        __doc__ = doc

        def compile_extra(self, func):
            if self.state.library is None:
                self.state.library = library_class(self.state.targetctx.codegen(), func.__qualname__)
                self.state.library.enable_object_caching()
            return super().compile_extra(func)

    return Compiler


_SharedCompiler = _compiler_into(SharedLibrary, "Compiles a function into a `SharedLibrary`.")
_LinkedOnlyCompiler = _compiler_into(LinkedOnly, "Compiles a function into a `LinkedOnly` library.")


def njit(*args, cache: bool = False, internal: bool = False, inlines: bool = True, shared: bool = False,
         **options):
    """`numba.njit`, where `cache=True` keeps the machine code in the sealed cache (or nowhere,
    when there is no cache folder to trust), a function is compiled once per argument types
    (`OneOverload`), and `inline="always"` inlines into all but the largest functions
    (`inline_unless_big`). `internal=True`: a function only compiled code calls, made without
    the wrappers that let Python (and first-class function values) call it (Numba's
    `no_cpython_wrapper`, `no_cfunc_wrapper`; every function is made without the second, which
    only a first-class function value calls): two functions less to lower, optimise and turn
    into machine code for each, a sixth of the compile time of a game's many `do_N`; and its
    code is only linked into its callers, never made machine code of its own (`LinkedOnly`).
    `inlines=False`: the function calls its helpers, as a function of more than BIG blocks does.
    `shared=True`: compiled code calls it by its symbol when it is large, its code not linked in
    (`Shared`); and it calls a `Shared` callee of more than INTO_SHARED_UP_TO instructions by its
    symbol too (`SharedLibrary`)."""

    if options.get("inline") == "always":
        options["inline"] = inline_unless_big
    options["pipeline_class"] = numbapipe.Trimmed
    options.setdefault("no_cfunc_wrapper", True)  # no function here is used as a first-class value
    if internal:
        options.update(no_cpython_wrapper=True, no_cfunc_wrapper=True)
        options["pipeline_class"] = _LinkedOnlyCompiler
    elif shared:
        options["pipeline_class"] = _SharedCompiler

    def wrap(func):
        setattr(func, numbapipe.OURS, True)
        if options.get("inline") is inline_unless_big:
            func._ziggurat_sized = True
        if not inlines:
            func._ziggurat_calls = True
        dispatcher = numba.njit(**options)(func)
        if type(dispatcher) is not CPUDispatcher:  # NUMBA_DISABLE_JIT: the function itself, nothing to cache
            return dispatcher
        dispatcher.__class__ = Shared if shared and not internal else OneOverload
        if cache:
            try:
                dispatcher._cache = SealedCache(dispatcher.py_func)
            except RuntimeError:  # no locator: no folder to keep it in; compiled every process
                pass
        return dispatcher

    return wrap(args[0]) if args else wrap


def sharing(names: tuple):
    """`njit`, where a function of one of these names is `shared=True`: a native module's
    decorator, the names its loops call (`module.SHARED`); a function whose decorator says
    `shared=` is as it says (`legal.PART`)."""

    def decorator(*args, **options):
        def wrap(func):
            return njit(**{"shared": func.__name__ in names, **options})(func)  # or as the decorator says

        return wrap(args[0]) if args else wrap

    return decorator
