"""The uniform random agent: every legal move equally likely."""

from __future__ import annotations

from .base import Agent


class RandomAgent(Agent):
    """Plays a legal move chosen uniformly at random (seeded)."""

    name = "random"
    reason = "chosen at random"

    def choose(self, state) -> tuple:
        return self.rng.choice(state.game.legal(state))
