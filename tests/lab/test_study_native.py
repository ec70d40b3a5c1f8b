"""A native study plays its games a chunk at a time in one kernel call (`NativeGame.study_chunk`),
and builds their records from the kernel's columns. These tests hold it to the games replayed one
by one with `NativeGame.playout` and the same seeds (the way a native study played them before),
record for record and field by field; and to its journal: a study resumed from one gives the same
records. The seeds of a whole chunk, computed at once, are numpy's SeedSequence's."""

from __future__ import annotations

import importlib.util
import os
from collections import Counter

import attrs
import pytest

import ziggurat
from ziggurat.errors import Unsupported
from ziggurat.lab.journal import Journal
from ziggurat.lab.seeds import NATURE_SALT, derived_seed, derived_seeds
from ziggurat.lab.study import SIM_CAP_REASON, GameResult, StudySpec, play_game, run_study

HERE = os.path.dirname(os.path.dirname(__file__))
# Three players, a setup drawn at random (the token's cell), a `pass`, a seat swap, and statistics.
SEATS = os.path.join(HERE, "native", "seats.rules")


@pytest.mark.parametrize("study_seed", [0, 7, 2**32 - 1, 2**32 + 5, 2**64 - 1, -3])
@pytest.mark.parametrize("salt", [0, 1, 3, NATURE_SALT])
def test_a_chunk_of_seeds_is_numpys_seedsequence_seed_by_seed(study_seed, salt):
    indices = list(range(200)) + [2**31, 2**32 - 1, 2**32, 2**40]  # the last two: indices of two words
    assert derived_seeds(study_seed, indices, salt).tolist() == [derived_seed(study_seed, i, salt) for i in indices]


@pytest.mark.parametrize("study_seed", [0, 7, 2**32 - 1, 2**32 + 5, 2**64 - 1, -3])
def test_the_kernel_derives_a_studys_seeds_bit_for_bit(study_seed):
    """A native study's chunk derives its games' seeds in the kernel (`study_seeds.study_seed`):
    the words of numpy's SeedSequence, as `derived_seeds` computes them, for every salt, and
    the games it plays are those of the seeds given."""
    pytest.importorskip("numba")
    import numpy as np

    from ziggurat.interpreter.native.game import native
    from ziggurat.lab.seeds import seed_key

    game = ziggurat.load(SEATS)
    fast = native(game, ("playout",))
    start = fast.start(game.new(0))[0]
    indices = np.array(list(range(3000)) + [2**31, 2**32 - 1], dtype=np.uint64)
    for salt in (0, 1, 2, NATURE_SALT):  # the setup's salt slot, with no game played (0 plies)
        cols = fast.study_chunk(start, indices, 0, key=seed_key(study_seed, 1, salt))
        assert cols.setups.tolist() == derived_seeds(study_seed, indices, salt).tolist()
        assert [int(cols.setups[k]) for k in (0, 1, 2999, -1)] == \
            [derived_seed(study_seed, int(indices[k]), salt) for k in (0, 1, 2999, -1)]  # SeedSequence itself
    keyed = fast.study_chunk(start, indices[:300], 40, key=seed_key(study_seed, 1, 0))
    given = fast.study_chunk(start, derived_seeds(study_seed, indices[:300], 1), 40)
    for name in ("plies", "codes", "results", "who", "branching", "actions", "seats"):
        assert np.array_equal(getattr(keyed, name), getattr(given, name)), name
    assert len(set(map(tuple, keyed.actions.tolist()))) > 1  # different games: the seeds differ game by game


def replayed(game, fast, spec: StudySpec, i: int) -> GameResult:
    """Game i of a native study, played alone by NativeGame.playout from game.new(its seed), and
    recorded as a native study recorded it game by game (results by seat from the last seats)."""
    n = len(game.players)
    seed = derived_seed(spec.seed, i, 0)
    state = game.new(seed)
    first = state.seats[state.side]
    run = fast.playout(state, derived_seed(spec.seed, i, 1), spec.max_plies)
    end = fast.state(run.final)
    if run.kind is None:
        kind, reason, per_side = "draw", SIM_CAP_REASON, (0.5,) * n
    else:
        kind, reason, per_side = run.kind, run.reason or run.kind, tuple(float(r) for r in run.results)
    by_seat = [0.0] * n
    for side, seat in enumerate(end.seats):
        by_seat[seat] = per_side[side]
    names = [a.name for a in game.actions]
    used = Counter(names[a] for a in run.actions())
    return GameResult(index=i, seed=seed, seat_agents=tuple((seat - i) % n for seat in range(n)), first_seat=first,
                      results_by_seat=tuple(by_seat), results_by_side=per_side, final_seats=tuple(end.seats),
                      kind=kind, reason=reason, plies=run.plies, branching=run.branching, positions=run.plies,
                      passes=used["pass"], actions=dict(used), statistics=end.statistics(), backend="native")


def check_same(records: list, expected: list) -> None:
    assert len(records) == len(expected)
    for r, e in zip(records, expected):
        for name, value in attrs.asdict(e).items():
            assert getattr(r, name) == value, f"game {e.index}: {name}"
        assert r == e


@pytest.mark.parametrize("ruleset, options, games, max_plies", [
    (SEATS, {}, 60, 40),  # every game ends by rank after nine plies
    ("stacktics", {"size": 2}, 40, 60),  # the pie rule (a swap of seats); repetition; some games cut at 60
])
def test_a_native_study_records_the_games_playout_plays_one_by_one(ruleset, options, games, max_plies):
    pytest.importorskip("numba")
    from ziggurat.interpreter.native.game import native

    game = ziggurat.load(ruleset, options or None)
    n = len(game.players)
    spec = StudySpec(ruleset, ("random",) * n, games, options, seed=11, max_plies=max_plies, backend="native")
    records = run_study(spec, workers=1)
    fast = native(game, ("playout",))
    check_same(records, [replayed(game, fast, spec, i) for i in range(games)])
    # what the comparison covers: swapped seats, and (in the test game) setups, statistics and passes
    assert any(r.final_seats != tuple(range(n)) for r in records)
    assert len({r.kind for r in records}) > 1 or len({r.reason for r in records}) > 1
    if ruleset == SEATS:
        assert game.setup_draws()
        assert len({r.statistics["the token's file"] for r in records}) > 2  # the setups differ game by game
        assert any(r.passes for r in records) and any(0 < x < 1 for r in records for x in r.results_by_seat)


# Each move drops a piece on the one cell, or passes: a tower past the 16 pieces a native stack holds
# (where moves make pieces) is a game the kernel cannot hold, which the Python backend plays instead.
TOWER = """\
players a, b
board:
    files: 1
    ranks: 1
piece:
    owner: players
counter turns = 0
action drop "drop":
    do:
        place(piece(mover), cells[1])
        turns += 1
action pass "pass":
    do:
        turns += 1
end:
    if turns >= 30:
        draw "enough turns"
"""


def test_the_games_the_kernel_cannot_hold_are_the_python_backends_in_their_place(tmp_path):
    pytest.importorskip("numba")
    from ziggurat.interpreter.native.game import native

    path = tmp_path / "tower.rules"
    path.write_text(TOWER)
    game = ziggurat.load(str(path))
    spec = StudySpec(str(path), ("random", "random"), 40, {}, seed=2, max_plies=100, backend="native")
    records = run_study(spec, workers=1)
    assert [r.index for r in records] == list(range(40))
    fast = native(game, ("playout",))
    fell_back = [r for r in records if r.backend == "python"]
    assert fell_back and len(fell_back) < len(records)
    for r in records:
        if r.backend == "python":
            assert r == play_game(game, spec.agents, r.index, spec.seed, spec.max_plies)
            with pytest.raises(Unsupported):  # the kernel's game had a tower it could not hold
                replayed(game, fast, spec, r.index)
        else:
            assert r == replayed(game, fast, spec, r.index)


def test_a_native_study_resumed_from_its_journal_gives_the_same_records(tmp_path):
    pytest.importorskip("numba")
    spec = StudySpec(SEATS, ("random",) * 3, 30, {}, seed=4, max_plies=40, backend="native")
    whole = run_study(spec, workers=1)
    path = tmp_path / "study.journal"
    journal = Journal(path, [spec])
    journal.start(resume=False)
    journal.add(0, [r for r in whole if r.index % 3 == 0])  # the games a stopped run had finished
    journal.close()
    journal.release()  # the stopped run's process has ended: its lock is let go
    again = Journal(path, [spec])
    done = again.start(resume=True)[0]
    assert sorted(done) == list(range(0, 30, 3)) and all(done[i] == whole[i] for i in done)
    rest = run_study(spec, workers=1, skip=done, on_records=lambda part: again.add(0, part))
    again.close()
    again.release()
    assert sorted([*done.values(), *rest], key=lambda r: r.index) == whole
    assert Journal(path, [spec]).read()[0] == dict(enumerate(whole))  # the journal holds them all, as played


def test_a_native_study_on_two_workers_gives_the_records_of_one():
    """The records cross from the workers to the parent (pickled) unchanged, in the same order."""
    pytest.importorskip("numba")
    spec = StudySpec(SEATS, ("random",) * 3, 300, {}, seed=8, max_plies=40, backend="native")
    assert run_study(spec, workers=2) == run_study(spec, workers=1)


def test_a_native_study_reports_progress_chunk_by_chunk():
    """Chunks far larger than the Python backend's 50 games, and still more than one of them."""
    pytest.importorskip("numba")
    spec = StudySpec(SEATS, ("random",) * 3, 1600, {}, seed=1, max_plies=40, backend="native")
    parts = []
    records = run_study(spec, workers=1, on_records=lambda part: parts.append(len(part)))
    assert len(records) == 1600 and sum(parts) == 1600
    assert 1 < len(parts) and max(parts) > 50


def test_a_journal_line_is_the_text_json_dumps_writes():
    """The journal writes its lines by hand for speed: the same text as json.dumps, record for
    record (Python and native records, statistics, passes, a reason that JSON escapes)."""
    import json

    from ziggurat.lab.journal import Lines

    python = run_study(StudySpec("stacktics", ("random", "greedy"), 8, {"size": 2}, seed=2, max_plies=80), workers=1)
    records = python + [attrs.evolve(python[0], reason='the "last" café', kind="draw", actions={},
                                     results_by_seat=(0.5, 0.5), results_by_side=(0.5, 0.5))]
    if importlib.util.find_spec("numba") is not None:
        records += run_study(StudySpec(SEATS, ("random",) * 3, 8, {}, seed=2, max_plies=40, backend="native"),
                             workers=1)
        records += [attrs.evolve(r, statistics={}) for r in records[-8:]]
    lines = Lines()
    for k, r in enumerate(records):
        assert lines.line(k % 3, r) == json.dumps({"study": k % 3, "game": r.as_json()})
        assert GameResult.from_json(json.loads(lines.line(0, r))["game"]) == r
