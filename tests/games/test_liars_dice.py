"""Liar's Dice (rulesets/liars-dice.rules) against OpenSpiel's `liars_dice`: perft over the rolls,
whole small game trees node by node (the rolls and their probabilities, the legal moves mapped to
OpenSpiel's actions, the winner, the information states each player can tell apart), random games
move by move, at the defaults and at other dice, faces and bidding rules. Moves are matched by
their text alone (OpenSpiel's `Roll 4`, `2-5`, `Liar` are `roll 4`, `bid 2x5`, `liar`), so the
ranking of bids is checked against OpenSpiel's own encoding, not a copy of it."""

from __future__ import annotations

import random
from collections import defaultdict
from math import factorial

import pytest

import ziggurat
from openspiel_tree import os_perft
from ziggurat.interpreter.runtime import perft

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install open-spiel, part of the '.[test]' extra)")


def load(**options):
    """(Ziggurat game, OpenSpiel game) at these options."""
    zg = ziggurat.load("liars-dice", options)
    o = zg.options
    params = {"numdice": o["dice"], "dice_sides": o["faces"], "bidding_rule": o["bidding"].replace("_", "-")}
    return zg, pyspiel.load_game("liars_dice", params)


def our_text(os, action) -> str:
    """Ziggurat's notation for an OpenSpiel action: `Roll 4`, `2-5` (quantity-face), `Liar`."""
    text = os.action_to_string(os.current_player(), action)
    if text.startswith("Roll "):
        return "roll " + text[5:]
    if text == "Liar":
        return "liar"
    q, f = text.split("-")
    return f"bid {q}x{f}"


def os_actions(st, os) -> dict:
    """{Ziggurat move: OpenSpiel action} at a node, asserting the two engines offer the same moves."""
    theirs = {our_text(os, a): a for a in os.legal_actions()}
    ours = {st.move_text(m): m for m in st.moves()}
    assert sorted(ours) == sorted(theirs), (st.text(), str(os))
    return {ours[t]: theirs[t] for t in ours}




def same_node(st, os) -> dict:
    """The same kind of node, the same rolls with the same probabilities, the same player to move
    with the same legal moves; a finished game has the same winner. The move map, as os_actions."""
    assert st.is_terminal() == os.is_terminal()
    if os.is_terminal():
        out = st.outcome()
        winner = max(range(2), key=lambda p: os.returns()[p])
        assert out is not None and out.results[winner] == 1 and out.results[1 - winner] == 0
        return {}
    assert st.is_chance == os.is_chance_node()
    moves = os_actions(st, os)
    if os.is_chance_node():
        ours = {moves[m]: p for m, p in st.chance_outcomes()}
        assert ours == pytest.approx(dict(os.chance_outcomes()))
    else:
        assert st.mover == os.current_player()
    return moves


# ---- the rules ----------------------------------------------------------------------------------


def test_perft_equals_openspiel_over_the_rolls():
    zg, og = load()
    st, os = zg.new(), og.new_initial_state()
    counts = [perft(st, d) for d in range(1, 6)]
    assert counts == [os_perft(os, d) for d in range(1, 6)] == [6, 36, 432, 2808, 10296]


@pytest.mark.parametrize("options, depth", [
    ({"dice": 2, "faces": 3}, 7),
    ({"dice": 2, "faces": 3, "bidding": "reset_quantity"}, 7),
    ({"dice": 1, "faces": 4, "bidding": "reset_quantity"}, 6),
])
def test_perft_equals_openspiel_at_other_options(options, depth):
    zg, og = load(**options)
    st, os = zg.new(), og.new_initial_state()
    assert [perft(st, d) for d in range(1, depth + 1)] == [os_perft(os, d) for d in range(1, depth + 1)]


def walk(zg, og):
    """Every node of the whole game in both engines, compared; the information states of the
    player to move, {player: {(ours, OpenSpiel's)}}."""
    pairs = defaultdict(set)

    def go(st, os):
        moves = same_node(st, os)
        if not os.is_chance_node() and not os.is_terminal():
            p = os.current_player()
            pairs[p].add((st.information_state(p), os.information_state_string(p)))
        for m, a in moves.items():
            st.push(m)
            go(st, os.child(a))
            st.pop()

    go(zg.new(), og.new_initial_state())
    return pairs


@pytest.mark.parametrize("options", [
    {"dice": 1, "faces": 3},
    {"dice": 1, "faces": 3, "bidding": "reset_quantity"},
    {"dice": 2, "faces": 2},
])
def test_whole_small_games_agree_node_by_node(options):
    """The whole tree, node by node. With one die each, two decision nodes have the same
    information state for the player to move in Ziggurat exactly when they do in OpenSpiel. With
    more, OpenSpiel sorts a player's dice and so forgets the order they were rolled in, which a
    Ziggurat information state keeps (it holds each move as its player saw it): Ziggurat's
    states refine OpenSpiel's, each of OpenSpiel's splitting into at most dice! orders."""
    zg, og = load(**options)
    pairs = walk(zg, og)
    for p in (0, 1):
        ours = defaultdict(set)
        theirs = defaultdict(set)
        for a, b in pairs[p]:
            ours[a].add(b)
            theirs[b].add(a)
        assert all(len(bs) == 1 for bs in ours.values())  # ours is at least as fine
        if options["dice"] == 1:
            assert all(len(as_) == 1 for as_ in theirs.values())  # and no finer
        else:
            assert max(len(as_) for as_ in theirs.values()) == factorial(options["dice"])


@pytest.mark.parametrize("options", [{}, {"dice": 2, "faces": 6}, {"dice": 3, "faces": 4, "bidding": "reset_quantity"}])
def test_random_games_agree_with_openspiel_move_by_move(options):
    zg, og = load(**options)
    rng = random.Random(11)
    infostates = defaultdict(dict)  # ours -> OpenSpiel's: never two of theirs for one of ours
    for _ in range(40):
        st, os = zg.new(), og.new_initial_state()
        while True:
            moves = same_node(st, os)
            if not moves:
                break
            if not os.is_chance_node():
                p = os.current_player()
                mine, theirs = st.information_state(p), os.information_state_string(p)
                assert infostates[p].setdefault(mine, theirs) == theirs
            m = rng.choice(sorted(moves))
            st.push(m)
            os.apply_action(moves[m])


def test_default_information_states_match_openspiel_on_random_games():
    """At the defaults (one die each) the information states of the player to move correspond one
    to one, over many random games."""
    zg, og = load()
    rng = random.Random(5)
    pairs = defaultdict(set)
    for _ in range(300):
        st, os = zg.new(), og.new_initial_state()
        while not os.is_terminal():
            moves = os_actions(st, os)
            if not os.is_chance_node():
                p = os.current_player()
                pairs[p].add((st.information_state(p), os.information_state_string(p)))
            m = rng.choice(sorted(moves))
            st.push(m)
            os.apply_action(moves[m])
    for p in (0, 1):
        assert len({a for a, _ in pairs[p]}) == len({b for _, b in pairs[p]}) == len(pairs[p]) > 100


# ---- the rules, on hand-picked games ------------------------------------------------------------


def played(*texts, **options):
    st = ziggurat.load("liars-dice", options).new()
    for t in texts:
        st.play(t)
    return st


def test_the_highest_face_is_wild():
    st = played("roll 6", "roll 2", "bid 2x2", "liar")  # a 2 and a wild 6: the bid stands
    assert st.outcome().results == (1, 0) and st.outcome().reason == "the bid stood"
    st = played("roll 6", "roll 2", "bid 2x3", "liar")  # only the 6 counts for threes
    assert st.outcome().results == (0, 1) and st.outcome().reason == "caught bluffing"
    st = played("roll 6", "roll 2", "bid 2x6", "liar")  # sixes are counted once
    assert st.outcome().results == (0, 1)


def test_the_caller_loses_a_bid_that_stands_and_wins_against_one_that_does_not():
    st = played("roll 4", "roll 4", "bid 1x4", "bid 2x4", "liar")  # second's bid, called by first
    assert st.outcome().results == (0, 1)
    st = played("roll 4", "roll 3", "bid 1x4", "bid 2x4", "liar")
    assert st.outcome().results == (1, 0)


def test_liar_needs_a_bid_and_bids_must_rise():
    st = played("roll 1", "roll 1")
    assert "liar" not in [st.move_text(m) for m in st.moves()]
    st.play("bid 1x5")
    texts = [st.move_text(m) for m in st.moves()]
    assert texts[0] == "bid 1x6" and "bid 1x4" not in texts and "liar" in texts
    assert texts == ["bid 1x6"] + [f"bid 2x{f}" for f in range(1, 7)] + ["liar"]
    st = played("roll 1", "roll 1", "bid 1x5", bidding="reset_quantity")  # faces rank first
    assert sorted(st.move_text(m) for m in st.moves()) == ["bid 1x6", "bid 2x5", "bid 2x6", "liar"]


def test_a_roll_is_seen_by_its_owner_alone():
    st = played("roll 3", dice=2)
    move = st.parse_move("roll 5")
    assert st.move_view(move, 0) == "roll 5" and st.move_view(move, 1) == "<roll>"
    st.play("roll 5")
    st.play("roll 2")
    assert "cup.first=35" in st.observation(0) and "cup.first=?2" in st.observation(1)
    assert "cup.second=2" in st.observation(1) and "cup.second=?1" in st.observation(0)
    seen = st.information_state(1)
    assert "roll 3" not in seen and "roll 5" not in seen and "roll 2" in seen
