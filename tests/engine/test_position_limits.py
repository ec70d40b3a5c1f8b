"""Position texts are held to the game's limits (docs/reference/positions.md, "Limits"): every way
a position enters (Game.position, the CLI's --position, a record's start) refuses an impossible one
with a GameError naming what is wrong, quickly, and never refuses a position the game can reach."""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

import ziggurat
from ziggurat.cli.main import cli
from ziggurat.dsl.loader import shipped_names
from ziggurat.errors import GameError
from ziggurat.interpreter.notation import MAX_PIECES
from ziggurat.records import RecordError, loads


@pytest.fixture(scope="module")
def breakthrough():
    return ziggurat.load("breakthrough")


def refused(game, text: str, *words: str) -> str:
    """The message refusing `text`: one line, naming each of `words`."""
    with pytest.raises(GameError) as e:
        game.position(text)
    message = str(e.value)
    assert "\n" not in message
    for w in words:
        assert w in message, (w, message)
    return message


# ---- pieces: the supply and the engine's bound --------------------------------------------------


def test_a_thousand_pieces_on_one_breakthrough_cell_are_refused_naming_the_cell_and_the_supply(breakthrough):
    refused(breakthrough, "black 0 | a1=" + "B" * 1000 + " |", "a1", "1,000 pieces", "32")


def test_the_supply_is_the_setups_pieces_of_each_kind_when_moves_make_none(breakthrough):
    supply = breakthrough.piece_supply()
    assert supply.total == 32 and sorted(supply.kinds.values()) == [16, 16]
    assert ziggurat.load("breakthrough", {"army": 1}).piece_supply().total == 16  # at the game's options


def test_one_kind_beyond_its_number_is_refused_at_the_cell_where_it_goes_over(breakthrough):
    cells = " ".join(f"{f}{r}=B" for r in (8, 7, 6) for f in "abcdefgh")[: 17 * 5]  # 17 black pieces
    refused(breakthrough, f"black 0 | {cells} |", "'B' piece number 17", "16", "a6")


def test_pieces_in_zones_count_towards_the_supply(breakthrough):
    refused(breakthrough, "black 0 | a1=B | captured.black=" + "W" * 15 + " captured.white=" + "B" * 16,
            "captured.white", "'B' piece number 17")


def test_a_stack_counts_with_those_before_it(breakthrough):
    cells = " ".join(f"{f}1=W" for f in "abcdefgh") + " " + " ".join(f"{f}2=W" for f in "abcdefgh")
    refused(breakthrough, f"white 0 | {cells} a5=" + "B" * 17 + " |", "a5", "with the 16 before it", "32")


def test_a_game_that_makes_pieces_is_held_to_the_engines_bound_before_its_pieces_are_read(monkeypatch):
    ttt = ziggurat.load("tic-tac-toe")
    assert ttt.creates_pieces and ttt.piece_supply() is None
    read = []
    notation = type(ttt._notation)
    real = notation.pieces
    monkeypatch.setattr(notation, "pieces", lambda self, text, where: read.append(len(text)) or real(self, text, where))
    refused(ttt, "x 0 | a1=" + "X" * (MAX_PIECES + 1) + " |", "a1", f"{MAX_PIECES:,}")
    assert read == []  # refused by counting the characters, not by reading 10,001 pieces
    refused(ttt, "x 0 | a1=" + "X" * 10 ** 6 + " |", "characters")  # a million pieces: the text is too long
    assert read == []
    assert ttt.position("x 0 | a1=XO |").cells[0] != ()  # no declared height: a stack of two is read


STOCKED = """\
players a, b
board:
    files: 3
    ranks: 1
piece:
    owner: players
    kind: queen, arrow
zone quiver per player
setup:
    place(piece(a, queen), cells[1])
    place(piece(b, queen), cells[3])
action shoot "{target}":
    target: cells where empty(target)
    require piece(mover, arrow) in quiver[mover]
    do:
        put(quiver[mover], piece(mover, arrow), target)
end:
    if no_moves:
        lose mover
"""


def test_a_kind_the_setup_never_places_is_the_positions_own_stock(tmp_path):
    """The setup places one queen each and no arrow: queens are held to one each, arrows (given
    by a position, as a puzzle stocks its zones) only to the engine's bound."""
    path = tmp_path / "stocked.rules"
    path.write_text(STOCKED)
    game = ziggurat.load(str(path))
    text = "a 0 | a1=Aq c1=Bq | quiver.a=" + "Aa" * 50 + " quiver.b=Ba"
    assert game.position(text).text() == text
    refused(game, "a 0 | a1=Aq b1=Aq c1=Bq |", "b1", "'Aq' piece number 2", "has 1")


def test_a_random_setup_is_held_to_its_total_not_to_its_kinds():
    green = ziggurat.load("green")
    supply = green.piece_supply()
    assert supply.kinds is None and supply.total == sum(len(c) for c in green.new().cells)
    refused(green, "black 0 | a1=" + "G" * (supply.total + 1) + " |", "a1", str(supply.total))


class Unread(str):
    """A text that fails the test if anything splits or scans it."""

    def _read(self, *args, **kwargs):
        raise AssertionError("the text was read")

    split = partition = find = index = __iter__ = _read  # (strip reads only the ends)


def test_a_megabyte_of_text_is_refused_before_it_is_read(breakthrough):
    text = Unread("black 0 | " + "a1=W " * 200_000 + "|")
    refused(breakthrough, text, "1,000,011 characters", "100,000")


# ---- cells, zones, counters named once and within range -----------------------------------------


def test_the_same_cell_twice_is_refused(breakthrough):
    refused(breakthrough, "black 0 | a1=W b2=B a1=W |", "a1", "twice")


def test_the_same_zone_or_counter_twice_is_refused():
    stacktics = ziggurat.load("stacktics")
    refused(stacktics, "south 0 | b1=S3 | prisoners.south= prisoners.south=N1", "prisoners.south", "twice")
    green = ziggurat.load("green")
    refused(green, "black 0 | a1=B | passes=1 passes=2", "passes", "twice")


def test_a_counter_the_rules_never_make_negative_is_refused_negative():
    green = ziggurat.load("green")
    assert "passes" in green.spec.nonnegative
    refused(green, "black 0 | a1=B | passes=-1", "passes", "-1", "negative")
    pig = ziggurat.load("pig")
    text = pig.new().text().replace("score.second=0", "score.second=-5")
    assert text != pig.new().text()
    refused(pig, text, "score.second", "negative")


def test_a_response_windows_counters_hold_seats():
    ryb = ziggurat.load("ryb")
    text = ryb.new().text()
    refused(ryb, text.replace("asker=0", "asker=9"), "asker", "1 to 3", "not 9")
    refused(ryb, text.replace("asked.bruce=0", "asked.bruce=4"), "asked.bruce", "not 4")
    assert ryb.position(text.replace("asker=0", "asker=2")).text() == text.replace("asker=0", "asker=2")


def test_numbers_beyond_64_bits_are_refused(breakthrough):
    refused(breakthrough, "black 99999999999999999999 | |", "ply", "out of range")
    refused(ziggurat.load("green"), "black 0 | | passes=" + "9" * 5000, "passes", "out of range")
    refused(breakthrough, "black 1_000 | |", "ply must be a number")


def test_unknown_names_and_pieces_are_named(breakthrough):
    refused(breakthrough, "black 0 | zz9=W |", "'zz9'", "not a cell")
    refused(breakthrough, "red 0 | a1=W |", "'red'", "not a side")
    refused(breakthrough, "black 0 | a1=Q |", "a1", "'Q'", "not a piece")
    refused(breakthrough, "black 0 | | nope=3", "'nope'", "neither a zone nor a counter")


def test_a_hidden_zone_as_one_side_sees_it_is_refused():
    kuhn = ziggurat.load("kuhn-poker")
    st = kuhn.new()
    observed = st.observation(1)
    assert "=?" in observed
    refused(kuhn, observed, "deck", "hidden zone")


def test_a_long_mistake_is_quoted_short(breakthrough):
    message = refused(breakthrough, "black 0 | " + "x" * 5000 + " |", "is written <cell>=<pieces>")
    assert len(message) < 200


# ---- every entry goes through the same check ---------------------------------------------------


def test_the_cli_prints_one_line_and_exits_1_without_a_traceback():
    result = CliRunner().invoke(cli, ["moves", "breakthrough", "--position", "black 0 | a1=" + "B" * 1000 + " |"])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: bad --position: a1:") and "Traceback" not in result.output


def test_a_records_start_position_is_checked_too():
    record = loads("ruleset: breakthrough\nstart: black 0 | a1=W a1=W |\nplies: 0\n", "game.zig")
    with pytest.raises(RecordError, match="bad start position: cell a1 is given twice"):
        record.start_state()


# ---- never too strict: every reachable position reads back ---------------------------------------


@pytest.mark.parametrize("name,options", [(n, None) for n in shipped_names()]
                         + [("ryb", {"players": 5}), ("breakthrough", {"width": 3, "height": 5, "army": 1})])
def test_start_and_random_positions_round_trip(name, options):
    """The start and the positions of a few random games (hidden zones written in full) read back
    unchanged: the limits refuse nothing the game can reach."""
    game = ziggurat.load(name, options)
    rng = random.Random(7)
    for seed in range(3):
        st = game.new(seed)
        for _ in range(30):
            text = st.text()
            assert game.position(text).text() == text
            moves = st.moves()
            if not moves:
                break
            st.push(rng.choice(moves))
