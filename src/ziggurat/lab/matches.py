"""Rotation matches: one setup played once per seat rotation, with scores summed per participant.

With N players a rotation match is N games on the same start position (the same seed, or the same
position text). In game r (r = 0 .. N-1) participant p sits at seat (p + r) mod N, so every
participant plays every seat once. Seats, not sides: when a rule swaps seats (the pie rule), the
participant keeps their seat and plays whatever side it now holds.

A participant's points for a game are the `scores` of the outcome for the side their seat plays,
when the ruleset gives scores, else the `results` (1 win, 1/2 draw, 0 loss). An agent is any
callable that takes a State and returns one of its legal moves (a move tuple or its text), or an
object with such a `choose` method (the agents of `ziggurat.agents`). The games are played by the
studies' runner (`study.play_out`).
"""

from __future__ import annotations

import random
from typing import Callable, Optional, Sequence

from attrs import frozen

from ..errors import GameError
from ..interpreter.outcome import outcome_of
from .study import play_out

Agent = Callable[[object], object]


def random_agent(seed: Optional[int] = None) -> Agent:
    """An agent that plays a uniformly random legal move (repeatable with a seed)."""
    rng = random.Random(seed)

    def choose(state):
        return rng.choice(state.moves())

    return choose


@frozen
class MatchGame:
    """One game of a rotation match."""

    rotation: int
    seating: tuple  # seating[seat] = participant at that seat
    moves: tuple  # move texts
    outcome: object  # the Outcome, or None when the game was stopped at max_plies
    points: tuple  # per participant, for this game

    def as_dict(self, names: Sequence[str]) -> dict:
        out = self.outcome
        return {"rotation": self.rotation, "seating": [names[p] for p in self.seating],
                "moves": list(self.moves), "plies": len(self.moves),
                "outcome": None if out is None else {"kind": out.kind, "reason": out.reason,
                                                      "results": list(out.results)},
                "points": list(self.points)}


@frozen
class MatchResult:
    """A rotation match: every game, and the points summed per participant."""

    participants: tuple  # names
    start: str  # the start position text every game began from
    scoring: str  # "scores" or "results"
    games: tuple  # MatchGame per rotation

    @property
    def totals(self) -> tuple:
        return tuple(sum(g.points[p] for g in self.games) for p in range(len(self.participants)))

    @property
    def winners(self) -> tuple:
        """The participants with the highest total (several on a tie)."""
        best = max(self.totals)
        return tuple(p for p, t in enumerate(self.totals) if t == best)

    def as_dict(self) -> dict:
        return {"participants": list(self.participants), "start": self.start, "scoring": self.scoring,
                "totals": list(self.totals), "winners": [self.participants[p] for p in self.winners],
                "games": [g.as_dict(self.participants) for g in self.games]}


def _points(outcome) -> tuple:
    """(points per side, 'scores' or 'results'): the outcome's scores if the rules give any."""
    scores = getattr(outcome, "scores", None)
    return tuple(scores) if scores else tuple(outcome.results), "scores" if scores else "results"


def play_rotation(game, agents: Sequence[Agent], seed: Optional[int] = None, *,
                  position: Optional[str] = None, names: Optional[Sequence[str]] = None,
                  max_plies: Optional[int] = None) -> MatchResult:
    """Play one game per seat rotation from the same start: `position` (text) if given, else
    `game.new(seed)`. `agents[p]` plays for participant p. A game longer than `max_plies` is
    stopped and scores nothing."""
    n = len(game.players)
    if len(agents) != n:
        raise GameError(f"{game.name} has {n} players ({', '.join(game.players)}); "
                        f"a rotation match needs {n} agents, not {len(agents)}")
    names = tuple(names) if names is not None else tuple(f"agent{p + 1}" for p in range(n))
    if len(names) != n:
        raise GameError(f"{len(names)} names for {n} agents")
    choosers = [getattr(a, "choose", a) for a in agents]
    start = game.position(position) if position is not None else game.new(seed)
    start_text = start.text()
    games = []
    scoring = "results"
    for r in range(n):
        seating = tuple((seat - r) % n for seat in range(n))  # participant p at seat (p + r) mod n
        state = start.copy()
        nature = random.Random(seed)  # the same rolls in every rotation, so seats compare fairly
        played = play_out(game, state, lambda st, seating=seating: choosers[seating[st.seat_of(st.side)]](st),
                          nature, max_plies, keep_moves=True, checked=True)
        outcome = None if played.raw is None else outcome_of(played.raw, n)
        points = [0] * n
        if outcome is not None:
            per_side, scoring = _points(outcome)
            for side in range(n):
                points[seating[state.seat_of(side)]] += per_side[side]
        texts = tuple(state.move_text(m) for m in played.moves)
        games.append(MatchGame(r, seating, texts, outcome, tuple(points)))
    return MatchResult(names, start_text, scoring, tuple(games))
