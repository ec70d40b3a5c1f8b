"""`after "format", may decline:`: an after block the player may decline. Every move is offered
with it (where it offers something) and without it; both backends count the same.

tests/engine/decline.rules: two players drop stones on a row of three cells; after a drop the
mover may call once in the game (`calls[mover] < 1`), or not.
"""

from pathlib import Path

import pytest

import ziggurat
from ziggurat.dsl.parser import parse
from ziggurat.interpreter.runtime import perft

DECLINE = Path(__file__).with_name("decline.rules")


@pytest.fixture(scope="module")
def game():
    return ziggurat.load(str(DECLINE))


def test_the_after_block_parses_with_may_decline():
    after = next(d for d in parse(DECLINE.read_text(encoding="utf-8")).decls if type(d).__name__ == "After")
    assert after.may_decline and after.fmt == "call"


def test_each_move_is_offered_with_the_after_block_and_without_it(game):
    state = game.new()
    assert sorted(state.move_text(m) for m in state.moves()) == ["a1", "a1 call", "b1", "b1 call", "c1", "c1 call"]


def test_where_the_after_block_offers_nothing_only_the_move_without_it_is_offered(game):
    state = game.new()
    state.play("a1 call")
    state.play("b1")
    assert [state.move_text(m) for m in state.moves()] == ["c1"]  # white has called already


def test_a_declined_after_block_changes_nothing(game):
    state = game.new()
    state.play("a1")
    assert "calls.white=0" in state.text()
    state.play("b1 call")
    assert "calls.black=1" in state.text()


def test_perft_counted_by_hand(game):
    """White: 3 cells, call or not (6). Black: 2 cells, call or not (4). White's last cell: with
    the call (if white has not called) or without: after a call 1, else 2. So depth 2 is 6 x 4 =
    24, and depth 3 is 3 x (4 x 1 + 4 x 2) = 36."""
    start = game.new()
    assert [perft(start, d) for d in range(4)] == [1, 6, 24, 36]


def test_the_native_module_agrees_with_python(game):
    pytest.importorskip("numba")
    from ziggurat.interpreter.native.game import native

    fast = native(game)
    start = game.new()
    assert [fast.perft(start, d) for d in range(4)] == [perft(start, d) for d in range(4)]
    for seed in range(8):
        p = fast.playout(start, seed, 50)
        state = game.new()
        for m in p.moves:
            assert m in state.moves()
            state.push(m)
        assert state.outcome() is not None and p.kind is not None
