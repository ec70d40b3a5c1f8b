"""The agents: legal, reproducible, and strong enough to take a win in one when there is one.

Winning moves are found through the public API in each test (push every move, look at the
outcome), never copied from an earlier run.
"""

import os
import sys

import pytest

import ziggurat
from ziggurat.interpreter.games import small_options
from ziggurat.agents import AgentError, Evaluator, make_agent, parse_spec
from ziggurat.agents.base import by_seat
from ziggurat.dsl.loader import shipped_names

SPECS = ["random", "greedy", "mcts:iterations=20", "alphabeta:depth=2"]
# size 3 (target 9 pips): south has 8 pips of prisoners; the small piece on a1 can take b2's.
NEAR_WIN = "south 10 | a1=S2S1 b2=N1 e5=N3 | prisoners.south=N3N3N2 prisoners.north="


def play(game, spec, seed, plies):
    """The moves an agent plays against itself from the start, and whether each was legal."""
    state = game.new(seed)
    agent = make_agent(spec, seed)
    out = []
    for _ in range(plies):
        legal = state.moves()
        if not legal:
            break
        m = agent.choose(state)
        out.append((m, m in legal))
        state.push(m)
    return out


# Rulesets whose smallest game is not a matter of board size: Chaos with four colours (two d4, the
# shortest games: an agent that plays whole games to their end, as MCTS does, takes a third of the time).
SMALLER = {"chaos": {"colours": "four"}}


def small(ruleset):
    """A shipped ruleset's game on a small board (see ziggurat.interpreter.games.small_options)."""
    return ziggurat.load(ruleset, {**small_options(ruleset), **SMALLER.get(ruleset, {})})


# The games are loaded in the tests, not when they are collected (each pytest-xdist worker collects
# every test: loading every shipped ruleset there cost each one seconds), so the cases are by name
# and a test for alpha-beta on a game of more than two players skips, saying so.
# Alpha-beta to depth 2 through Chaos's rolls and hundreds of placements takes 12 s, through RGB's
# and Amazons' wide openings the two slowest tests of the default suite (124 s and 43 s on a loaded
# machine), and MCTS's playouts through RGB's placements some 8 s: with ZIGGURAT_SLOW=1.
# Alpha-beta's legality stays checked on every other two-player game by default, MCTS's on every
# other ruleset, and RGB's and Amazons' moves with every other agent.
LONG = {("chaos", "alphabeta:depth=2"), ("rgb", "alphabeta:depth=2"), ("amazons", "alphabeta:depth=2"),
        ("rgb", "mcts:iterations=20")}
CASES = [(r, s) for r in shipped_names() for s in SPECS
         if os.environ.get("ZIGGURAT_SLOW") == "1" or (r, s) not in LONG]


class TestLegal:
    @pytest.mark.parametrize("ruleset, spec", CASES)
    def test_agents_pick_legal_moves(self, ruleset, spec):
        """Every agent plays only legal moves, on every shipped ruleset (alpha-beta: up to 2 players)."""
        game = small(ruleset)
        if spec.startswith("alphabeta") and len(game.players) > 2:
            pytest.skip(f"{ruleset} has {len(game.players)} players (test_alphabeta_refuses_more_than_two_players)")
        moves = play(game, spec, seed=5, plies=6)
        assert moves and all(ok for _, ok in moves)

    @pytest.mark.parametrize("ruleset", shipped_names())
    def test_alphabeta_refuses_more_than_two_players(self, ruleset):
        """Alpha-beta says it cannot play a game of three or more players."""
        game = small(ruleset)
        if len(game.players) <= 2:
            pytest.skip(f"{ruleset} has {len(game.players)} players")
        state = game.new(1)
        with pytest.raises(AgentError, match="one- and two-player"):
            make_agent("alphabeta", 1).choose(state)

    def test_timed_mcts_returns_a_legal_move(self):
        """MCTS with a time budget stops and answers with a legal move."""
        state = ziggurat.load("stacktics", {"size": 2}).new()
        assert make_agent("mcts:time=0.05", 1).choose(state) in state.moves()

    def test_choose_leaves_the_state_unchanged(self):
        """Thinking about a move does not change the position it was asked about."""
        state = ziggurat.load("stacktics").position(NEAR_WIN)
        before = state.text()
        for spec in SPECS:
            make_agent(spec, 3).choose(state)
            assert state.text() == before


class TestReproducible:
    @pytest.mark.parametrize("spec", SPECS)
    def test_same_seed_same_game(self, spec):
        """An agent with the same seed plays the same moves."""
        game = ziggurat.load("stacktics", {"size": 2})
        assert play(game, spec, 11, 8) == play(game, spec, 11, 8)

    def test_random_seeds_differ(self):
        """Different seeds give the random agent different games."""
        game = ziggurat.load("stacktics", {"size": 2})
        games = {tuple(m for m, _ in play(game, "random", s, 6)) for s in range(5)}
        assert len(games) > 1


class TestStrength:
    def _position(self):
        state = ziggurat.load("stacktics").position(NEAR_WIN)
        wins = []
        for m in state.moves():
            state.push(m)
            o = state.outcome()
            if o is not None and o.results[0] == 1:
                wins.append(m)
            state.pop()
        assert len(wins) == 1 and len(state.moves()) > 1
        return state, wins[0]

    @pytest.mark.parametrize("spec", ["mcts:iterations=100", "alphabeta:depth=1", "alphabeta:depth=3",
                                      "alphabeta:time=0.5", "greedy"])
    def test_finds_the_win_in_one(self, spec):
        """Searching agents play the one capture that reaches the target pips."""
        state, win = self._position()
        for seed in range(3):
            assert make_agent(spec, seed).choose(state) == win

    @pytest.mark.parametrize("spec, reason", [
        ("greedy", "one ply ahead, by the ruleset's heuristic: it wins at once"),
        ("alphabeta:depth=1", "searched 1 ply deep: it wins at once"),
        ("alphabeta:depth=3", "searched 1 ply deep: it wins at once"),  # a win found stops the search
        ("random", "chosen at random"),
    ])
    def test_an_agent_says_why_it_chose(self, spec, reason):
        """The reason `hint` shows: the win found, how deep, or chance."""
        state, _ = self._position()
        agent = make_agent(spec, 1)
        agent.choose(state)
        assert agent.reason == reason

    def test_mcts_says_how_often_it_searched_the_move(self):
        state, win = self._position()
        agent = make_agent("mcts:iterations=100", 1)
        assert agent.choose(state) == win
        assert agent.reason.startswith(f"the most searched of {len(state.moves())} moves: ")
        assert agent.reason.endswith(" of 100 playouts")

    def test_alphabeta_beats_random(self):
        """Alpha-beta at depth 2 wins most games against the random agent."""
        game = ziggurat.load("stacktics", {"size": 2})
        wins = 0
        for i in range(4):
            state = game.new()
            bots = [make_agent("alphabeta:depth=2", i), make_agent("random", i)][:: 1 if i % 2 == 0 else -1]
            while not state.is_terminal() and state.ply < 200:
                state.push(bots[state.seats[state.side]].choose(state))
            o = state.outcome()
            ab_seat = 0 if i % 2 == 0 else 1
            if o is not None and by_seat(state, o.results)[ab_seat] == 1:
                wins += 1
        assert wins >= 3


class TestSpecs:
    def test_parameters_parsed(self):
        """Parameters after colons reach the agent with their types."""
        agent = make_agent("mcts:iterations=50:c=0.5", 1)
        assert (agent.iterations, agent.c) == (50, 0.5)
        assert parse_spec("alphabeta:time=0.25") == ("alphabeta", {"time": 0.25})

    @pytest.mark.parametrize("spec, words", [("minimax", "unknown agent"), ("mcts:depth=3", "no parameter"),
                                             ("mcts:iterations=lots", "not a int"),
                                             ("mcts:iterations", "NAME=VALUE"),
                                             ("mcts:iterations=0", "at least 1")])
    def test_bad_specs_name_the_mistake(self, spec, words):
        """A bad specification raises AgentError saying what is wrong."""
        with pytest.raises(AgentError, match=words):
            make_agent(spec, 0)


class TestEvaluator:
    def _game(self, tmp_path, line):
        path = tmp_path / "h.rules"
        path.write_text(f"extends stacktics\nheuristic: {line}\n")
        return ziggurat.load(str(path))

    def test_heuristic_naming_mover_is_read_per_seat(self, tmp_path):
        """A heuristic that names `mover` gives each seat its own side's value."""
        game = self._game(tmp_path, "pips(prisoners[mover])")
        state = game.position("north 4 | b1=S3 | prisoners.south=N3N2 prisoners.north=S1")
        ev = Evaluator(game)
        assert (ev.value(state, 0), ev.value(state, 1)) == (5, 1)
        assert state.side == 1  # evaluating did not change whose turn it is

    def test_heuristic_without_mover_is_the_first_sides_view(self, tmp_path):
        """A heuristic without `mover` is the first side's value, the second's is its negation."""
        game = self._game(tmp_path, "pips(prisoners[south]) - pips(prisoners[north])")
        state = game.position("north 4 | b1=S3 | prisoners.south=N3N2 prisoners.north=S1")
        ev = Evaluator(game)
        assert (ev.value(state, 0), ev.value(state, 1)) == (4, -4)

    def test_results_follow_the_seats_after_a_swap(self):
        """After the pie rule's swap, a side's result belongs to the seat now playing it."""
        state = ziggurat.load("stacktics", {"size": 2}).new()
        state.push(state.moves()[0])
        state.play("swap")
        assert state.seats == [1, 0]
        assert by_seat(state, (1, 0)) == (0, 1)


@pytest.mark.parametrize("spec", ["mcts:time=nan", "mcts:time=inf", "alphabeta:time=nan", "mcts:c=nan", "mcts:c=-1"])
def test_a_time_or_constant_that_is_not_a_finite_number_is_refused(spec):
    """`mcts:time=nan` once searched for ever: nan is not less than or equal to 0."""
    from ziggurat.agents import AgentError, make_agent
    with pytest.raises(AgentError, match="finite number"):
        make_agent(spec, 1)


def test_agents_made_in_python_refuse_a_nan_time():
    from ziggurat.agents import AgentError, AlphaBetaAgent, MCTSAgent
    for cls in (MCTSAgent, AlphaBetaAgent):
        with pytest.raises(AgentError, match="time must be positive"):
            cls(seed=1, time=float("nan"))


@pytest.mark.parametrize("spec", ["mcts:iterations=5:rollouts=native", "alphabeta:depth=1:backend=native"])
def test_a_native_search_without_numba_is_refused_in_words_not_an_internal_error(monkeypatch, spec):
    """`pip install -e .` installs no Numba (the native backend is the `native` extra): an agent
    asked for a native search says so, as an AgentError the commands print, instead of failing on
    the import of Numba's errors (the MCTS agent did: "internal error: ModuleNotFoundError")."""
    for name in ("numba", "numba.core", "numba.core.errors"):
        monkeypatch.setitem(sys.modules, name, None)  # `import numba` raises ImportError
    game = ziggurat.load("tic-tac-toe")
    with pytest.raises(AgentError, match="without Numba installed"):
        make_agent(spec, seed=1).choose(game.new())
