"""Whole turns kept by a preference: `whole turns, at most N parts, keeping the most parts` (or
`keeping the most NAME`, a shared number counter read where the turn has ended) lists only the
turns that score the most, before turns are merged by position.

The test game is whole_turns/dice_steps.rules (nature throws 1 or 2; the mover steps its piece
east that many cells in all, one or two a step). After a throw of 2 the mover has two turns:
`a1-c1` (one part) and `a1-b1; b1-c1` (two parts); after a 1, one: `a1-b1`. Counts by hand below.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_edits import at, replace_once, the_error
from ziggurat.errors import GameError
from ziggurat.interpreter.games import load
from ziggurat.interpreter.runtime import perft

RULES = Path(__file__).parent / "whole_turns" / "dice_steps.rules"
TEXT = RULES.read_text()
DECLARATION = "whole turns, at most 2 parts, one per position"
UNMERGED = replace_once(TEXT, ", one per position", "")
MOST_PARTS = replace_once(UNMERGED, "2 parts", "2 parts, keeping the most parts")
MERGED_MOST_PARTS = replace_once(TEXT, "one per position", "one per position, keeping the most parts")
# `long` counts the steps of two cells this turn (cleared at the throw): kept, the turn of one step
LONG = replace_once(replace_once(replace_once(
    UNMERGED, "2 parts", "2 parts, keeping the most long"),
    "counter left = 0 bookkeeping", "counter left = 0 bookkeeping\ncounter long = 0 bookkeeping"),
    "        left = pips\n", "        left = pips\n        long = 0\n")
COUNT_LONG = "        if to.file - from.file == 2:\n            long += 1\n"
LONG = replace_once(LONG, "        left -= to.file - from.file\n", "        left -= to.file - from.file\n" + COUNT_LONG)


def after_throw(text: str, pips: str):
    st = load(str(RULES), text=text).new()
    st.play(pips)
    return st


def texts(st) -> list:
    return sorted(st.move_text(m) for m in st.moves())


def test_the_most_parts_keeps_the_turn_of_two_steps_only():
    assert texts(after_throw(UNMERGED, "2")) == ["a1-b1; b1-c1", "a1-c1"]  # every turn
    assert texts(after_throw(MOST_PARTS, "2")) == ["a1-b1; b1-c1"]
    assert texts(after_throw(MOST_PARTS, "1")) == ["a1-b1"]


def test_keeping_comes_before_merging_by_position():
    # merged alone, the position c1 is listed by its turn of fewest parts (a1-c1); kept by the most
    # parts first, only a1-b1; b1-c1 is left to stand for it
    assert texts(after_throw(TEXT, "2")) == ["a1-c1"]
    assert texts(after_throw(MERGED_MOST_PARTS, "2")) == ["a1-b1; b1-c1"]


def test_a_counter_read_where_the_turn_ends_keeps_the_turns_of_its_highest_value():
    # long: a1-c1 ends with long = 1, a1-b1; b1-c1 with 0
    assert texts(after_throw(LONG, "2")) == ["a1-c1"]
    assert texts(after_throw(LONG, "1")) == ["a1-b1"]  # the only turn (long = 0) is kept


# perft by hand, keeping the most parts (merged or not, one turn after each throw):
#   depth 1: 2 throws; depth 2: one turn after each: 2; depth 3: north's throws: 4; depth 4: 4.
# Without keeping and unmerged it is 2, 3, 6, 9 (test_whole_turns.py).
@pytest.mark.parametrize("text", [MOST_PARTS, MERGED_MOST_PARTS, LONG])
def test_perft_counts_the_kept_turns_as_counted_by_hand(text):
    st = load(str(RULES), text=text).new()
    assert [perft(st, d) for d in range(1, 5)] == [2, 2, 4, 4]


def test_a_turn_that_is_not_kept_is_refused_with_the_reason():
    st = after_throw(MOST_PARTS, "2")
    with pytest.raises(GameError, match=r"the most parts \(2 here\), and this one has 1"):
        st.play("a1-c1")
    st = after_throw(LONG, "2")
    with pytest.raises(GameError, match=r"the most 'long' \(1 here\), and this one has 0"):
        st.play("a1-b1; b1-c1")
    st.play("a1-c1")
    assert "c1=S" in st.text()


@pytest.mark.parametrize("edit, message", [
    (", keeping the most nothing", "'nothing' is no counter"),
    (", keeping the most left", None),  # a shared number counter: fine
])
def test_keeping_names_parts_or_a_shared_number_counter(edit, message):
    text = replace_once(UNMERGED, "2 parts", "2 parts" + edit)
    if message is None:
        assert load(str(RULES), text=text).new() is not None
        return
    d = the_error(text)
    assert message in d.message and (d.line, d.col) == at(text, "whole turns, at")


def test_a_counter_per_player_is_refused_at_the_declaration():
    text = replace_once(replace_once(UNMERGED, "2 parts", "2 parts, keeping the most score"),
                        "counter left = 0 bookkeeping", "counter left = 0 bookkeeping\ncounter score per player = 0")
    d = the_error(text)
    assert "a counter per player" in d.message and (d.line, d.col) == at(text, "whole turns, at")


def test_the_native_backend_writes_a_module_for_a_preference():
    """No longer refused: the module lists whole turns kept by it (tests/native/test_whole_turns_native.py)."""
    from ziggurat.interpreter.native.game import source
    text = source(load(str(RULES), text=MOST_PARTS))[0]
    assert "TURNKEEP = 1" in text and "def legal_turns(" in text
