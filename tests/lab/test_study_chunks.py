"""How a study cuts its games into batches: every game once, in order; the first batch of each
worker small (the first games come soon); on several workers (`study._chunks`) the last batches
small (the workers finish together); on one worker (`study._run_serial`) batches cut as they go,
each lasting about BATCH_SECONDS by the games' pace so far (the native backend's)."""

from __future__ import annotations

import pytest

from ziggurat.lab.study import BATCH_SECONDS, NATIVE_CHUNK, PYTHON_CHUNK, _chunks, _run_serial


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
def test_on_one_worker_every_game_once_in_order_the_first_batch_small(games, most, seconds):
    batches = _serial(range(games), most, seconds)
    assert [i for b in batches for i in b] == list(range(games))
    assert len(batches[0]) <= max(1, min(PYTHON_CHUNK, games // 8)) and max(len(b) for b in batches) <= most


def test_on_one_worker_a_batch_lasts_about_batch_seconds():
    """After the first, each batch holds what the games so far took BATCH_SECONDS to play: fast
    games in few large batches, slow ones in small batches (but never empty)."""
    def middle(games, most, seconds):
        sizes = [len(b) for b in _serial(range(games), most, seconds)]
        assert sizes[0] == min(PYTHON_CHUNK, games // 8)
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
