"""Two constructs for games of cards and many players: an option `players` that seats the first N
of the players named, and tables with named columns (a deck as data, its bare name the list of
its keys); and attribute values listed in brackets over several lines."""

from __future__ import annotations

import pytest

import ziggurat
from ziggurat.dsl.checks import check
from ziggurat.errors import RulesetError
from ziggurat.interpreter.runtime import perft

# Each seated player in turn scores 1 a move; the first to `goal` wins. With n players and goal g,
# the game is a single line of (g - 1) * n + 1 moves: perft is 1 up to that depth, 0 beyond.
SEATS = """\
option players: 2..4 = 3           "seats"
option goal: 1..9 = 3 if players <= 2 else 2
players north, east, south, west
board:
    files: 1
    ranks: 1
piece:
    owner: players
counter score per player = 0
zone hand per player
action go "go":
    do:
        score[mover] += 1
end:
    for p in players:
        if score[p] >= goal:
            win p "the goal"
"""


def write(tmp_path, text, name="game"):
    path = tmp_path / f"{name}.rules"
    path.write_text(text)
    return str(path)


def errors(tmp_path, text, options=None):
    return [d.message for d in check(write(tmp_path, text), options=options or {}) if d.severity == "error"]


@pytest.mark.parametrize("players, goal", [(2, 3), (3, 2), (4, 2)])
def test_the_option_players_seats_the_first_n_players(tmp_path, players, goal):
    game = ziggurat.load(write(tmp_path, SEATS), {"players": players})
    assert game.players == ("north", "east", "south", "west")[:players]
    length = (goal - 1) * players + 1
    assert perft(game.new(), length) == 1 and perft(game.new(), length + 1) == 0
    s = game.new()
    assert s.text().count("score.") == players and s.text().count("hand.") == players
    for _ in range(length):
        s.play("go")
    assert s.outcome().player == 0  # north, the first seat, reaches the goal first


def test_in_the_rules_players_is_the_list_of_those_seated(tmp_path):
    text = SEATS.replace('            win p "the goal"', '            win p "the goal"\n    if count(players) == 2 and ply >= 1:\n        draw "two"')
    two = ziggurat.load(write(tmp_path, text), {"players": 2})
    s = two.new()
    s.play("go")
    assert s.outcome().kind == "draw"


def test_a_player_not_seated_at_these_options_is_reported(tmp_path):
    text = SEATS.replace('            win p "the goal"', '            win p "the goal"\n    if ply > 100:\n        win west')
    assert errors(tmp_path, text, {"players": 4}) == []
    found = errors(tmp_path, text, {"players": 3})
    assert found and "only 3 players sit at the table" in found[0]
    with pytest.raises(RulesetError, match="does not play"):
        ziggurat.load(write(tmp_path, text), {"players": 2})


def test_a_table_keyed_by_players_may_name_every_seat_whoever_sits(tmp_path):
    text = SEATS.replace("counter score per player = 0", "counter score per player = 0\ntable bonus:\n    north: 1\n"
                         "    east: 1\n    south: 1\n    west: 2").replace("score[mover] += 1", "score[mover] += bonus[mover]")
    assert errors(tmp_path, text, {"players": 2}) == []
    two = ziggurat.load(write(tmp_path, text), {"players": 2})
    assert perft(two.new(), 5) == 1 and perft(two.new(), 6) == 0  # goal 3 at one a move


def test_the_option_players_may_not_seat_more_than_are_named(tmp_path):
    text = SEATS.replace("option players: 2..4 = 3", "option players: 2..6 = 3")
    assert errors(tmp_path, text) == []
    found = errors(tmp_path, text, {"players": 5})
    assert found and "seats the first N of the 4 players" in found[0]


# ---- tables with columns ---------------------------------------------------------------------------

CARDS = """\
players a, b
board:
    files: 1
    ranks: 1
piece:
    card: (red9 as "R9",
           blue9 as "B9",
           gimme as "GI")
table deck(colour, target, copies):
    red9:  1, 9, 2
    blue9: 3, 9, 1
    gimme: 0, 0, 3
zone pile hidden
zone hand per player
setup:
    for k in deck:
        for i in 1..deck[k].copies:
            add(pile, piece(k))
action draw "{c}":
    by chance
    c: pile
    weight count(x == c for x in pile)
    do:
        transfer(pile, c, hand[mover])
end:
    for p in players:
        if sum(deck[x.card].target for x in hand[p]) >= 18:
            win p "two goals"
"""


def test_a_table_with_columns_is_read_one_column_at_a_time_and_its_name_lists_its_keys(tmp_path):
    game = ziggurat.load(write(tmp_path, CARDS))
    s = game.new()
    assert "pile=R9R9B9GIGIGI" in s.text()  # the keys in order, each `copies` times
    assert {s.move_text(m): p for m, p in s.chance_outcomes()} == pytest.approx(
        {"R9": 2 / 6, "B9": 1 / 6, "GI": 3 / 6})
    for move in ("GI", "R9", "B9"):
        s.play(move)
    assert s.outcome() is None  # a holds GI and B9: 0 + 9
    s.play("GI")
    s.play("R9")  # a holds B9 and R9 too: 9 + 9 targets
    assert s.outcome().player == 0


@pytest.mark.parametrize("change, message", [
    ("    blue9: 3, 9, 1\n", "this entry of table 'deck' gives 2 values, not 3"),
    ("deck[x.card].target", "table 'deck' has no column 'targt'"),
    ("deck[x.card].target", "table 'deck' has columns (colour, target, copies): read one of them"),
    ("table deck(colour, target, copies):", "table 'deck' names the column 'target' twice"),
])
def test_mistakes_in_a_table_with_columns_are_named(tmp_path, change, message):
    replacement = {"    blue9: 3, 9, 1\n": "    blue9: 3, 9\n",
                   "table deck(colour, target, copies):": "table deck(colour, target, target):"}.get(change)
    if replacement is None:
        replacement = "deck[x.card].targt" if "targt" in message else "deck[x.card]"
    text = CARDS.replace(change, replacement)
    assert text != CARDS
    assert any(message in m for m in errors(tmp_path, text)), errors(tmp_path, text)


def test_a_plain_table_still_takes_one_value(tmp_path):
    text = CARDS.replace("table deck(colour, target, copies):", "table deck:")
    assert any("gives 3 values, not 1" in m for m in errors(tmp_path, text))
