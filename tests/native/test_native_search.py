"""Search in native code (ziggurat.interpreter.native.search and its kernel) against the rules and
against the Python agents.

- native MCTS and native alpha-beta choose legal moves: two players (Breakthrough), three (Green),
  nature's dice (Pig);
- native alpha-beta, a deterministic search, finds the same best value and the same best moves as
  the Python alpha-beta at depths 2 and 3 from positions reached by seeded random play (mobility
  at the leaves in Breakthrough, the heuristic in Pig and Stacktics, nature's
  outcomes weighed in Pig, repetition in Stacktics);
- both take a win in one where there is one (found through the public API, not copied);
- a game that hides information is searched by information-set MCTS, the unseen pieces dealt anew
  at each iteration: the search is the same whatever the unseen cards are, and it plays legal
  moves.

Each game's search is compiled once for the module (a cold compile costs seconds of CPU).
"""

import os
import random

import pytest

import ziggurat
from ziggurat.agents import AgentError, make_agent
from ziggurat.agents.alphabeta import AlphaBetaAgent
from ziggurat.agents.base import WIN, Evaluator
from ziggurat.interpreter.games import small_options

numba = pytest.importorskip("numba")

_searches: dict = {}


def searched(name: str, small: bool = False):
    """(game, NativeSearch) of a shipped ruleset, once for the module."""
    from ziggurat.interpreter.native.game import native
    from ziggurat.interpreter.native.search import NativeSearch

    key = (name, small)
    if key not in _searches:
        game = ziggurat.load(name, small_options(name) if small else None)
        _searches[key] = (game, NativeSearch(native(game, ())))
    return _searches[key]


def positions(game, seed: int, count: int, plies=(2, 7)):
    """`count` positions (not over, a side to move: not nature) reached by seeded random play, each
    a state of its own with its moves on its stack (so that its history can be taken back)."""
    rng, out, line = random.Random(seed), [], []
    state = game.new()
    while len(out) < count:
        for _ in range(rng.randrange(*plies)):
            moves = state.moves()
            if not moves:
                break
            line.append(rng.choice(moves))
            state.push(line[-1])
        if not state.moves():
            state, line = game.new(), []
            continue
        if not state.is_chance:
            own = game.new()
            for m in line:
                own.push(m)
            out.append(own)
    return out


def wins_in_one(state) -> list:
    """The moves after which the mover's seat has won."""
    seat = state.seats[state.side]
    out = []
    for m in state.moves():
        state.push(m)
        o = state.outcome()
        if o is not None and o.results[state.seats.index(seat)] == 1:
            out.append(m)
        state.pop()
    return out


TABLE_REPEAT = os.path.join(os.path.dirname(__file__), "table_repeat.rules")  # a ruleset the backend refuses
GAMES = [("breakthrough", True), ("green", True), ("pig", False)]  # two players, three, dice


@pytest.mark.parametrize("name, small", GAMES)
def test_native_mcts_plays_legal_moves(name, small):
    game, _ = searched(name, small)
    agent = make_agent("mcts:iterations=150:rollouts=native", 3)
    state = game.new()
    played = 0
    while played < 8 and state.moves():
        if state.is_chance:
            state.push(game.sample_chance(state, agent.rng))
            continue
        m = agent.choose(state)
        assert m in state.moves()
        assert agent.reason.endswith("(native search)") or agent.reason == "the only legal move"
        state.push(m)
        played += 1


@pytest.mark.parametrize("name, small", [("breakthrough", True), ("pig", False)])
def test_native_alphabeta_plays_legal_moves(name, small):
    game, _ = searched(name, small)
    agent = make_agent("alphabeta:depth=3:backend=native", 3)
    state = game.new()
    for _ in range(8):
        if not state.moves():
            break
        if state.is_chance:
            state.push(game.sample_chance(state, agent.rng))
            continue
        m = agent.choose(state)
        assert m in state.moves()
        state.push(m)
    assert agent.nodes > 0  # searched natively


@pytest.mark.parametrize("name, small", [("breakthrough", True), ("pig", False), ("stacktics", False)])
def test_native_alphabeta_agrees_with_python(name, small):
    """The same best value and the same moves tied best as the Python negamax, depth by depth."""
    game, search = searched(name, small)
    python = AlphaBetaAgent(seed=0)
    ev = Evaluator(game)
    for state in positions(game, 7, 3):
        moves = state.moves()
        for depth in (2, 3):
            value, best = python._root(state.copy(), ev, list(moves), depth, None)
            run = search.alphabeta(state, list(moves), depth, WIN)
            assert run.run()
            values = run.result()
            top = max(values)
            assert top == pytest.approx(value, abs=1e-9), (state.text(), depth)
            assert sorted(m for m, v in zip(moves, values) if v == top) == sorted(best)


@pytest.mark.parametrize("name", ["pig", "stacktics"])
def test_native_heuristic_and_cut_playouts_score_as_python(name):
    """The heuristic written natively equals the Python one for every side, and a playout cut short
    is scored alike (0.75 to the seats ahead, 0.25 to the others, or a draw)."""
    import numpy as np

    from ziggurat.agents.rollouts import cut_short

    game, search = searched(name)
    ev = Evaluator(game)
    module = search.module
    for state in positions(game, 4, 6, plies=(3, 12)):
        v, _, _ = search.ng.start(state, history=False)
        assert [module.heuristic(v, p) for p in range(len(game.players))] == list(ev.for_each_side(state, game.heuristic))
        out = np.zeros(len(game.players))
        module.cut_result(v, out)
        assert tuple(out) == cut_short(state, ev, len(game.players))


def test_native_alphabeta_taken_up_slice_by_slice_gives_the_same_values():
    """A search paused every few nodes (as a timed agent runs it) ends with the same values."""
    game, search = searched("breakthrough", True)
    state = positions(game, 2, 1)[0]
    moves = state.moves()
    whole = search.alphabeta(state, moves, 3, WIN, use_tt=False)
    assert whole.run()
    sliced = search.alphabeta(state, moves, 3, WIN, use_tt=False)
    slices = 1
    while not sliced.run(7):
        slices += 1
    assert slices > 3 and sliced.nodes == whole.nodes
    assert sliced.result() == whole.result()


def test_native_mcts_takes_a_win_in_one():
    game, _ = searched("breakthrough", True)
    for state in positions(game, 11, 40, plies=(1, 4)):
        wins = wins_in_one(state)
        if wins and len(wins) < len(state.moves()):
            break
    else:
        pytest.fail("no position with a win in one among those played")
    for seed in range(3):
        agent = make_agent("mcts:iterations=400:rollouts=native", seed)
        assert agent.choose(state) in wins


def test_native_alphabeta_takes_a_win_in_one():
    game, _ = searched("breakthrough", True)
    for state in positions(game, 5, 40, plies=(1, 4)):
        wins = wins_in_one(state)
        if wins and len(wins) < len(state.moves()):
            break
    else:
        pytest.fail("no position with a win in one among those played")
    agent = make_agent("alphabeta:depth=3:backend=native", 1)
    assert agent.choose(state) in wins
    assert "it wins at once" in agent.reason


def test_native_tree_counts_every_iteration_once():
    """The root's children hold every iteration's visit; each mean result is between 0 and 1."""
    game, search = searched("green", True)
    tree = search.mcts(game.new(), 1.4, 200, 9, 300)
    tree.run(120)
    tree.run(180)  # a search goes on over several slices
    children = tree.children()
    assert sum(v for _, v, _ in children) == 300 == tree.done
    assert {m for m, _, _ in children} == set(game.new().moves())
    assert all(0.0 <= mean <= 1.0 for _, _, mean in children)


def test_native_mcts_is_reproducible():
    game, _ = searched("breakthrough", True)
    state = game.new()
    assert len({make_agent("mcts:iterations=200:rollouts=native", 4).choose(state) for _ in range(3)}) == 1


def test_native_search_leaves_the_state_and_its_history_as_they_were():
    """Taking the moves back to hash the earlier positions (repetition) leaves the state as it was."""
    game, _ = searched("stacktics")
    state = positions(game, 3, 1, plies=(6, 9))[0]
    before = (state.text(), list(state.stack), dict(state.seen), state.ply)
    make_agent("alphabeta:depth=2:backend=native", 1).choose(state)
    assert (state.text(), list(state.stack), dict(state.seen), state.ply) == before


def test_native_search_never_reads_what_the_mover_cannot_see():
    """Kuhn poker hides the cards: two deals that differ only in the opponent's card give the same
    search, move and visits alike, for the same seed (each iteration deals the unseen cards anew
    from them as a multiset)."""
    game = ziggurat.load("kuhn-poker")
    seen = []
    for theirs in ("Q", "J"):
        state = game.new()
        state.play("deal K")
        state.play(f"deal {theirs}")
        agent = make_agent("mcts:iterations=200:rollouts=native", 2)
        m = agent.choose(state)
        assert m in state.moves()
        assert agent.reason.endswith("(native information-set search)")
        seen.append((m, agent.reason))
    assert seen[0] == seen[1]


def test_native_information_set_search_plays_legal_moves():
    game = ziggurat.load("kuhn-poker")
    agent = make_agent("mcts:iterations=200:rollouts=native", 5)
    state = game.new()
    played = 0
    while played < 6 and state.moves():
        if state.is_chance:
            state.push(game.sample_chance(state, agent.rng))
            continue
        m = agent.choose(state)
        assert m in state.moves()
        assert agent.reason.endswith("(native information-set search)") or agent.reason == "the only legal move"
        state.push(m)
        played += 1


def test_backend_names_its_mistakes():
    with pytest.raises(AgentError, match="backend must be python or native"):
        make_agent("alphabeta:backend=fast")
    assert make_agent("alphabeta:depth=2:backend=native").spec() == "alphabeta:depth=2:backend=native"
    with pytest.raises(AgentError, match=r"alphabeta:backend=native: the native backend cannot compile repetition on "
                                         r"the open table"):
        state = ziggurat.load(TABLE_REPEAT).new()
        state.play("0,0")  # the second piece has several places
        make_agent("alphabeta:depth=1:backend=native", 1).choose(state)
