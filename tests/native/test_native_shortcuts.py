"""The native writer's shortcuts that keep every answer and do less work for it: a sum of counts
compared with 0 stops at the first term that decides; a choice over a cell's neighbours of one
rank goes over those only; an invariant `all(height(c) <= K and ... for c in cells)` bounds the
stacks; a function's buffers are views of one array; `flank_len` reads a cell once.

The text tests read the written modules without compiling them; the counting tests run the
written module as plain Python (no Numba) on small boards and compare its perft with the Python
backend's, so they would fail if a shortcut changed which moves a position has.
"""

import re

import pytest

import ziggurat
from ziggurat.dsl import ir
from ziggurat.dsl import types as T
from ziggurat.interpreter.native import fuse
from ziggurat.interpreter.native import game as native_game
from ziggurat.interpreter.native.game import source
from ziggurat.interpreter.native.module import height_bound
from ziggurat.interpreter.pipeline import lowered_rules

from native_replay import assert_plain_perft


def text_of(name: str, options=None) -> str:
    native_game._WRITTEN.clear()
    return source(ziggurat.load(name, options))[0]


def function(text: str, name: str) -> str:
    start = text.index(f"def {name}(")
    end = text.find("\n@njit", start)
    return text[start:end]


def test_a_sum_of_counts_against_zero_becomes_an_any_that_stops_at_the_first_term():
    c = ir.Local("c", T.CELL)
    d = ir.Local("d", T.INT)
    run = ir.Call("len", (ir.Call("flanked", (c, d, ir.Global("mover", T.PLAYER)), T.list_of(T.CELL)),), T.INT)
    fors = (ir.CompFor("d", ir.Const((), T.DIRSET), None),)
    total = ir.Comp("sum", run, fors, T.INT)
    zero, one = ir.Const(0, T.INT), ir.Const(1, T.INT)
    for test in (ir.Compare(">", total, zero), ir.Compare("!=", total, zero), ir.Compare(">=", total, one),
                 ir.Compare("<", zero, total)):
        found = fuse.positive_test(test)
        assert found is not None and found[0] is total
        assert isinstance(found[1], ir.Comp) and found[1].func == "any" and found[1].fors == fors
        assert found[1].elt == ir.Compare(">", run, zero, T.BOOL, run.pos)
    nothing = fuse.positive_test(ir.Compare("==", total, zero))
    assert nothing is not None and isinstance(nothing[1], ir.Not) and nothing[1].operand.func == "any"
    # a term that may be negative, or another bound: the whole sum is needed
    minus = ir.Comp("sum", ir.Arith("-", run, one), fors, T.INT)
    assert fuse.positive_test(ir.Compare(">", minus, zero)) is None
    assert fuse.positive_test(ir.Compare(">", total, one)) is None
    # a count: any of its condition
    every = (ir.CompFor("c", ir.Global("cells", T.list_of(T.CELL)), None),)
    count = ir.Comp("count", ir.Call("occupied", (c,), T.BOOL), every, T.INT)
    found = fuse.positive_test(ir.Compare(">", count, zero))
    assert found is not None and found[1].func == "any" and found[1].elt == count.elt


def test_othellos_end_stops_counting_a_cells_flanked_lines_at_the_first():
    outcome = function(text_of("othello"), "outcome")
    assert "+= flank_len" not in outcome
    assert len(re.findall(r"if \(flank_len\(s, ", outcome)) == 2  # the mover's and the other's can_place


def test_breakthroughs_moves_go_over_the_neighbours_one_rank_ahead_only():
    legal = function(text_of("breakthrough"), "legal")
    assert len(re.findall(r"NBR\[", legal)) == 2  # step's and capture's `to`
    assert not re.search(r"\bNB\[", legal)
    assert "RANK[v_to]" not in legal  # the rank test is the table's, not a test a neighbour


def test_neighbours_by_line_reads_a_rank_or_file_test_first_in_the_where_only():
    c, x = ir.Local("c", T.CELL), ir.Local("x", T.CELL)
    near = ir.Call("neighbours", (c, ir.Const(0, T.DIRSET)), T.list_of(T.CELL))
    key = ir.Arith("+", ir.Attr(c, "file", T.INT), ir.Const(1, T.INT))
    same = ir.Compare("==", ir.Attr(x, "file", T.INT), key, T.BOOL)
    assert fuse.neighbours_by_line(ir.CompFor("x", near, same)) == ("file", key, None)
    assert fuse.neighbours_by_line(ir.CompFor("x", ir.Global("cells", T.list_of(T.CELL)), same)) is None
    reads_x = ir.Compare("==", ir.Attr(x, "rank", T.INT), ir.Attr(x, "file", T.INT), T.BOOL)
    assert fuse.neighbours_by_line(ir.CompFor("x", near, reads_x)) is None


def test_a_top_controller_is_read_from_its_slot_alone_where_the_layout_allows(monkeypatch):
    # `mine(from)` as a test of each cell: written without the occupancy words (occupancy.py), whose
    # bits a choice of the mover's own cells walks instead (the module written afresh, no cache)
    from ziggurat.interpreter.native import occupancy

    monkeypatch.setattr(occupancy, "wanted", lambda plans, folded: False)

    def legal_of(name: str, options=None) -> str:
        return function(native_game._write(ziggurat.load(name, options))[0], "legal")

    # pieces numbered as their controllers, one piece a cell: no table read, no wait on the height
    legal = legal_of("breakthrough")
    assert "CTRL[" not in legal
    assert "s[U(HGT + v_from)] > 0 and s[U(STK + v_from)] == mover" in legal
    # an arrow controlled by nobody: the table CTRL, still from the one slot
    legal = legal_of("amazons", {"board_size": 6})
    assert "CTRL[U(s[U(STK + v_from)])] == mover" in legal
    # stacks of several pieces: the top's slot is found by the height
    legal = legal_of("clobber")
    assert "CTRL_ID" not in legal and "s[U(STK + v_from * CAP + s[U(HGT + v_from)] - 1)]" in legal


def test_a_ray_part_stops_every_direction_once_a_completion_is_found():
    text = text_of("amazons", {"board_size": 6})
    parts = text[text.index("def legal_parts("):text.index("\n# ----", text.index("def legal_parts("))]
    lines = parts.splitlines()
    for k, var in ((1, "v_to"), (2, "v_shot")):
        at = next(i for i, line in enumerate(lines) if line.strip().startswith(f"{var} = LN["))
        assert lines[at - 1].strip().startswith("for ")
        ray = len(lines[at - 1]) - len(lines[at - 1].lstrip())  # the ray's loop over its cells
        after = next(i for i in range(at, len(lines))
                     if lines[i].strip() and len(lines[i]) - len(lines[i].lstrip()) <= ray)
        # the first line after the cells' loop, in the directions' loop: its own stop
        assert lines[after] == " " * ray + f"if found and depth < {k}:", (var, lines[after])
        assert lines[after + 1].strip() == "break"


def test_an_invariant_bounding_height_inside_an_and_bounds_the_stacks():
    game = ziggurat.load("checkers")
    assert height_bound(lowered_rules(game.rules, dict(game.options)).folded.plan) == 1
    assert "\nCAP = 1\n" in text_of("checkers")


def test_a_functions_buffers_are_views_of_one_array_allocated_once():
    legal = function(text_of("checkers"), "legal")
    assert legal.count("_pool = np.empty(") == 1
    assert legal.count("np.empty(") == 1  # the copies a stage is taken back from too ("saved")
    assert re.search(r"\n    saved = _pool\[\d+:\d+\]\.reshape\(\(1, \d+\)\)", legal)
    assert not re.search(r"\n    _[a-z]+\d+ = np\.empty\(", legal)  # no buffer of its own
    views = re.findall(r"\n    (_\w+) = _pool\[(\d+):(\d+)\]", legal)
    assert len(views) >= 2
    spans = sorted((int(a), int(b)) for _, a, b in views)
    assert all(a < b for a, b in spans) and all(b <= a2 for (_, b), (a2, _) in zip(spans, spans[1:]))  # apart


@pytest.mark.parametrize("name, options, depth", [
    ("othello", {"board_size": 6}, 4),  # flank_len; the end's any
    ("breakthrough", {"width": 5, "height": 5, "army": 1}, 4),  # neighbours one rank ahead
    ("checkers", {"width": 6, "height": 6, "army": 2}, 5),  # CAP 1; the jump repeat's buffers in one array
    ("clobber", {"width": 4, "height": 4}, 4),  # stacks of several pieces: the top found by the height
])
def test_the_written_module_counts_pythons_perft(name, options, depth):
    game = ziggurat.load(name, options)
    native_game._WRITTEN.clear()
    text, layout = source(game)[:2]
    assert_plain_perft(text, layout, game.new(), depth)
