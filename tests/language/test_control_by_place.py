"""Control by place (`control:` reading `cell`, the cell a stack stands on, as well as `top`):
`mine`, `theirs` and `controller` follow the stack's place; perft counted by hand on a small
game (both backends); the mistakes named at their line and column."""

import os

import pytest
from native_replay import replay
from rules_edits import at, replace_once, the_error

import ziggurat
from ziggurat.dsl.checks import check
from ziggurat.interpreter.runtime import perft

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATH = os.path.join(HERE, "native", "halves.rules")  # Halves: read it beside these counts
with open(PATH) as f:
    GAME = f.read()

# Halves by hand. The board is a1 b1 (south's half) and a2 b2 (north's); pawns on a1 and a2. A
# side moves a pawn of its half to any other cell not of its own (taking a pawn of the other
# half); a pawn that crosses changes sides.
# Ply 1, south from a1: b1, a2 (taking) or b2: 3.
# Ply 2: after a1-b1, north a2 to a1, b1 (taking) or b2: 3; after a1-a2 (the pawn is north's
# now) north a2 to a1, b1, b2: 3; after a1-b2 north has a2 and b2, each to a1 or b1: 4. 10.
# Ply 3: after a1-b1: a2-a1 (both pawns south's: each to a2 or b2, 4), a2-b1 (one pawn, b1: 3),
# a2-b2 (b1 to a1, a2, b2: 3) = 10; after a1-a2: a2-a1 (3), a2-b1 (3), a2-b2 (south has no pawn:
# 0) = 6; after a1-b2: each of the four leaves one pawn in each half, south's with 3 moves = 12.
# 10 + 6 + 12 = 28.
PERFT = [1, 3, 10, 28]


def edit(old: str, new: str, text: str = GAME) -> str:
    return replace_once(text, old, new)


def test_the_test_ruleset_checks_clean():
    assert [d.render() for d in check(PATH) if d.severity == "error"] == []


def test_perft_counted_by_hand():
    game = ziggurat.load(PATH)
    assert [perft(game.new(), d) for d in range(len(PERFT))] == PERFT


def test_a_pawn_that_crosses_into_the_other_half_changes_sides():
    game = ziggurat.load(PATH)
    st = game.new()
    assert sorted(st.move_text(m) for m in st.moves()) == ["a1-a2", "a1-b1", "a1-b2"]
    st.play("a1-b2")  # both pawns in north's half now: north's, and south has none
    assert sorted(st.move_text(m) for m in st.moves()) == ["a2-a1", "a2-b1", "b2-a1", "b2-b1"]
    st.play("b2-a1")
    assert sorted(st.move_text(m) for m in st.moves()) == ["a1-a2", "a1-b1", "a1-b2"]  # a2 is theirs: taken


def test_controller_follows_the_place_in_every_position_of_random_games():
    import random

    game = ziggurat.load(PATH)
    for seed in range(20):
        rng, st = random.Random(seed), game.new()
        for _ in range(12):
            assert game.invariants(st) == [], st.text()
            moves = st.moves()
            if not moves or st.outcome() is not None:
                break
            st.push(rng.choice(moves))


def test_a_control_by_the_top_piece_alone_has_no_table_by_place():
    assert ziggurat.load(PATH).namespace.get("CTRLAT") is not None
    assert ziggurat.load("clobber").namespace.get("CTRLAT") is None


def test_a_control_that_names_no_player_is_refused_at_its_expression():
    text = edit("control: south if cell.rank == 1 else north", "control: cell")
    err = the_error(text)
    assert "control must name a player from the top piece and its cell, not a cell" in err.message
    assert (err.line, err.col) == at(text, "cell\n")


@pytest.mark.parametrize("call", ["run(from, n, mover) > 0", "count(flanked(from, n, mover)) > 0"])
def test_flanked_and_run_are_refused_with_control_by_place(call):
    text = edit("        if theirs(to):", f"        if {call}:")
    err = the_error(text)
    assert "reads who controls each stack from its top piece" in err.message and "(line 12)" in err.message
    assert (err.line, err.col) == at(text, call.split("(", 1)[0] if call.startswith("run") else "flanked(")
    assert "controller()" in err.hint


def test_native_perft_and_seeded_playouts_equal_pythons():
    pytest.importorskip("numba")
    from ziggurat.interpreter.native.game import native

    game = ziggurat.load(PATH)
    fast = native(game)
    start = game.new()
    for d in range(6):
        assert fast.perft(start, d) == perft(start, d), f"depth {d}"
    for seed in range(12):
        p = fast.playout(start, seed, 60)
        state = replay(game, p)
        assert fast.state(p.final).cells == state.cells
        outcome = state.outcome()
        if p.kind is None:
            assert outcome is None
        else:
            assert (outcome.kind, outcome.player) == (p.kind, p.who)



def test_a_seat_nobody_takes_may_be_named_in_a_branch_the_options_rule_out():
    # A condition the options fix folds to the branch taken alone, so a control for 2 or 3 seats
    # names the third seat in a branch only the 3-seat game reaches.
    text = edit("players south, north",
                "option players: 2..3 = 2\noption third: bool = players == 3\nplayers south, north, east")
    text = edit("control: south if cell.rank == 1 else north",
                "control: south if cell.rank == 1 else north if not third or cell.file == 1 else east", text)
    assert [d.render() for d in check("seats.rules", text=text) if d.severity == "error"] == []
    two = ziggurat.load("seats.rules", text=text)
    assert [perft(two.new(), d) for d in range(len(PERFT))] == PERFT  # the game of Halves itself
    st = ziggurat.load("seats.rules", text=text, options={"players": 3}).new()
    st.play("a1-b2")  # b2 is east's now: north moves a2 alone, and may take there
    assert sorted(st.move_text(m) for m in st.moves()) == ["a2-a1", "a2-b1", "a2-b2"]
