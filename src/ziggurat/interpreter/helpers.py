"""Run-time helpers that generated game modules call for what needs a loop: slides along rays,
`flanked`, `connected`, `step` by several cells, `between`, sums over stacks, `product`, the
cells of the last move. They take plain tuples and ints, like the rest of the generated code."""

from __future__ import annotations

import itertools

from ..dsl.dice import showing as _showing, ways as _ways
from .geometry import GEOMETRY
from .spot_reasons import REASONS


def _ray(cells, rays, reach):
    """The cells a slide can reach along each ray: up to `reach` steps, stopping on the first occupied."""
    out = []
    for r in rays:
        for c in r[:reach]:
            out.append(c)
            if cells[c]:
                break
    return out


def _product(options) -> tuple:
    """Every way to take one item from each list of options, as tuples in the lists' order."""
    return tuple(itertools.product(*options))


def _shuffled(rng, items) -> tuple:
    """The items in a random order drawn from the setup's generator (the same seed, the same order)."""
    out = list(items)
    rng.shuffle(out)
    return tuple(out)


def _suffix(memo: dict, table: tuple, stack: tuple) -> tuple:
    """Sums of table[piece] over stack[k:] for every k, remembered per stack."""
    sums = [0] * (len(stack) + 1)
    for k in range(len(stack) - 1, -1, -1):
        sums[k] = sums[k + 1] + table[stack[k]]
    if len(memo) > 200_000:  # many distinct stacks: start afresh rather than grow without bound
        memo.clear()
    memo[stack] = out = tuple(sums)
    return out


def _last_cells(move, fields) -> tuple:
    """The cells a move names (fields[action] lists the places of its cell choices; a repeated
    choice holds a tuple of cells)."""
    out: list[int] = []
    for i in fields[move[0]]:
        v = move[i]
        if isinstance(v, tuple):
            out.extend(v)
        elif v is not None:
            out.append(v)
    return tuple(out)


def _flanked(cells, ctrl, line, p) -> tuple:
    """The stacks along `line` (nearest first) controlled by players other than p, when the first
    stack after them is controlled by p; otherwise none. An empty cell or the edge breaks the run."""
    for i, c in enumerate(line):
        s = cells[c]
        if not s:
            return ()
        owner = ctrl[s[-1]]
        if owner == p:
            return tuple(line[:i])
        if owner == -1:
            return ()
    return ()


def _run(cells, ctrl, line, p) -> int:
    """How many stacks controlled by p follow one another along `line` (nearest first), up to
    the first cell that is empty or not p's."""
    n = 0
    for c in line:
        s = cells[c]
        if not s or ctrl[s[-1]] != p:
            break
        n += 1
    return n


def _connected(group, neigh) -> bool:
    """True when the cells of `group` form one group through steps in the directions of `neigh`
    (NEIGH[dirset]); an empty group counts as connected."""
    members = set(group)
    if not members:
        return True
    start = next(iter(members))
    seen = {start}
    todo = [start]
    while todo:
        c = todo.pop()
        for x in neigh[c]:
            if x in members and x not in seen:
                seen.add(x)
                todo.append(x)
    return len(seen) == len(members)


class RepeatLimit(RuntimeError):
    """A `repeat` made more passes than any real chain needs: its passes change nothing."""


class MoveLimit(RuntimeError):
    """A position with more moves than one may have (dsl.budgets.MAX_MOVES): raised in the
    loop of a choice, with the choice's domain as written and the limit."""

    def __init__(self, domain: str, limit: int):
        super().__init__(domain, limit)  # its arguments, so that it pickles (a study's worker)

    def __str__(self) -> str:
        domain, limit = self.args
        return (f"this position has more than {limit:,} moves, the most one position may have "
                f"(the choice from {domain} made them)")


class LevelError(IndexError):
    """An effect at a level its stack does not have (insert, remove or change; the level from 1)."""

    def __init__(self, level: int, height: int, into: bool):
        super().__init__(level, height, into)  # its arguments, so that it pickles (a study's worker)

    def __str__(self) -> str:
        level, height, into = self.args
        most = height + 1 if into else height
        return (f"level {level} of a stack of {height} piece{'s' if height != 1 else ''}: the levels are 1 to {most}"
                if most >= 1 else f"level {level} of an empty stack: it has no level")


def _level(k: int, height: int, into: bool) -> int:
    """Raise LevelError for level index k (from 0) outside a stack of `height` (`into`: a level
    to slip a piece in at, height + 1 the top); k otherwise."""
    if not 0 <= k <= (height if into else height - 1):
        raise LevelError(k + 1, height, into)
    return k


def _stepk(c, line, k) -> int:
    """The cell k steps from c along `line` (LINE1[d][c]); -1 (off the board) past the edge."""
    if k == 0:
        return c
    return line[k - 1] if 0 < k <= len(line) and c >= 0 else -1


def _between(a, b, files) -> tuple:
    """The cells strictly between a and b when they share a file, a rank or a diagonal; else none."""
    if a < 0 or b < 0:
        return ()
    df, dr = b % files - a % files, b // files - a // files
    if not (df == 0 or dr == 0 or abs(df) == abs(dr)):
        return ()
    n = max(abs(df), abs(dr))
    sf, sr = (df > 0) - (df < 0), (dr > 0) - (dr < 0)
    return tuple(a + k * (sf + sr * files) for k in range(1, n))


HELPERS = {"_flanked": _flanked, "_run": _run, "_connected": _connected, "_stepk": _stepk, "_between": _between,
           "RepeatLimit": RepeatLimit, "MoveLimit": MoveLimit, "_level": _level, "_ray": _ray, "_product": _product,
           "_shuffled": _shuffled, "_ways": _ways, "_showing": _showing, "_suffix": _suffix,
           "_last_cells": _last_cells, **GEOMETRY, **REASONS}
