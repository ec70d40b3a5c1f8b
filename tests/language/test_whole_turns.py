"""Whole turns (`whole turns, at most N parts [, one per position]`): a move is every part one
player plays before the turn passes, listed, printed, read, recorded, counted and searched as one.

The test game (whole_turns/dice_steps.rules): nature throws a die of two faces (1 or 2), then the
mover steps its piece east by that many cells in all, one or two cells a step; a step that leaves
cells to go gives an extra turn. Its perft is counted by hand below.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rules_edits import at, replace_once, the_error
from ziggurat.agents import make_agent
from ziggurat.bridges.actions import ActionSpace
from ziggurat.errors import GameError, RulesetError
from ziggurat.interpreter.games import load
from ziggurat.interpreter.runtime import perft
from ziggurat.records import loads, make_record, replay

RULES = Path(__file__).parent / "whole_turns" / "dice_steps.rules"
TEXT = RULES.read_text()
DECLARATION = "whole turns, at most 2 parts, one per position"
UNMERGED = replace_once(TEXT, ", one per position", "")


def game(text: str = TEXT):
    return load(str(RULES), text=text)


def after_throw(text: str, pips: str):
    st = game(text).new()
    st.play(pips)
    return st


# perft by hand. A throw is a move of nature (2 outcomes: 1 or 2). After a 1 the mover has one
# turn (x1-y1, one cell). After a 2 it has two: one step of 2 cells, or two steps of 1 cell, which
# reach the same position. The pieces start on the first file of five and cannot reach the last
# in four moves, so nothing ends before depth 4.
#   depth 1: the throws: 2.
#   depth 2: after a 1, one turn; after a 2, two turns (one per position: 1): 3 (2).
#   depth 3: each of those is followed by north's throw, 2 outcomes: 6 (4).
#   depth 4: north's turns, as at depth 2, after each: 6/2 * 3 = 9 (with merging 2 * 2 = 4).
# Without the declaration a move is a part: depth 3 counts the second step of a 2 as a move:
#   after (1, a1-b1) and (2, a1-c1) north's throw (2 each), after (2, a1-b1) south's b1-c1: 5.
@pytest.mark.parametrize("text, counts", [
    (UNMERGED, [2, 3, 6, 9]),
    (TEXT, [2, 2, 4, 4]),
    (replace_once(TEXT, DECLARATION + "\n", ""), [2, 3, 5]),
])
def test_perft_counts_whole_turns_as_counted_by_hand(text, counts):
    st = game(text).new()
    assert [perft(st, d) for d in range(1, len(counts) + 1)] == counts
    assert st.text() == game(text).new().text()  # perft leaves the position as it found it


def test_a_turn_ends_when_the_game_does_though_the_part_gives_an_extra_turn():
    st = game(UNMERGED).position("south 1 | d1=S a2=N | left=2")
    assert [st.move_text(m) for m in st.moves()] == ["d1-e1"]  # one part: e1 is the last file
    st.play("d1-e1")
    assert st.outcome().winners() == (0,)


def test_a_part_before_nature_moves_is_a_whole_turn():
    """In a dice game whose roll gives an extra turn and is followed by nature's die, every turn
    ends at the die or passes: declaring whole turns of at most one part changes no count."""
    from ziggurat.dsl.loader import find

    pig = find("pig").read_text()
    declared = replace_once(pig, "players first, second\n", "players first, second\nwhole turns, at most 1 part\n")
    plain, whole = load("pig", {"win_score": 12}), load("pig.rules", {"win_score": 12}, text=declared)
    assert whole.whole_turns is not None and plain.whole_turns is None
    assert [perft(whole.new(), d) for d in range(1, 7)] == [perft(plain.new(), d) for d in range(1, 7)]


def test_a_turn_of_two_steps_is_one_move_written_with_its_parts_joined():
    st = after_throw(UNMERGED, "2")
    assert sorted(st.move_text(m) for m in st.moves()) == ["a1-b1; b1-c1", "a1-c1"]
    st.play("a1-b1; b1-c1")
    assert st.mover_name == "north" and st.is_chance  # the whole turn is played: nature throws for north
    st.pop()
    assert st.text() == after_throw(UNMERGED, "2").text()  # pop takes back both parts


def test_every_move_prints_and_reads_back_along_random_games():
    g = game(UNMERGED)
    rng, seen = random.Random(5), set()
    for _ in range(20):
        st = g.new()
        while not st.is_terminal():
            moves = st.moves()
            for m in moves:
                text = st.move_text(m)
                assert st.parse_move(text) == m
                seen.add(text.count(";"))
            st.push(rng.choice(moves))
    assert seen == {0, 1}  # turns of one part and of two were read


def test_a_record_of_whole_turns_replays(tmp_path):
    rules = tmp_path / "steps.rules"  # a record names its ruleset's file
    rules.write_text(UNMERGED)
    st = load(str(rules)).new()
    rng = random.Random(1)
    while not st.is_terminal():
        st.push(rng.choice(st.moves()))
    record = make_record(str(rules), list(st.stack), date=None)
    assert any("; " in text for text in record.moves)
    again = replay(loads(record.dumps()))
    assert again.text() == st.text() and again.outcome() == st.outcome()


def test_one_per_position_lists_one_move_where_two_reach_the_same_position():
    merged, unmerged = after_throw(TEXT, "2"), after_throw(UNMERGED, "2")
    assert [merged.move_text(m) for m in merged.moves()] == ["a1-c1"]  # the turn of fewest parts
    assert len(unmerged.moves()) == 2
    # the other way to the same position is read as the move listed for it
    assert merged.parse_move("a1-c1") == merged.parse_move("a1-b1; b1-c1")
    assert "same position" in merged.explain((1, 0, 1, 1, 1, 2))


def test_one_per_position_lists_each_position_reached_once_along_random_games():
    merged, unmerged = game(TEXT), game(UNMERGED)

    def reached(st) -> list:  # the position after each move (what the position hash covers)
        out = []
        for m in st.moves():
            st.push(m)
            out.append(st.game.whole_turns.position(st))
            st.pop()
        return out
    rng, merges = random.Random(2), 0
    for _ in range(10):
        a, b = merged.new(), unmerged.new()
        while not a.is_terminal():
            ra, rb = reached(a), reached(b)
            assert len(ra) == len(set(ra)) and set(ra) == set(rb)
            merges += len(rb) - len(ra)
            m = rng.choice(a.moves())
            a.push(m)
            b.push(m)
    assert merges > 0


def test_an_agent_plays_legal_whole_turns():
    st = after_throw(UNMERGED, "2")
    for spec in ("alphabeta:depth=2", "mcts:iterations=30", "random"):
        move = make_agent(spec, seed=3).choose(st)
        assert move in st.moves(), spec
        assert st.game.whole_turns is not None and move in {(1, 0, 1, 1, 1, 2), (1, 0, 2)}


def test_an_agent_asked_to_draw_rollouts_part_by_part_is_refused_in_a_game_of_whole_turns():
    """The native playouts of a whole-turn game draw whole turns: the `parts` policy would silently
    give way to Python playouts, so it is refused in words (before any native compile)."""
    from ziggurat.agents import AgentError

    agent = make_agent("mcts:iterations=30:rollouts=native:rollout_policy=parts", seed=3)
    with pytest.raises(AgentError, match="rollout_policy=parts .* whole turns"):
        agent.choose(after_throw(UNMERGED, "2"))


def test_the_bridges_number_a_whole_turn_as_its_parts_ids():
    st = after_throw(UNMERGED, "2")
    space = ActionSpace(st.game)
    two = next(m for m in st.moves() if ";" in st.move_text(m))
    ids = space.encode(two)
    assert len(ids) == 2 and space.decode(ids) == two
    assert {space.decode(space.encode(m)) for m in st.moves()} == set(st.moves())


# ---- mistakes ----------------------------------------------------------------------------------

def test_a_turn_longer_than_the_bound_is_an_error_at_the_declaration():
    text = replace_once(UNMERGED, "at most 2 parts", "at most 1 part")
    st = after_throw(text, "1")
    assert len(st.moves()) == 1  # a turn of one part is within the bound
    st = after_throw(text, "2")
    with pytest.raises(RulesetError) as e:
        st.moves()
    d = e.value.diagnostics[0]
    assert (d.line, d.col) == at(text, "whole turns, at") and "past 1 parts" in d.message
    assert st.text() == after_throw(text, "2").text()  # the listing left the position as it was


def test_moves_that_are_not_whole_turns_are_refused_with_the_reason():
    st = after_throw(UNMERGED, "2")
    with pytest.raises(GameError, match="does not end after 1 part"):
        st.play("a1-b1")
    with pytest.raises(GameError, match="the turn passes after 'a1-b1; b1-c1'"):
        st.play("a1-b1; b1-c1; c1-d1")
    with pytest.raises(GameError, match=r"part 2 \('b1-d1'\) is not legal there: to:"):
        st.play("a1-b1; b1-d1")
    with pytest.raises(GameError, match="part 2: 'zz' is not a move"):
        st.play("a1-b1; zz")
    assert st.explain((1, 0, 1)).startswith("the turn does not end")


@pytest.mark.parametrize("edits, needle, message", [
    ([(DECLARATION, DECLARATION + "\n" + DECLARATION)], DECLARATION + "\n" + DECLARATION, "declares whole turns once"),
    ([(DECLARATION, "whole turns, at most 0 parts")], "whole turns, at most 0", "at most 1 to 64 parts, not 0"),
    ([("players south, north", "players south"), ("south if c.rank == 1 else north", "south")], "whole turns, at",
     "need two players or more"),
    ([('"{from}-{to}"', '"{from};{to}"')], "action step", "writes ';'"),
])
def test_a_declaration_that_cannot_work_is_an_error_at_its_line(edits, needle, message):
    text = TEXT
    for old, new in edits:
        text = replace_once(text, old, new)
    d = the_error(text)
    assert message in d.message
    line, col = at(text, needle)
    if "once" in message:
        line += 1  # the second declaration is the mistake
    assert (d.line, d.col) == (line, col)
