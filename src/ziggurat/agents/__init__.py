"""Agents that play any ruleset through the common game API, seeded and reproducible.

`make_agent(spec, seed)` builds one from a specification: a name, then parameters after colons,
e.g. `random`, `greedy`, `mcts`, `mcts:iterations=200`, `mcts:time=0.1:c=1.0`, `alphabeta:depth=3`,
`alphabeta:time=0.5`, `alphabeta:depth=4:backend=native`.
`AGENTS` maps each name to its class and its parameters' types.
"""

from __future__ import annotations

import math
from typing import Optional

from .alphabeta import AlphaBetaAgent
from .base import Agent, AgentError, Evaluator
from .greedy import GreedyAgent
from .mcts import MCTSAgent
from .random import RandomAgent

# name -> (class, {parameter: type})
AGENTS = {
    "random": (RandomAgent, {}),
    "greedy": (GreedyAgent, {"worlds": int}),
    "mcts": (MCTSAgent, {"iterations": int, "time": float, "c": float, "rollout": int, "worlds": int,
                         "rollouts": str, "rollout_policy": str}),
    "alphabeta": (AlphaBetaAgent, {"depth": int, "time": float, "worlds": int, "backend": str}),
}


def parse_spec(spec: str) -> tuple:
    """`'mcts:iterations=200'` -> ('mcts', {'iterations': 200}); AgentError names a mistake."""
    name, *params = [part.strip() for part in spec.strip().split(":")]
    name = name.lower()
    if name not in AGENTS:
        raise AgentError(f"unknown agent {name!r} in {spec!r}; the agents are {', '.join(AGENTS)}")
    cls, types = AGENTS[name]
    kwargs: dict = {}
    for p in params:
        key, eq, value = p.partition("=")
        key = key.strip()
        if not eq or not key or not value.strip():
            raise AgentError(f"agent parameter {p!r} in {spec!r} is not NAME=VALUE "
                             f"(for example mcts:iterations=200)")
        if key not in types:
            known = ", ".join(types) if types else "none"
            raise AgentError(f"agent {name!r} has no parameter {key!r} (its parameters: {known})")
        try:
            kwargs[key] = types[key](value.strip())
        except ValueError:
            raise AgentError(f"agent parameter {key}={value.strip()!r} is not a {types[key].__name__}") from None
        if types[key] is float and not (math.isfinite(kwargs[key]) and kwargs[key] >= 0):
            raise AgentError(f"agent parameter {key}={value.strip()!r} must be a finite number, 0 or more "
                             f"(not nan or inf)")
    return name, kwargs


def make_agent(spec: str, seed: Optional[int] = None) -> Agent:
    """An agent from its specification (see the module docstring), seeded with `seed`."""
    name, kwargs = parse_spec(spec)
    return AGENTS[name][0](seed=seed, **kwargs)


__all__ = ["Agent", "AgentError", "Evaluator", "make_agent", "parse_spec", "AGENTS",
           "RandomAgent", "GreedyAgent", "MCTSAgent", "AlphaBetaAgent"]
