"""Rotation matches: every participant plays every seat once on the same start."""

import json

import pytest
from click.testing import CliRunner

import ziggurat
from ziggurat.cli.main import cli
from ziggurat.lab.matches import play_rotation, random_agent

from test_solve import NIM

# Three players take 1 or 2 from a pile; the side that cannot take loses (the others score 1).
NIM3 = '''
game "Toy three-player Nim"
option start: 0..30 = 1 "counters at the start"
players red, green, blue
board:
    files: 1
    ranks: 1
piece:
    owner: players
counter pile = start
action take "take {k}":
    k: 1..2 where k <= pile
    do:
        pile -= k
end:
    if no_moves:
        lose mover "nothing left to take"
'''


# Two players take 1 or 2 counters in turn and keep them; the most counters wins, scored by count.
HOARD = '''
game "Toy hoard"
option start: 0..30 = 5 "counters at the start"
players first, second
board:
    files: 1
    ranks: 1
piece:
    owner: players
counter pile = start
counter taken per player = 0
action take "take {k}":
    k: 1..2 where k <= pile
    do:
        pile -= k
        taken[mover] += k
end:
    if pile == 0:
        rank by taken "the pile is empty"
'''


@pytest.fixture
def rules(tmp_path):
    def write(text):
        path = tmp_path / "toy.rules"
        path.write_text(text)
        return str(path)
    return write


def first_move(state):
    """An agent that always plays the first legal move."""
    return state.moves()[0]


class TestRotation:
    def test_each_participant_sits_in_each_seat_once(self, rules):
        """With three players, three games, and each participant takes every seat once."""
        game = ziggurat.load(rules(NIM3))
        result = play_rotation(game, [first_move] * 3)
        assert len(result.games) == 3
        for p in range(3):
            assert sorted(g.seating.index(p) for g in result.games) == [0, 1, 2]

    def test_points_follow_the_seat_and_sum_over_games(self, rules):
        """One counter: the first seat takes it and the second seat loses; each participant loses
        once, so everyone totals 2."""
        game = ziggurat.load(rules(NIM3), {"start": 1})
        result = play_rotation(game, [first_move] * 3)
        for g in result.games:
            loser = g.seating[1]
            assert g.points == tuple(0 if p == loser else 1 for p in range(3))
        assert result.totals == (2, 2, 2)
        assert result.totals == tuple(sum(g.points[p] for g in result.games) for p in range(3))

    def test_a_better_agent_wins_the_match(self, rules):
        """Nim from 9 with a perfect player and a first-move player: the perfect one wins as first
        mover and also as second (the other leaves it a good pile), so it scores 2 of 2."""
        game = ziggurat.load(rules(NIM), {"start": 9})

        def perfect(state):
            pile = state.counters[0]
            for m in state.moves():
                if (pile - int(state.move_text(m).split()[1])) % 4 == 0:
                    return m
            return state.moves()[0]

        result = play_rotation(game, [perfect, first_move])
        assert result.totals == (2, 0)
        assert result.winners == (0,)
        assert result.scoring == "results"

    def test_scores_are_summed_when_the_rules_give_them(self, rules):
        """From 5 counters, a greedy taker (2 when it can) against a taker of 1: as first it takes
        2+2 = 4 against 1; as second 2+1 = 3 against 2. The match sums the scores: 7 to 3."""
        game = ziggurat.load(rules(HOARD), {"start": 5})

        def greedy(state):
            return state.moves()[-1]

        result = play_rotation(game, [greedy, first_move])
        assert result.scoring == "scores"
        assert [g.points for g in result.games] == [(4, 1), (3, 2)]
        assert result.totals == (7, 3)

    def test_same_start_in_every_game(self, rules):
        """Every game of the match starts from the given position."""
        game = ziggurat.load(rules(NIM))
        result = play_rotation(game, [random_agent(1), random_agent(2)], position="first 0 |  | pile=6")
        assert result.start == "first 0 |  | pile=6"
        for g in result.games:
            st = game.position(result.start)
            for text in g.moves:
                st.play(text)
            assert st.is_terminal()

    def test_wrong_number_of_agents(self, rules):
        """Two agents for a three-player game is a GameError naming the count."""
        game = ziggurat.load(rules(NIM3))
        with pytest.raises(ziggurat.GameError, match="needs 3 agents"):
            play_rotation(game, [first_move] * 2)

    def test_random_agent_is_repeatable(self, rules):
        """Two random agents with the same seed play the same match."""
        game = ziggurat.load(rules(NIM), {"start": 20})
        a = play_rotation(game, [random_agent(5), random_agent(6)])
        b = play_rotation(game, [random_agent(5), random_agent(6)])
        assert [g.moves for g in a.games] == [g.moves for g in b.games]


class TestCli:
    def test_match_json_totals(self, rules):
        """`ziggurat match --json` gives one game per seat and totals that add the games up."""
        result = CliRunner().invoke(cli, ["match", rules(NIM3), "--agents", "random,random,random",
                                          "--seed", "3", "--set", "start=7", "--json"])
        assert result.exit_code == 0, result.output
        data = json.loads(result.output)
        assert len(data["games"]) == 3
        assert data["totals"] == [sum(g["points"][p] for g in data["games"]) for p in range(3)]

    def test_wrong_agent_count_is_a_usage_error(self, rules):
        """Too few agents exits 2 with a message, not a traceback."""
        result = CliRunner().invoke(cli, ["match", rules(NIM3), "--agents", "random"])
        assert result.exit_code == 2
        assert "3 agents" in result.output
