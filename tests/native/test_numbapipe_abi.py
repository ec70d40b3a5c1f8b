"""While a native function compiles, an LLVM type's ABI size and alignment are found once per type
(`numbapipe._abi_once`), not by parsing a module with LLVM at every ask; the answers are LLVM's."""

import pytest

numba = pytest.importorskip("numba")

from llvmlite import ir as llir  # noqa: E402
from llvmlite.ir import types as lltypes  # noqa: E402
from numba.core import base, registry  # noqa: E402

from ziggurat.interpreter.native import numbapipe  # noqa: E402
from ziggurat.interpreter.native.numbacache import njit  # noqa: E402

needs_tested = pytest.mark.skipif(not numbapipe.tested(numba.__version__), reason="an untested Numba")


def parses(monkeypatch) -> list:
    """The text of each LLVM type a module is written and parsed for, from now on, with nothing
    kept from before."""
    seen: list = []
    real = lltypes.Type._get_ll_global_value_type

    def recording(self, *args, **kwargs):
        seen.append(str(self))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(lltypes.Type, "_get_ll_global_value_type", recording)
    monkeypatch.setattr(numbapipe, "_ABI", {})
    return seen


def _named_variables(a, b):
    total = a + b  # assigned in more than one place: a stack slot, whose size is asked
    for i in range(b):
        step = i * 2 - a
        total += step
    return total


@needs_tested
def test_a_native_compile_parses_each_llvm_type_once(monkeypatch):
    numbapipe.install()
    seen = parses(monkeypatch)
    assert njit(_named_variables)(3, 4) == _named_variables(3, 4)
    assert seen, "the compile asked no LLVM type's size"
    assert len(seen) == len(set(seen)), sorted(seen)


@needs_tested
def test_another_njit_functions_compile_keeps_nothing(monkeypatch):
    numbapipe.install()
    parses(monkeypatch)
    assert numba.njit(_named_variables)(3, 4) == _named_variables(3, 4)
    assert numbapipe._ABI == {}


@needs_tested
def test_the_kept_sizes_and_alignments_are_llvms_and_a_named_struct_is_not_kept(monkeypatch):
    numbapipe.install()
    parses(monkeypatch)
    monkeypatch.setattr(numbapipe, "_compiling", 1)
    context = registry.cpu_target.target_context
    kinds = [llir.IntType(8), llir.IntType(64), llir.DoubleType(),
             llir.LiteralStructType([llir.IntType(8), llir.IntType(64), llir.IntType(1)]),
             llir.ArrayType(llir.IntType(16), 5)]
    for ty in kinds:
        for _ in range(2):  # the second answer comes from what was kept
            assert base.BaseContext.get_abi_sizeof(context, ty) == numbapipe._get_abi_sizeof(context, ty)
            assert base.BaseContext.get_abi_alignment(context, ty) == numbapipe._get_abi_alignment(context, ty)
    assert len(numbapipe._ABI) == 2 * len(kinds)
    named = llir.global_context.get_identified_type("abi_test_named")
    named.set_body(llir.IntType(32), llir.IntType(32))
    assert base.BaseContext.get_abi_sizeof(context, named) == 8
    assert len(numbapipe._ABI) == 2 * len(kinds)
