"""How a study cuts its games into batches: every game once, in order; the first batch of each
worker small (the first games come soon); on several workers (`study._chunks`) the last batches
small (the workers finish together); on one worker (`study._run_serial`) batches cut as they go,
the first one game, the others lasting about BATCH_SECONDS by the games' pace so far; a study
whose agents search, a game a batch (each journaled as it ends)."""

from __future__ import annotations

import pytest

from ziggurat.lab.study import (BATCH_SECONDS, NATIVE_CHUNK, PYTHON_CHUNK, SEARCH_CHUNK, StudySpec, _batch_most,
                                _chunks, _run_serial, run_study)


@pytest.mark.parametrize("games, workers, most", [
    (100_000, 2, NATIVE_CHUNK), (1_000_000, 2, NATIVE_CHUNK), (20_000, 4, NATIVE_CHUNK), (300, 2, NATIVE_CHUNK),
    (100, 2, PYTHON_CHUNK), (7, 3, PYTHON_CHUNK), (20_000, 1, NATIVE_CHUNK), (1, 2, NATIVE_CHUNK),
])
def test_every_game_once_in_order_the_first_batches_small(games, workers, most):
    batches = _chunks(range(games), workers, most)
    assert [i for b in batches for i in b] == list(range(games))
    sizes = [len(b) for b in batches]
    assert max(sizes) <= most and min(sizes) >= 1
    assert all(s <= PYTHON_CHUNK for s in sizes[:workers])


@pytest.mark.parametrize("games, workers", [(100_000, 2), (1_000_000, 2), (20_000, 4), (50_000, 3)])
def test_on_several_workers_the_last_batches_are_small(games, workers):
    """The last batch a worker takes holds at most about an eighth of a full one: the others wait
    for it no longer than that (a full-size last batch: up to a whole batch's time)."""
    sizes = [len(b) for b in _chunks(range(games), workers, NATIVE_CHUNK)]
    full = max(sizes)
    assert all(s <= full // 4 for s in sizes[-workers:])
    assert len(sizes) <= games // full + 10 * workers  # few more batches than batches of full size


def test_on_one_worker_the_batches_after_the_first_have_one_size():
    sizes = [len(b) for b in _chunks(range(20_000), 1, NATIVE_CHUNK)]
    assert sizes[0] == PYTHON_CHUNK and len(set(sizes[1:-1])) == 1 and sizes[-1] <= sizes[1]


def test_a_list_of_indices_is_cut_as_a_range_is():
    todo = [i for i in range(5_000) if i % 7]  # a resumed study: the games not yet played
    assert [list(b) for b in _chunks(todo, 2, NATIVE_CHUNK)] == \
        [[todo[i] for i in b] for b in _chunks(range(len(todo)), 2, NATIVE_CHUNK)]


def _serial(indices, most: int, seconds_a_game: float) -> list:
    """The batches `_run_serial` cuts, on a clock where each game takes `seconds_a_game`."""
    now = [0.0]
    batches: list = []

    def run(batch):
        now[0] += len(batch) * seconds_a_game
        return list(batch)

    _run_serial(run, indices, most, lambda k, part: batches.append((k, part)), clock=lambda: now[0])
    assert [k for k, _ in batches] == list(range(len(batches)))  # numbered in turn
    return [part for _, part in batches]


@pytest.mark.parametrize("games, most, seconds", [
    (20_000, 50_000, 4e-6), (1_000_000, 50_000, 2e-5), (300, 50_000, 0.01), (7, 50, 0.2), (1, 50_000, 1e-6),
])
def test_on_one_worker_every_game_once_in_order_the_first_batch_one_game(games, most, seconds):
    batches = _serial(range(games), most, seconds)
    assert [i for b in batches for i in b] == list(range(games))
    assert len(batches[0]) == 1 and max(len(b) for b in batches) <= most


def test_on_one_worker_a_batch_lasts_about_batch_seconds():
    """After the first, each batch holds what the latest one's games took BATCH_SECONDS to play: fast
    games in few large batches, slow ones in small batches (but never empty)."""
    def middle(games, most, seconds):
        sizes = [len(b) for b in _serial(range(games), most, seconds)]
        assert sizes[0] == 1
        return sizes[1:-1]

    fast = middle(200_000, 50_000, 1e-5)  # BATCH_SECONDS: 50,000 games
    assert fast and all(abs(s - BATCH_SECONDS / 1e-5) <= 1 for s in fast)
    assert set(middle(200_000, 20_000, 1e-6)) == {20_000}  # no more than `most`
    slow = middle(200, 50_000, 0.2)  # two games and a half
    assert slow and set(slow) == {int(BATCH_SECONDS / 0.2)}
    crawl = middle(60, 50_000, 10.0)
    assert crawl and set(crawl) == {1}


def test_on_one_worker_a_resumed_studys_indices_are_cut_in_order():
    todo = [i for i in range(5_000) if i % 7]
    assert [i for b in _serial(todo, 50_000, 1e-4) for i in b] == todo


def test_a_slow_first_game_on_one_worker_does_not_hold_back_the_next_batches():
    """A first batch that took long (the warm-up: a compile, a cache load) is not the games' pace:
    fast games reach full batches within a few."""
    now, sizes = [0.0], []

    def run(batch):
        now[0] += (4.0 if batch[0] == 0 else 1e-4) + len(batch) * 1e-6  # a warm-up, then a batch's cost
        sizes.append(len(batch))
        return list(batch)

    _run_serial(run, range(2_000_000), 50_000, lambda k, part: None, clock=lambda: now[0])
    assert sizes[0] == 1 and sizes.index(50_000) <= 3


@pytest.mark.parametrize("backend, agents, most", [
    ("native", ("random", "random"), NATIVE_CHUNK), ("python", ("random", "random"), PYTHON_CHUNK),
    ("python", ("random", "greedy"), PYTHON_CHUNK), ("python", ("random", "mcts:iterations=30"), SEARCH_CHUNK),
    ("python", ("alphabeta:depth=2", "random"), SEARCH_CHUNK),
])
def test_a_batch_holds_games_by_what_they_cost(backend, agents, most):
    assert _batch_most(StudySpec("pig", agents, 400, backend=backend)) == most


def test_a_searching_study_hands_over_each_game_as_it_ends():
    """on_records (the journal's writer) sees the games of a study whose agents search one at a
    time, on one worker: an interrupted study keeps every game it finished."""
    seen: list = []
    spec = StudySpec("tic-tac-toe", ("mcts:iterations=4", "random"), 3, seed=5)
    records = run_study(spec, workers=1, on_records=lambda part: seen.append(len(part)))
    assert seen == [1, 1, 1] and len(records) == 3
