"""Solvability census of a one-player puzzle: solve every distinct setup of a small board.

The setups to solve come from one of two sources:

- **Seeds** (`seeds=range(1000)`): draw the ruleset's start position with each seed and keep the
  distinct positions. This works for any random setup, but only finds the setups the seeds happen
  to draw.
- **Exhaustive** (`exhaustive=True`): take the start position's stacks as a multiset and put them on
  the board's cells in every distinct way, at most one stack per cell, the remaining cells empty;
  the side to move, zones and counters stay as in the start. This is every setup of a puzzle whose
  setup is "these pieces, scattered over the board" (one per cell, say), whatever seed drew the
  start. It is not right for a setup with fixed structure (pieces that must start on given cells).

With `symmetric=True` the setups are grouped by the symmetries of the board (the 8 of a square,
the 4 of a rectangle: mirrors and half turns), one setup per group is solved and the group counts
as solvable or not as a whole. Set it only when the rules treat the board the same after a
mirror or turn (no `n` / `forward`, no named files or ranks); it is the caller's promise.

Work is shared by `ziggurat.lab.runner` (the studies' runner): every local core by default, or a
Dask cluster; the setups are put in a fixed order before solving and results come back in that
order, so the report does not depend on the number of workers.
"""

from __future__ import annotations

import math
import os
import time
from collections import Counter
from typing import Callable, Iterable, Iterator, Optional

from attrs import frozen

import ziggurat

from ..errors import GameError
from .runner import run_batches
from .solve import solve_puzzle


@frozen
class SetupResult:
    """One group of setups (one setup without symmetry): its representative and the answer."""

    position: str  # the representative setup, as position text
    setups: int  # distinct setups in the group
    solvable: bool
    nodes: int
    solution: tuple  # move texts of a winning line from `position`

    def as_dict(self) -> dict:
        return {"position": self.position, "setups": self.setups, "solvable": self.solvable,
                "nodes": self.nodes, "solution": list(self.solution)}


@frozen
class CensusReport:
    """How many distinct setups a puzzle has (among those looked at) and how many are solvable."""

    ruleset: str
    options: dict
    method: str  # "exhaustive" or "seeds"
    draws: int  # seeds drawn (0 for an exhaustive census)
    symmetric: bool
    results: tuple  # SetupResult, in a fixed order
    seconds: float

    @property
    def setups(self) -> int:
        return sum(r.setups for r in self.results)

    @property
    def classes(self) -> int:
        return len(self.results)

    @property
    def solvable(self) -> int:
        return sum(r.setups for r in self.results if r.solvable)

    @property
    def solvable_classes(self) -> int:
        return sum(1 for r in self.results if r.solvable)

    @property
    def nodes(self) -> int:
        return sum(r.nodes for r in self.results)

    @property
    def unsolvable(self) -> list:
        """Representative positions of the groups with no solution."""
        return [r.position for r in self.results if not r.solvable]

    def as_dict(self, details: bool = False) -> dict:
        out = {"ruleset": self.ruleset, "options": {k: str(v) for k, v in self.options.items()},
               "method": self.method, "draws": self.draws, "symmetric": self.symmetric,
               "setups": self.setups, "solvable": self.solvable, "classes": self.classes,
               "solvable_classes": self.solvable_classes, "nodes": self.nodes,
               "seconds": self.seconds, "unsolvable": self.unsolvable}
        if details:
            out["results"] = [r.as_dict() for r in self.results]
        return out


# ---- setups ---------------------------------------------------------------------------------

def setup_state(ruleset: str, options: Optional[dict], seed: Optional[int]):
    """The start position of a ruleset drawn with `seed` (`Game.new(seed)`; without a seed, the
    ruleset's own `seed` option, if it has one, chooses)."""
    return _game(ruleset, dict(options or {})).new(seed)


def board_symmetries(files: int, ranks: int) -> list:
    """The symmetries of a files x ranks board as cell permutations: `perm[c]` is where cell c
    goes. Identity first; 8 for a square board, 4 for any other rectangle."""
    def index(f, r):
        return r * files + f

    maps = [lambda f, r: (f, r), lambda f, r: (files - 1 - f, r), lambda f, r: (f, ranks - 1 - r),
            lambda f, r: (files - 1 - f, ranks - 1 - r)]
    if files == ranks:
        maps += [lambda f, r: (r, f), lambda f, r: (ranks - 1 - r, f), lambda f, r: (r, files - 1 - f),
                 lambda f, r: (ranks - 1 - r, files - 1 - f)]
    perms = []
    for fn in maps:
        perm = tuple(index(*fn(c % files, c // files)) for c in range(files * ranks))
        if perm not in perms:
            perms.append(perm)
    return perms


def _images(cells: tuple, perms: list) -> list:
    out = []
    for perm in perms:
        image = [()] * len(cells)
        for c, stack in enumerate(cells):
            image[perm[c]] = stack
        out.append(tuple(image))
    return out


def canonical_cells(cells: tuple, perms: list) -> tuple:
    """The least image of a board (a tuple of stacks per cell) under the given symmetries."""
    return min(_images(tuple(cells), perms))


def multiset_permutations(items: list) -> Iterator[tuple]:
    """Every distinct ordering of a list whose items may repeat, in sorted order."""
    counts = Counter(items)
    keys = sorted(counts)
    n = len(items)
    out: list = []

    def rec():
        if len(out) == n:
            yield tuple(out)
            return
        for k in keys:
            if counts[k]:
                counts[k] -= 1
                out.append(k)
                yield from rec()
                out.pop()
                counts[k] += 1

    yield from rec()


def count_arrangements(state) -> int:
    """How many distinct setups `arrangements(state)` gives (a multinomial coefficient)."""
    stacks = [tuple(s) for s in state.cells]
    n = math.factorial(len(stacks))
    for k in Counter(stacks).values():
        n //= math.factorial(k)
    return n


def arrangements(state) -> Iterator[tuple]:
    """Every distinct way to put the stacks of `state` on the board, one stack per cell at most
    (as tuples of stacks per cell, the empty stack for an empty cell)."""
    yield from multiset_permutations([tuple(s) for s in state.cells])


def with_cells(state, cells: tuple) -> str:
    """The position text of `state` with its board replaced by `cells` (the rest kept, ply 0)."""
    game = state.game
    w = game.world
    board = " ".join(f"{w.cell_name(c)}={''.join(w.piece_text(p) for p in s)}"
                     for c, s in enumerate(cells) if s)
    fields = state.text().split("|")
    fields[0] = f"{game.players[state.side]} 0 "
    fields[1] = f" {board} "
    return game.position("|".join(fields)).text()


def _group(state, boards: Iterable[tuple], perms: list) -> list:
    """[(representative position text, distinct setups in its group)], in first-seen order."""
    groups: dict = {}
    for cells in boards:
        key = canonical_cells(cells, perms)
        groups[key] = groups.get(key, 0) + 1
    return [(with_cells(state, key), n) for key, n in groups.items()]


def setups(ruleset: str, options: Optional[dict] = None, *, seeds: Optional[Iterable[int]] = None,
           exhaustive: bool = False, symmetric: bool = False) -> tuple:
    """The setups to solve: ([(position text, setups it stands for)], seeds drawn)."""
    if exhaustive == (seeds is not None):
        raise GameError("a census needs either seeds or an exhaustive enumeration (one of the two)")
    if exhaustive:
        start = setup_state(ruleset, options, None)
        boards: Iterable[tuple] = arrangements(start)
        draws = 0
    else:
        seen: dict = {}
        draws = 0
        start = None
        for seed in seeds:
            st = setup_state(ruleset, options, seed)
            draws += 1
            start = start or st
            seen.setdefault(st.text(), st)
        if start is None:
            raise GameError("no seeds to draw setups from")
        distinct = list(seen.values())
        if any(s.side != start.side or s.zones != start.zones or s.counters != start.counters
               or s.seats != start.seats or s.on_table() != start.on_table() for s in distinct):
            # Off-board parts differ between setups: each setup stands alone (no grouping of boards).
            return [(s.text(), 1) for s in distinct], draws
        boards = (tuple(s.cells) for s in distinct)
    w = start.game.world
    perms = board_symmetries(w.files, w.ranks) if symmetric else board_symmetries(w.files, w.ranks)[:1]
    return _group(start, boards, perms), draws


# ---- solving ---------------------------------------------------------------------------------

_GAMES: dict = {}  # per process: loading reads and parses the ruleset, far slower than a solve


def _game(ruleset: str, options: dict):
    key = (ruleset, tuple(sorted((k, str(v)) for k, v in options.items())))
    if key not in _GAMES:
        _GAMES[key] = ziggurat.load(ruleset, options or None)
    return _GAMES[key]


def _solve_one(job: tuple) -> tuple:
    ruleset, options, text, max_nodes = job
    state = _game(ruleset, options).position(text)
    r = solve_puzzle(state, max_nodes=max_nodes)
    return r.solvable, r.nodes, r.solution


def _solve_batch(jobs: list) -> list:
    return [_solve_one(job) for job in jobs]


def census(ruleset: str, options: Optional[dict] = None, seeds: Optional[Iterable[int]] = None,
           exhaustive: bool = False, workers: Optional[int] = None, *, symmetric: bool = False,
           max_nodes: Optional[int] = None, client=None,
           progress: Optional[Callable[[int, int], None]] = None) -> CensusReport:
    """Solve every distinct setup of a one-player ruleset (see the module doc for the sources of
    setups and for `symmetric`). `workers`: processes to use (default: every core; 1 solves in
    this process); `client`: a Dask distributed client, to solve on its cluster instead.
    `progress(done, total)` is called as groups are solved. `max_nodes` bounds each solve
    (SearchLimitExceeded beyond it)."""
    start_time = time.perf_counter()
    options = dict(options or {})
    game = _game(ruleset, options)
    if len(game.players) != 1:
        raise GameError(f"{game.name} has {len(game.players)} players; a census solves one-player puzzles")
    groups, draws = setups(ruleset, options, seeds=seeds, exhaustive=exhaustive, symmetric=symmetric)
    jobs = [(ruleset, options, text, max_nodes) for text, _ in groups]
    workers = workers or os.cpu_count() or 1
    if progress is not None:
        progress(0, len(jobs))
    chunk = max(1, min(64, len(jobs) // (workers * 8) or 1))
    batches = [jobs[i:i + chunk] for i in range(0, len(jobs), chunk)]
    finished = 0

    def advance(i, part):
        nonlocal finished
        finished += len(part)
        if progress is not None:
            progress(finished, len(jobs))

    parts = run_batches(_solve_batch, batches, workers=workers, client=client, progress=advance)
    answers = [a for part in parts for a in part]
    results = tuple(SetupResult(text, n, solvable, nodes, solution)
                    for (text, n), (solvable, nodes, solution) in zip(groups, answers))
    return CensusReport(ruleset, options, "exhaustive" if exhaustive else "seeds", draws, symmetric,
                        results, time.perf_counter() - start_time)
