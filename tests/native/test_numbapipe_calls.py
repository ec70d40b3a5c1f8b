"""Numba's per-call overheads made cheaper (`native.numbacalls`) give what Numba's own give."""

import subprocess
import sys

import pytest

numba = pytest.importorskip("numba")

from numba.core import compiler, event, ir, utils  # noqa: E402
from numba.core.typing import templates  # noqa: E402

from ziggurat.interpreter.native import numbacalls  # noqa: E402
from ziggurat.interpreter.native.numbacache import njit  # noqa: E402

from numbapipe_checked import checked  # noqa: E402  # numbapipe installed, the mark of a tested Numba


# ---- an overload's cache key -----------------------------------------------------------------

def flags(**values) -> compiler.Flags:
    f = compiler.Flags()
    for name, value in values.items():
        setattr(f, name, value)
    return f


PAIRS = [
    ({}, {}),
    ({}, {"boundscheck": False}),  # an option set to its default equals it unset
    ({"nrt": True}, {"nrt": True}),
    ({"nrt": True}, {"nrt": False}),
    ({"nrt": True}, {}),
    ({"inline": "always"}, {"inline": "always"}),
    ({"inline": "always"}, {"inline": "never"}),
    ({"inline": "never"}, {}),  # never: the default
    ({"fastmath": True}, {"fastmath": True}),
    ({"nrt": True, "no_cpython_wrapper": True}, {"no_cpython_wrapper": True, "nrt": True}),  # set in another order
    ({"nrt": True, "no_cpython_wrapper": True}, {"no_cpython_wrapper": True}),
]


@pytest.mark.parametrize("a, b", PAIRS)
def test_two_flags_keys_are_equal_exactly_when_numba_finds_the_flags_equal(a, b):
    fa, fb = flags(**a), flags(**b)
    ka, kb = numbacalls.flags_key(fa), numbacalls.flags_key(fb)
    assert (ka == kb) == (fa == fb)
    if ka == kb:
        assert hash(ka) == hash(kb)
    assert {ka: 1}.get(kb) == (1 if fa == fb else None)  # as a dictionary's key


def test_no_flags_is_a_key_of_its_own():
    assert numbacalls.flags_key(None) is None
    assert numbacalls.flags_key(flags()) != None  # noqa: E711


def _twice_of(x):
    return 2 * x


BUILT: list = []


@numba.extending.overload(_twice_of)
def _twice_of_impl(x):
    BUILT.append(x)
    return lambda x: 2 * x


def _first(x):
    return _twice_of(x) + 1


def _second(x):
    return _twice_of(x) - 1


@pytest.mark.parametrize("get_impl", ["ours", "numbas"])
def test_an_overload_is_built_once_for_equal_flags_and_again_for_other_flags(monkeypatch, get_impl):
    """Two functions compiled with equal flags share the overload's implementation (built once, as
    with Numba's own key); a function compiled with other flags (nrt off) builds its own."""
    own = {"ours": numbacalls._get_impl, "numbas": numbacalls.NUMBAS_GET_IMPL}[get_impl]
    monkeypatch.setattr(templates._OverloadFunctionTemplate, "_get_impl", own)
    BUILT.clear()
    assert njit(_first)(3) == 7 and njit(_second)(3) == 5
    assert len(BUILT) == 1
    assert numba.njit(_first, _nrt=False)(4) == 9
    assert len(BUILT) == 2


@checked
def test_the_installed_key_is_ours():
    assert templates._OverloadFunctionTemplate._get_impl is numbacalls._get_impl


# ---- the LLVM lock's timers ------------------------------------------------------------------

def _summed(a):
    t = 0
    for i in range(a.shape[0]):
        t += a[i] * i
    return t


def fresh(fn):
    return type(fn)(fn.__code__, fn.__globals__, fn.__name__)  # a new function: compiled again


@checked
def test_a_compile_still_records_how_long_it_held_the_llvm_lock():
    import numpy as np

    f = njit(fresh(_summed))
    assert f(np.arange(5)) == 30
    timers = f.overloads[f.signatures[0]].metadata["timers"]
    assert 0 < timers["llvm_lock"] <= timers["compiler_lock"]


@checked
def test_the_lock_timer_measures_what_numbas_timing_listener_measures():
    import numpy as np

    ours, theirs = [], []
    with numbacalls.NUMBAS_INSTALL_TIMER(numbacalls.LOCK, theirs.append):
        with event.install_timer(numbacalls.LOCK, ours.append) as timer:
            assert isinstance(timer, numbacalls.LockTimer)
            assert not timer.done
            njit(fresh(_summed))(np.arange(3))
            assert timer.done
    assert len(ours) == len(theirs) == 1
    assert ours[0] == pytest.approx(theirs[0], rel=0.5, abs=0.005)  # the same holds, timed a call apart


@checked
def test_a_timer_of_no_hold_gives_nothing_and_other_kinds_are_numbas():
    seen: list = []
    with event.install_timer(numbacalls.LOCK, seen.append) as timer:
        assert not timer.done
        with pytest.raises(AttributeError):
            _ = timer.duration
    assert seen == []
    with event.install_timer("numba:compile", seen.append) as other:
        assert isinstance(other, event.TimingListener)


@checked
def test_a_listener_of_the_lock_still_gets_its_events_in_pairs():
    import numpy as np

    with event.install_recorder(numbacalls.LOCK) as recorder:
        njit(fresh(_summed))(np.arange(3))
    depth, depths = 0, []
    for _t, e in recorder.buffer:
        depth += 1 if e.is_start else -1
        depths.append(depth)
    assert depths and min(depths) == 0 and depth == 0  # every start ended, none ended unstarted


@checked
def test_numbas_callbacks_on_the_lock_are_replaced_by_ours():
    from llvmlite.binding import ffi

    callbacks = ffi.lib._lock._cblist
    assert (numbacalls._acquired, numbacalls._released) in callbacks
    assert len(numbacalls._CALLBACKS) == 1 and numbacalls._CALLBACKS[0] not in callbacks
    assert numbacalls._numbas_lock_callbacks(numbacalls._CALLBACKS) == numbacalls._CALLBACKS  # found by name


# ---- templates ordered by target -------------------------------------------------------------

def test_templates_are_ordered_as_numba_orders_them():
    import operator

    from numba.core.registry import cpu_target
    from numba.core.target_extension import CPU

    typing = cpu_target.typing_context
    typing.refresh()
    checked_some = 0
    for fn in (operator.add, operator.lt, len, operator.getitem):
        templates_ = typing._functions[fn]
        once = numbacalls.order_by_target_specificity(CPU, templates_, "f")
        again = numbacalls.order_by_target_specificity(CPU, templates_, "f")
        assert once == again == numbacalls.NUMBAS_ORDER(CPU, templates_, "f")
        assert once is not again  # each caller its own list
        checked_some += len(once)
    assert checked_some > 10
    assert numbacalls.order_by_target_specificity(CPU, [], "f") == []


def test_a_list_with_no_template_for_the_target_is_refused_as_numba_refuses_it():
    from numba.core.target_extension import CPU, GPU

    class OnlyCPU(templates.AbstractTemplate):
        metadata = {"target": "cpu"}

    for order in (numbacalls.NUMBAS_ORDER, numbacalls.order_by_target_specificity):
        with pytest.raises(numba.core.errors.UnsupportedError):
            order(GPU, [OnlyCPU], "f")
    assert numbacalls.order_by_target_specificity(CPU, [OnlyCPU], "f") == [OnlyCPU]


@checked
def test_the_installed_order_is_ours():
    assert utils.order_by_target_specificity is numbacalls.order_by_target_specificity


# ---- the variables of a statement ------------------------------------------------------------

def _many_shapes(a, b, n):
    t = (a, b, n)
    s = {"k": n}
    c = [a[i] for i in range(n)]
    if n > 2:
        a[0] = b[1] + len(c)
    del c
    x, y, z = t
    return x[0] + y[0] + z + s["k"]


@pytest.mark.parametrize("fn", [_many_shapes, _summed, _first])
def test_the_variables_of_every_statement_are_numbas_in_numbas_order(monkeypatch, fn):
    func_ir = compiler.run_frontend(fn)
    seen = 0
    for block in func_ir.blocks.values():
        for stmt in block.body:
            monkeypatch.setattr(ir.Inst, "_rec_list_vars", numbacalls.NUMBAS_REC_LIST_VARS)
            theirs = stmt.list_vars()
            monkeypatch.setattr(ir.Inst, "_rec_list_vars", numbacalls._rec_list_vars)
            ours = stmt.list_vars()
            assert [v.name for v in ours] == [v.name for v in theirs], stmt
            assert all(a is b for a, b in zip(ours, theirs))
            seen += len(ours)
    assert seen > 10


def test_values_nested_in_lists_tuples_and_dicts_are_found_in_order():
    loc = ir.Loc("f", 1)
    scope = ir.Scope(None, loc)
    v = [scope.redefine(f"v{i}", loc) for i in range(5)]
    value = {"a": [v[0], (None, v[1], "x", [v[2]])], "b": 3, "c": {"d": v[3]}, "e": ir.Expr.cast(v[4], loc)}
    stmt = ir.Assign(ir.Const(0, loc), v[0], loc)
    assert stmt._rec_list_vars(value) == numbacalls.NUMBAS_REC_LIST_VARS(stmt, value) == v


@checked
def test_the_installed_listing_is_ours():
    assert ir.Inst._rec_list_vars is numbacalls._rec_list_vars


# ---- installed at import ---------------------------------------------------------------------

@checked
def test_importing_numbacache_installs_them_and_imports_no_lowering():
    code = ("import sys\n"
            "from ziggurat.interpreter.native import numbacache, numbacalls\n"
            "assert 'numba.core.inline_closurecall' not in sys.modules\n"
            "from numba.core import event, ir, utils\n"
            "from numba.core.typing import templates\n"
            "assert templates._OverloadFunctionTemplate._get_impl is numbacalls._get_impl\n"
            "assert event.install_timer is numbacalls.install_timer\n"
            "assert utils.order_by_target_specificity is numbacalls.order_by_target_specificity\n"
            "assert ir.Inst._rec_list_vars is numbacalls._rec_list_vars\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr



# ---- a statement printed only for DEBUG_JIT ----------------------------------------------------

def llvm(dispatcher) -> str:
    """The function's LLVM IR, the names Numba numbers (mangled symbols) made one."""
    import re

    (text,) = dispatcher.inspect_llvm().values()
    return re.sub(r"_ZN[\w$.]+", "S", text)


def printed(monkeypatch, lower_inst, debug: bool) -> tuple:
    """(the messages Lower.debug_print was given, the LLVM IR) compiling a fresh `_summed` with this
    lower_inst, NUMBA_DEBUG_JIT as `debug` (debug_print recorded, not run: no print compiled in)."""
    import re

    import numpy as np
    from numba.core import config, lowering

    seen: list = []
    with monkeypatch.context() as m:
        m.setattr(lowering.Lower, "lower_inst", lower_inst)
        m.setattr(lowering.Lower, "debug_print", lambda self, msg: seen.append(re.sub(r"_summed\$\d+", "f", msg)))
        m.setattr(config, "DEBUG_JIT", debug)
        f = njit(fresh(_summed))
        assert f(np.arange(4)) == 14
    return seen, llvm(f)


@checked
def test_a_statement_is_printed_for_lowering_only_with_debug_jit_and_the_code_is_numbas(monkeypatch):
    from numba.core import lowering

    assert lowering.Lower.lower_inst is not numbacalls.NUMBAS_LOWER_INST[0]  # installed
    quiet, numbas = lowering.Lower.lower_inst, numbacalls.NUMBAS_LOWER_INST[0]
    said, ours = printed(monkeypatch, quiet, False)
    told, theirs = printed(monkeypatch, numbas, False)
    labels = [m for m in told if m.startswith("# ")]  # a function's and its blocks' (printed by other methods)
    assert len(told) - len(labels) > 10 and said == labels  # Numba's handed each statement's text to a no-op
    assert ours == theirs
    said, _ = printed(monkeypatch, quiet, True)
    told, _ = printed(monkeypatch, numbas, True)
    assert said == told  # with DEBUG_JIT, the same text of the same statements


def test_the_quiet_lowering_keeps_numbas_globals_and_line_numbers():
    from numba.core import lowering

    numbas = numbacalls.NUMBAS_LOWER_INST[0] if numbacalls.NUMBAS_LOWER_INST else lowering.Lower.lower_inst
    quiet = numbacalls.quiet_lower_inst(numbas)
    assert quiet.__globals__ is numbas.__globals__
    assert quiet.__code__.co_firstlineno == numbas.__code__.co_firstlineno
    assert quiet.__code__.co_filename == numbas.__code__.co_filename
    lines = {line for _s, _e, line in numbas.__code__.co_lines() if line is not None}
    assert {line for _s, _e, line in quiet.__code__.co_lines() if line is not None} == lines

    def lower_inst(self, inst):
        return inst  # no such line: nothing made

    assert numbacalls.quiet_lower_inst(lower_inst) is None


# ---- no type annotation in the cache -----------------------------------------------------------

MODULE = """
from ziggurat.interpreter.native.numbacache import njit

@njit(cache=True)
def triple(x):
    return 3 * x
"""

RUN = """
import importlib.util, sys
spec = importlib.util.spec_from_file_location("annotated", sys.argv[1])
m = sys.modules["annotated"] = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
assert m.triple(5) == 15
(cres,) = m.triple.overloads.values()
print(sum(m.triple.stats.cache_hits.values()), type(cres.type_annotation).__name__, repr(str(cres.type_annotation)))
"""


@checked
def test_a_cache_entry_keeps_no_type_annotation_and_a_compile_keeps_its_own(tmp_path):
    import os

    from ziggurat.interpreter.native.numbacache import UNANNOTATED

    path = tmp_path / "annotated.py"
    path.write_text(MODULE)
    env = {**os.environ, "ZIGGURAT_CACHE_DIR": str(tmp_path / "cache")}
    runs = [subprocess.run([sys.executable, "-c", RUN, str(path)], capture_output=True, text=True, env=env)
            for _ in range(2)]
    assert all(r.returncode == 0 for r in runs), runs[-1].stderr
    (hits, kind, text), (hits2, kind2, text2) = (r.stdout.split(" ", 2) for r in runs)
    assert (hits, kind) == ("0", "TypeAnnotation") and "triple" in text  # compiled: Numba's annotation
    assert (hits2, kind2) == ("1", "str") and text2.strip() == repr(UNANNOTATED)  # loaded from the cache
