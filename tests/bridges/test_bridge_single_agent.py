"""A ruleset as a Gymnasium single-agent environment (ziggurat.bridges.single_agent): Gymnasium's
own env_checker passes, a random learner's games end with rewards in range, an opponent function
is used, and bad arguments are GameErrors."""

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

import ziggurat  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from ziggurat.bridges.single_agent import single_agent_env  # noqa: E402


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("name", ["tic-tac-toe", "kuhn-poker", "konane", "pig"])
def test_gymnasiums_env_checker_passes(name):
    check_env(single_agent_env(name, illegal_reward=-1), skip_render_check=True)


def play(e, seed):
    obs, _ = e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while True:
        obs, reward, terminated, truncated, _ = e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if terminated or truncated:
            return reward


def test_random_games_end_with_the_learners_result():
    e = single_agent_env("tic-tac-toe", player="o")
    rewards = {play(e, seed) for seed in range(12)}
    assert rewards <= {-1.0, 0.0, 1.0} and len(rewards) >= 2


def test_the_opponent_function_plays_the_other_side():
    calls = []

    def first_move(state, rng):
        calls.append(state.side)
        return state.moves()[0]

    e = single_agent_env("tic-tac-toe", player=1, opponent=first_move)
    obs, _ = e.reset(seed=0)
    assert calls == [0] and obs["action_mask"].sum() == 8  # x has marked the first cell: o to move


@pytest.mark.parametrize("kwargs,message", [({"player": 2}, "player is one of x, o"), ({"player": "z"}, "player"),
                                            ({"max_length": 0}, "max_length")])
def test_bad_arguments_are_game_errors(kwargs, message):
    with pytest.raises(ziggurat.GameError, match=message):
        single_agent_env("tic-tac-toe", **kwargs)


def test_a_step_after_the_end_is_refused():
    e = single_agent_env("tic-tac-toe")
    play(e, 0)
    with pytest.raises(ziggurat.GameError, match="the game is over"):
        e.step(0)


def test_an_illegal_action_is_refused_or_ends_the_game_as_asked():
    strict, lenient = single_agent_env("tic-tac-toe"), single_agent_env("tic-tac-toe", illegal_reward=-5)
    for e in (strict, lenient):
        e.reset(seed=0)
        e.step(4)  # x marks the centre; the random o answers
    with pytest.raises(ziggurat.GameError, match="action id 4 is not legal here"):
        strict.step(4)
    _, reward, terminated, truncated, info = lenient.step(4)
    assert (reward, terminated, truncated, info) == (-5.0, True, False, {"illegal": 4})
