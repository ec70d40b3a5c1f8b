"""What every agent shares: the agent interface, results by seat, and a position's value.

Agents think in *seats* (the people at the table), not sides: the pie rule can swap who plays
which side, and a player wants their own seat to win. The seat to move is `state.seats[state.side]`.

A position's value for a seat comes from the ruleset's `heuristic:` when it declares one. A
heuristic that names `mover` is read from the mover's point of view, so it is evaluated once per
seat with `mover` set to that seat's side; one that does not name `mover` is read from the first
side's point of view (the others get its negation, as in a zero-sum game). Without a heuristic,
the value is mobility: the seat's legal moves minus the most any other seat has.
"""

from __future__ import annotations

import random
from typing import Optional

from ..errors import AgentError  # noqa: F401 (re-exported: agents raise it)
from ..interpreter.outcome import outcome_of

WIN = 1_000_000  # the value of a won position, far above any heuristic
POINT = WIN // 1000  # the value of one point in a game scored in points (`win P by K`)


class Agent:
    """Picks a move for the side to move. Subclasses set `name` and implement `choose`."""

    name = "agent"
    reason = ""  # why the last move chosen was chosen, in a few words (shown by `hint`)

    def __init__(self, seed: Optional[int] = None):
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, state) -> tuple:
        """A legal move of `state` (which must not be over); the state is left as it was."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec()}>"

    def spec(self) -> str:
        return self.name

    fallback = ""  # what searches where the native search asked for cannot be built (its agents say)

    def asks_native(self) -> bool:
        """Whether the agent was asked for a native search (its agents say)."""
        return False

    def search_note(self, game) -> Optional[str]:
        """Where the agent was asked for a native search that cannot search `game` and a Python one
        searches instead: why, in a few words (a study says so); None otherwise. May compile."""
        if not self.asks_native():
            return None
        self._native_search(game)  # type: ignore[attr-defined]  # the agents that ask for one have it
        why = self._python_tree.get(id(game))  # type: ignore[attr-defined]
        return None if why is None else f"{self.spec()}: {why}: {self.fallback}"

    def fallback_words(self, game) -> str:
        """What a decision's `reason` adds where the native search asked for could not be built
        and the Python one chose ('' otherwise): `play` and `serve` show the reason."""
        why = self._python_tree.get(id(game)) if self.asks_native() else None  # type: ignore[attr-defined]
        return "" if why is None else f" (Python search: {why})"


def native_search_failure(why) -> str:
    """Why a native search could not be built, in a few words (an Unsupported's line, or Numba's)."""
    from ..errors import Unsupported

    if isinstance(why, Unsupported):
        return why.line().replace("; using Python", "")
    return f"Numba could not compile it: {str(why).splitlines()[0]}"


def mover_seat(st) -> int:
    return st.seats[st.side]


def results_by_side(raw, nsides: int) -> tuple:
    """The per-side results of a raw outcome (kind, who, reason), as `State.outcome()` gives them:
    1 win, 0 loss, 0.5 draw; k sides sharing the top of a `rank by` get 1/k each; in a game
    scored in points (`win P by K`), the points: agents maximise expected points there."""
    return tuple(float(r) for r in outcome_of(raw, nsides).values())


def by_seat(st, per_side) -> tuple:
    """Per-side values re-indexed by seat (the seat playing each side gets that side's value)."""
    out = [0.0] * len(per_side)
    for side, seat in enumerate(st.seats):
        out[seat] = per_side[side]
    return tuple(out)


def value_words(value: float, depth: int = 1) -> str:
    """A value of the evaluator in words: a win or loss found, else the number."""
    if value >= WIN - 64:
        return "it wins at once" if value >= WIN - depth else f"it forces a win in {int(WIN - value)} plies"
    if value <= -(WIN - 64):
        return "every move loses"
    if value == 0 and depth > 1:
        return "value 0"
    return f"value {value:g}"


class Evaluator:
    """The value of a position for a seat (see the module docstring)."""

    def __init__(self, game):
        self.game = game
        self.nsides = len(game.players)
        self.has_heuristic = game.has_heuristic
        self.per_mover = game.has_heuristic and game.heuristic_per_mover

    def for_each_side(self, st, fn) -> list:
        """fn(st) as if each side in turn were to move (the side to move is put back after)."""
        side = st.side
        try:
            values = []
            for p in range(self.nsides):
                st.side = p
                values.append(fn(st))
        finally:
            st.side = side
        return values

    def heuristic_by_side(self, st) -> tuple:
        h = self.game.heuristic
        if self.per_mover:
            return tuple(self.for_each_side(st, h))
        v = h(st)
        return (v,) + (-v,) * (self.nsides - 1)

    def mobility_by_side(self, st) -> tuple:
        values = self.for_each_side(st, self.game.count)
        return tuple(v - max(values[:i] + values[i + 1:], default=0) for i, v in enumerate(values))

    def value(self, st, seat: int) -> float:
        """The value of a position that is not over, for `seat`."""
        per_side = self.heuristic_by_side(st) if self.has_heuristic else self.mobility_by_side(st)
        return per_side[st.seats.index(seat)]

    def terminal(self, st, raw, seat: int, depth: int = 0) -> float:
        """The value of a finished game for `seat`: a win is worth more the sooner it comes."""
        end = outcome_of(raw, self.nsides)
        if end.points:  # points are the result: their expectation is what a search maximises
            return by_seat(st, end.scores)[seat] * POINT
        r = by_seat(st, end.results)[seat]
        if r == 1:
            return WIN - depth
        if r == 0:
            return -(WIN - depth)
        return 0.0  # a draw, or a first place shared
