"""The smaller lowering of a native module's functions (`native.numbalower`): each gives what
Numba's own gives, is in use, and writes less for LLVM."""

import numpy as np
import pytest

numba = pytest.importorskip("numba")

from numba.core import codegen, ir, typed_passes  # noqa: E402

from ziggurat.interpreter.native import numbalower, numbapipe  # noqa: E402
from ziggurat.interpreter.native.numbacache import njit  # noqa: E402

from numbapipe_checked import checked  # noqa: E402  # numbapipe installed, the mark of a tested Numba

TABLE = np.array([5, -3, 8, 13], np.int64)
FLOATS = np.array([0.5, 1.5, -2.25], np.float64)
FLAGS = np.array([True, False, True])


def reads(s, i, u):
    total = s[i] + s[-1 - i] + s[u] + TABLE[i] * TABLE[-2] + TABLE[u]
    s[i] = total
    s[-1] = s[-1] + 7
    s[np.uint64(u)] = 2 * s[np.uint64(u)]
    f = FLOATS[i] + FLOATS[-1]
    return total + s[i] + s[-1] + s[u] + int(f * 4) + (3 if FLAGS[i] else 1) + (5 if FLAGS[-2] else 0)


def both(fn):
    """The function compiled by a native module's decorator (numbalower in use) and by plain
    Numba, and the LLVM instructions each lowered (before optimisation)."""
    counts: dict = {}
    real = codegen.CPUCodeLibrary.add_ir_module

    def counting(self, module):
        counts[self.name] = counts.get(self.name, 0) + sum(
            1 for line in str(module).splitlines() if line.startswith("  "))
        return real(self, module)

    codegen.CPUCodeLibrary.add_ir_module = counting
    try:
        ours = njit(fn)
        plain = numba.njit(fn)
        results = []
        for compiled in (ours, plain):
            counts.clear()
            runs = []
            for i, u in ((0, 1), (1, 0), (2, 3), (-1, 2)):
                s = np.arange(10, dtype=np.int64) * 3 - 7
                runs.append((compiled(s, i, u), s.tolist()))
            results.append((runs, sum(counts.values())))
        return results
    finally:
        codegen.CPUCodeLibrary.add_ir_module = real


@checked
def test_an_element_read_and_written_the_short_way_is_numbas_element_in_fewer_instructions():
    (ours, ours_size), (plain, plain_size) = both(reads)
    expected = []
    for i, u in ((0, 1), (1, 0), (2, 3), (-1, 2)):
        s = np.arange(10, dtype=np.int64) * 3 - 7
        expected.append((reads(s, i, u), s.tolist()))
    assert ours == plain == expected  # negative and unsigned indexes, int, float and bool tables
    assert ours_size < 0.8 * plain_size  # the short form in use


@checked
def test_outside_a_native_compile_an_element_is_lowered_by_numba():
    s = np.arange(5, dtype=np.int64)
    assert numbapipe._compiling == 0
    assert not numbalower._plain(None, numba.typeof(s), numba.types.int64)  # (the context is not read)


def lowered_ir(fn, *args):
    """The IR of fn as Numba lowers it (a native module's decorator), with its types."""
    seen = {}
    real = typed_passes.NativeLowering.run_pass

    def keep(self, state):
        if state.func_id.func is fn:
            seen["ir"], seen["types"] = state.func_ir, state.typemap
        return real(self, state)

    typed_passes.NativeLowering.run_pass = keep
    try:
        njit(fn)(*args)
    finally:
        typed_passes.NativeLowering.run_pass = real
    return seen["ir"], seen["types"]


def tables(s, i):
    if i > 0:
        return TABLE[i] + TABLE[0] + s[i]
    return TABLE[1] + TABLE[2] + FLOATS.shape[0]


@checked
def test_only_the_dels_of_values_holding_a_reference_count_are_lowered():
    func_ir, typemap = lowered_ir(tables, np.arange(4, dtype=np.int64), 2)
    dels = [st.value for block in func_ir.blocks.values() for st in block.body if isinstance(st, ir.Del)]
    assert dels  # the arrays' (the argument, the tables) are kept
    assert all(isinstance(typemap[name], numba.types.Array) for name in dels)


@checked
def test_each_table_a_function_mentions_is_one_constant_of_its_module():
    texts = []
    real = codegen.CPUCodeLibrary.add_ir_module

    def keep(self, module):
        texts.append(str(module))
        return real(self, module)

    codegen.CPUCodeLibrary.add_ir_module = keep
    try:
        s = np.arange(4, dtype=np.int64)
        assert njit(tables)(s, 2) == tables(s, 2) and njit(tables)(s, 0) == tables(s, 0)
    finally:
        codegen.CPUCodeLibrary.add_ir_module = real
    text = next(t for t in texts if "tables" in t and "define" in t)
    made = [line for line in text.splitlines() if line.startswith("@\".const.array.data") or
            line.startswith("@.const.array.data")]
    assert len(made) == 2  # TABLE (mentioned four times) and FLOATS, once each
