"""Folds and large expressions written once, as functions of the native module (`outline.py`),
where the rules' defs and the writer's several functions would write them again at every use.

The text tests read the written module without compiling it; the counting tests run it as plain
Python (no Numba) and compare its perft with the Python backend's, so they fail if a function
of the module computes something else than the code it stands for.
"""

import re
from pathlib import Path

import pytest

import ziggurat
from ziggurat.dsl import ir
from ziggurat.dsl import types as T
from ziggurat.interpreter.native import game as native_game
from ziggurat.interpreter.native import outline
from ziggurat.interpreter.native.outline import FROM_LINES, function_lines, shape

from native_replay import assert_plain_perft

HERE = Path(__file__).parent


def written(game) -> str:
    """The game part of its module, written now (not a text kept in the cache)."""
    return native_game._write(game)[0].split("# ---- kernel.py")[0]


def function(text: str, name: str) -> str:
    start = text.index(f"def {name}(")
    end = text.find("\n@njit", start)
    return text[start:] if end < 0 else text[start:end]


@pytest.fixture
def outline_all(monkeypatch):
    """Every module outlined, however small (outline.FROM_LINES)."""
    monkeypatch.setattr(outline, "FROM_LINES", 0)


def test_a_defs_fold_used_in_two_actions_is_one_function_called_by_both(outline_all):
    text = written(ziggurat.load(str(HERE / "outline.rules")))
    # crowd = friends(to): `count(mine(d) for d in neighbours(to, orthogonal))`, in step's do and in jump's
    put = r"s\[CNT \+ 0\] = (fold_\d+)\(s, mover, v_to\)"  # no repetition rule: no hash, no put
    calls = [re.findall(put, function(text, f)) for f in ("do_0", "do_1")]
    assert len(calls[0]) == 1 and calls[0] == calls[1]
    assert text.count(f"def {calls[0][0]}(") == 1
    body = function(text, calls[0][0])
    assert "for " in body and "NB[" in body  # the loop over the neighbours, here and not in do_N
    assert "NB[" not in function(text, "do_0") + function(text, "do_1")


def test_the_moves_listing_calls_no_fold_of_the_module(outline_all):
    """legal, after_K and legal_parts run once per candidate: their folds stay in place
    (outline.listing), though the same defs' folds are outlined elsewhere."""
    for name in (str(HERE / "outline.rules"), "rgb"):
        text = written(ziggurat.load(name))
        assert "def fold_" in text, name
        for f in ["legal", "legal_parts"] + sorted(set(re.findall(r"\ndef (after_\d+)\(", text))):
            assert not re.search(r"\bfold_\d+\(", function(text, f)), (name, f)


def test_a_fold_has_one_shape_whatever_its_names_and_none_when_it_reads_a_list():
    def fold(var, cell):
        c = ir.Local(cell, T.CELL)
        d = ir.Local(var, T.CELL)
        return ir.Comp("any", ir.Call("empty", (d,), T.BOOL),
                       (ir.CompFor(var, ir.Call("neighbours", (c, ir.Const((), T.DIRSET)), T.list_of(T.CELL)), None),),
                       T.BOOL)
    one, params1 = shape(fold("d", "from"), {"from": "v_from"})
    two, params2 = shape(fold("_v7_x", "c#3"), {"c#3": "_c12"})
    assert one == two and params1 == ["from"] and params2 == ["c#3"]
    listed = ir.Local("l", T.list_of(T.CELL))
    reads_list = ir.Comp("count", ir.Call("empty", (ir.Local("x", T.CELL),), T.BOOL),
                         (ir.CompFor("x", listed, None),), T.INT)
    assert shape(reads_list, {"l": "_l4"}) is None
    assert shape(fold("d", "from"), {}) is None  # a name bound nowhere the function could be given


def test_a_small_module_outlines_nothing():
    for name in ("othello", "breakthrough", "volcano"):
        text = written(ziggurat.load(name))
        assert function_lines(text) < FROM_LINES and "def fold_" not in text, name
    text = written(ziggurat.load("martian-chess"))
    assert function_lines(text) >= FROM_LINES / 2 and "def fold_" in text  # its first writing: 940 lines


@pytest.mark.parametrize("name, depth", [
    (str(HERE / "outline.rules"), 4),
    ("volcano", 2),  # folds over stacks
    ("martian-chess", 2),  # a zone's count; large expressions of the defs
    ("rgb", 1),  # folds inside folds; its after block's
])
def test_the_module_with_its_folds_outlined_counts_pythons_perft(outline_all, name, depth):
    game = ziggurat.load(name)
    text, layout = native_game._write(game)[:2]
    assert re.search(r"\ndef fold_\d+\(", text)  # something was outlined
    assert_plain_perft(text, layout, game.new(), depth)


# `least(c)` builds a list (a buffer), `settled(c)` is two folds joined: one short line of calls
LISTS = (HERE / "outline.rules").read_text().replace(
    "def lonely(c):",
    "def least(c): min(list(d.rank for d in neighbours(c, orthogonal) where mine(d)) + [9])\n"
    "def settled(c): friends(c) > 1 and boxed(c)\n"
    "def lonely(c):").replace("        crowd = friends(to)\n", "        crowd = least(to)\n        if settled(to):\n"
                              "            crowd += 1\n")


def test_a_fold_building_a_list_is_outlined_with_the_callers_buffer(outline_all):
    """A fold whose code fills a buffer (`least`, a list's minimum) is a function all the same:
    the buffer is its parameter, which each caller allocates once at its top (as the fold written
    in place would), not the function at every call."""
    game = ziggurat.load(str(HERE / "outline.rules"), text=LISTS)
    text = written(game)
    calls = [re.findall(r"(fold_\d+)\(s, mover, v_to, (_l\d+)\)", function(text, f)) for f in ("do_0", "do_1")]
    assert len(calls[0]) == 1 and calls[0] == calls[1]
    fold, buf = calls[0][0]
    body = function(text, fold)
    assert body.startswith(f"def {fold}(s, mover, a0, {buf}):") and f"{buf}[" in body and "np.empty" not in body
    for f in ("do_0", "do_1"):
        assert re.search(rf"\n    {buf} = (np.empty\(|_pool\[)", function(text, f)), f  # at the caller's top


def test_a_fold_of_one_short_line_of_calls_stays_in_place(outline_all):
    """`settled(c)`, used twice, is `friends(c) > 1 and boxed(c)`: with its two folds called, one
    short line, written where it is used rather than as one more function (`Outline.wraps`)."""
    text = written(ziggurat.load(str(HERE / "outline.rules"), text=LISTS))
    for f in re.findall(r"\ndef (fold_\d+)\(", text):
        lines = [ln for ln in function(text, f).splitlines()[1:] if ln.strip()]
        assert not (len(lines) == 1 and "fold_" in lines[0]), function(text, f)
    for f in ("do_0", "do_1"):
        assert re.search(r"\n    if \(\(fold_\d+\(s, mover, v_to\) > 1\) and \(not fold_\d+\(s, mover, v_to\)\)\):",
                         function(text, f)), function(text, f)


def test_the_module_with_a_fold_given_its_buffer_counts_pythons_perft(outline_all):
    game = ziggurat.load(str(HERE / "outline.rules"), text=LISTS)
    text, layout = native_game._write(game)[:2]
    assert re.search(r"\ndef fold_\d+\(s, mover, a0, _l\d+\)", text)
    assert_plain_perft(text, layout, game.new(), 4)


def test_the_after_blocks_effects_call_the_helpers_a_large_module_runs_once_a_move():
    """`after_do_K` is written with `after_K`, while `legal` is (in the listing), but runs once a
    move, from `apply`: as the `do_N` of a large module, it calls the helpers that write the
    position (`change_piece`, `called_remove_piece`) instead of inlining them (`once_a_move`)."""
    text = written(ziggurat.load("rgb"))
    body = function(text, "after_do_0")
    assert "change_piece(s, " in body and "called_remove_piece(s, " in body
    assert not re.search(r"(?<![\w.])(put|occ_fix|remove_piece)\(s, ", body)
    assert re.search(r"(?<![\w.])remove_piece\(s, ", function(text, "legal"))  # the listing: inlined helpers
