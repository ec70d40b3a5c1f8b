"""Hidden information: zones seen by their owner or by nobody, moves seen only by some players
(`seen by`), each player's observation and information state; Kuhn poker against OpenSpiel's
`kuhn_poker` (perft over the deals, whole games move by move, and the information states each
player can tell apart, node by node)."""

from __future__ import annotations

import random
import re

import pytest

import ziggurat
from openspiel_tree import os_perft, same_node, walk_together
from ziggurat.interpreter.runtime import perft

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install open-spiel, part of the '.[test]' extra)")


@pytest.fixture(scope="module")
def kuhn():
    return ziggurat.load("kuhn-poker")


def os_action(state, move) -> int:
    """OpenSpiel's action for a Ziggurat Kuhn move: a deal is the card's rank from 0 (J, Q, K);
    pass is 0, bet is 1."""
    action = state.game.actions[move[0]].name
    if action == "deal":
        return "JQK".index(state.game.world.piece_text(move[1]))
    return {"pass": 0, "bet": 1}[action]




# ---- the rules ----------------------------------------------------------------------------------


def test_kuhn_perft_equals_openspiel_over_the_deals(kuhn):
    st, os = kuhn.new(), pyspiel.load_game("kuhn_poker").new_initial_state()
    assert [perft(st, d) for d in range(1, 7)] == [os_perft(os, d) for d in range(1, 7)] == [3, 6, 12, 24, 12, 0]


def test_kuhn_random_games_agree_with_openspiel_move_by_move(kuhn):
    rng = random.Random(7)
    for _ in range(40):
        st, os = kuhn.new(), pyspiel.load_game("kuhn_poker").new_initial_state()
        while not os.is_terminal():
            assert not st.is_terminal()
            same_node(st, os, os_action)
            m = rng.choice(st.moves())
            st.push(m)
            os.apply_action(os_action(st, m))
        out = st.outcome()
        assert out is not None
        winner = max(range(2), key=lambda p: os.returns()[p])
        assert out.results[winner] == 1 and out.results[1 - winner] == 0


def test_kuhn_information_states_partition_the_tree_as_openspiel_does(kuhn):
    """Two decision nodes have the same information state for the player to move in Ziggurat
    exactly when they do in OpenSpiel: 6 per player, node for node."""
    pairs = {0: set(), 1: set()}
    walk_together(kuhn.new(), pyspiel.load_game("kuhn_poker").new_initial_state(), os_action,
                  lambda st, os: None, pairs)
    for p in (0, 1):
        ours = {a for a, _ in pairs[p]}
        theirs = {b for _, b in pairs[p]}
        assert len(ours) == len(theirs) == len(pairs[p]) == 6


# ---- what each player sees ----------------------------------------------------------------------


def dealt(kuhn, first, second):
    st = kuhn.new()
    st.play(f"deal {first}")
    st.play(f"deal {second}")
    return st


def test_a_hand_is_seen_by_its_owner_alone_and_the_deck_by_nobody(kuhn):
    st = dealt(kuhn, "Q", "K")
    assert "hand.first=Q" in st.observation(0) and "hand.second=?1" in st.observation(0)
    assert "hand.second=K" in st.observation(1) and "hand.first=?1" in st.observation(1)
    assert "deck=?1" in st.observation(0) and "deck=?1" in st.observation(1)
    assert "deck=J" in st.text()  # the position itself keeps everything


def test_an_observation_does_not_change_with_what_its_player_cannot_see(kuhn):
    for mine in "JQK":
        views = {dealt(kuhn, mine, other).observation(0) for other in "JQK" if other != mine}
        assert len(views) == 1
    assert dealt(kuhn, "J", "Q").observation(0) != dealt(kuhn, "K", "Q").observation(0)


def test_a_deal_is_seen_by_its_receiver_only(kuhn):
    st = kuhn.new()
    move = st.parse_move("deal K")
    assert st.move_view(move, 0) == "deal K"
    assert st.move_view(move, 1) == "<deal>"
    st.push(move)
    second = st.parse_move("deal J")
    assert st.move_view(second, 1) == "deal J" and st.move_view(second, 0) == "<deal>"


def test_an_information_state_holds_each_move_as_its_player_saw_it(kuhn):
    st = dealt(kuhn, "Q", "K")
    st.play("pass")
    lines = st.information_state(1).split("\n")
    assert lines[1] == "<deal>" and lines[3] == "deal K" and lines[5] == "pass"
    assert len(lines) == 7 and lines[-1] == st.observation(1)
    assert "Q" not in st.information_state(1)


def test_no_view_of_a_played_game_shows_another_players_card(kuhn):
    rng = random.Random(3)
    for _ in range(30):
        st = kuhn.new()
        while not st.is_terminal():
            st.push(rng.choice(st.moves()))
        cards = {p: kuhn.world.piece_text(st.zones[kuhn.world.zone_index["hand"] + p][0]) for p in (0, 1)}
        for p in (0, 1):
            other = cards[1 - p]
            seen = st.information_state(p)
            assert f"hand.{kuhn.players[1 - p]}={other}" not in seen
            assert f"deal {other}" not in seen  # the cards differ: the other's deal is '<deal>' to p


# ---- the command line shows each person only what it may see ------------------------------------

DEALT = ("first 2 |  | deck=J hand.first=Q hand.second=K chips.first=1 chips.second=1 "
         "folded.first=0 folded.second=0 bets=0")


def run(*args, input=None):
    from click.testing import CliRunner

    from ziggurat.cli.main import cli
    result = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output
    return result


def hand_row(output: str, side: str) -> str:
    """What the last board printed shows in a side's hand: the first word (a card's code, or how
    many cards are hidden). A card game is drawn as a table of what it has: each side's zones
    under its name (`first`, or `first (you)`)."""
    lines = output.splitlines()
    header = max(i for i, line in enumerate(lines) if line.strip() in (side, f"{side} (you)"))
    hand = next(line for line in lines[header + 1:] if line.strip().startswith("hand"))
    return hand.split()[1]


def test_show_as_a_side_hides_the_other_hand_and_the_deck():
    as_first = run("show", "kuhn-poker", "-p", DEALT, "--as", "first").output
    assert hand_row(as_first, "first") == "Q" and hand_row(as_first, "second") == "1"
    assert re.search(r"hand +1 hidden", as_first)
    assert "K" not in as_first and "J" not in as_first
    everything = run("show", "kuhn-poker", "-p", DEALT).output
    assert hand_row(everything, "second") == "K"


def test_show_as_an_unknown_side_names_the_sides():
    result = run("show", "kuhn-poker", "--as", "third")
    assert result.exit_code != 0 and "not a side of Kuhn poker (sides: first, second)" in result.output


def test_play_never_prints_the_other_players_card():
    """Whole games against an agent: the person's own card shows, the agent's never does (in the
    hands, in the deal, or in the deck) until the record is read."""
    for seed in range(6):
        result = run("play", "kuhn-poker", "--seats", "human,random", "--seed", seed, input="pass\npass\nquit\n")
        assert result.exit_code == 0, result.output
        out = result.output
        mine = hand_row(out, "first")
        assert mine in "JQK"
        assert "chance: <deal>" in out and f"chance: deal {mine}" in out
        for card in set("JQK") - {mine}:
            assert f"deal {card}" not in out and not re.search(rf"\b{card}\b", out), out


def test_replay_as_a_side_shows_the_game_as_it_saw_it(tmp_path):
    state = ziggurat.load("kuhn-poker").new()
    for text in ("deal J", "deal K", "bet", "bet"):
        state.play(text)
    from ziggurat.records import record_of, save_record
    path = tmp_path / "game.zrec"
    save_record(path, record_of(state, "kuhn-poker"))
    as_second = run("replay", path, "--all", "--as", "second").output
    assert "1. first <deal>" in as_second and "2. second deal K" in as_second
    assert not re.search(r"\bJ\b", as_second)
    assert "1. first deal J" in run("replay", path, "--all").output


# ---- agents that do not peek --------------------------------------------------------------------


def test_a_determinization_keeps_what_its_player_sees_and_deals_the_rest(kuhn):
    st = dealt(kuhn, "Q", "K")
    worlds = {st.determinized(0, random.Random(s)).text() for s in range(40)}
    for text in worlds:
        assert "hand.first=Q" in text and text.count("=J") + text.count("=K") == 2
    assert len(worlds) == 2  # the King and the Jack trade places between deck and hand
    assert st.determinized(0, random.Random(0)).observation(0) == st.observation(0)


@pytest.mark.parametrize("agent", ["mcts:iterations=60", "greedy", "alphabeta:depth=3", "alphabeta:depth=2:worlds=1"])
@pytest.mark.parametrize("history", ["", "bet", "pass bet"])
def test_an_agent_decides_the_same_whatever_it_cannot_see(kuhn, agent, history):
    """Two positions that differ only in the card the mover cannot see give the same decision for
    the same seed (at the start, facing a bet, and after passing then facing a bet: where a peek
    at the other card would change a call into a fold)."""
    from ziggurat.agents import make_agent
    for seed in range(8):
        for mine in "JQK":
            decisions = set()
            for theirs in set("JQK") - {mine}:
                first_moves = len(history.split()) % 2 == 0
                st = dealt(kuhn, *((mine, theirs) if first_moves else (theirs, mine)))
                for move in history.split():
                    st.play(move)
                decisions.add(st.move_text(make_agent(agent, seed).choose(st)))
            assert len(decisions) == 1, (seed, mine)


@pytest.mark.parametrize("agent", ["greedy", "alphabeta:depth=2"])
def test_an_agent_that_cannot_see_the_other_card_still_calls_a_bet_with_the_king(kuhn, agent):
    """Calling with the King wins in every world the agent can imagine: it calls."""
    from ziggurat.agents import make_agent
    for theirs in "JQ":
        st = dealt(kuhn, theirs, "K")
        st.play("bet")
        agent_here = make_agent(agent, 1)
        assert st.move_text(agent_here.choose(st)) == "bet"
        assert "worlds of hidden pieces" in agent_here.reason


def test_mcts_with_the_king_calls_a_bet(kuhn):
    from ziggurat.agents import make_agent
    for theirs in "JQ":
        st = dealt(kuhn, theirs, "K")
        st.play("bet")
        assert st.move_text(make_agent("mcts:iterations=100", 1).choose(st)) == "bet"


def test_seen_by_a_list_expression_shows_the_move_to_everyone_on_it(tmp_path):
    """`seen by players` (a list the rules compute, not written out) reaches every player named."""
    from ziggurat.dsl.loader import find
    text = find("kuhn-poker").read_text().replace("    seen by mover\n", "    seen by players\n")
    path = tmp_path / "open-kuhn.rules"
    path.write_text(text)
    st = ziggurat.load(str(path)).new()
    deal = st.moves()[0]
    assert st.game.seen_by(st, deal) == frozenset({0, 1})
    assert st.move_view(deal, 0) == st.move_view(deal, 1) == st.move_text(deal)
