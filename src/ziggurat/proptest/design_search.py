"""The exact searches behind two design lints: a forced win within k plies, and a game that cannot end.

Both work on the public game API (`moves`, `push`, `pop`, `outcome`, `chance_outcomes`) and key
positions without their ply (side, cells, zones, counters, seats, what is on the table), unless the
rules read the ply or the history (`ply`, `repeated`): then the ply is in the key too. Both stop at
a node budget or a deadline (`Budget`) and then say that they did not finish, never guess.

- `forced_win(state, plies)`: for each side, the shortest forced win within `plies` plies (AND-OR
  search by iterative deepening: some move of that side, every reply of the others and every
  outcome of chance), and a line that shows it (the winner's moves, the longest defence).
- `explore_endings(state)`: every position reachable from the start (up to the budget); those from
  which no line of play ends the game, each with the moves that reach it and the loop it cannot
  leave.
"""

from __future__ import annotations

import re
import time
from collections import deque
from typing import Optional

from attrs import define, field, frozen


class OutOfBudget(Exception):
    """The search used its positions or its time."""


@define
class Budget:
    """A node budget and a deadline (time.monotonic() seconds), shared by the searches of one run."""

    nodes: int = 200_000
    deadline: Optional[float] = None
    used: int = 0

    def tick(self) -> None:
        self.used += 1
        if self.used > self.nodes or (self.deadline is not None and self.used % 256 == 0
                                      and time.monotonic() > self.deadline):
            raise OutOfBudget

    def out_of_time(self) -> bool:
        return self.deadline is not None and time.monotonic() > self.deadline


def keyer(game):
    """The position key of a game's states (see the module docstring)."""
    texts = " ".join(text for _, text in game.rules)
    with_ply = game.spec.hashing or re.search(r"\bply\b", texts) is not None

    def key(st) -> tuple:
        k = (st.side, tuple(st.cells), tuple(st.zones), tuple(st.counters), tuple(st.seats), tuple(st.on_table()))
        return k + (st.ply,) if with_ply else k

    return key


def _branches(st) -> tuple:
    """(moves, chance) of a position that is not over: chance when nature moves (every outcome counts)."""
    moves = st.moves()
    return moves, bool(moves) and st.game.chance_outcomes(st, moves) is not None


@frozen
class ForcedWin:
    side: int
    side_name: str
    plies: int  # the length of the forced win, in plies (the winner's moves and the others')
    line: tuple  # move texts of a line that shows it: the winner's best moves, the longest defence


def forced_win(state, plies: int, budget: Budget) -> tuple:
    """(the forced wins found, one per side that has one within `plies` plies, shortest first;
    whether the search was complete). `state` is not changed."""
    game = state.game
    key = keyer(game)
    st = state.copy()
    found: list = []
    complete = True
    for side in range(len(game.players)):
        table: dict = {}  # (key, depth) -> True when `side` forces a win within depth plies

        def wins(depth: int, side: int = side, table: dict = table) -> bool:
            return _wins(st, side, depth, key, table, budget)

        try:
            for depth in range(1, plies + 1):
                if wins(depth):
                    found.append(ForcedWin(side, game.players[side], depth, tuple(_line(st, wins, side, depth))))
                    break
        except OutOfBudget:
            complete = False
            break
    return found, complete


def _wins(st, side: int, depth: int, key, table: dict, budget: Budget) -> bool:
    """Whether `side` can force a win from `st` within `depth` plies (every outcome of chance counted)."""
    o = st.outcome()
    if o is not None:
        return o.results[side] == 1 and o.winners() == (side,)
    if depth == 0:
        return False
    k = (key(st), depth)
    if k in table:
        return table[k]
    budget.tick()
    moves, chance = _branches(st)
    if not moves:
        table[k] = False
        return False
    mine = st.side == side and not chance
    result = not mine
    for m in moves:
        st.push(m)
        try:
            w = _wins(st, side, depth - 1, key, table, budget)
        finally:
            st.pop()
        if w == mine:
            result = mine
            break
    table[k] = result
    return result


def _line(st, wins, side: int, depth: int) -> list:
    """A line of a forced win of `side` within `depth` plies: at its moves the one that wins
    soonest, at the others' (and chance's) the one after which the win takes longest."""
    line, pushed = [], 0

    def soonest(move, limit: int) -> Optional[int]:
        return next((d for d in range(limit + 1) if _after(st, move, lambda d=d: wins(d))), None)

    try:
        while st.outcome() is None and depth > 0:
            moves, chance = _branches(st)
            lengths = [(soonest(m, depth - 1), i) for i, m in enumerate(moves)]
            lengths = [(d, i) for d, i in lengths if d is not None]
            if not lengths:
                break
            mine = st.side == side and not chance
            best = moves[min(lengths)[1] if mine else max(lengths, key=lambda t: (t[0], -t[1]))[1]]
            line.append(st.move_text(best))
            st.push(best)
            pushed += 1
            depth -= 1
    finally:
        for _ in range(pushed):
            st.pop()
    return line


def _after(st, move, test) -> bool:
    st.push(move)
    try:
        return test()
    finally:
        st.pop()


@frozen
class Trap:
    """A reachable position from which no line of play ends the game."""

    reach: tuple  # move texts from the start
    loop: tuple  # move texts of a loop from it back to it (empty if none was followed)
    position: str  # the position's text


@define
class Endings:
    positions: int = 0
    endings: int = 0  # positions where the game is over
    complete: bool = False
    traps: list = field(factory=list)  # at most a few, closest to the start first
    stuck: int = 0  # reachable positions from which the game cannot end


def explore_endings(state, budget: Budget, traps: int = 3) -> Endings:
    """Every position reachable from `state` (breadth first, up to the budget) and those from which
    the game cannot end."""
    key = keyer(state.game)
    st = state.copy()
    start = key(st)
    parent: dict = {start: None}  # key -> (parent key, move)
    succ: dict = {}
    over: set = set()
    queue: deque = deque([(start, ())])
    out = Endings()
    try:
        while queue:
            k, path = queue.popleft()
            budget.tick()
            for m in path:
                st.push(m)
            try:
                if st.outcome() is not None:
                    over.add(k)
                    succ[k] = ()
                    continue
                nexts = []
                for m in st.moves():
                    st.push(m)
                    k2 = key(st)
                    st.pop()
                    nexts.append((k2, m))
                    if k2 not in parent:
                        parent[k2] = (k, m)
                        queue.append((k2, path + (m,)))
                succ[k] = tuple(nexts)
            finally:
                for _ in path:
                    st.pop()
    except OutOfBudget:
        out.positions, out.endings = len(parent), len(over)
        return out
    out.positions, out.endings, out.complete = len(parent), len(over), True
    # The positions that can reach an ending: backwards from the endings.
    preds: dict = {}
    for k, nexts in succ.items():
        for k2, _ in nexts:
            preds.setdefault(k2, []).append(k)
    can_end = set(over)
    work = list(over)
    while work:
        k = work.pop()
        for p in preds.get(k, ()):
            if p not in can_end:
                can_end.add(p)
                work.append(p)
    stuck = [k for k in parent if k not in can_end]
    out.stuck = len(stuck)
    # The first stuck positions met breadth first whose parent could still end: where play goes wrong.
    entries = [k for k in stuck if parent[k] is None or parent[k][0] in can_end]
    for k in entries[:traps]:
        out.traps.append(_trap(state, parent, succ, k))
    return out


def _trap(state, parent: dict, succ: dict, k) -> Trap:
    path = []
    node = k
    while parent[node] is not None:
        node, move = parent[node][0], parent[node][1]
        path.append(move)
    path.reverse()
    st = state.copy()
    reach = []
    for m in path:
        reach.append(st.move_text(m))
        st.push(m)
    text = st.text()
    # Follow moves (any, within the stuck part) until a position comes back: the loop.
    seen = {k: 0}
    moves: list = []
    node = k
    while succ.get(node):
        node2, m = succ[node][0]
        moves.append(st.move_text(m))
        st.push(m)
        if node2 in seen:
            return Trap(tuple(reach), tuple(moves[seen[node2]:]), text)
        seen[node2] = len(moves)
        node = node2
    return Trap(tuple(reach), (), text)
