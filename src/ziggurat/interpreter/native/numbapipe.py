"""How Numba compiles a native module's functions: the parts of its compiler made cheaper for
generated code like ours, each keeping the code it makes the same.

- **Inlining copies a function's IR once, not once per block.** Numba inlines a call
  (`inline="always"`, `numbacache.inline_unless_big`) by copying the callee's IR twice, block by
  block, each block with a `copy.deepcopy` of its own (`InlineWorker.inline_ir`). Every block
  refers to the function's one `Scope`, which holds all its variables, so each block's copy
  copied every variable again: a callee of B blocks and V variables cost B x V copies (a
  shipped game's `do_N` of 35 blocks and 616 variables, inlined into `apply`). Here the
  blocks of one IR are copied with one memo, as a single `deepcopy` of its blocks would be: the
  scope and its variables are copied once and the blocks share the copy. Numba's own copy gives
  each block an equal scope of its own; the inliner asks for exactly one (it compares them by
  value) and then moves every block into the caller's scope, so what it builds is the same.
- **A callee is translated once, not at every call site it is inlined into.** Numba's inliner
  (`InlineWorker.inline_function`, as `InlineInlinables` calls it) runs the callee's bytecode
  through the untyped pipeline again at each call site, and then copies the IR it made twice: once
  to rewrite into the caller, once as an "unmutated copy" it returns, which `InlineInlinables`
  throws away. Here a function's untyped IR is made once per function, flags and locals
  (`_UNTYPED`, weakly keyed by the function) and handed to Numba's `inline_ir`, which copies it
  before it changes anything; and the copy it returns is not made (`_COPY.second`: the blocks of
  the copy being rewritten are returned as they are). The final LLVM IR of every function of the
  largest shipped module is the same but for the names Numba numbers (checked by hand).
- **SSA is rebuilt only where a variable is named.** Numba's SSA reconstruction (`ssa._run_ssa`)
  takes each variable assigned more than once in turn and rewrites every block of the function
  for it, twice (its definitions renamed, then its uses): variables x blocks (a shipped
  `legal` of 185 such variables: most of its 1.7 CPU s of SSA). A block that does not name
  the variable comes out of both rewrites as it went in (the handlers change only statements
  that name it, and the phi nodes are placed by the dominance frontiers, not by the walk), so
  here each rewrite walks the blocks that name it and copies the others as they are. Same
  order, same names, same phi nodes: the same IR.
- **A source position is copied without the source file it caches.** Numba's `ir.Loc` (file,
  line, column of a statement) keeps the file's lines once something has asked for them
  (`Loc.get_lines`: lowering a `raise` looks for the enclosing `def` to name it in the
  exception), and `copy.deepcopy` of a `Loc` copied that list element by element: each copy of
  a callee's IR for inlining copied the whole generated module once per such `Loc` (a shipped
  ruleset: 2.5 million list items copied, 416 copies of its 6,100 lines, 98% of all the
  inliner copied). Here a `Loc` copies as a shallow copy: the same file, line and column, and the
  same (never mutated) list of lines, shared. A `Loc`'s equality and every use of it read only
  those; the IR and the code made from it are the same.
- **The target context is refreshed only when something was registered since.** Numba's
  `BaseContext.refresh` installs the implementations and typing declarations registered since the
  last refresh (each registry's new entries; its first call also imports Numba's own). It is
  called at every lookup of an implementation that is missing, and lowering looks one up at
  every array it touches (`ArrayStruct._make_refs`: an `__array__` method, which arrays have
  none of), and at every compiler made: 57 microseconds a call that finds nothing new, thousands
  of calls a large function. Here, after a refresh, the number of entries of every registry the
  two contexts hold is kept; a refresh with the same numbers (nothing registered since, no
  registry added) is a call that would find nothing new, and returns. The first refresh of a
  context is Numba's.
- **Whether an implementation takes `loc` is read from its code.** Numba wraps the
  implementation of every operation it lowers (`base._wrap_impl`, at every lookup) and first asks
  whether the function takes a `loc` argument, through `inspect.signature` (`base._has_loc`):
  thousands of signatures built per large function. For a plain Python function (no
  `__wrapped__`, `__signature__` or `_partialmethod`, which `inspect` would follow), its
  parameters are the first names of its code's variables (positional, keyword-only, then the
  `*` and `**` names), exactly what `inspect` reads; any other callable asks Numba's own.
- **A pipeline without the passes that find nothing in generated code** (`Trimmed`, every
  function a native module compiles): Numba's nopython pipeline less the passes for constructs
  the native writer and the kernel never emit (`LEFT_OUT`): `with` blocks (object mode),
  closures, comprehensions made arrays and `functools.reduce` (`InlineClosureLikes`, which also
  runs Numba's variable liveness twice on the whole function), `literally` and
  `literal_unroll`. Should such code ever be written, Numba refuses it (a typing error, which
  the loader reports as `Unsupported`); it does not compile it wrong. Checked: no shipped
  module's text has any of them.
- **An operator on numbers is typed once per argument types** (`_get_call_type_once`). Typing
  `a + b`, `x < y` and the like asks each of the operator's templates in turn (Python's, then
  NumPy's ufunc rules, which search the ufunc's loops), and does so at every such expression,
  once while inferring types and again while lowering: a shipped game's functions typed some
  1,100 of them, of 96 distinct argument types, for about 5% of its compile. The signature an
  operator's templates give for given argument types is the same each time (the function type,
  its templates, the typing context and the target are part of the key), so it is kept and given
  again. Only operators (the `operator` module's functions) on numbers and booleans are kept;
  a refusal is not kept (it is raised again each time).
- **A function's variable liveness is computed when something asks for it.** After most passes
  Numba post-processes the IR (`PostProcessor.run`): it canonicalises the CFG and computes every
  variable's liveness at once (a fixpoint over the blocks: their uses and definitions, the live
  and dead variables of each block, and the variables live on entry to each). In our pipeline
  nothing reads it unless `del`s are to be emitted (when Numba's own runs, and computes it), or
  for a generator's state (Numba's own again), or object mode's lowering (which no native
  function uses): a shipped ruleset's compile computed it 455 times, 246 never read. Here, for a
  function of a native module (marked `OURS` by `numbacache.njit`: any other function, Numba's
  own among them, gets Numba's own), the CFG is canonicalised and the IR given Numba's own lazy
  `VariableLifetime`, which computes what is asked of it, when asked, from the blocks as they
  are then (nothing in our pipeline asks). The final LLVM IR
  of every function of five shipped rulesets is the same but for the names Numba numbers.
- **The garbage collector runs less often during a compile.** Python collects its youngest
  generation once 700 more objects were made than freed, every tenth time the next one too, and
  the whole heap once enough objects have survived: a compile makes and keeps so many (Numba's IR,
  types and llvmlite's IR of every function) that a shipped ruleset's cold compile collected its
  whole heap 16 times, 3.2 CPU s in the collector, 2.5 of them in those 16. While a native
  function compiles (`Trimmed.compile_extra`, and every compile inside it), the youngest
  generation's threshold is YOUNG, and the thresholds it had are put back after: 6 full
  collections, 1.7 CPU s in the collector in all, the peak memory 12 MB higher (272 MB). The
  final LLVM IR of every function of five shipped rulesets is the same.
- **Less written for LLVM** (`numbalower`, its passes added by `Trimmed`): an array element read
  or written in 8 instructions rather than Numba's 29, no `del` of a value without a reference
  count, each table one constant per function's module.
"""

from __future__ import annotations

import copy
import gc
import inspect
import operator
import types as pytypes
import weakref
from collections import defaultdict

from numba.core import base, compiler, errors, ir, postproc, ssa, target_extension, transforms, types
from numba.core import untyped_passes as up
from numba.core.compiler_machinery import PassManager
from numba.core.typing.templates import RegistryLoader


class _OneMemoPerScope:
    """The `copy` module as `inline_closurecall` sees it: `deepcopy` of a block shares its memo with
    the other blocks of the same scope, within one `inline_ir` call (`memos`, else Numba's own)."""

    memos = None  # id of a scope -> the memo of its blocks' copies, during one inline_ir call

    def __init__(self):
        self.copied: set = set()  # ids of the scopes of copies made in this inline_ir call
        self.second = False  # whether the copy inline_ir returns unused is to be left out

    def deepcopy(self, x, memo=None):
        if memo is None and self.memos is not None and isinstance(x, ir.Block):
            if self.second and id(x.scope) in self.copied:
                return x  # inline_ir's second copy, of its own first copy: returned and thrown away
            memo = self.memos.setdefault(id(x.scope), {})  # the scopes are alive during the call
            out = copy.deepcopy(x, memo)
            self.copied.add(id(out.scope))
            return out
        return copy.deepcopy(x, memo)


_COPY = _OneMemoPerScope()
_inline_ir = None  # Numba's InlineWorker.inline_ir, once installed


def _inline_ir_copying_once(self, *args, **kws):
    saved = _COPY.memos, _COPY.copied
    _COPY.memos, _COPY.copied = {}, set()
    try:
        return _inline_ir(self, *args, **kws)
    finally:
        _COPY.memos, _COPY.copied = saved


_UNTYPED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # function -> {(flags, locals): untyped IR}


def _inline_function_translating_once(self, caller_ir, block, i, function, arg_typs=None):
    """`InlineWorker.inline_function` with the callee's untyped IR made once (see above). Only
    `InlineInlinables` calls it, and it uses only the blocks inlined (the last of the four
    values returned); the first is the IR being rewritten itself, not a copy of it."""
    self.flags.enable_ssa = False  # as run_untyped_passes sets it first, in the flags it is given
    key = (repr(self.flags.values()), repr(sorted(self.locals.items())) if self.locals else "")
    made = _UNTYPED.setdefault(function, {})
    callee_ir = made.get(key)
    if callee_ir is None:
        callee_ir = made[key] = self.run_untyped_passes(function)
    saved, _COPY.second = _COPY.second, True
    try:
        return self.inline_ir(caller_ir, block, i, callee_ir, function.__code__.co_freevars, arg_typs=arg_typs)
    finally:
        _COPY.second = saved


def _copy_loc(self, memo):
    """`ir.Loc.__deepcopy__`: a shallow copy, the cached source lines shared (see above)."""
    new = object.__new__(type(self))
    new.__dict__.update(self.__dict__)
    memo[id(self)] = new
    return new


_refresh = base.BaseContext.refresh
_LOWERING_ITEMS = ("functions", "getattrs", "setattrs", "casts", "constants")  # imputils.Registry's lists


def _registered(context) -> tuple:
    """How many entries each registry a target context and its typing context load from holds."""
    typing = context.typing_context
    return (tuple(len(getattr(r, name)) for r in context._registries for name in _LOWERING_ITEMS),
            tuple(len(getattr(r, name)) for r in typing._registries for name in RegistryLoader.registry_items))


def _refresh_when_registered(self):
    """`BaseContext.refresh`, returning at once when nothing was registered since the last (above)."""
    if getattr(self, "_ziggurat_registered", None) == _registered(self):
        return
    _refresh(self)
    self._ziggurat_registered = _registered(self)


NUMBAS_HAS_LOC = base._has_loc
_FOLLOWED = ("__wrapped__", "__signature__", "_partialmethod")  # what inspect.signature reads first


def _has_loc(fn) -> bool:
    """`base._has_loc`: whether `loc` is one of the function's parameters (above)."""
    if type(fn) is not pytypes.FunctionType or any(hasattr(fn, name) for name in _FOLLOWED):
        return NUMBAS_HAS_LOC(fn)
    code = fn.__code__
    n = (code.co_argcount + code.co_kwonlyargcount + bool(code.co_flags & inspect.CO_VARARGS)
         + bool(code.co_flags & inspect.CO_VARKEYWORDS))
    return "loc" in code.co_varnames[:n]


NUMBAS_RUN_SSA = ssa._run_ssa  # Numba's own, kept for the tests that compare the two


def _run_ssa(blocks):
    """`numba.core.ssa._run_ssa`, each variable's two rewrites walking only the blocks naming it."""
    if not blocks:
        return {}
    cfg = ssa.compute_cfg_from_blocks(blocks)
    df_plus = ssa._iterated_domfronts(cfg)
    violators = ssa._find_defs_violators(blocks, cfg)
    if not violators:
        return blocks
    cache_list_vars = ssa._CacheListVars()  # (the handler's: the variables each statement reads)
    naming: dict = {}  # a variable's name -> the labels of the blocks naming it (assigned or read)
    for label, block in blocks.items():
        for stmt in block.body:
            if isinstance(stmt, ir.Assign):
                naming.setdefault(stmt.target.name, set()).add(label)
                value = stmt.value
                read = cache_list_vars.get(value) if isinstance(value, ir.Inst) else (
                    [value] if isinstance(value, ir.Var) else ())
            else:
                read = cache_list_vars.get(stmt)
            for var in read:
                naming.setdefault(var.name, set()).add(label)
    for name in violators:
        labels = naming.get(name, ())
        states = ssa._make_states(blocks)
        states.update(varname=name, defmap=defaultdict(list))
        blocks = _rewrite(blocks, labels, states, ssa._FreshVarHandler())
        defmap = states["defmap"]
        states = ssa._make_states(blocks)
        states.update(varname=name, defmap=defmap, phimap=defaultdict(list), cfg=cfg,
                      phi_locations=ssa._compute_phi_locations(df_plus, defmap))
        blocks = _rewrite(blocks, labels, states, ssa._FixSSAVars(cache_list_vars))
        for label, philist in states["phimap"].items():  # (as ssa._fix_ssa_vars)
            blocks[label].body = philist + blocks[label].body
    if ssa.compute_cfg_from_blocks(blocks) != cfg:
        raise errors.CompilerError("CFG mutated in SSA pass")
    return blocks


def _rewrite(blocks, labels, states, handler):
    """`ssa._run_block_rewrite` of the blocks of these labels; the others copied as they are."""
    out = {}
    for label, block in blocks.items():
        new = out[label] = ir.Block(scope=block.scope, loc=block.loc)
        if label not in labels:
            new.body = list(block.body)
            continue
        states["label"], states["block"] = label, block
        new.body = [handler.on_assign(states, stmt) if isinstance(stmt, ir.Assign) else handler.on_other(states, stmt)
                    for stmt in block.body]
    return out


LEFT_OUT = (up.WithLifting, up.InlineClosureLikes, up.MakeFunctionToJitFunction, up.FindLiterallyCalls,
            up.LiteralUnroll)


class Trimmed(compiler.Compiler):
    """Numba's compiler, its nopython pipeline without the passes of `LEFT_OUT`."""

    def define_pipelines(self):
        install()
        if self.state.flags.force_pyobject:
            return super().define_pipelines()
        from . import numbalower

        full = compiler.DefaultPassBuilder.define_nopython_pipeline(self.state)
        pm = PassManager(full.pipeline_name)
        for pss, what in numbalower.pipeline(full.passes) if tested(numba_version()) else full.passes:
            if pss not in LEFT_OUT:
                pm.add_pass(pss, what)
        pm.finalize()
        return [pm]

    def compile_extra(self, func):
        return _collecting_less(super().compile_extra, func)


YOUNG = 10_000  # the youngest generation's threshold while a native function compiles (Python's: 700)


def _collecting_less(compile_extra, func):
    """`compile_extra(func)`, the garbage collector's youngest generation collected after YOUNG
    objects, not Python's 700; the thresholds it had are put back after (see above)."""
    global _compiling
    thresholds = gc.get_threshold()
    gc.set_threshold(max(thresholds[0], YOUNG), *thresholds[1:])
    _compiling += 1
    try:
        return compile_extra(func)
    finally:
        _compiling -= 1
        gc.set_threshold(*thresholds)


_compiling = 0  # how many native functions' compiles (`Trimmed`) are under way, nested ones counted
_get_abi_sizeof = base.BaseContext.get_abi_sizeof
_get_abi_alignment = base.BaseContext.get_abi_alignment
_ABI: dict = {}  # (which, target data, LLVM type's text) -> its ABI size or alignment


def _abi_once(numbas):
    """`BaseContext.get_abi_sizeof` or `get_abi_alignment` (`numbas`), kept per LLVM type while a
    native function compiles: Numba finds each (a named variable's stack slot asks its size, among
    others) by writing a module holding the type and parsing it with LLVM, 822 + 184 times for
    the largest shipped module's 9 types (0.34 CPU s). A named struct's text (`%"name"`) does not
    say its body: not kept."""

    def once(self, ty):
        if not _compiling:
            return numbas(self, ty)
        text = str(ty)
        if "%" in text:
            return numbas(self, ty)
        key = (numbas, self.target_data, text)
        got = _ABI.get(key)
        if got is None:
            got = _ABI[key] = numbas(self, ty)
        return got

    return once


_OPERATORS = frozenset(f for f in vars(operator).values() if callable(f))
_get_call_type = types.functions.BaseFunction.get_call_type
_TYPED: dict = {}  # (function type, its templates' count, context, target, argument types) -> signature


def _get_call_type_once(self, context, args, kws):
    """`BaseFunction.get_call_type`, kept for an operator on numbers and booleans (see above)."""
    if kws or self.typing_key not in _OPERATORS or not all(isinstance(a, (types.Number, types.Boolean))
                                                           for a in args):
        return _get_call_type(self, context, args, kws)
    key = (self, len(self.templates), context, target_extension.get_local_target(context), tuple(args))
    sig = _TYPED.get(key)
    if sig is None:
        sig = _TYPED[key] = _get_call_type(self, context, args, kws)
    return sig


NUMBAS_POSTPROCESS = postproc.PostProcessor.run  # Numba's own, kept for the tests that compare the two
OURS = "_ziggurat_trimmed"  # the attribute marking a Python function as a native module's (numbacache.njit)


def _postprocess(self, emit_dels: bool = False, extend_lifetimes: bool = False):
    """`PostProcessor.run`, its variables' liveness left to be computed when asked for: for a
    function of a native module's (marked `OURS`), not a generator, without `del`s to emit (above)."""
    func_ir = self.func_ir
    func = getattr(getattr(func_ir, "func_id", None), "func", None)
    if emit_dels or not getattr(func, OURS, False) or func_ir.is_generator:
        return NUMBAS_POSTPROCESS(self, emit_dels, extend_lifetimes)
    func_ir.blocks = transforms.canonicalize_cfg(func_ir.blocks)
    func_ir.variable_lifetime = postproc.VariableLifetime(func_ir.blocks)
    func_ir.generator_info = None
    return None


TESTED = ((0, 68),)  # the Numba releases whose internals the changes above were read from and checked on


def numba_version() -> str:
    import numba

    return numba.__version__


def tested(version: str) -> bool:
    """Whether a Numba of this version is one of TESTED (its major and minor numbers)."""
    try:
        return tuple(int(x) for x in version.split(".")[:2]) in TESTED
    except ValueError:
        return False


def install() -> None:
    """Make the changes above, once per process: at the first compile of a native module's function
    (`Trimmed`), not at import, since Numba's inliner imports its lowering (a warm start, which
    loads machine code, needs none of it: 0.15-0.3 CPU s). They replace functions inside Numba,
    so they are made only under a Numba release they were checked on (TESTED); another compiles
    with Numba's own (slower to compile, the same code), the pipeline's left-out passes aside."""
    global _inline_ir
    from numba.core import inline_closurecall

    if not tested(numba_version()):
        return
    from . import numbacalls, numbalower

    numbalower.install(lambda: _compiling, OURS)
    numbacalls.install_lowering()
    if inline_closurecall.copy is not _COPY:
        _inline_ir = inline_closurecall.InlineWorker.inline_ir
        inline_closurecall.copy = _COPY  # type: ignore[assignment]  # its only use of the module: deepcopy of a block
        inline_closurecall.InlineWorker.inline_ir = _inline_ir_copying_once  # type: ignore[method-assign]
        inline_closurecall.InlineWorker.inline_function = _inline_function_translating_once  # type: ignore[method-assign]
        ssa._run_ssa = _run_ssa  # reconstruct_ssa's, its only caller
        types.functions.BaseFunction.get_call_type = _get_call_type_once  # type: ignore[method-assign]
        ir.Loc.__deepcopy__ = _copy_loc  # type: ignore[attr-defined]  # Numba's Loc has none: copy's default
        base.BaseContext.refresh = _refresh_when_registered  # type: ignore[method-assign]
        base._has_loc = _has_loc  # _wrap_missing_loc's, its only caller
        postproc.PostProcessor.run = _postprocess  # type: ignore[method-assign]
        base.BaseContext.get_abi_sizeof = _abi_once(_get_abi_sizeof)  # type: ignore[method-assign]
        base.BaseContext.get_abi_alignment = _abi_once(_get_abi_alignment)  # type: ignore[method-assign]
