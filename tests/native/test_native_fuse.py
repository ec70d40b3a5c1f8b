"""The native writer's shared generation (ziggurat.interpreter.native.fuse): actions that begin with
the same choice share its loop, folds read several times a binding are computed once, and loops
over the cells of one rank go over that rank only; the moves come out in the order the Python
backend lists them, so perft and seeded playouts do not change.

tests/native/fuse.rules has all three (its two actions name their first choice differently); it
is compiled once. The text tests read the modules of Breakthrough and Lines of Action without
compiling them; the order of moves when the two ends of the buffer meet is checked by running the
written `legal` as plain Python with a small MAXM.
"""

import os
import re

import numpy as np
import pytest

import ziggurat
from ziggurat.interpreter.native import fuse
from ziggurat.interpreter.native import game as native_game
from ziggurat.interpreter.native.game import source
from ziggurat.interpreter.pipeline import lowered_rules
from ziggurat.interpreter.runtime import perft

from native_replay import plain_module

HERE = os.path.dirname(os.path.abspath(__file__))
FUSE = os.path.join(HERE, "fuse.rules")


def text_of(name: str, options=None) -> str:
    native_game._WRITTEN.clear()
    return source(ziggurat.load(name, options))[0]


def function(text: str, name: str) -> str:
    """The text of one generated function."""
    start = text.index(f"def {name}(")
    end = text.find("\n@njit", start)
    return text[start:end]


def test_breakthroughs_step_and_capture_share_one_loop_over_the_cells_for_from():
    legal = function(text_of("breakthrough"), "legal")
    assert len(re.findall(r"v_from = low_bit\(", legal)) == 1  # the mover's own cells: its occupancy bits
    assert "actions step and capture, fused" in legal


def test_lines_of_action_builds_landings_once_and_counts_a_lines_pieces_once_a_direction():
    legal = function(text_of("lines-of-action"), "legal")
    assert len(re.findall(r"v_from = low_bit\(", legal)) == 1
    assert len(re.findall(r"\n\s*v_to = ", legal)) == 1  # one loop over landings(from) for both actions
    # reach(c, d) counts the occupied cells of its two lines once a direction (it was 4 times, and
    # once a cell of the line inside all(...)), one loop a line, no list made
    assert len(re.findall(r"if \(s\[U\(HGT \+ _v\d+_x\)\] > 0\):", legal)) == 2
    assert "np.empty(128" not in legal


def test_breakthroughs_end_goes_over_the_goal_ranks_cells_only():
    outcome = function(text_of("breakthrough"), "outcome")
    assert "RCELL[" in outcome
    assert "range(NC)" not in outcome


def test_actions_fuse_only_where_their_first_choice_keeps_the_same_values():
    plans = {p.spec.name: p for p in plans_of(FUSE)}
    assert fuse.fusable(plans["slide"], plans["hit"])  # `from` and `src`: the same up to the name
    assert fuse.fused_pairs(list(plans.values())) == [("slide", "hit")]
    assert fuse.fused_pairs(plans_of("breakthrough")) == [("step", "capture")]
    assert fuse.fused_pairs(plans_of("othello")) == []  # `place` and `pass` begin differently


def plans_of(name: str) -> list:
    game = ziggurat.load(name)
    return list(lowered_rules(game.rules, dict(game.options)).steps)


def test_cells_by_line_reads_a_rank_or_file_test_first_in_the_where_only():
    from ziggurat.dsl import ir
    from ziggurat.dsl import types as T

    c = ir.Local("c", T.CELL)
    cells = ir.Global("cells", T.list_of(T.CELL))
    rank = ir.Attr(c, "rank", T.INT)
    three = ir.Const(3, T.INT)
    other = ir.Call("occupied", (c,), T.BOOL)
    assert fuse.cells_by_line(ir.CompFor("c", cells, ir.Compare("==", rank, three, T.BOOL))) == ("rank", three, None)
    assert fuse.cells_by_line(ir.CompFor("c", cells, ir.Compare("==", three, rank, T.BOOL)))[:2] == ("rank", three)
    both = ir.BoolOp("and", (ir.Compare("==", rank, three, T.BOOL), other))
    assert fuse.cells_by_line(ir.CompFor("c", cells, both)) == ("rank", three, other)
    assert fuse.cells_by_line(ir.CompFor("c", cells, ir.BoolOp("or", both.values))) is None
    assert fuse.cells_by_line(ir.CompFor("c", cells, ir.Compare("==", rank, rank, T.BOOL))) is None  # reads c


def test_the_second_actions_moves_follow_the_firsts_in_order_when_the_buffers_ends_meet():
    game = ziggurat.load(FUSE)
    native_game._WRITTEN.clear()
    text, layout = source(game)[:2]
    state = game.new()
    for _ in range(4):  # a few slides, so that hits follow
        state.push(next(m for m in state.moves() if m[0] == 0))
    want = [layout.codec.pack(m) for m in state.moves()]
    kinds = {m[0] for m in state.moves()}
    assert kinds == {0, 1}, "the position should have moves of both actions"
    v = layout.vector(state)
    n = len(want)
    for maxm in (4 * n, 2 * n - 1, n + 2, n, n - 1):  # ends apart, ends overlapping, exactly full, one short
        out = np.zeros(maxm, np.int64)
        assert plain_module(text, maxm)["legal"](v.copy(), out) == n  # every move counted
        if n <= maxm:
            assert [int(x) for x in out[:n]] == want, maxm


@pytest.fixture(scope="module")
def compiled():
    pytest.importorskip("numba")
    from ziggurat.interpreter.native.game import native

    game = ziggurat.load(FUSE)
    return game, native(game)


def test_the_fused_game_natively_has_pythons_perft(compiled):
    game, fast = compiled
    for d in range(5):
        assert fast.perft(game.new(), d) == perft(game.new(), d), f"depth {d}"


def test_the_fused_game_lists_its_moves_in_pythons_order_and_plays_as_python(compiled):
    game, fast = compiled
    buf = np.empty(fast.module.MAXM, np.int64)
    for seed in range(30):
        p = fast.playout(game.new(), seed, 200)
        state = game.new()
        v, _, _ = fast.start(state)
        for m in p.moves:
            n = fast.module.legal(v.copy(), buf)
            assert [fast.move(int(x)) for x in buf[:n]] == list(state.moves())
            assert m in state.moves()
            state.push(m)
            fast.module.apply(v, fast.pack(m))
        outcome = state.outcome()
        if p.kind is not None:
            assert (outcome.kind, outcome.player, outcome.reason) == (p.kind, p.who, p.reason)
