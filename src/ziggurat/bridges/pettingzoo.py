"""Every ruleset as a PettingZoo AEC environment: `env(RULESET, **options)`.

The agents are the ruleset's players, by name. Each observes a dict: `observation`, the float32
tensor of `observations.Observer` (its shape is `env.observer.shapes`), and `action_mask`, an int8
vector over the game's action ids (`actions.ActionSpace`: 1 where the id is legal now, only for
the agent whose turn it is). A move made of several ids is several steps of the same agent.
Nature's moves are drawn by the environment (seeded by `reset(seed=...)`), so an agent only ever
sees its own turns. At the end every agent is terminated with its return as reward (-1 / 0 / 1
for two players, the results 0 to 1 for more, the points of a ruleset whose results are points, or
`payoff(state)`); past `max_length` ids the game is truncated. Needs the `pettingzoo` extra
(`pip install 'ziggurat[pettingzoo]'`).
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

_pz = need("pettingzoo", "pettingzoo", "pettingzoo")
_spaces = need("gymnasium.spaces", "pettingzoo", "gymnasium")


def env(ruleset: str, *, payoff: Optional[Callable] = None, max_length: int = MAX_LENGTH,
        render_mode: Optional[str] = None, **options) -> "ZigguratEnv":
    """The AEC environment of a ruleset (a shipped name or a path) at the given options; GameError
    for a bad ruleset or option, or a ruleset with no fixed action space."""
    return ZigguratEnv(ruleset, payoff=payoff, max_length=max_length, render_mode=render_mode, **options)


class ZigguratEnv(_pz.AECEnv):
    """A ruleset as an AEC environment (see the module's description)."""

    metadata = {"render_modes": ["ansi"], "name": "ziggurat", "is_parallelizable": False}

    def __init__(self, ruleset: str, *, payoff=None, max_length: int = MAX_LENGTH, render_mode=None, **options):
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise GameError(f"render_mode is 'ansi' or None, not {shown(render_mode)}")
        if not isinstance(max_length, int) or max_length < 1:
            raise GameError(f"max_length must be a whole number, 1 or more, not {shown(max_length)}")
        self.game = load(ruleset, options)
        self.space = ActionSpace(self.game)
        self.observer = Observer(self.game)
        self.payoff, self.max_length, self.render_mode = payoff, max_length, render_mode
        self.metadata = dict(self.metadata, name=f"ziggurat_{self.game.name}")
        self.possible_agents = list(self.game.players)
        n = self.space.num_distinct_actions
        self.action_spaces = {a: _spaces.Discrete(n) for a in self.possible_agents}
        self.observation_spaces = {a: _spaces.Dict({
            "observation": _spaces.Box(-np.inf, np.inf, (self.observer.size,), np.float32),
            "action_mask": _spaces.Box(0, 1, (n,), np.int8)}) for a in self.possible_agents}
        self.progress: Optional[Progress] = None
        self._rng = random.Random()

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        self._rng = random.Random(seed)
        setup_seed = self.game.options.get("seed") if isinstance(self.game.options.get("seed"), int) else seed
        self.progress = Progress(self.space, self.game.new(setup_seed), seed=setup_seed, payoff=self.payoff,
                                 max_length=self.max_length)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._settle()

    def _settle(self) -> None:
        """Play nature's ids, then name the agent to act (or end the game)."""
        p = self.progress
        while p.is_chance():
            ids, weights = zip(*p.chance_ids())
            p.apply(self._rng.choices(ids, weights)[0])
        if p.is_terminal():
            returns = p.returns()
            stopped = p.truncated()
            for k, a in enumerate(self.possible_agents):
                if a in self.agents:
                    self.rewards[a] = returns[k]
                    self.terminations[a] = not stopped
                    self.truncations[a] = stopped
            self._accumulate_rewards()
            if getattr(self, "agent_selection", None) not in self.agents:
                self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[p.mover()]

    def observe(self, agent):
        player = self.possible_agents.index(agent)
        tensor = np.zeros(self.observer.size, np.float32)
        self.observer.fill(tensor, self.progress, player)
        mask = np.zeros(self.space.num_distinct_actions, np.int8)
        p = self.progress
        if not p.is_terminal() and not p.is_chance() and p.mover() == player:
            mask[p.legal_ids()] = 1
        return {"observation": tensor, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        self.progress.apply(action_id(action))  # GameError names an illegal id
        self._settle()

    def render(self):
        if self.render_mode is None:
            return None
        return str(self.progress.state.text()) + (f"\nunder way: {self.progress.pending_text()}"
                                                  if self.progress.prefix else "")

    def close(self):
        pass
