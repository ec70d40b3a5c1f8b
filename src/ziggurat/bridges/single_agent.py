"""A ruleset as a Gymnasium single-agent environment: one player learns, the others are played
by an opponent function (uniform random unless given).

`single_agent_env(RULESET, player=0)` is a `gymnasium.Env` whose observations are those of
the PettingZoo bridge (`observation`, the tensor of `observations.Observer`, and `action_mask`,
the legal action ids now), whose actions are the ids of `actions.ActionSpace`, and whose reward is
the learner's return when the game ends (0 before). `opponent(state, rng) -> move` chooses a
whole Ziggurat move for the other players (`state` a Ziggurat `State`, `rng` a `random.Random`
seeded by `reset`); a Ziggurat agent plays as `lambda state, rng: agent.choose(state)`. Nature's
moves are drawn by their probabilities. An illegal action is a GameError, or, with
`illegal_reward=r`, ends the game with reward r (as PettingZoo's TerminateIllegalWrapper does: a
learner that samples the whole action space, or Gymnasium's env_checker, can then go on). Needs
the `pettingzoo` extra (it brings gymnasium).
"""

from __future__ import annotations

import random
from typing import Callable, Optional

import numpy as np

from ..errors import GameError, shown
from ..interpreter.games import load
from . import need
from .actions import ActionSpace, action_id
from .observations import Observer
from .progress import MAX_LENGTH, Progress

gymnasium = need("gymnasium", "pettingzoo", "gymnasium")
_spaces = gymnasium.spaces


def random_opponent(state, rng: random.Random):
    """A legal move chosen uniformly at random."""
    return rng.choice(state.moves())


def single_agent_env(ruleset: str, *, player: int = 0, opponent: Optional[Callable] = None,
                     payoff: Optional[Callable] = None, max_length: int = MAX_LENGTH,
                     illegal_reward: Optional[float] = None, **options) -> "SingleAgentEnv":
    """The single-agent environment of a ruleset for `player` (a side's index or name); GameError
    for a bad ruleset, option, player or length."""
    return SingleAgentEnv(ruleset, player=player, opponent=opponent, payoff=payoff, max_length=max_length,
                          illegal_reward=illegal_reward, **options)


class SingleAgentEnv(gymnasium.Env):
    """One player of a ruleset against an opponent function (see the module's description)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, ruleset: str, *, player=0, opponent=None, payoff=None, max_length: int = MAX_LENGTH,
                 illegal_reward=None, render_mode=None, **options):
        if render_mode not in (None, "ansi"):
            raise GameError(f"render_mode is 'ansi' or None, not {shown(render_mode)}")
        if not isinstance(max_length, int) or max_length < 1:
            raise GameError(f"max_length must be a whole number, 1 or more, not {shown(max_length)}")
        self.game = load(ruleset, options)
        players = self.game.players
        if isinstance(player, str) and player in players:
            player = players.index(player)
        if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < len(players):
            raise GameError(f"player is one of {', '.join(players)} (or its index), not {shown(player)}")
        self.player, self.opponent = player, opponent or random_opponent
        self.space = ActionSpace(self.game)
        self.observer = Observer(self.game)
        self.payoff, self.max_length, self.render_mode = payoff, max_length, render_mode
        if illegal_reward is not None and not isinstance(illegal_reward, (int, float)):
            raise GameError(f"illegal_reward is a number or None, not {shown(illegal_reward)}")
        self.illegal_reward = illegal_reward
        self._ended_illegally = False
        n = self.space.num_distinct_actions
        self.action_space = _spaces.Discrete(n)
        self.observation_space = _spaces.Dict({
            "observation": _spaces.Box(-np.inf, np.inf, (self.observer.size,), np.float32),
            "action_mask": _spaces.Box(0, 1, (n,), np.int8)})
        self.progress: Optional[Progress] = None
        self._rng = random.Random()

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if seed is not None or self.progress is None:
            self._rng = random.Random(seed)
        setup = self.game.options.get("seed")
        setup = setup if isinstance(setup, int) else self._rng.randrange(2 ** 31)
        self.progress = Progress(self.space, self.game.new(setup), seed=setup, payoff=self.payoff,
                                 max_length=self.max_length)
        self._ended_illegally = False
        self._others()
        return self._observe(), {}

    def _others(self) -> None:
        """Nature's and the other players' moves, until the learner decides or the game ends."""
        p = self.progress
        while not p.is_terminal():
            if p.is_chance():
                ids, weights = zip(*p.chance_ids())
                p.apply(self._rng.choices(ids, weights)[0])
            elif p.mover() != self.player:
                move = self.opponent(p.state, self._rng)
                for i in self.space.encode(move):
                    if p.is_terminal():
                        break
                    p.apply(i)
            else:
                return

    def _observe(self) -> dict:
        tensor = np.zeros(self.observer.size, np.float32)
        self.observer.fill(tensor, self.progress, self.player)
        mask = np.zeros(self.space.num_distinct_actions, np.int8)
        p = self.progress
        if not self._ended_illegally and not p.is_terminal() and not p.is_chance() and p.mover() == self.player:
            mask[p.legal_ids()] = 1
        return {"observation": tensor, "action_mask": mask}

    def step(self, action):
        if self.progress is None:
            raise GameError("reset the environment before its first step")
        if self.progress.is_terminal() or self._ended_illegally:
            raise GameError("the game is over: reset the environment")
        i = action_id(action)
        if self.illegal_reward is not None and i not in self.progress.legal_ids():
            self._ended_illegally = True
            return self._observe(), float(self.illegal_reward), True, False, {"illegal": i}
        self.progress.apply(i)
        self._others()
        p = self.progress
        reward = p.returns()[self.player] if p.is_terminal() else 0.0
        return self._observe(), float(reward), p.is_terminal() and not p.truncated(), p.truncated(), {}

    def render(self):
        if self.render_mode is None:
            return None
        return self.progress.state.text()
