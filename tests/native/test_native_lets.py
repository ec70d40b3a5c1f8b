"""Lets the moves' listing does not read (`native/lets.py`): a `let` that no later condition,
choice, `require`, effect made while listing or packed choice reads is left out of `legal`; one
that is read (directly or through another let that is read) is kept; the move's own effects
(do_N) still compute every let they read. The text tests read the written module without
compiling it; the counting test runs it as plain Python (no Numba) against the Python backend.
"""

import re

import ziggurat
from ziggurat.interpreter.native import game as native_game

from native_replay import assert_plain_perft

RULES = '''
game "Lets" "A test game: a stone steps forward or sideways to an empty cell, scoring by how far it went."

players south, north

board:
    files: 4
    ranks: 4

piece:
    owner: players

counter gone = 0

setup:
    for c in cells where c.rank == 1:
        place(piece(south), c)
    for c in cells where c.rank == 4:
        place(piece(north), c)

action step "{from}-{to}":
    from: cells where mine(from)
    to: cells where empty(to)
    let reach = to.file - from.file
    let sidewaysness = reach * reach
    let far = to.rank + from.rank + 7
    let farther = far * 3
    require sidewaysness <= 1
    require to.rank - from.rank <= 1 and from.rank - to.rank <= 1
    do:
        move(from, 1, to)
        gone = farther % 5

end:
    if gone == 4:
        lose mover "a far step"
    if no_moves:
        lose mover "no move"
    if ply >= 12:
        draw "twelve plies"
'''


def game():
    return ziggurat.load("lets", {}, text=RULES)


def legal_text() -> str:
    native_game._WRITTEN.clear()
    text = native_game.source(game())[0]
    start = text.index("def legal(s, out):")
    return text[start:text.find("\n@njit", start)]


def test_a_let_the_listing_does_not_read_is_left_out_of_legal():
    legal = legal_text()
    assert not re.search(r"\bv_far\b", legal) and not re.search(r"\bv_farther\b", legal)


def test_a_let_read_by_a_require_directly_or_through_another_let_is_kept():
    legal = legal_text()
    assert re.search(r"\bv_sidewaysness = ", legal) and re.search(r"\bv_reach = ", legal)


def test_the_moves_effects_still_compute_the_lets_they_read():
    text = native_game.source(game())[0]
    rest = text.replace(legal_text(), "")  # the module without its legal
    assert re.search(r"\bv_farther = ", rest) and re.search(r"\bv_far = ", rest)


def test_the_module_counts_pythons_perft():
    g = game()
    text, layout = native_game._write(g)[:2]
    assert_plain_perft(text, layout, g.new(), 4)
