"""The `points:`, `seats:` and `turn:` lines of an example: they parse, their mistakes are errors at their
line, and each passes when the rules agree and fails, at its line, showing what differed.

Numbers reasoned from the rules, not read from the engine: in tests/language/points/points.rules
(three players add 0, 1 or 2 to a score, two turns each) a player who reached 4 wins by 2, the two
others sharing -2 (-1 each); scores 3, 2, 1 with nobody at 4 or 0 and not all level end by points,
each scoring its score. In Stacktics at size 2 (the pie rule on), `swap` after the first move
hands the first seat the north army, which is to move next (the second seat took over south's move).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ziggurat.dsl.checks import check
from ziggurat.dsl.parser import parse
from ziggurat.interpreter.games import load
from ziggurat.proptest.examples import run_examples

from test_examples import BASE, line_of, with_examples

POINTS = os.path.join(os.path.dirname(__file__), "points", "points.rules")
POINTS_TEXT = open(POINTS).read()
FOUR = "+2 +1 +1 +2 +1 +1"  # first reaches 4
BY_POINTS = "+2 +1 +1 +1 +1 +0"  # 3, 2, 1


def errors(text: str) -> list:
    return [d for d in check("t.rules", text) if d.severity == "error"]


def points_example(lines: str):
    text = POINTS_TEXT + '\nexample "x":\n' + lines
    return text, run_examples(load("t.rules", text=text))


def stacktics_example(lines: str, options: str = "    options: size = 2\n"):
    text = with_examples('example "x":\n' + options + lines)
    return text, run_examples(load("t.rules", text=text))


def test_points_and_seats_parse_with_their_moves_and_signed_numbers():
    text = with_examples('example "x":\n    points after "a b": south 3, north -3\n    seats: north, south\n')
    items = parse(text).decls[-1].items
    assert [(i.kind, i.values) for i in items] == [
        ("points", ("a b", (("south", 3), ("north", -3)))), ("seats", (None, ("north", "south")))]


@pytest.mark.parametrize("line, message", [
    ("points: south 1, east -1", "'east' in 'points' is not a player"),
    ("points: south 1, south 2", "names 'south' twice in 'points'"),
    ("seats: north, nort", "'nort' in 'seats' is not a player"),
    ("seats: north, north", "names 'north' twice in 'seats'"),
    ("seats: north", "'seats' names 1 of the 2 players"),
])
def test_a_points_or_seats_mistake_is_an_error_at_its_line(line, message):
    text = with_examples(f'example "x":\n    {line}\n')
    [d] = errors(text)
    assert d.line == line_of(text, line) and message in d.message


@pytest.mark.parametrize("line", [
    f'points after "{FOUR}": first 2, second -1, third -1',
    f'points after "{BY_POINTS}": first 3, second 2, third 1',
    f'points after "{BY_POINTS}": third 1',
])
def test_true_points_pass(line):
    assert points_example(f"    {line}\n")[1] == []


@pytest.mark.parametrize("line, shown", [
    (f'points after "{FOUR}": first 2, second 1, third -3', "found first 2, second -1, third -1"),
    (f'points after "{BY_POINTS}": first 2', "found first 3, second 2, third 1"),
    ('points after "+1": first 0', "found none: the game goes on"),
    ("points: first 0", "found none: the game goes on"),
])
def test_false_points_fail_at_their_line_showing_the_points(line, shown):
    text, failures = points_example(f"    {line}\n")
    [f] = failures
    assert f.line == line_of(text, line) and shown in f.message


def test_points_of_a_game_that_ends_without_points_say_so():
    """Stacktics ends in a plain win: South takes North's last small for half the pips."""
    _, [f] = stacktics_example('    position: "south 20 | a1=S3S1 b2=N1 e5=N3N2N1 | prisoners.south=N3N3N2"\n'
                               '    points after "a1:2-b2": south 1, north -1\n', options="")
    assert "ended (win) without points" in f.message


def test_seats_follow_the_pie_rules_swap():
    text, failures = stacktics_example('    seats: south, north\n'
                                       '    seats after "b1:3-d3": south, north\n'
                                       '    seats after "b1:3-d3 swap": north, south\n')
    assert failures == []
    text, [f] = stacktics_example('    seats after "b1:3-d3 swap": south, north\n')
    assert f.line == line_of(text, "seats after") and "found north, south" in f.message


def test_a_seats_line_whose_moves_cannot_be_played_fails_at_its_line():
    text, [f] = stacktics_example('    seats after "b1:3-d3 zz": north, south\n')
    assert f.line == line_of(text, "seats after") and "move 2 of 2 ('zz') cannot be played" in f.message



def test_turn_says_who_is_to_move_after_the_moves():
    text, failures = stacktics_example('    turn: south\n'
                                       '    turn after "b1:3-d3": north\n'
                                       '    turn after "b1:3-d3 swap": north\n')
    assert failures == []
    text, [f] = stacktics_example('    turn after "b1:3-d3": south\n')
    assert f.line == line_of(text, "turn after") and "expected south to move, found north" in f.message
    [d] = errors(with_examples('example "x":\n    turn: east\n'))
    assert "'east' in 'turn' is not a player" in d.message


DICE = (Path(__file__).parent / "weighted_die.rules").read_text(encoding="utf-8")


def test_odds_give_the_probability_of_natures_moves():
    """Weights 2, 1, 1: a 1 comes one time in two, a 3 one time in four."""
    ok = run_examples(load("d.rules", text=DICE + 'example "x":\n    odds: "1" 1/2, "3" 1/4\n'
                           '    odds after "2 stop": "2" 2/8\n'))
    assert ok == []
    text = DICE + 'example "x":\n    odds: "1" 1/3\n    odds after "1": "1" 1/2\n'
    first, second = run_examples(load("d.rules", text=text))
    assert first.line == line_of(text, '"1" 1/3') and "'1' has probability 0.5, not 1/3" in first.message
    assert second.line == line_of(text, "odds after") and "a player is to move, not chance" in second.message
    [d] = [d for d in check("d.rules", DICE + 'example "x":\n    odds: "1" 3/2\n') if d.severity == "error"]
    assert "3/2 is not a probability" in d.message
