"""The greedy agent: looks one ply ahead and plays the move with the best value for itself."""

from __future__ import annotations

from .base import Agent, Evaluator, mover_seat, value_words


class GreedyAgent(Agent):
    """One ply: a winning move first, then the best heuristic (or mobility); ties by the seeded rng."""

    name = "greedy"

    def __init__(self, seed=None):
        super().__init__(seed)
        self._evaluators: dict = {}

    def choose(self, state) -> tuple:
        game = state.game
        ev = self._evaluators.get(id(game))
        if ev is None:
            ev = self._evaluators[id(game)] = Evaluator(game)
        legal, apply, undo, outcome = game.legal, game.apply, game.undo, game.outcome
        me = mover_seat(state)
        best, best_value = [], None
        for m in legal(state):
            apply(state, m)
            try:
                raw = outcome(state, legal(state))
                v = ev.terminal(state, raw, me) if raw is not None else ev.value(state, me)
            finally:
                undo(state)
            if best_value is None or v > best_value:
                best, best_value = [m], v
            elif v == best_value:
                best.append(m)
        by = "the ruleset's heuristic" if ev.has_heuristic else "mobility"
        ties = f", tied with {len(best) - 1} other{'s' * (len(best) > 2)}" if len(best) > 1 else ""
        self.reason = f"one ply ahead, by {by}: {value_words(best_value)}{ties}"
        return self.rng.choice(best)
