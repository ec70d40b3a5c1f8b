"""Leduc poker (rulesets/leduc-poker.rules) against OpenSpiel's `leduc_poker` at its default
parameters (two players): perft over the deals, the whole game tree node by node (chance outcomes
and their probabilities, legal moves, the winner by the sign of OpenSpiel's returns), random games
move by move, and the information states each player can tell apart."""

from __future__ import annotations

import random

import pytest

import ziggurat
from openspiel_tree import os_perft, same_node, walk_together
from ziggurat.interpreter.runtime import perft

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install open-spiel, part of the '.[test]' extra)")

CARDS = ["Jh", "Js", "Qh", "Qs", "Kh", "Ks"]  # OpenSpiel's card n: rank n // 2, suit n % 2


@pytest.fixture(scope="module")
def leduc():
    return ziggurat.load("leduc-poker")


def openspiel():
    return pyspiel.load_game("leduc_poker").new_initial_state()


def os_action(state, move) -> int:
    """OpenSpiel's action for a Ziggurat Leduc move: a card dealt (to a hand or face up) is its
    number 0..5; fold is 0, call 1, raise 2."""
    action = state.game.actions[move[0]].name
    if action in ("deal", "turn_up"):
        return CARDS.index(state.game.world.piece_text(move[1]))
    return {"fold": 0, "call": 1, "raise": 2}[action]




def same_result(out, os) -> None:
    """Ziggurat's win, loss or draw is the sign of OpenSpiel's returns (a split pot is a draw), and
    its points (`win p by chips[p]`, `lose p by chips[p]`) are OpenSpiel's returns, chip for chip."""
    assert out is not None
    r = os.returns()
    expected = (1, 0) if r[0] > 0 else (0, 1) if r[0] < 0 else (0.5, 0.5)
    assert tuple(out.results) == expected, (out, r)
    assert out.points and tuple(out.scores) == tuple(r), (out, r)


# ---- against OpenSpiel ----------------------------------------------------------------------------


def test_perft_equals_openspiel_over_the_deals(leduc):
    st, os = leduc.new(), openspiel()
    ours = [perft(st, d) for d in range(1, 13)]
    assert ours == [os_perft(os, d) for d in range(1, 13)]
    assert ours == [6, 30, 60, 150, 390, 780, 1800, 2640, 2280, 1080, 240, 0]


@pytest.fixture(scope="module")
def whole_tree(leduc):
    """Walk both trees together, checking every node and every end; gather, for each decision
    node, the pair (Ziggurat's, OpenSpiel's) information state of the player to move."""
    pairs = {0: set(), 1: set()}
    counts = {"nodes": 0, "ends": 0, "draws": 0}

    def visit(st, os):
        counts["nodes"] += 1
        if os.is_terminal():
            assert st.is_terminal()
            same_result(st.outcome(), os)
            counts["ends"] += 1
            counts["draws"] += os.returns()[0] == 0
            return
        assert not st.is_terminal()
        same_node(st, os, os_action)

    walk_together(leduc.new(), openspiel(), os_action, visit, pairs)
    return pairs, counts


def test_every_node_and_every_end_agree_with_openspiel(whole_tree):
    """All 9,457 nodes: the same moves, the same chance probabilities; all 5,520 ends: the same
    winner (600 of them split pots, drawn)."""
    _, counts = whole_tree
    assert counts == {"nodes": 9457, "ends": 5520, "draws": 600}


def test_information_states_partition_the_tree_as_openspiel_does(whole_tree):
    """Two decision nodes have the same information state for the player to move in Ziggurat
    exactly when they do in OpenSpiel: 468 per player, node for node (OpenSpiel's kNumInfoStates,
    936, counts both players)."""
    pairs, _ = whole_tree
    for p in (0, 1):
        ours = {a for a, _ in pairs[p]}
        theirs = {b for _, b in pairs[p]}
        assert len(ours) == len(theirs) == len(pairs[p]) == 468


def test_random_games_agree_with_openspiel_move_by_move(leduc):
    rng = random.Random(11)
    for _ in range(60):
        st, os = leduc.new(), openspiel()
        while not os.is_terminal():
            assert not st.is_terminal()
            same_node(st, os, os_action)
            m = rng.choice(st.moves())
            st.push(m)
            os.apply_action(os_action(st, m))
        same_result(st.outcome(), os)


# ---- the rules, by hand ----------------------------------------------------------------------------


def play(leduc, *moves):
    st = leduc.new()
    for text in moves:
        st.play(text)
    return st


def texts(st):
    return sorted(st.move_text(m) for m in st.moves())


def test_fold_only_facing_a_raise_and_two_raises_a_round(leduc):
    st = play(leduc, "deal Kh", "deal Js")
    assert texts(st) == ["call", "raise"]
    st.play("raise")
    assert texts(st) == ["call", "fold", "raise"]
    st.play("raise")
    assert texts(st) == ["call", "fold"]  # no third raise


def test_raises_are_two_chips_then_four(leduc):
    st = play(leduc, "deal Kh", "deal Js", "raise", "raise", "call")
    assert "chips.first=5 chips.second=5" in st.text()
    st.play("public Qh")
    assert texts(st) == ["call", "raise"] and st.mover == 0  # the first opens the second round
    st.play("call")
    st.play("raise")
    assert "chips.first=5 chips.second=9" in st.text()


def test_a_pair_beats_the_king_and_equal_cards_split(leduc):
    st = play(leduc, "deal Kh", "deal Js", "call", "call", "public Jh", "call", "call")
    assert st.outcome().results == (0, 1)
    st = play(leduc, "deal Kh", "deal Qs", "call", "call", "public Jh", "call", "call")
    assert st.outcome().results == (1, 0)
    st = play(leduc, "deal Kh", "deal Ks", "call", "call", "public Jh", "call", "call")
    assert st.outcome().results == (0.5, 0.5)


def test_a_fold_loses_at_once(leduc):
    st = play(leduc, "deal Kh", "deal Js", "raise", "fold")
    assert st.is_terminal() and st.outcome().results == (1, 0)


# ---- what each player sees -------------------------------------------------------------------------


def test_each_sees_its_own_card_and_both_see_the_public_card(leduc):
    st = play(leduc, "deal Qh", "deal Ks", "call", "call", "public Js")
    assert "hand.first=Qh" in st.observation(0) and "hand.second=?1" in st.observation(0)
    assert "hand.second=Ks" in st.observation(1) and "hand.first=?1" in st.observation(1)
    for p in (0, 1):
        assert "public=Js" in st.observation(p) and "deck=?3" in st.observation(p)
        assert "public Js" in st.information_state(p)
    assert "Ks" not in st.information_state(0) and "Qh" not in st.information_state(1)
