"""How a game ended: the one place a game's raw end (`Game.outcome`) becomes results per side.

`Game.outcome(st, moves)` returns a raw tuple (kind, who, reason), fast and plain for the search
loops; `outcome_of` turns it into an `Outcome`, which `State.outcome()`, the agents, the studies
and the matches read.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Optional

from attrs import field, frozen


class Kind(StrEnum):
    """How an outcome names its side, as python-chess's `Termination` names how a game ended.

    A str enum (`StrEnum`) so that each kind is also its text: `Kind.WIN == "win"`, JSON writes
    it as `"win"`, and records, tables and messages print `win` (a plain `(str, Enum)` would print
    `Kind.WIN` in an f-string on Python 3.11+), so code and files that knew the kinds as strings
    read the same."""

    WIN = "win"  # the side named wins (or, after `rank by`, the one player at the top)
    LOSE = "lose"  # the side named loses
    DRAW = "draw"  # nobody is named (or, after `rank by`, several share the top)


@frozen
class Outcome:
    """How a game ended: the deciding rule, who it names, and a result per side (1, 0.5 or 0;
    k players tied at the top of a `rank by` share: 1/k each)."""

    kind: Kind = field(converter=Kind)  # win / lose / draw (given as a Kind or its text)
    player: Optional[int]  # the side named by win / lose
    reason: Optional[str]
    results: tuple  # per side
    scores: tuple = ()  # per side: the points of a game scored in points, the first key of `rank by`, else empty
    points: bool = False  # the scores are the game's result (`win P by K`, `win by points`): agents maximise them

    def winners(self) -> tuple:
        return tuple(i for i, r in enumerate(self.results) if r == 1)

    def values(self) -> tuple:
        """What each side gets: its points in a game scored in points, else its result."""
        return self.scores if self.points else self.results


def outcome_of(raw: tuple, n: int) -> Outcome:
    """The Outcome of a raw outcome (kind, who, reason) of `Game.outcome` in a game of n sides:
    the one place a game's end becomes results per side (a study, an agent, a match read it here).
    In a game scored in points a raw win, loss or draw has a fourth item, what it is worth (see
    `shares`), and `win by points` is ("points", (points,) per side, reason)."""
    kind, who, reason = raw[:3]
    if kind == "rank":
        return ranked(who, reason)
    if kind == "points":
        return ranked(who, reason, points=True)
    if kind == Kind.DRAW:
        results = tuple(0.5 for _ in range(n))
    elif kind == Kind.WIN:
        results = tuple(1 if i == who else 0 for i in range(n))
    else:
        results = tuple(0 if i == who else 1 for i in range(n))
    if len(raw) > 3:
        return Outcome(kind, who, reason, results, shares(kind, who, raw[3], n), True)
    return Outcome(kind, who, reason, results)


def shares(kind: str, who: Optional[int], worth, n: int) -> tuple:
    """The points per side of `win P by K` (P scores K, the others share -K equally: a zero-sum
    result), `lose P by K` (P scores -K, the others share K) or a draw (0 each)."""
    if kind == Kind.DRAW or who is None:
        return tuple(0 for _ in range(n))
    mine = worth if kind == Kind.WIN else -worth
    other = -mine / (n - 1) if n > 1 else 0
    if other == int(other):
        other = int(other)
    return tuple(mine if i == who else other for i in range(n))


def ranked(keys: tuple, reason: Optional[str], points: bool = False) -> Outcome:
    """The outcome of `rank by` (or of `win by points`, `points`): keys[p] is player p's tuple
    (score, tie-breaks...). The players with the greatest tuple win: one alone wins, k together
    share a draw (1/k each)."""
    best = max(keys)
    top = [p for p, k in enumerate(keys) if k == best]
    results = tuple((1 / len(top) if len(top) > 1 else 1) if p in top else 0 for p in range(len(keys)))
    scores = tuple(k[0] for k in keys)
    if len(top) == 1:
        return Outcome(Kind.WIN, top[0], reason, results, scores, points)
    return Outcome(Kind.DRAW, None, reason, results, scores, points)
