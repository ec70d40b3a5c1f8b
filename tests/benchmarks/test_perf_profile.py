"""benchmarks/perf_profile.py's reading of an object file: every function symbol, the internal
ones too, at the offset and size where the engine loads it (checked against MCJIT's own addresses
of the exported ones)."""

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("numba")

from ziggurat.interpreter.native.direct.compile import load_object, object_code  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("perf_profile", ROOT / "benchmarks" / "perf_profile.py")
perf_profile = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(perf_profile)

IR = """
define internal i64 @helper(i64 %x) noinline nounwind {
  %y = mul i64 %x, %x
  %z = add i64 %y, 7
  ret i64 %z
}
define i64 @first_c(i64 %x) nounwind {
  %r = call i64 @helper(i64 %x)
  ret i64 %r
}
define i64 @second_c(i64 %x) nounwind {
  %a = call i64 @helper(i64 %x)
  %b = call i64 @helper(i64 %a)
  ret i64 %b
}
"""


def test_every_function_of_an_object_is_found_where_the_engine_loads_it():
    obj = object_code(IR)
    funcs = perf_profile.elf_functions(obj)
    assert {"helper", "first_c", "second_c"} <= set(funcs)  # the internal one too
    assert all(size > 0 for _, size, _ in funcs.values())
    lib = load_object(obj, ("first_c", "second_c"))
    value, _, section = funcs["first_c"]
    base = lib.address("first_c") - value
    assert funcs["second_c"][2] == section and base + funcs["second_c"][0] == lib.address("second_c")
    assert funcs["helper"][2] == section
    spans = sorted((v, v + s) for v, s, sec in funcs.values() if sec == section)
    assert all(a_end <= b for (_, a_end), (b, _) in zip(spans, spans[1:]))  # no two functions overlap


def test_what_is_not_an_elf_object_is_refused():
    with pytest.raises(ValueError):
        perf_profile.elf_functions(b"MZ not an object")
