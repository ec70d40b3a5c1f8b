"""The cheaper parts of Numba's compiler (`native.numbapipe`) build what Numba's own build."""

import copy
import io

import pytest

numba = pytest.importorskip("numba")

from numba.core import compiler, inline_closurecall, ir  # noqa: E402

from ziggurat.interpreter.native import numbapipe  # noqa: E402
from ziggurat.interpreter.native.numbacache import njit  # noqa: E402

from numbapipe_checked import checked  # noqa: E402  # numbapipe installed, the mark of a tested Numba


def reassigning(a, n):
    """Variables assigned in several blocks, in loops and branches: what SSA reconstruction renames."""
    t = 0
    k = a[0]
    for i in range(n):
        if a[i % 4] > 2:
            t = t + a[i % 4]
            k = i
        elif i % 3 == 0:
            t = t - 1
        else:
            while k > 0:
                k = k // 2
                t += k
    u = t
    if n > 5:
        u = k
    return t * 1000 + u


def dump(blocks) -> str:
    out = io.StringIO()
    for label in sorted(blocks):
        print(label, file=out)
        blocks[label].dump(file=out)
    return out.getvalue()


def test_ssa_rebuilt_only_where_a_variable_is_named_gives_numbas_ir():
    func_ir = compiler.run_frontend(reassigning)
    theirs = numbapipe.NUMBAS_RUN_SSA(copy.deepcopy(func_ir.blocks))
    ours = numbapipe._run_ssa(copy.deepcopy(func_ir.blocks))
    assert "phi" in dump(theirs)  # there was something to rebuild
    assert dump(ours) == dump(theirs)


@checked
def test_the_compiled_function_uses_the_cheaper_ssa_and_computes_as_python():
    import numpy as np
    from numba.core import ssa

    assert ssa._run_ssa is numbapipe._run_ssa
    a = np.array([1, 5, 2, 7], dtype=np.int64)
    fast = njit(reassigning)
    for n in (0, 3, 6, 11):
        assert fast(a, n) == reassigning(a, n)


@njit(inline="always")
def _helper(x):
    y = 0
    for i in range(x):
        if i % 2:
            y += i
        else:
            y -= 1
    return y


@njit
def _caller(x):
    return _helper(x) + _helper(x + 1)


@checked
def test_inlining_copies_a_callees_scope_once_per_copy_not_once_per_block(monkeypatch):
    """Numba copies a callee's IR twice per inlined call, numbapipe once (the second copy is
    thrown away by Numba's inlining pass); the copy copies its scope once."""
    assert inline_closurecall.copy is numbapipe._COPY
    scopes = []

    def copying(scope, memo):  # what deepcopy does with a Scope (called only when not in the memo)
        scopes.append(scope)
        new = memo[id(scope)] = ir.Scope.__new__(ir.Scope)
        new.__dict__.update(copy.deepcopy(scope.__dict__, memo))
        return new

    monkeypatch.setattr(ir.Scope, "__deepcopy__", copying, raising=False)
    blocks = []
    real_inline = inline_closurecall.InlineWorker.inline_ir

    def seen(self, caller_ir, block, i, callee_ir, *args, **kws):
        blocks.append(len(callee_ir.blocks))
        return real_inline(self, caller_ir, block, i, callee_ir, *args, **kws)

    monkeypatch.setattr(inline_closurecall.InlineWorker, "inline_ir", seen)
    assert _caller(5) == _helper.py_func(5) + _helper.py_func(6)
    assert len(blocks) == 2 and min(blocks) > 2  # two calls inlined, of several blocks each
    # the one copy of a callee's IR an inlined call makes copies its scope and that scope's parent
    # once (Numba's own: two copies a call, each copying them once per block, 7 blocks here, 56 in all)
    assert len(scopes) == 2 * len(blocks)


@njit(inline="always")
def _twice(x):
    return x * 2 if x > 3 else x - 1


@njit
def _thrice(x):
    return _twice(x) + _twice(x + 1) * _twice(x + 2)


@checked
def test_a_callee_inlined_at_several_sites_is_translated_once(monkeypatch):
    translated = []
    real = inline_closurecall.InlineWorker.run_untyped_passes

    def counted(self, func, *args, **kws):
        translated.append(func)
        return real(self, func, *args, **kws)

    monkeypatch.setattr(inline_closurecall.InlineWorker, "run_untyped_passes", counted)
    inlined = []
    real_inline = inline_closurecall.InlineWorker.inline_ir

    def seen(self, *args, **kws):
        out = real_inline(self, *args, **kws)
        inlined.append(out)
        return out

    monkeypatch.setattr(inline_closurecall.InlineWorker, "inline_ir", seen)
    assert _thrice(4) == _twice.py_func(4) + _twice.py_func(5) * _twice.py_func(6)
    assert len(inlined) == 3  # three call sites inlined
    assert translated == [_twice.py_func]  # from one translation of the callee
    # the blocks inlined at each site are their own: no site shares a block with another
    ids = [id(b) for _, _, _, new_blocks in inlined for _, b in new_blocks[1:]]
    assert len(ids) == len(set(ids))


def _sums(a, b):
    x = a + b
    y = x + b
    z = y + a
    w = z + x
    v = w + y
    return v + z


@checked
def test_an_operator_on_numbers_is_typed_once_per_argument_types(monkeypatch):
    from numba.core import types

    asked = []
    real = numbapipe._get_call_type

    def counted(self, context, args, kws):
        if self.typing_key is __import__("operator").add and tuple(args) == (types.int64, types.int64):
            asked.append(args)
        return real(self, context, args, kws)

    monkeypatch.setattr(numbapipe, "_get_call_type", counted)
    assert types.functions.BaseFunction.get_call_type is numbapipe._get_call_type_once
    assert njit(_sums)(3, 4) == _sums(3, 4)
    assert len(asked) <= 1  # six additions of two int64, typed and lowered: Numba's own asks at each


@checked
def test_a_warm_start_imports_no_lowering_and_the_first_compile_installs_the_changes():
    """Importing numbacache (what a warm start does before loading machine code) leaves Numba's
    inliner, which imports its lowering, unimported; the first compile of a native function
    installs every change."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from ziggurat.interpreter.native.numbacache import njit\n"
        "assert 'numba.core.inline_closurecall' not in sys.modules\n"
        "from numba.core import inline_closurecall, ssa, types\n"
        "from ziggurat.interpreter.native import numbapipe\n"
        "assert inline_closurecall.copy is not numbapipe._COPY\n"
        "assert njit(lambda x: x + 1)(1) == 2\n"
        "assert inline_closurecall.copy is numbapipe._COPY\n"
        "assert ssa._run_ssa is numbapipe._run_ssa\n"
        "assert types.functions.BaseFunction.get_call_type is numbapipe._get_call_type_once\n"
        "from numba.core import base, ir\n"
        "assert ir.Loc.__deepcopy__ is numbapipe._copy_loc\n"
        "assert base.BaseContext.refresh is numbapipe._refresh_when_registered\n"
        "assert base._has_loc is numbapipe._has_loc\n"
        "from numba.core import postproc\n"
        "assert postproc.PostProcessor.run is numbapipe._postprocess\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_changes_are_made_only_under_a_numba_release_they_were_checked_on():
    assert numbapipe.tested("0.68.1") and numbapipe.tested("0.68.0rc1")
    assert not numbapipe.tested("0.69.0") and not numbapipe.tested("0.60.0") and not numbapipe.tested("dev")
