"""Rulesets as PettingZoo AEC environments (ziggurat.bridges.pettingzoo): PettingZoo's own
api_test passes on every shipped ruleset with a fixed action space; the action mask is the legal
ids of the agent to act; an illegal action is refused with a message; a game plays to its end."""

import os

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import ziggurat  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402
from ziggurat.bridges.pettingzoo import env  # noqa: E402
from ziggurat.dsl import types as T  # noqa: E402
from ziggurat.dsl.loader import shipped_names  # noqa: E402

SLOW = os.environ.get("ZIGGURAT_SLOW") == "1"
LONG = {"lines-of-action", "rgb", "ryb", "amazons", "chaos"}  # a few seconds each: with ZIGGURAT_SLOW=1


def has_spot(name):
    return any(t == T.SPOT or (T.is_list(t) and t.elem == T.SPOT)
               for a in ziggurat.load(name).actions for _, t in a.choices)


TESTED = [n for n in shipped_names() if (SLOW or n not in LONG)]


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("name", TESTED)
def test_pettingzoo_api_test_passes(name):
    api_test(env(name), num_cycles=200 if SLOW else 60)


@pytest.mark.filterwarnings("ignore")
def test_a_game_on_the_open_table_passes_the_api_test():
    """Chaos, its placements spelled one character an id, with four colours (its shortest games)."""
    assert has_spot("chaos")
    api_test(env("chaos", colours="four"), num_cycles=60)


def test_the_mask_is_the_legal_ids_of_the_agent_to_act():
    e = env("tic-tac-toe")
    e.reset(seed=1)
    first, second = e.possible_agents
    assert e.agent_selection == first
    assert e.observe(first)["action_mask"].tolist() == [1] * 9
    assert e.observe(second)["action_mask"].sum() == 0
    e.step(4)
    mask = e.observe(second)["action_mask"]
    assert mask[4] == 0 and mask.sum() == 8


def test_an_illegal_action_is_refused_with_a_message():
    e = env("tic-tac-toe")
    e.reset(seed=0)
    e.step(4)
    with pytest.raises(ziggurat.GameError, match="action id 4 is not legal here"):
        e.step(4)


def test_a_game_plays_to_its_end_with_rewards_that_sum_to_zero():
    e = env("kuhn-poker")
    rng = np.random.default_rng(3)
    for seed in range(5):
        e.reset(seed=seed)
        total = {a: 0.0 for a in e.possible_agents}
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            total[agent] += reward
            if terminated or truncated:
                e.step(None)
            else:
                e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert sorted(total.values()) in ([-1.0, 1.0], [-2.0, 2.0])  # the chips won and lost (`win p by chips[p]`)


def test_a_game_past_its_length_is_truncated():
    e = env("breakthrough", max_length=4)
    e.reset(seed=0)
    steps = 0
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            assert truncated and not terminated
            e.step(None)
        else:
            e.step(int(np.flatnonzero(obs["action_mask"])[0]))
            steps += 1
    assert steps == 4


@pytest.mark.parametrize("action", [None, "4", 4.5, [4]])
def test_an_action_that_is_no_id_is_refused_with_a_message(action):
    e = env("tic-tac-toe")
    e.reset(seed=0)
    with pytest.raises(ziggurat.GameError, match="an action is an action id"):
        e.step(action)


def test_bad_arguments_are_game_errors():
    with pytest.raises(ziggurat.GameError, match="max_length"):
        env("tic-tac-toe", max_length=0)
    with pytest.raises(ziggurat.GameError, match="render_mode"):
        env("tic-tac-toe", render_mode="human")
    with pytest.raises(ziggurat.GameError):
        env("tic-tac-toe", k=40)
