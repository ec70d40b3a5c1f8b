"""How a study cuts its games into batches (`study._chunks`): every game once, in order; the first
batch of each worker small (the first games come soon); on several workers the last batches small
(the workers finish together), on one worker batches of one size."""

from __future__ import annotations

import pytest

from ziggurat.lab.study import NATIVE_CHUNK, PYTHON_CHUNK, _chunks


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
