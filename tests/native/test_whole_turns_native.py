"""Whole turns in the native backend (interpreter/native/turns.py, turns_kernel.py), on a small
test game: tests/language/whole_turns/dice_steps.rules with two pieces a side and its turns kept by
a counter and merged by position (`whole turns, at most 2 parts, one per position, keeping the most
steps`, `steps` counting the parts of the turn). One native compile serves the module.

A step moves the top piece of its cell (the edit `move(from, height(from), to)`). After a throw of 2
from the start, south (pieces on a1 and b1) has five turns: a1-c1 and b1-d1 (one step of two), and
a1-b1; b1-c1, b1-c1; a1-b1 and b1-c1; c1-d1 (two steps of one). Keeping the most steps drops the
first two; of the rest, the first two reach the same position (a piece on b1 and one on c1), so one
per position lists two turns: a1-b1; b1-c1 and b1-c1; c1-d1. Without the keeping, four turns would
be listed (a turn of one step ends with another `steps`); without the merge, three.
Backgammon's native tests
(one compile of 95 CPU s) are in test_whole_turns_native_backgammon.py, in the long suite.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

import ziggurat
from rules_edits import replace_once
from ziggurat.errors import Unsupported
from ziggurat.interpreter.runtime import perft

pytest.importorskip("numba")
from ziggurat.interpreter.native import native  # noqa: E402

RULES = Path(__file__).parents[1] / "language" / "whole_turns" / "dice_steps.rules"
TEXT = replace_once(replace_once(replace_once(replace_once(
    RULES.read_text(),
    "at most 2 parts, one per position", "at most 2 parts, one per position, keeping the most steps"),
    "counter left = 0 bookkeeping", "counter left = 0 bookkeeping\ncounter steps = 0 bookkeeping"),
    "        left = pips\n", "        left = pips\n        steps = 0\n"),
    "        left -= to.file - from.file\n", "        left -= to.file - from.file\n        steps += 1\n")
TEXT = replace_once(TEXT, "for c in cells where c.file == 1:", "for c in cells where c.file <= 2:")
TEXT = replace_once(TEXT, "move(from, 1, to)", "move(from, height(from), to)")
TEXT = TEXT[:TEXT.index("example ")]  # the examples were counted for one piece a side
UNFILTERED = replace_once(TEXT, ", one per position, keeping the most steps", "")


@pytest.fixture(scope="module")
def game():
    return ziggurat.load(str(RULES), text=TEXT)


@pytest.fixture(scope="module")
def fast(game):
    return native(game, ())


def texts(st, moves) -> list:
    return [st.move_text(m) for m in moves]


def after_two(game):
    st = game.new()
    st.play("2")
    return st


def test_the_filters_are_those_counted_by_hand_in_python():
    """The Python listing the native one is compared with keeps and merges as the docstring says."""
    every = after_two(ziggurat.load(str(RULES), text=UNFILTERED))
    assert sorted(texts(every, every.moves())) == sorted(
        ["a1-c1", "b1-d1", "a1-b1; b1-c1", "b1-c1; a1-b1", "b1-c1; c1-d1"])
    for clause, listed in ((", one per position", 4), (", keeping the most steps", 3)):
        one = after_two(ziggurat.load(str(RULES), text=replace_once(UNFILTERED, "2 parts", "2 parts" + clause)))
        assert len(one.moves()) == listed
    st = after_two(ziggurat.load(str(RULES), text=TEXT))
    assert texts(st, st.moves()) == ["a1-b1; b1-c1", "b1-c1; c1-d1"]


def test_native_listing_keeps_the_most_steps_and_one_turn_per_position(game, fast):
    """Without the keeping the native listing would hold a1-c1 and b1-d1; without the merge,
    b1-c1; a1-b1 as well (the docstring's counts)."""
    st = after_two(game)
    assert texts(st, fast.turns.legal(st)) == ["a1-b1; b1-c1", "b1-c1; c1-d1"]


def test_native_listings_equal_pythons_at_seeded_random_positions(game, fast):
    """Turn for turn, in the same order, at every position of 40 seeded random games."""
    rng = random.Random(26)
    positions = 0
    for _ in range(40):
        st = game.new()
        while st.outcome() is None and st.ply < 60:
            assert fast.turns.legal(st) == st.moves(), st.text()
            positions += 1
            st.push(rng.choice(st.moves()))
    assert positions > 400


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5, 6])
def test_native_perft_counts_whole_turns_as_python_does(game, fast, depth):
    assert fast.perft(game.new(), depth) == perft(game.new(), depth)


def test_divide_splits_by_whole_turns_in_pythons_order(game, fast):
    st = after_two(game)
    assert fast.divide(st, 3) == [(m, perft(_after(st, m), 2)) for m in st.moves()]


def _after(st, m):
    child = st.copy()
    child.push(m)
    return child


def test_native_playouts_are_games_of_whole_turns_that_python_replays(game, fast):
    """A seeded playout's moves are listed whole turns at each position and end as Python says."""
    for seed in range(20):
        run = fast.playout(game.new(), seed, 200)
        assert run.kind is not None
        st = game.new()
        for m in run.moves:
            assert m in st.moves(), (seed, st.text(), m)
            st.push(m)
        assert st.outcome() is not None and st.outcome().results == run.results
        assert len(run.actions()) == run.plies == len(run.moves)


def test_a_study_chunk_draws_uniformly_over_whole_turns(game, fast):
    """After a throw of 2 each of the two listed turns is drawn about half the time (500 one-turn
    games: a side outside 190..310 has a chance below 1e-5); a draw over the parts would pick
    the first step a1-b1 or b1-c1 evenly too, but a draw over unfiltered turns would not."""
    st = after_two(game)
    seeds = np.arange(500, dtype=np.uint64)
    v = fast.start(st)[0]
    cols = fast.study_chunk(v, seeds, 1, finals=True)
    assert (cols.plies == 1).all()
    ends = [fast.state(f).text().split(" | ")[1] for f in cols.finals]
    counts = sorted({e: ends.count(e) for e in ends}.values())
    assert len(counts) == 2 and 190 <= counts[0] <= counts[1] <= 310


def test_the_loops_call_the_whole_turns_listing_by_its_symbol(game, fast):
    """`legal_turns` is one of the functions the loops share (`module.SHARED`): compiled once,
    with machine code of its own, and called by its symbol from perft's loop and the study's,
    not linked into (and optimised again in) each. The loop is compiled again here (the one
    `fast` holds may come from the cache, as machine code only)."""
    from ziggurat.interpreter.native.numbacache import njit

    module = fast.module
    loop = njit(module.turn_perft.py_func)
    assert loop(fast.start(game.new())[0], 2) == perft(game.new(), 2)
    listing = module.legal_turns.overloads[module.legal_turns.signatures[0]]
    library = loop.overloads[loop.signatures[0]].library
    declared = {f.name for f in library._final_module.functions if f.is_declaration}
    defined = {f.name for f in library.get_defined_functions()}
    assert listing.fndesc.mangled_name in declared and listing.fndesc.mangled_name not in defined


def test_the_parts_policy_is_refused_in_a_game_of_whole_turns(game, fast):
    with pytest.raises(Unsupported, match="rollout policy 'parts' in a game of whole turns"):
        fast.playout(game.new(), 0, 10, parts=True)


def test_the_native_searches_refuse_whole_turns(fast):
    from ziggurat.interpreter.native import NativeSearch

    with pytest.raises(Unsupported, match="whole turns"):
        NativeSearch(fast)


def test_keeping_the_most_parts_and_no_merge_natively():
    """The other clauses: the test game as written (a piece a side), `keeping the most parts` and
    no merge. After a throw of 2 the turn of two steps alone is kept (a1-c1 is dropped); perft as
    Python's. A compile of its own: in the long suite."""
    text = replace_once(replace_once(RULES.read_text(), ", one per position", ""),
                        "2 parts", "2 parts, keeping the most parts")
    game = ziggurat.load(str(RULES), text=text[:text.index("example ")])
    fast = native(game, ())
    st = after_two(game)
    assert texts(st, fast.turns.legal(st)) == ["a1-b1; b1-c1"] == texts(st, st.moves())
    for depth in range(1, 7):
        assert fast.perft(game.new(), depth) == perft(game.new(), depth)


def test_simulate_refuses_the_parts_policy_for_whole_turns_with_a_usage_error():
    from click.testing import CliRunner

    from ziggurat.cli.main import cli

    result = CliRunner().invoke(cli, ["simulate", str(RULES), "-n", "2", "--backend", "native", "--rollout", "parts"])
    assert result.exit_code == 2 and "is played in whole turns" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
