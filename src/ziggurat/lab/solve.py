"""Solving small games exactly: one-player puzzles and small games of two or more players.

Both searches work on any ruleset through the public game API (`moves`, `push`, `pop`, `outcome`)
and keep a transposition table keyed by the position *without its ply*:
`(side, cells, zones, counters, seats)`, the same content as `state.text()` minus the ply field.
The ply is left out on purpose, so that one arrangement reached by two move orders of different
lengths is searched once. This is sound when the ending rules do not look at `ply` or at the
history (`repeated(n)`); for a ruleset that does (a ply cap, say), pass `ignore_ply=False` to key
on the ply too. Repetition rules are history, not position: the searches refuse a game that can
come back to a position of the current line (see `solve_game`).

- `solve_puzzle(state)`: a depth-first search for a line that ends with the single player's result
  1; it returns the line (move texts) or proves there is none (`solvable=False`, every reachable
  position searched).
- `solve_game(state)`: alpha-beta over results (1 win, 1/2 draw, 0 loss) with a transposition
  table that stores bounds, then a principal variation. With two players this is the game's value
  for the side to move. With more players it is the *paranoid* value: the best result the player
  can make sure of when every other player plays against them.
"""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from typing import Callable, Optional

from attrs import frozen

from ..errors import MEMORY, GameError, SearchLimitExceeded  # noqa: F401 (MEMORY, SearchLimitExceeded: re-exported)

#: How often (in positions) the progress callback is called.
PROGRESS_EVERY = 2048
#: The searches' default budget: positions searched (each stored in the table at most once). The
#: table costs about 0.4 KB (a small board, no zones) to 1.4 KB (many zones and counters) a position
#: and the search runs at 5,000 to 15,000 positions a second, so 300,000 positions stop within
#: about a minute and half a gigabyte on the shipped games.
DEFAULT_MAX_NODES = 300_000
#: The largest budget accepted: a table of this many positions needs tens of gigabytes or more.
MAX_NODES_LIMIT = 100_000_000

Progress = Callable[[int, float], None]  # (positions searched, seconds so far)


def check_max_nodes(max_nodes: Optional[int]) -> Optional[int]:
    """A node budget, checked: None (no limit, from Python only) or 1 to MAX_NODES_LIMIT."""
    if max_nodes is None:
        return None
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or not 1 <= max_nodes <= MAX_NODES_LIMIT:
        raise GameError(f"the node budget must be a whole number from 1 to {MAX_NODES_LIMIT:,}, not {max_nodes!r}")
    return max_nodes


@frozen
class PuzzleResult:
    """The answer for a one-player puzzle: a winning line, or the proof that none exists."""

    solvable: bool
    solution: tuple  # move texts, empty when not solvable (or when the start is already won)
    nodes: int  # positions visited (transposition hits included)
    positions: int  # distinct positions proven to have no win (the transposition table)
    seconds: float
    reason: Optional[str] = None  # the reason of the winning outcome

    def as_dict(self) -> dict:
        return {"solvable": self.solvable, "solution": list(self.solution), "nodes": self.nodes,
                "positions": self.positions, "seconds": self.seconds, "reason": self.reason}


@frozen
class GameValue:
    """The value of a game for one player with best play by everyone, and a line that shows it."""

    value: float  # that player's result: 1 win, 0.5 draw, 0 loss (or any result the rules give)
    player: int  # the side the value is for (the side to move at the root, unless asked otherwise)
    player_name: str
    pv: tuple  # move texts of a principal variation
    nodes: int
    positions: int
    seconds: float

    @property
    def verdict(self) -> str:
        """'win', 'loss' or 'draw' for `player`, or the value as a number for other results."""
        return {1: "win", 0: "loss", 0.5: "draw"}.get(self.value, f"{self.value:g}")

    def as_dict(self) -> dict:
        return {"value": self.value, "verdict": self.verdict, "player": self.player_name,
                "pv": list(self.pv), "nodes": self.nodes, "positions": self.positions,
                "seconds": self.seconds}


def position_key(state, ignore_ply: bool = True) -> tuple:
    """The transposition-table key of a position: its content without the ply (or with it)."""
    key = (state.side, tuple(state.cells), tuple(state.zones), tuple(state.counters), tuple(state.seats),
           tuple(state.on_table()))
    return key if ignore_ply else key + (state.ply,)


@contextmanager
def _deep_recursion(limit: int = 50_000):
    """Let the depth-first searches follow long lines (one Python frame per ply)."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, limit))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


@contextmanager
def _memory(counter: "_Counter"):
    """Memory running out in a search is its budget reached, said as such (never a MemoryError)."""
    try:
        yield
    except MemoryError:
        raise SearchLimitExceeded(counter.nodes, MEMORY) from None


class _Counter:
    """Counts positions, calls the progress callback now and then, and enforces the limit."""

    def __init__(self, progress: Optional[Progress], max_nodes: Optional[int]):
        self.nodes = 0
        self.progress = progress
        self.max_nodes = check_max_nodes(max_nodes)
        self.start = time.perf_counter()

    def tick(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SearchLimitExceeded(self.max_nodes)
        if self.progress is not None and self.nodes % PROGRESS_EVERY == 0:
            self.progress(self.nodes, self.elapsed())

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def finish(self) -> float:
        seconds = self.elapsed()
        if self.progress is not None:
            self.progress(self.nodes, seconds)
        return seconds


def solve_puzzle(state, progress: Optional[Progress] = None, *, max_nodes: Optional[int] = DEFAULT_MAX_NODES,
                 ignore_ply: bool = True) -> PuzzleResult:
    """Find a line from `state` to a win of the single player, or prove that there is none.

    A win is a finished game whose result for the player is 1. A position with no legal move that
    the rules do not end counts as a dead end. `state` itself is not changed. Raises
    SearchLimitExceeded beyond `max_nodes` positions (DEFAULT_MAX_NODES unless given; None: no
    limit) and when memory runs out first.
    """
    game = state.game
    if len(game.players) != 1:
        raise GameError(f"{game.name} has {len(game.players)} players; solving a puzzle needs a "
                        "one-player game (solve a game of several players for its value instead)")
    st = state.copy()
    counter = _Counter(progress, max_nodes)
    failed: set = set()  # positions from which no win exists
    on_path: set = set()  # positions of the current line (a line through one again is no shorter)
    line: list = []
    final: list = []

    def search() -> bool:
        counter.tick()
        moves = st.moves()
        if not moves:
            out = st.outcome()
            if out is not None and out.results[0] == 1:
                final.append(out.reason)
                return True
            return False
        key = position_key(st, ignore_ply)
        if key in failed or key in on_path:
            return False
        on_path.add(key)
        for m in moves:
            line.append(st.move_text(m))
            st.push(m)
            if search():
                return True
            st.pop()
            line.pop()
        on_path.discard(key)
        failed.add(key)
        return False

    with _deep_recursion(), _memory(counter):
        solvable = search()
    seconds = counter.finish()
    return PuzzleResult(solvable, tuple(line) if solvable else (), counter.nodes, len(failed),
                        seconds, final[0] if final else None)


_EXACT, _LOWER, _UPPER = 0, 1, 2


def solve_game(state, progress: Optional[Progress] = None, max_nodes: Optional[int] = DEFAULT_MAX_NODES, *,
               player: Optional[int] = None, ignore_ply: bool = True) -> GameValue:
    """The value of `state` for `player` (default: the side to move) and a principal variation.

    Every player but `player` is taken to play against `player` (with two players, the usual
    game value). Results are those of `Outcome.results` (1, 1/2, 0). Raises SearchLimitExceeded
    beyond `max_nodes` positions (DEFAULT_MAX_NODES unless given; None: no limit) or when memory
    runs out first, and GameError when the game can return to a position of the
    line being searched (the search handles games whose positions never repeat) or when a
    position has no legal move and the rules do not end the game there. `state` is not changed.
    """
    game = state.game
    n = len(game.players)
    if n < 2:
        raise GameError(f"{game.name} is a one-player game: solve it as a puzzle")
    me = state.side if player is None else player
    if not 0 <= me < n:
        raise GameError(f"there is no side {me!r}; {game.name} has sides 0 to {n - 1}")
    st = state.copy()
    counter = _Counter(progress, max_nodes)
    table: dict = {}
    on_path: set = set()
    lo, hi = 0.0, 1.0  # the results lie between these, so reaching one ends a search

    def search(alpha: float, beta: float) -> float:
        counter.tick()
        moves = st.moves()
        if not moves:
            out = st.outcome()
            if out is None:
                raise GameError(f"the position {st.text()!r} has no legal move, yet the rules do not "
                                "end the game there; the end: block should decide it")
            return out.results[me]
        key = position_key(st, ignore_ply)
        entry = table.get(key)
        if entry is not None:
            flag, v = entry
            if flag == _EXACT or (flag == _LOWER and v >= beta) or (flag == _UPPER and v <= alpha):
                return v
            if flag == _LOWER:
                alpha = max(alpha, v)
            else:
                beta = min(beta, v)
        if key in on_path:
            raise GameError(f"the game can come back to the position {st.text()!r} within one line "
                            "of play; exact solving handles only games whose positions never repeat")
        on_path.add(key)
        alpha0, beta0 = alpha, beta
        maximising = st.side == me
        best = -1.0 if maximising else 2.0
        for m in moves:
            st.push(m)
            v = search(alpha, beta)
            st.pop()
            if maximising:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        on_path.discard(key)
        # Fail-soft bounds; the extreme results are exact whatever the window.
        if best <= alpha0 and best > lo:
            table[key] = (_UPPER, best)
        elif best >= beta0 and best < hi:
            table[key] = (_LOWER, best)
        else:
            table[key] = (_EXACT, best)
        return best

    with _deep_recursion(), _memory(counter):
        # With the window (lo, hi) every answer is exact: inside it, or an extreme result.
        value = search(lo, hi)
        pv: list = []
        while True:
            moves = st.moves()
            if not moves:
                break
            for m in moves:
                st.push(m)
                if search(lo, hi) == value:
                    pv.append(st.move_text(m))
                    break
                st.pop()
            else:  # cannot happen: the best move keeps the value
                raise AssertionError("no move keeps the value of the position")
    seconds = counter.finish()
    return GameValue(value, me, game.players[me], tuple(pv), counter.nodes, len(table), seconds)
