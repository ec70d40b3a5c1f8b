"""While a native function compiles, Python's garbage collector collects its youngest generation
less often (`numbapipe.YOUNG`), and Python's thresholds are put back after the outermost compile."""

import gc

import pytest

numba = pytest.importorskip("numba")

from numba.core import compiler  # noqa: E402

from ziggurat.interpreter.native import numbapipe  # noqa: E402
from ziggurat.interpreter.native.numbacache import njit  # noqa: E402


def seen_while_compiling(monkeypatch, cls) -> list:
    """The collector's thresholds each time a compiler of this class makes its pipelines (inside
    its compile)."""
    seen = []
    real = cls.define_pipelines

    def recording(self):
        seen.append(gc.get_threshold())
        return real(self)

    monkeypatch.setattr(cls, "define_pipelines", recording)
    return seen


def _callee(x):
    return x * 3 + 1


def _caller(x):
    return called(x) - called(x + 1)


called = njit(_callee)  # compiled on its own, inside _caller's typing: a compile inside a compile


def test_a_native_compile_and_the_compiles_inside_it_collect_less_and_put_pythons_back(monkeypatch):
    before = gc.get_threshold()
    assert before[0] < numbapipe.YOUNG  # (Python's default, 700)
    seen = seen_while_compiling(monkeypatch, numbapipe.Trimmed)
    assert njit(_caller)(4) == _callee(4) - _callee(5)
    assert len(seen) == 2  # _caller's compile and, inside it, the callee's
    assert all(t == (numbapipe.YOUNG, *before[1:]) for t in seen), seen
    assert gc.get_threshold() == before


def test_another_njit_functions_compile_keeps_pythons_thresholds(monkeypatch):
    before = gc.get_threshold()
    seen = seen_while_compiling(monkeypatch, compiler.Compiler)
    assert numba.njit(lambda x: x * 2 - 1)(4) == 7
    assert seen == [before]


def test_a_failed_compile_puts_pythons_thresholds_back():
    before = gc.get_threshold()

    def untyped(x):
        return x + "a"

    with pytest.raises(numba.core.errors.TypingError):
        njit(untyped)(1)
    assert gc.get_threshold() == before
