"""The greedy agent: looks one ply ahead and plays the move with the best value for itself.

Hidden information: in a game that hides anything, each move is valued in `worlds` determinizations
of the position (default 8; the pieces the mover cannot see dealt again at random, see
`State.determinized`) and the mean is used, so the agent never reads a hidden piece.
"""

from __future__ import annotations

from .base import Agent, AgentError, Evaluator, mover_seat, value_words


class GreedyAgent(Agent):
    """One ply: a winning move first, then the best heuristic (or mobility); ties by the seeded rng."""

    name = "greedy"

    def __init__(self, seed=None, worlds: int = 8):
        super().__init__(seed)
        if worlds < 1:
            raise AgentError(f"greedy: worlds must be at least 1, not {worlds!r}")
        self.worlds = worlds
        self._evaluators: dict = {}

    def choose(self, state) -> tuple:
        game = state.game
        ev = self._evaluators.get(id(game))
        if ev is None:
            ev = self._evaluators[id(game)] = Evaluator(game)
        me = mover_seat(state)
        moves = game.legal(state)
        if game.has_secrets and not state.is_chance:  # nature's draws are not the mover's to guess
            worlds = [state.determinized(state.side, self.rng) for _ in range(self.worlds)]
        else:
            worlds = [state]
        values = dict.fromkeys(moves, 0.0)
        for world in worlds:  # the mover's moves are the same in every world it cannot tell apart
            for m, v in self._values(world, moves, ev, me):
                values[m] += v / len(worlds)
        best_value = max(values.values())
        best = [m for m in moves if values[m] == best_value]
        by = "the ruleset's heuristic" if ev.has_heuristic else "mobility"
        where = f" (the mean of {len(worlds)} worlds of hidden pieces dealt at random)" if len(worlds) > 1 else ""
        ties = f", tied with {len(best) - 1} other{'s' * (len(best) > 2)}" if len(best) > 1 else ""
        self.reason = f"one ply ahead, by {by}{where}: {value_words(best_value)}{ties}"
        return self.rng.choice(best)

    @staticmethod
    def _values(state, moves, ev, me):
        """(move, value for seat `me` one ply after it) for each of `moves` in `state`."""
        game = state.game
        legal, apply, undo, outcome = game.legal, game.apply, game.undo, game.outcome
        for m in moves:
            apply(state, m)
            try:
                raw = outcome(state, legal(state))
                v = ev.terminal(state, raw, me) if raw is not None else ev.value(state, me)
            finally:
                undo(state)
            yield m, v
