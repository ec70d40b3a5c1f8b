"""Numba's per-call overheads in a compile: work Numba repeats at every call of a small function
of its own, however small the IR it compiles, made cheaper. Each gives what Numba's own gives
(the functions replaced are kept here, for the tests comparing the two); the code made is the same.
Installed when `numbacache` is imported (under a Numba release they were checked on, numbapipe's
TESTED), for every compile of the process: none of them depends on what is compiled.

- **An overload's cache key holds the compile's flags as their values.** Typing a call to a
  function Numba implements with `@overload` (`np.empty`, `len`, ...) looks its implementation up
  in a cache keyed by the typing context, the argument types and the current compile's `Flags`
  (`_OverloadFunctionTemplate._get_impl`); `Flags.__hash__` and `__eq__` build a dict of every
  option (some 25 properties read) at each call, a dictionary lookup calls both: 37,000 dicts
  built in a large module's compile. Here the key holds `flags_key(flags)`: the options set to
  something other than their default, sorted by name; two flags are equal (Numba's `__eq__`:
  every option's value equal) exactly when those are, so equal flags share an entry as before (an
  entry Numba's own made before this was installed, keyed by a `Flags`, is not found: built again).
- **The LLVM lock's timers are kept as running totals.** Numba times how long each compile holds
  the lock around LLVM's C API (`metadata["timers"]["llvm_lock"]` of a compile result): a callback
  at every acquire and release of the lock (every call into LLVM, 43,000 in a large module's
  compile) broadcasts a start or end event, each made an `Event` object and given to every
  timer listening (one per compile under way, nested compiles each). Here the callbacks add the
  time the lock is held (outermost acquire to its release, as Numba's `TimingListener` counts it)
  to one running total, and a timer of the lock (`event.install_timer("numba:llvm_lock", ...)`,
  what every compile installs) reads the total when it starts and ends: the same duration, given
  to its callback under the same condition (the lock was released at least once meanwhile).
  Events are still broadcast to any listener registered for them (`event.register`,
  `install_listener`, `install_recorder`); a timer of any other kind is Numba's own.
- **Templates are ordered by target once per list of templates.** Typing a call orders the
  function type's templates by how specific their target is to the current one
  (`utils.order_by_target_specificity`: each template's metadata read, its target class looked up
  and compared), at every call typed: 28,000 calls in a large module's compile, over the same few
  lists. Here the order is kept per target, templates (the list as it is then) and number of
  targets registered; an empty list, or one refused (no template for the target), is Numba's own.
- **The variables of a statement are listed without a call per leaf.** `Inst._rec_list_vars`
  (every `list_vars`, of every statement, in every analysis of the IR: use-defs, liveness, SSA,
  dels) calls itself on every value a statement holds, the constants, names, source positions and
  `None`s that hold no variable among them (960,000 calls in a large module's compile). Here a
  list, tuple or dict's items that are variables are taken at once and those that cannot hold one
  skipped; the others recurse as before: the same variables, in the same order.
- **A statement is printed for lowering only when asked to.** Numba's `Lower.lower_inst` begins
  with `self.debug_print(str(inst))`: the statement printed as text (a table's whole array
  among them) at every statement lowered, and handed to a method that does nothing unless
  `NUMBA_DEBUG_JIT` is set. Here the same function, made from its source, has that line run
  only when `config.DEBUG_JIT` is set (`quiet_lower_inst`; installed at the first compile by
  numbapipe: it reads Numba's source, which a warm start does not need).
"""

from __future__ import annotations

import time
from contextlib import contextmanager

from numba.core import event, ir, targetconfig, utils
from numba.core.typing import templates

# ---- an overload's cache key -----------------------------------------------------------------


class FlagsKey(tuple):
    """(name, value) of each option set to a value other than its default, sorted by name; hashed
    by the names alone (a value need not be hashable: Numba's `InlineOptions` is not, and
    `Flags.__hash__` hashes the sorted names of all its options, the same for every Flags)."""

    __slots__ = ()

    def __hash__(self):
        return hash(tuple(name for name, _value in self))


def flags_key(flags) -> object:
    """What the cache key of `_get_impl` holds for the compile's flags: None for none, else their
    `FlagsKey` (see above)."""
    if flags is None:
        return None
    options = flags.options
    return FlagsKey(sorted(((name, value) for name, value in flags._values.items()
                            if not value == options[name].default), key=_name))


def _name(item) -> str:
    return item[0]


NUMBAS_GET_IMPL = templates._OverloadFunctionTemplate._get_impl  # Numba's own, for the tests


def _get_impl(self, args, kws):
    """`_OverloadFunctionTemplate._get_impl`, its key holding `flags_key` of the flags (above)."""
    cache_key = self.context, tuple(args), tuple(kws.items()), flags_key(targetconfig.ConfigStack.top_or_none())
    try:
        return self._impl_cache[cache_key]
    except KeyError:
        pass  # (built outside the handler, as Numba's: no KeyError chained to a failure in the build)
    return self._build_impl(cache_key, args, kws)


# ---- the LLVM lock's timers ------------------------------------------------------------------

LOCK = "numba:llvm_lock"


class _Held:
    """How long the LLVM lock has been held in all (outermost holds), how many holds ended."""

    seconds = 0.0
    holds = 0
    depth = 0  # the lock is reentrant: only the outermost acquire and release count
    since = 0.0


def _acquired():
    """The lock's acquire callback (every call into LLVM's C API, under the lock)."""
    if _Held.depth == 0:
        _Held.since = time.perf_counter()
    _Held.depth += 1
    if event._registered[LOCK]:
        event.start_event(LOCK)


def _released():
    """The lock's release callback."""
    if event._registered[LOCK]:
        event.end_event(LOCK)
    _Held.depth -= 1
    if _Held.depth == 0:
        _Held.seconds += time.perf_counter() - _Held.since
        _Held.holds += 1


class LockTimer:
    """A timer of the LLVM lock from its start: `done` and `duration` as a `TimingListener`'s."""

    def __init__(self):
        self._seconds, self._holds = _Held.seconds, _Held.holds

    @property
    def done(self) -> bool:
        return _Held.holds > self._holds

    @property
    def duration(self) -> float:
        if not self.done:
            raise AttributeError("duration")  # as TimingListener's, never measured
        return _Held.seconds - self._seconds


NUMBAS_INSTALL_TIMER = event.install_timer  # Numba's own, for any other kind and the tests


@contextmanager
def _lock_timer(callback):
    timer = LockTimer()
    yield timer
    if timer.done:
        callback(timer.duration)


def install_timer(kind, callback):
    """`event.install_timer`; for the LLVM lock, a `LockTimer` reading the running totals."""
    if kind != LOCK or not _CALLBACKS:
        return NUMBAS_INSTALL_TIMER(kind, callback)
    return _lock_timer(callback)


_CALLBACKS: list = []  # Numba's (acquire, release) callbacks of the lock, once replaced by ours


def _numbas_lock_callbacks(cblist) -> list:
    """The callbacks Numba registered on the LLVM lock (`base._initialize_llvm_lock_event`)."""
    return [pair for pair in cblist if all(getattr(fn, "__module__", None) == "numba.core.base"
                                           and "_initialize_llvm_lock_event" in fn.__qualname__ for fn in pair)]


def _time_the_lock() -> None:
    """Numba's callbacks on the LLVM lock replaced by `_acquired` and `_released` (while the lock
    is not held: the depth starts at 0), and its timers by `install_timer`."""
    from llvmlite.binding import ffi  # type: ignore[import-untyped]

    lock = ffi.lib._lock
    numbas = _numbas_lock_callbacks(lock._cblist)
    if len(numbas) != 1 or lock._lock._is_owned():
        return  # not as read in Numba's source, or held by this thread (inside a call): left as it is
    with lock._lock:  # (the lock itself: no callback called)
        lock._cblist[lock._cblist.index(numbas[0])] = (_acquired, _released)
        _CALLBACKS.extend(numbas)
    event.install_timer = install_timer


# ---- templates ordered by target -------------------------------------------------------------

NUMBAS_ORDER = utils.order_by_target_specificity  # Numba's own, for the tests
_ORDERS: dict = {}  # (target, templates, number of targets registered) -> their order


def order_by_target_specificity(target, templates, fnkey=""):
    """`utils.order_by_target_specificity`, kept per target and templates (above)."""
    if not templates:
        return NUMBAS_ORDER(target, templates, fnkey)
    from numba.core.target_extension import target_registry

    key = (target, tuple(templates), len(target_registry))
    order = _ORDERS.get(key)
    if order is None:
        order = _ORDERS[key] = NUMBAS_ORDER(target, templates, fnkey)  # a refusal raises, kept nowhere
    return list(order)  # a list of its own, as Numba's gives each caller


# ---- the variables of a statement ------------------------------------------------------------

NUMBAS_REC_LIST_VARS = ir.Inst._rec_list_vars  # Numba's own, for the tests
_HOLDING = (ir.Inst, list, tuple, dict)  # what may hold a variable (besides a variable)


def _rec_list_vars(self, val):
    """`ir.Inst._rec_list_vars`: the variables in val, in order, a leaf's taken or skipped at once."""
    if isinstance(val, ir.Var):
        return [val]
    if isinstance(val, ir.Inst):
        return val.list_vars()
    if isinstance(val, (list, tuple)):
        items = val
    elif isinstance(val, dict):
        items = val.values()
    else:
        return []
    out = []
    for v in items:
        if isinstance(v, ir.Var):
            out.append(v)
        elif isinstance(v, _HOLDING):
            out.extend(_rec_list_vars(self, v))
    return out


# ---- a statement printed only for DEBUG_JIT ------------------------------------------------------

NUMBAS_LINE = "self.debug_print(str(inst))"
QUIET_LINE = "if config.DEBUG_JIT: self.debug_print(str(inst))"  # (one line: the source's line numbers kept)


def quiet_lower_inst(numbas):
    """`Lower.lower_inst` (numbas) made again from its source, its line printing the statement for
    DEBUG_JIT (`debug_print(str(inst))`, a no-op without it) run only with DEBUG_JIT, in its
    module's globals and line numbers; None if the source does not hold that line exactly once."""
    import ast
    import inspect
    import sys
    import textwrap

    lines, first = inspect.getsourcelines(numbas)
    source = textwrap.dedent("".join(lines))
    if source.count(NUMBAS_LINE) != 1:
        return None
    tree = ast.parse(source.replace(NUMBAS_LINE, QUIET_LINE))
    ast.increment_lineno(tree, first - 1)
    module = sys.modules[numbas.__module__]
    made: dict = {}
    exec(compile(tree, module.__file__, "exec"), vars(module), made)
    quiet = made[numbas.__name__]
    quiet.__qualname__ = numbas.__qualname__
    return quiet


NUMBAS_LOWER_INST: list = []  # Numba's Lower.lower_inst, once replaced (for the tests)


def install_lowering() -> None:
    """Replace `Lower.lower_inst` by `quiet_lower_inst`'s (numbapipe's `install`, at the first
    compile: it reads Numba's source, which a warm start does not need)."""
    from numba.core import lowering

    if NUMBAS_LOWER_INST:
        return
    quiet = quiet_lower_inst(lowering.Lower.lower_inst)
    if quiet is not None:
        NUMBAS_LOWER_INST.append(lowering.Lower.lower_inst)
        lowering.Lower.lower_inst = quiet  # type: ignore[method-assign]


def install() -> None:
    """Make the changes above, once per process (numbacache, at import, under a tested Numba:
    before any compile, so that no compile's timer of the lock is a listener of Numba's; none of
    them imports anything a warm start would not)."""
    if templates._OverloadFunctionTemplate._get_impl is _get_impl:
        return
    templates._OverloadFunctionTemplate._get_impl = _get_impl  # type: ignore[method-assign]
    _time_the_lock()
    utils.order_by_target_specificity = order_by_target_specificity  # get_call_type's (typing.context's
    # own name for it, resolving attributes, is left to Numba's: a few hundredths of a second)
    ir.Inst._rec_list_vars = _rec_list_vars  # type: ignore[method-assign]
