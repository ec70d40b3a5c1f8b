"""Run-time helpers that generated game modules call for the geometric built-ins that need a loop
(`flanked`, `connected`, `step` by several cells, `between`). They take plain tuples and ints, like the rest of the generated code."""

from __future__ import annotations


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


HELPERS = {"_flanked": _flanked, "_connected": _connected, "_stepk": _stepk, "_between": _between, "RepeatLimit": RepeatLimit}
