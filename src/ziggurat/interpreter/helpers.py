"""Run-time helpers that generated game modules call for the geometric built-ins that need a loop
(`flanked`, `connected`). They take plain tuples and ints, like the rest of the generated code."""

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


HELPERS = {"_flanked": _flanked, "_connected": _connected}
