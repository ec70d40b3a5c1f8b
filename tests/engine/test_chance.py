"""Chance as moves of nature (`by chance`): chance nodes, their outcomes and probabilities, perft
over them, nature in simulate, play and matches, agents at chance nodes, and Pig against OpenSpiel's
`pig` (perft over chance nodes, and whole games with the same rolls in both engines)."""

from __future__ import annotations

import random

import pytest

import ziggurat
from openspiel_tree import os_perft
from ziggurat.agents import make_agent
from ziggurat.dsl.checks import check
from ziggurat.lab.study import play_game

# A choice between a sure draw and a gamble on a three-sided die: the gamble wins on the faces
# above `lose_up_to` and loses on the others. Nobody moves after the die.
GAMBLE = """\
option lose_up_to: 0..3 = 1
players a, b
board:
    files: 1
    ranks: 1
piece:
    owner: players
counter state = 0                  # 0 choosing, 1 the die in the air, 2 won, 3 lost, 4 played safe
action safe "safe":
    when state == 0
    do:
        state = 4
action gamble "gamble":
    when state == 0
    do:
        state = 1
        extra_turn()
action die "{face}":
    by chance
    when state == 1
    face: 1..3
    do:
        if face <= lose_up_to:
            state = 3
        else:
            state = 2
end:
    if state == 2:
        win a "the gamble came off"
    if state == 3:
        lose a "the gamble failed"
    if state == 4:
        draw "played safe"
"""


def load(tmp_path, text, options=None):
    path = tmp_path / "gamble.rules"
    path.write_text(text)
    assert [d.render() for d in check(str(path)) if d.severity == "error"] == []
    return ziggurat.load(str(path), options or {})


class TestChanceNodes:
    def test_where_nature_moves_only_its_moves_are_legal(self, tmp_path):
        """After `gamble` the die is in the air: its three faces are the moves, and a's own
        actions are not (their `when` would allow nothing anyway: the chance node is the die's)."""
        game = load(tmp_path, GAMBLE)
        st = game.new()
        assert not st.is_chance and sorted(st.move_text(m) for m in st.moves()) == ["gamble", "safe"]
        st.play("gamble")
        assert st.is_chance and [st.move_text(m) for m in st.moves()] == ["1", "2", "3"]

    def test_outcomes_are_equally_likely_and_sum_to_one(self, tmp_path):
        game = load(tmp_path, GAMBLE)
        st = game.new()
        st.play("gamble")
        outcomes = st.chance_outcomes()
        assert [st.move_text(m) for m, _ in outcomes] == ["1", "2", "3"]
        assert all(p == pytest.approx(1 / 3) for _, p in outcomes)
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)

    def test_nature_takes_precedence_over_priority(self, tmp_path):
        """A player's action of priority 5 that is legal at the chance node is not offered there."""
        text = GAMBLE.replace('action safe "safe":\n    when state == 0', 'action safe "safe":\n    priority 5\n    when state <= 1')
        game = load(tmp_path, text)
        st = game.new()
        assert [st.move_text(m) for m in st.moves()] == ["safe"]  # priority 5 beats gamble here
        st = game.position("a 0 | | state=1")
        assert st.is_chance and [st.move_text(m) for m in st.moves()] == ["1", "2", "3"]

    def test_a_roll_is_written_and_read_like_any_move(self, tmp_path):
        """A record's moves hold the rolls: replaying the texts gives the same game."""
        game = load(tmp_path, GAMBLE)
        st = game.new()
        st.play("gamble")
        st.play("3")
        assert st.outcome().kind == "win"
        with pytest.raises(ziggurat.GameError):
            game.new().play("3")  # a roll where no die is in the air

    def test_perft_counts_each_outcome_as_a_ply(self, tmp_path):
        """Depth 1: safe, gamble (2). Depth 2: after safe the game is over (0); after gamble the
        three faces (3): 3. Depth 3: every face ends the game: 0."""
        game = load(tmp_path, GAMBLE)
        assert [ziggurat.perft(game.new(), d) for d in (1, 2, 3)] == [2, 3, 0]

    def test_priority_on_a_chance_action_is_a_check_error(self, tmp_path):
        text = GAMBLE.replace("    by chance\n", "    by chance\n    priority 2\n")
        errors = [d for d in check("gamble.rules", text=text) if d.severity == "error"]
        assert len(errors) == 1 and "made by chance" in errors[0].message


class TestAgentsAtChanceNodes:
    @pytest.mark.parametrize("lose_up_to,best", [(1, "gamble"), (2, "safe")])
    def test_alphabeta_weighs_outcomes_by_probability(self, tmp_path, lose_up_to, best):
        """Win on 2 faces of 3: the gamble is worth more than a draw; win on 1 of 3, less. An
        agent that took the best outcome as certain would gamble in both."""
        game = load(tmp_path, GAMBLE, {"lose_up_to": lose_up_to})
        agent = make_agent("alphabeta:depth=3", 1)
        st = game.new()
        assert st.move_text(agent.choose(st)) == best

    @pytest.mark.parametrize("lose_up_to,best", [(0, "gamble"), (3, "safe")])
    def test_mcts_sees_a_sure_gamble_and_a_lost_one(self, tmp_path, lose_up_to, best):
        """MCTS samples the die: a gamble that always wins is taken, one that always loses is not."""
        game = load(tmp_path, GAMBLE, {"lose_up_to": lose_up_to})
        agent = make_agent("mcts:iterations=60", 1)
        st = game.new()
        assert st.move_text(agent.choose(st)) == best

    def test_simulated_games_with_dice_repeat_with_the_seed(self):
        """The same study seed gives the same games, rolls included; another seed other rolls."""
        game = ziggurat.load("pig", {"win_score": 20})
        first = [play_game(game, ("random", "random"), i, 7, 500).plies for i in range(6)]
        again = [play_game(game, ("random", "random"), i, 7, 500).plies for i in range(6)]
        other = [play_game(game, ("random", "random"), i, 8, 500).plies for i in range(6)]
        assert first == again and first != other


# ---- Pig against OpenSpiel ---------------------------------------------------------------------

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install open-spiel, part of the '.[test]' extra)")

PIG_CASES = [({}, {}, 7), ({"win_score": 5, "sides": 3}, {"winscore": 5, "diceoutcomes": 3}, 10),
             ({"win_score": 12, "sides": 4}, {"winscore": 12, "diceoutcomes": 4}, 8)]




def os_action(os_state, text):
    """OpenSpiel's action for a Ziggurat move text: 0 roll, 1 stop; a face f is chance action f - 1."""
    if os_state.is_chance_node():
        return int(text) - 1
    return {"roll": 0, "stop": 1}[text]


@pytest.mark.parametrize("options,os_options,depth", PIG_CASES)
def test_pig_perft_over_chance_nodes_matches_openspiel(options, os_options, depth):
    game, og = ziggurat.load("pig", options), pyspiel.load_game("pig", os_options)
    for d in range(1, depth + 1):
        assert ziggurat.perft(game.new(), d) == os_perft(og.new_initial_state(), d), f"depth {d}"


@pytest.mark.parametrize("seed", range(8))
def test_pig_games_agree_roll_by_roll(seed):
    """Random play with the same rolls: the same choices are legal at every ply (the same faces at
    chance nodes, with the same probabilities), and the same result."""
    options, os_options = {"win_score": 30}, {"winscore": 30}
    game, og = ziggurat.load("pig", options), pyspiel.load_game("pig", os_options)
    st, os_state, rng = game.new(), og.new_initial_state(), random.Random(seed)
    while not os_state.is_terminal():
        texts = [st.move_text(m) for m in st.moves()]
        if os_state.is_chance_node():
            assert st.is_chance
            ours = [(os_action(os_state, st.move_text(m)), p) for m, p in st.chance_outcomes()]
            theirs = os_state.chance_outcomes()
            assert [a for a, _ in ours] == [a for a, _ in theirs]
            assert [p for _, p in ours] == pytest.approx([p for _, p in theirs])
        else:
            assert not st.is_chance and st.mover == os_state.current_player()
            assert sorted(os_action(os_state, t) for t in texts) == os_state.legal_actions()
        text = rng.choice(texts)
        os_state.apply_action(os_action(os_state, text))
        st.play(text)
    out = st.outcome()
    returns = os_state.returns()
    assert out is not None and out.kind == "win" and returns[out.player] == 1 and sorted(returns) == [-1, 1]
