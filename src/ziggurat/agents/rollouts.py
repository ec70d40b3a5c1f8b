"""MCTS's playouts: one interface, two implementations (as OpenSpiel's `Evaluator` and its
`RandomRolloutEvaluator`).

`evaluate(st)` plays random moves from `st` (left as it was) to the end, or `plies` plies, and
gives the result per seat: 1 win, 0.5 draw, 0 loss (a first place shared k ways: 1/k). A playout
cut short is scored as a draw, or, when the ruleset declares a heuristic, as 0.75 for the seats it
puts ahead and 0.25 for the others (less than a real win, which is 1, so that a real win still
stands out). Nature's moves are drawn by their probabilities.

`PythonRollouts` plays through the Python backend with the agent's generator. `NativeRollouts`
plays each playout whole in the native backend, seeded from the agent's generator, with its own
random moves (SplitMix64); a position there counts as repeated only from the playout's first
position on (the native position hash starts there), and a playout the native vectors cannot hold
is played by `PythonRollouts` instead.
"""

from __future__ import annotations

from .base import by_seat, results_by_side


class RolloutEvaluator:
    """The result per seat of a random playout from a position."""

    def evaluate(self, st) -> tuple:
        raise NotImplementedError


def cut_short(st, ev, nseats: int) -> tuple:
    """The result per seat of a playout cut short at `st` (see the module docstring)."""
    result = (0.5,) * nseats
    if st.game.points:  # results in points: a game cut short scores nothing
        return (0.0,) * nseats
    if ev.has_heuristic:
        per_side = ev.heuristic_by_side(st)
        leaders = [i for i, v in enumerate(per_side) if v == max(per_side)]
        if len(leaders) < nseats:
            result = by_seat(st, [0.75 if i in leaders else 0.25 for i in range(nseats)])
    return result


class PythonRollouts(RolloutEvaluator):
    """Playouts through the Python backend (`ev`: the agents' Evaluator of the game)."""

    def __init__(self, game, ev, plies: int, rng):
        self.game, self.ev, self.plies, self.rng = game, ev, plies, rng
        self.nseats = len(game.players)

    def evaluate(self, st) -> tuple:
        game, rng, nseats = self.game, self.rng, self.nseats
        legal, apply, outcome, choice = game.legal, game.apply, game.outcome, rng.choice
        nature = game.sample_chance if game.has_chance else None
        plies = 0
        result = None
        while True:
            moves = legal(st)
            raw = outcome(st, moves)
            if raw is not None:
                result = by_seat(st, results_by_side(raw, nseats))
                break
            if plies >= self.plies:
                break
            m = nature(st, rng, moves) if nature is not None else None
            apply(st, m if m is not None else choice(moves))
            plies += 1
        if result is None:
            result = cut_short(st, self.ev, nseats)
        undo = game.undo
        for _ in range(plies):
            undo(st)
        return result


class NativeRollouts(RolloutEvaluator):
    """Playouts whole in the native backend (`fast`: the game's NativeGame); `fallback` plays the
    ones its vectors cannot hold."""

    def __init__(self, fast, ev, plies: int, rng, fallback: RolloutEvaluator, parts: bool = False):
        from ..errors import Unsupported

        self.fast, self.ev, self.plies, self.rng, self.fallback = fast, ev, plies, rng, fallback
        self.parts = parts  # turns drawn part by part (the rollout policy)
        self.nseats = len(fast.game.players)
        self._stopped = Unsupported

    def evaluate(self, st) -> tuple:
        fast = self.fast
        try:
            run = fast.playout(st, self.rng.getrandbits(64), self.plies, history=False, parts=self.parts)
        except self._stopped:
            return self.fallback.evaluate(st)
        if run.kind is not None:
            out = [0.0] * self.nseats
            values = run.scores if fast.game.points else run.results  # points: what the agents maximise
            for side, seat in enumerate(fast.seats(run.final)):
                out[seat] = values[side]
            return tuple(out)
        if not self.ev.has_heuristic:
            return (0.0 if fast.game.points else 0.5,) * self.nseats
        return cut_short(fast.state(run.final), self.ev, self.nseats)
