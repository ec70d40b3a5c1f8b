"""A ray, line or step along the direction `none` meets no cell, on both backends.

`direction(a, b)` is `none` when a and b share no file, rank or diagonal. The board's tables are
indexed by direction, and `none` is -1; before they had a row of their own for it, -1 read the
last direction's row, so a ray along `none` went north-west. The game below counts by hand: white's
one piece on a1; the cells two steps away off every line are b3 and c2 (a knight's jump), so the
`ray`, `line` and `step` actions, which go along direction(a1, that cell), have nothing to offer;
the `aligned` action (one step to a2, b1 or b2, then one more the same way) offers a2-a3, b1-c1 and
b2-c3: three moves in all.
"""

import pytest

import ziggurat
from ziggurat.dsl.world import World

GAME = """\
players white, black
board:
    files: 3
    ranks: 3
piece:
    owner: players
setup:
    for c in cells where c.rank == 1 and c.file == 1:
        place(piece(white), c)
action ray "r{from}{to}{via}":
    from: cells where mine(from)
    to: cells where distance(from, to) == 2 and direction(from, to) == none
    via: ray(to, direction(from, to), 2)
action line "l{from}{to}{via}":
    from: cells where mine(from)
    to: cells where distance(from, to) == 2 and direction(from, to) == none
    via: line(to, direction(from, to))
action step "s{from}{to}{via}":
    from: cells where mine(from)
    to: cells where distance(from, to) == 2 and direction(from, to) == none
    via: cells where step(via, direction(from, to)) == to
action aligned "a{from}{to}{via}":
    from: cells where mine(from)
    to: cells where distance(from, to) == 1
    via: ray(to, direction(from, to), 1)
"""

ALIGNED = ["aa1a2a3", "aa1b1c1", "aa1b2c3"]


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("none") / "none.rules"
    path.write_text(GAME, encoding="utf-8")
    return ziggurat.load(path)


def test_the_tables_read_for_none_hold_no_cell():
    w = World(3, 3)
    assert all(w.STEP[-1][c] == -1 for c in range(w.ncells))
    assert all(w.LINE1[-1][c] == () for c in range(w.ncells))
    w.single_dirsets()
    assert w.dirsets[w.DIRSET1[-1]] == ()


def test_nothing_lies_along_none_in_python(game):
    state = game.new()
    assert sorted(state.move_text(m) for m in state.moves()) == ALIGNED


def test_nothing_lies_along_none_natively(game):
    pytest.importorskip("numba")
    from ziggurat.interpreter.native.game import native

    assert native(game).perft(game.new(), 1) == len(ALIGNED)
