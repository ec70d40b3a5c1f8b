"""Rulesets as OpenSpiel games (ziggurat.bridges.openspiel): OpenSpiel's own random simulation
checks pass on every shipped ruleset (the long ones with ZIGGURAT_SLOW=1), an MCTS bot beats
random play, and CFR on the Ziggurat Kuhn poker matches CFR on OpenSpiel's own kuhn_poker."""

import os

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import ziggurat  # noqa: E402
from ziggurat.bridges.openspiel import load_game, short_name  # noqa: E402
from ziggurat.dsl import types as T  # noqa: E402
from ziggurat.dsl.loader import shipped_names  # noqa: E402

SLOW = os.environ.get("ZIGGURAT_SLOW") == "1"
FAST = {"tic-tac-toe": 5, "kuhn-poker": 10, "leduc-poker": 5, "liars-dice": 5, "clobber": 2, "greenest": 2,
        "stacktics-3x5": 2}  # ruleset -> simulations in the default suite


def has_spot(name):
    return any(t == T.SPOT or (T.is_list(t) and t.elem == T.SPOT)
               for a in ziggurat.load(name).actions for _, t in a.choices)


SIMULATED = [n for n in shipped_names() if (SLOW or n in FAST)]


@pytest.mark.parametrize("name", SIMULATED)
def test_openspiel_random_simulation_checks_pass(name):
    game = load_game(name)
    pyspiel.random_sim_test(game, num_sims=FAST.get(name, 3), serialize=False, verbose=False)


def test_a_registered_ruleset_loads_by_its_short_name_with_options():
    load_game("tic-tac-toe")
    game = pyspiel.load_game(f"{short_name('tic-tac-toe')}(width=4,height=4,k=3)")
    assert game.num_distinct_actions() == 16
    assert game.get_type().short_name == "ziggurat_tic_tac_toe"
    assert game.new_initial_state().current_player() == 0


def test_the_game_type_follows_the_ruleset():
    kuhn, ttt = load_game("kuhn-poker"), load_game("tic-tac-toe")
    assert kuhn.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kuhn.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert ttt.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert ttt.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC


def test_an_illegal_action_is_refused_with_a_message():
    state = load_game("tic-tac-toe").new_initial_state()
    state.apply_action(4)
    with pytest.raises(Exception, match="action id 4 is not legal here"):
        state.apply_action(4)


def test_a_bad_option_is_a_game_error():
    with pytest.raises(ziggurat.GameError, match="k"):
        load_game("tic-tac-toe", k=40)


def test_mcts_beats_random_play_at_tic_tac_toe():
    from open_spiel.python.algorithms import mcts
    from open_spiel.python.bots import uniform_random

    game = load_game("tic-tac-toe")
    rng = np.random.RandomState(14)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    score = {"mcts": 0, "random": 0, "draw": 0}
    for g in range(6):
        bot = mcts.MCTSBot(game, uct_c=2, max_simulations=60, evaluator=evaluator, random_state=rng)
        rand = uniform_random.UniformRandomBot(1 - g % 2, rng)
        bots = [bot, rand] if g % 2 == 0 else [rand, bot]
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        r = state.returns()[g % 2]
        score["mcts" if r > 0 else "random" if r < 0 else "draw"] += 1
    assert score["mcts"] >= 4 and score["random"] == 0, score


def chips(state):
    """Kuhn poker's payoff in chips, as OpenSpiel counts it: the winner takes the loser's stake."""
    names = state.game.world.counter_names
    stake = [state.counters[names.index(f"chips.{p}")] for p in state.game.players]
    winner = state.outcome().winners()[0]
    out = [0.0, 0.0]
    out[winner], out[1 - winner] = stake[1 - winner], -stake[1 - winner]
    return out


def test_cfr_on_kuhn_poker_gives_openspiels_game_value():
    from open_spiel.python import policy
    from open_spiel.python.algorithms import cfr, expected_game_score, exploitability

    ours = load_game("kuhn-poker", payoff=chips, payoff_range=(-2, 2), zero_sum=True)
    theirs = pyspiel.load_game("kuhn_poker")
    assert exploitability.nash_conv(ours, policy.UniformRandomPolicy(ours)) == pytest.approx(11 / 12, abs=1e-9)
    solvers = [cfr.CFRSolver(ours), cfr.CFRSolver(theirs)]
    for _ in range(30):
        for s in solvers:
            s.evaluate_and_update_policy()
    values = [expected_game_score.policy_value(g.new_initial_state(), [s.average_policy()] * 2)
              for g, s in zip((ours, theirs), solvers)]
    assert values[0] == pytest.approx(values[1], abs=1e-6)
    assert values[0][0] == pytest.approx(-1 / 18, abs=0.01)  # Kuhn's value for the first player
    convs = [exploitability.nash_conv(g, s.average_policy()) for g, s in zip((ours, theirs), solvers)]
    assert convs[0] == pytest.approx(convs[1], abs=1e-6)


def test_a_payoff_needs_its_range():
    with pytest.raises(ziggurat.GameError, match="payoff_range"):
        load_game("kuhn-poker", payoff=chips)


def test_the_observation_tensor_and_strings_are_the_bridges():
    game = load_game("kuhn-poker")
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    state.apply_action(state.legal_actions()[0])
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()
    assert state.information_state_string(0) != state.information_state_string(1)
    assert state.observation_string(0) == state.progress.state.observation(0)


def test_a_game_stopped_at_its_length_limit_is_a_draw():
    game = load_game("breakthrough", max_game_length=6)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert len(state.history()) == 6 and state.returns() == [0.0, 0.0]


def test_kuhn_poker_returns_its_chips_without_a_payoff_function():
    """kuhn-poker.rules ends with `win p by chips[p]` / `lose p by chips[p]`: the bridge's returns
    are those chips, the same as OpenSpiel's own kuhn_poker's for the same cards and actions."""
    ours, theirs = load_game("kuhn-poker"), pyspiel.load_game("kuhn_poker")
    assert ours.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    seen = set()
    for cards in [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)]:
        for plays in [(0, 0), (0, 1, 0), (0, 1, 1), (1, 0), (1, 1)]:  # 0 pass, 1 bet
            a, b = theirs.new_initial_state(), ours.new_initial_state()
            for card in cards:
                a.apply_action(card)
                # our deal: the card dealt is named by its action string ("deal J" ...)
                b.apply_action(next(i for i in b.legal_actions() if b.action_to_string(b.current_player(), i)
                                    .endswith("JQK"[card])))
            for play in plays:
                a.apply_action(play)
                b.apply_action(next(i for i in b.legal_actions()
                                    if b.action_to_string(b.current_player(), i).startswith(("pass", "bet")[play])))
            assert a.is_terminal() and b.is_terminal()
            assert b.returns() == a.returns(), (cards, plays)
            seen.add(tuple(a.returns()))
    assert seen == {(1.0, -1.0), (-1.0, 1.0), (2.0, -2.0), (-2.0, 2.0)}


def test_cfr_solves_kuhn_poker_from_the_rules_points_alone():
    """CFR over the bridge, with no payoff function, reaches Kuhn's published game value: -1/18 for
    the first player (Kuhn 1950), with exploitability falling towards 0."""
    from open_spiel.python.algorithms import cfr, expected_game_score, exploitability

    game = load_game("kuhn-poker")
    solver = cfr.CFRSolver(game)
    for _ in range(60):
        solver.evaluate_and_update_policy()
    value = expected_game_score.policy_value(game.new_initial_state(), [solver.average_policy()] * 2)
    assert value[0] == pytest.approx(-1 / 18, abs=0.01)
    assert value[0] + value[1] == pytest.approx(0, abs=1e-9)
    assert exploitability.exploitability(game, solver.average_policy()) < 0.02
