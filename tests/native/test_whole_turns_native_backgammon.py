"""Backgammon in the native backend: its whole turns (`whole turns, at most 4 parts, one per
position, keeping the most played`) listed, counted and played natively (interpreter/native/turns.py).

Perft equals the independent counts of tests/perft/backgammon.perft (the reference written from the
rules text; the start's also OpenSpiel's); the native listing equals the Python backend's turn for
turn at seeded random positions (doubles, the bar, bearing off, the larger die kept); a seeded
native study finishes, every game with a result of the game (a single, gammon or backgammon), and
its games replay move by move in the Python backend to the same end.

One native compile of Backgammon (some 95 CPU s cold): the whole module is in the long suite
(tests/long_suite.py); test_whole_turns_native.py checks the same loops on a small game by default.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import ziggurat
from perft_data import PERFT_DIR, read
from ziggurat.lab.seeds import derived_seed
from ziggurat.lab.study import StudySpec, run_study

pytest.importorskip("numba")
from ziggurat.interpreter.native import native  # noqa: E402

RECORDS = [(r, depth, leaves) for r in read(Path(PERFT_DIR) / "backgammon.perft") for depth, leaves in r.counts
           if leaves < 20_000]


@pytest.fixture(scope="module")
def game():
    return ziggurat.load("backgammon")


@pytest.fixture(scope="module")
def fast(game):
    return native(game, ())


def at(game, record):
    return game.new() if record.position == "start" else game.position(record.position)


@pytest.mark.parametrize("record, depth, leaves", RECORDS, ids=[f"{r.id}-d{d}" for r, d, _ in RECORDS])
def test_native_perft_equals_the_independent_counts(game, fast, record, depth, leaves):
    assert fast.perft(at(game, record), depth) == leaves


def test_native_divide_splits_the_counts_by_whole_turns(game, fast):
    record = next(r for r, _, _ in RECORDS if r.id == "bg-bearoff-hit")
    st = at(game, record)
    split = fast.divide(st, 2)
    assert [m for m, _ in split] == st.moves() and len(split) == 21
    assert sum(n for _, n in split) == 756


def test_native_listings_equal_pythons_at_seeded_random_positions(game, fast):
    """Turn for turn and in order at the positions of seeded random games, where the keeping and
    the merge both act (a double's many orders; a roll of which only one die can be played)."""
    rng = random.Random(35)
    positions = 0
    for _ in range(6):
        st = game.new()
        while st.outcome() is None and st.ply < 120:
            listed = st.moves()
            assert fast.turns.legal(st) == listed, st.text()
            positions += 1
            st.push(rng.choice(listed))
    assert positions > 200


def test_a_seeded_native_study_finishes_with_results_of_the_game(game, fast):
    spec = StudySpec("backgammon", ("random", "random"), 40, {}, seed=26, max_plies=2000, backend="native")
    records = run_study(spec, workers=1)
    assert len(records) == 40 and all(r.backend == "native" for r in records)
    assert all(r.kind == "win" for r in records)  # no game cut short, none drawn
    assert {tuple(sorted(r.results_by_seat)) for r in records} == {(0, 1)}
    worth = {"all fifteen borne off": 1, "a gammon: the other bore off none": 2}
    for r in records:  # the winner scores what its win is worth
        winner = r.results_by_seat.index(1)
        assert r.scores_by_seat[winner] == worth.get(r.reason, 3) and r.scores_by_seat[1 - winner] <= 0
    assert len({r.reason for r in records}) > 1  # singles and gammons at least


@pytest.mark.parametrize("i", range(4))
def test_native_playouts_replay_in_python_to_the_same_end(game, fast, i):
    st = game.new(derived_seed(3, i, 0))
    run = fast.playout(st, derived_seed(3, i, 1), 2000)
    assert run.kind is not None
    for m in run.moves:
        assert m in st.moves(), st.text()
        st.push(m)
    end = st.outcome()
    assert end is not None and (end.kind, end.reason) == (run.kind, run.reason)
    assert tuple(end.results) == tuple(run.results)
