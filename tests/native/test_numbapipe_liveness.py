"""Numba's post-processing of a native module's function (`PostProcessor.run` after a pass) leaves
its variables' liveness to be computed when asked for (`numbapipe._postprocess`); every other
function keeps Numba's own, and the code made is the same."""

import re

import pytest

numba = pytest.importorskip("numba")

from numba.core import postproc  # noqa: E402

from ziggurat.interpreter.native import numbapipe  # noqa: E402
from ziggurat.interpreter.native.numbacache import njit  # noqa: E402

from numbapipe_checked import checked  # noqa: E402  # numbapipe installed, the mark of a tested Numba


def branching(a, n):
    """Loops and branches: variables live across blocks, what the liveness is computed for."""
    t = 0
    k = a[0]
    for i in range(n):
        if a[i % 4] > 2:
            t = t + a[i % 4]
            k = i
        else:
            while k > 0:
                k = k // 2
                t += k
    return t * 100 + k


def fresh(fn):
    """A new Python function of the same code: one no decorator has marked."""
    return type(fn)(fn.__code__, fn.__globals__, fn.__name__)


def watch(monkeypatch) -> list:
    """(function, what its variables' lifetime object had computed) after each post-processing run
    without `del`s (the ones numbapipe may change), through whatever `PostProcessor.run` is in use."""
    seen = []
    real = postproc.PostProcessor.run

    def watching(self, emit_dels=False, extend_lifetimes=False):
        out = real(self, emit_dels, extend_lifetimes)
        if not emit_dels:
            func = getattr(getattr(self.func_ir, "func_id", None), "func", None)
            seen.append((func, set(vars(self.func_ir.variable_lifetime))))
        return out

    monkeypatch.setattr(postproc.PostProcessor, "run", watching)
    return seen


def compiled(dispatcher, *args):
    assert dispatcher(*args) == dispatcher.py_func(*args)
    return dispatcher


@checked
def test_a_native_functions_liveness_is_left_to_be_computed_when_asked_for(monkeypatch):
    import numpy as np

    seen = watch(monkeypatch)
    fn = fresh(branching)
    compiled(njit(fn), np.array([1, 5, 2, 7], dtype=np.int64), 9)
    ours = [done for func, done in seen if func is fn]
    assert len(ours) >= 3  # post-processed after several passes
    assert all("livemap" not in done and "deadmaps" not in done for done in ours), ours


@checked
def test_any_other_njit_function_keeps_numbas_own_post_processing(monkeypatch):
    import numpy as np

    seen = watch(monkeypatch)
    fn = fresh(branching)
    compiled(numba.njit(fn), np.array([1, 5, 2, 7], dtype=np.int64), 9)
    assert not hasattr(fn, numbapipe.OURS)
    theirs = [done for func, done in seen if func is fn]
    assert len(theirs) >= 3
    assert all({"cfg", "usedefs", "livemap", "deadmaps"} <= done for done in theirs), theirs


def llvm(dispatcher) -> str:
    """The function's LLVM IR, the names Numba numbers (mangled symbols) made one."""
    (text,) = dispatcher.inspect_llvm().values()
    return re.sub(r"_ZN[\w$.]+", "S", text)


@checked
def test_the_code_made_is_the_same_as_with_numbas_own_post_processing(monkeypatch):
    import numpy as np

    a = np.array([3, 5, 2, 7], dtype=np.int64)
    ours = llvm(compiled(njit(fresh(branching)), a, 11))
    with monkeypatch.context() as m:
        m.setattr(postproc.PostProcessor, "run", numbapipe.NUMBAS_POSTPROCESS)
        theirs = llvm(compiled(njit(fresh(branching)), a, 11))
    assert "br i1" in ours  # a function of several blocks
    assert ours == theirs
