"""benchmarks/rbg_bench.py without RBG: it reads the output of RBG's benchmark, and without a
checkout it says how to get one instead of failing. (Building and running RBG is not tested here:
it needs a checkout, g++ and Boost; `python benchmarks/rbg_bench.py` does it.)"""

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
_spec = importlib.util.spec_from_file_location("rbg_bench", ROOT / "benchmarks" / "rbg_bench.py")
rbg_bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rbg_bench)

# What rbg2cpp's test/benchmark.cpp prints (its std::cout lines, numbers made up)
OUTPUT = """Random generator: 0
Monotonic classes: 0
time: 1002 ms
number of playouts: 14609 (14579.840319 playouts/sec)
number of states: 935793 (933925.149701 states/sec)
depth: avg 64.055924
goal of player 1: avg 50.715312
goal of player 2: avg 49.284688
"""


def test_parse_benchmark_reads_playouts_and_moves():
    assert rbg_bench.parse_benchmark(OUTPUT) == (14609, 935793)


@pytest.mark.parametrize("text", [
    "Benchmark time unspecified. Exitting...\n",
    "number of playouts: 12 (12.0 playouts/sec)\n",  # no states line
    "error: line 3: unknown piece\n",
])
def test_parse_benchmark_refuses_other_output(text):
    with pytest.raises(ValueError, match="not the output of RBG's benchmark"):
        rbg_bench.parse_benchmark(text)


def test_without_a_checkout_prepare_says_how_to_get_one(tmp_path):
    binaries, why = rbg_bench.prepare(str(tmp_path / "nowhere"))
    assert binaries == {}
    assert "git clone --recursive https://github.com/uicus/rbg2cpp" in why
    assert str(tmp_path / "nowhere") in why


def test_a_clone_without_submodules_is_named(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "Makefile").write_text("all:\n")
    (tmp_path / "src" / "main.cpp").write_text("int main(){}\n")
    binaries, why = rbg_bench.prepare(str(tmp_path))
    assert binaries == {}
    assert "git submodule update --init" in why


def test_the_table_says_not_built_and_why():
    from rich.console import Console

    row = {"game": "othello", "rbg_game": "reversi", "differs": "same game", "perft": None,
           "native_playouts_per_s": 1000.0, "native_moves_per_game": 60.0, "openspiel_playouts_per_s": None,
           "rbg_playouts_per_s": None, "rbg_moves_per_game": None, "ratio_rbg": None, "ratio_openspiel": None}
    console = Console(width=400, record=True)
    console.print(rbg_bench.table([row], "no rbg2cpp checkout at X: git clone ..."))
    text = console.export_text()
    assert "not built" in text
    assert "RBG: not built (no rbg2cpp checkout at X" in text


def test_the_table_sets_the_parts_policy_beside_openspiel_in_columns_of_its_own():
    from rich.console import Console

    row = {"game": "amazons 10x10", "rbg_game": "amazons", "differs": "same game", "perft": None,
           "native_playouts_per_s": 3000.0, "native_moves_per_game": 71.0, "openspiel_playouts_per_s": 6000.0,
           "rbg_playouts_per_s": 2000.0, "rbg_moves_per_game": 71.0, "ratio_rbg": 1.5, "ratio_openspiel": 0.5,
           "native_parts_playouts_per_s": 7200.0, "ratio_parts_openspiel": 1.2}
    console = Console(width=400, record=True)
    console.print(rbg_bench.table([row]))
    text = console.export_text()
    assert "native (parts)" in text and "parts / OpenSpiel" in text and "native (whole turns)" in text
    assert "7,200" in text and "1.20" in text and "0.50" in text


def test_the_checkout_comes_from_the_option_then_the_environment_then_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ZIGGURAT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("ZIGGURAT_RBG", raising=False)
    assert rbg_bench.checkout() == tmp_path / "cache" / "rbg" / "rbg2cpp"
    monkeypatch.setenv("ZIGGURAT_RBG", str(tmp_path / "env"))
    assert rbg_bench.checkout() == tmp_path / "env"
    assert rbg_bench.checkout(str(tmp_path / "given")) == tmp_path / "given"


def test_parse_perft_reads_the_leaves():
    text = "time: 12 ms\nperft: 256036\nnumber of states: 267860 (22321666.666667 states/sec)\n"
    assert rbg_bench.parse_perft(text) == 256036
    with pytest.raises(ValueError, match="not the output of RBG's perft"):
        rbg_bench.parse_perft("Perft depth unspecified. Exitting...\n")


def test_the_perft_column_says_whether_the_counts_agree():
    assert rbg_bench._perft((3, 21286, 21286)) == "3: 21,286 = 21,286"
    assert rbg_bench._perft((3, 21286, 21285)) == "3: 21,286 != 21,285 (differ!)"
    assert rbg_bench._perft(None) == "-"
