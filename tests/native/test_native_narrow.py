"""A choice over the cells narrowed by the test of membership that follows it
(ziggurat.interpreter.native.narrow): the loop goes over the members of the ray, line or
neighbours it is tested against (a bit mask, lowest cell first), the moves stay in the Python
backend's order; where the set reads the choice, a value bound after it, or a position an effect
changed in between, or where the board has more than 64 cells, the loop over every cell (every
empty cell, where the occupancy words give them) stays.

The game is written here; its text tests compile nothing, and one module of it (6 x 6) is compiled
once for the listings.
"""

import re

import numpy as np
import pytest

import ziggurat
from ziggurat.interpreter.native import game as native_game
from ziggurat.interpreter.native import narrow

RULES = '''
game "Narrow" "A test game: stones slide along ranks and files over empty cells or step diagonally, shoot an enemy on a diagonal line, and jump."

option size: 3..10 = 6             "files and ranks of the board"

players black, white

board:
    files: size
    ranks: size

piece:
    owner: players

zone shot per player

setup:
    for c in cells:
        if c.rank == size and c.file % 2 == 1:
            place(piece(black), c)
        elif c.rank == 1 and c.file % 2 == 0:
            place(piece(white), c)
        elif c.rank == 2 and c.file == 3:
            place(piece(white), c)

# narrowed: the test follows the choice (after another condition)
action slide "{from}-{to}":
    from: cells where mine(from)
    to: cells where empty(to)
    require to.rank != from.rank or to.file != 1
    require to in ray(from, orthogonal, unlimited) or to in neighbours(from, diagonal)
    do:
        move(from, 1, to)

# not narrowed: the set reads a value bound after the choice (and the choice itself)
action hop "{from}^{to}":
    from: cells where mine(from) and from.rank % 2 == 0
    to: cells where empty(to)
    let mid = to
    require from in ray(mid, orthogonal, 2)
    require to in neighbours(mid, diagonal) or to in neighbours(from, orthogonal)
    do:
        move(from, 1, to)

# narrowed: the test is a part of the choice's own where
action shoot "{from}x{target}":
    from: cells where mine(from)
    target: cells where theirs(target) and target in line(from, diagonal)
    do:
        take(target, shot[mover])

# not narrowed: the wall placed between the choice and the test shortens the ray
action wall "{from}|{wall}>{to}":
    from: cells where mine(from) and from.file <= 2
    wall: neighbours(from, orthogonal) where empty(wall)
    to: cells where empty(to)
    do:
        place(piece(mover), wall)
    require to in ray(from, orthogonal, unlimited)
    do:
        move(from, 1, to)

end:
    for p in players:
        if count(controller(c) == p for c in cells) == 0:
            lose p "no stones"
    if no_moves:
        draw "no moves"
    if ply >= 60:
        draw "sixty plies"
'''


def game(size: int = 6):
    return ziggurat.load("narrow", {"size": size}, text=RULES)


def legal_text(size: int = 6) -> str:
    native_game._WRITTEN.clear()
    text = native_game.source(game(size))[0]
    start = text.index("def legal(s, out):")
    return text[start:text.find("\n@njit", start)]


def action(legal: str, name: str) -> str:
    """The lines of one action in the written legal."""
    part = legal.split(f"# action {name} ")[1]
    return re.split(r"\n    # action ", part)[0]


def test_a_choice_followed_by_a_test_of_membership_goes_over_the_sets_members_only():
    legal = legal_text()
    slide, shoot = action(legal, "slide"), action(legal, "shoot")
    for text in (slide, shoot):
        assert "v_from = low_bit(" in text  # from: the mover's own cells, its occupancy bits
        assert "range(NC)" not in text  # to / target: the marked cells
        assert "BITIDX[" in text
    # the test is left out: the ray is walked once a `from`, not once a `to`
    assert len(re.findall(r"LN\[", slide)) == 1
    assert "RANK[v_to]" in slide  # the other condition is kept


def test_a_set_reading_a_later_value_or_walked_after_an_effect_is_not_narrowed():
    legal = legal_text()
    hop, wall = action(legal, "hop"), action(legal, "wall")
    # from: the mover's bits; to: every empty cell, the bits in no player's word (occupancy.py)
    assert "BITIDX[" not in hop and "range(NC)" not in hop and "v_to = low_bit(" in hop
    # wall: `to`, whose test follows the wall's placement, goes over every empty cell
    assert "v_to = low_bit(" in wall and "BITIDX[" not in wall


def test_a_board_of_more_than_64_cells_is_not_narrowed():
    assert "BITIDX[" in legal_text(8)
    assert "BITIDX[" not in legal_text(9)


def test_the_bit_table_names_each_bit():
    table = narrow.bit_table()
    for i in range(64):
        low = 1 << i
        signed = low - (1 << 64) if i == 63 else low  # int64, as the module holds it
        product = (signed * narrow.MAGIC) & (2 ** 64 - 1)
        assert table[product >> 58] == i


@pytest.fixture(scope="module")
def compiled():
    pytest.importorskip("numba")
    from ziggurat.interpreter.native.game import native

    native_game._WRITTEN.clear()
    g = game()
    return g, native(g, loops=())  # legal and apply compiled at their first call, nothing else


def test_the_narrowed_game_lists_its_moves_in_pythons_order(compiled):
    g, fast = compiled
    buf = np.empty(fast.module.MAXM, np.int64)
    listed = set()
    for seed in range(12):
        state = g.new()
        v, _, _ = fast.start(state)
        rng = np.random.default_rng(seed)
        while state.outcome() is None:
            n = fast.module.legal(v.copy(), buf)
            moves = list(state.moves())
            assert [fast.move(int(x)) for x in buf[:n]] == moves
            listed |= {m[0] for m in moves}
            m = moves[int(rng.integers(len(moves)))]
            state.push(m)
            fast.module.apply(v, fast.pack(m))
    assert listed == {0, 1, 2, 3}  # every action (by its number) was listed somewhere
