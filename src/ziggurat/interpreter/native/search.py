"""Search in native code, from Python: MCTS and alpha-beta over a game's native module (the kernel is
`search_kernel.py`, compiled with the module; the agents in `ziggurat.agents` drive it).

`NativeSearch(ng)` holds one game's native functions. `mcts(state, ...)` starts a `NativeTree` at a
position, which runs iterations in slices (`run`) so that the caller can watch a clock between
them, and gives the root's moves with their visits and mean results (`children`). `alphabeta(state,
moves, depth, ...)` starts a `NativeAlphaBeta`, a search to a fixed depth which also runs in slices
(of nodes) and gives each move's value.

A position is handed over with its history where the rules ask about repetition: the hashes of
the positions before it, rebuilt by taking the state's moves back and making them again (the state
is left as it was). A state whose earlier positions are not all on its move stack (a copy) counts
repetitions from itself on, as a native playout always did. Positions the vectors cannot hold raise
`Unsupported`, as the loops do; so does a ruleset whose heuristic this backend cannot write.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from ...errors import Unsupported
from .game import policy

NEED_NODES, NEED_MOVES = 1, 2  # search_kernel's statuses (MC_NEED_NODES, MC_NEED_MOVES)
TT_BITS = 18  # 262,144 transposition entries (10 MB)


class NativeSearch:
    """The native searches of one game (`ng`: a `NativeGame`)."""

    def __init__(self, ng):
        missing = ng.module.HEURISTIC_MISSING
        if missing:
            raise Unsupported(missing)
        if ng.turns is not None:  # its tree would play parts where the game's moves are whole turns (turns.py)
            raise Unsupported("a search over whole turns (the native tree plays one part a move)")
        self.ng, self.module = ng, ng.module
        self.nplayers = ng.layout.nplayers
        self._tt: Optional[tuple] = None

    # ---- positions ----------------------------------------------------------------------------

    def root(self, state) -> tuple:
        """(vector, history of hashes, its length) of a state, its earlier positions included
        where the rules ask about repetition and the state's move stack holds them."""
        ng = self.ng
        v, hist, nhist = ng.start(state, history=False)
        if not ng.hashing:
            return v, hist, nhist
        earlier = sum(state.seen.values()) - 1
        if earlier <= 0 or len(state.stack) < earlier:
            return v, hist, nhist
        hashes, popped = [], []
        try:
            for _ in range(earlier):
                popped.append(state.pop())
                hashes.append(ng.start(state, history=False)[0][ng.layout.hsh])
        finally:
            for m in reversed(popped):
                state.push(m)
        full = np.array(hashes[::-1] + [v[ng.layout.hsh]], dtype=np.int64)
        return v, full, len(full)

    def moves(self, packed) -> list:
        return [self.ng.move(int(m)) for m in packed]

    # ---- the searches -------------------------------------------------------------------------

    def mcts(self, state, c: float, rollout: int, seed: int, iterations: int = 0,
             parts: bool = False) -> "NativeTree":
        """A tree at `state` (not over), sized for `iterations` (grown when more are run);
        `parts`: its playouts draw turns part by part (the rollout policy, `kernel_loops`)."""
        return NativeTree(self, state, c, rollout, seed, iterations, parts)

    def ismcts(self, state, c: float, rollout: int, seed: int, iterations: int = 0,
               parts: bool = False) -> "NativeInfoTree":
        """An information-set tree for the mover of `state` (not over, not nature's turn), sized
        for `iterations`: each iteration deals the pieces the mover cannot see again."""
        return NativeInfoTree(self, state, c, rollout, seed, iterations, parts)

    def tt(self) -> tuple:
        if self._tt is None:
            size = 1 << TT_BITS
            self._tt = (np.zeros(size, np.int64), np.zeros(size, np.float64), np.full(size, -1, np.int64),
                        np.zeros(size, np.int64), np.full(size, -1, np.int64))
        return self._tt

    def alphabeta(self, state, moves: list, depth: int, win: float, use_tt: bool = True) -> "NativeAlphaBeta":
        """A search of `state` (not over) to `depth`, its `moves` searched in that order; `run` it."""
        return NativeAlphaBeta(self, state, moves, depth, win, use_tt)


class NativeAlphaBeta:
    """One alpha-beta search to a fixed depth (`search_kernel.ab_run`), its stack in arrays held
    here so that it runs in slices of nodes between looks at the clock."""

    def __init__(self, search: NativeSearch, state, moves: list, depth: int, win: float, use_tt: bool):
        ng = search.ng
        self.search, self.module, self.depth = search, search.module, int(depth)
        self.root, self.hist0, self.nhist0 = search.root(state)
        self.packed = np.array([ng.pack(m) for m in moves], dtype=np.int64)
        self.win, self.use_tt = float(win), bool(use_tt)
        rows, size, maxm = self.depth + 1, ng.layout.size, int(self.module.MAXM)
        self.values = np.zeros(len(moves), np.float64)
        self.states = np.empty((rows, size), np.int64)
        self.mv = np.empty((rows, maxm), np.int64)
        self.prob = np.empty((rows, maxm if self.module.CHANCE else 1), np.float64)
        columns = int(self.module.AB_COLUMNS)
        self.ints = np.zeros((rows, columns), np.int64)
        self.flts = np.zeros((rows, columns), np.float64)
        self.hist = np.empty(self.nhist0 + rows, np.int64)
        self.ctl = np.zeros(3, np.int64)
        self.done = False

    def run(self, max_nodes: int = 1 << 62) -> bool:
        """Search at most `max_nodes` more nodes; whether the search is done."""
        _best, status = self.module.ab_run(self.root, self.packed, len(self.packed), self.depth, self.hist0,
                                           self.nhist0, self.win, *self.search.tt(), self.use_tt, int(max_nodes),
                                           self.values, self.states, self.mv, self.prob, self.ints, self.flts,
                                           self.hist, self.ctl)
        if status < 0:
            self.search.ng._check(int(status))
        self.done = status == 0
        return self.done

    @property
    def nodes(self) -> int:
        return int(self.ctl[1])

    def result(self) -> list:
        """The value of each move (after `run` returned True)."""
        return self.values.tolist()


class NativeTree:
    """One MCTS tree in native arrays (see search_kernel): made at a position, run in slices."""

    def __init__(self, search: NativeSearch, state, c: float, rollout: int, seed: int, iterations: int,
                 parts: bool = False):
        self.search, self.module = search, search.module
        self.root, self.hist, self.nhist = search.root(state)
        self.c, self.rollout, self.parts = float(c), int(rollout), policy(parts)
        self.x = np.uint64(seed & 0xFFFFFFFFFFFFFFFF)
        nodes = max(64, iterations + 2)
        width = max(8, len(state.game.legal(state)))
        self.tree = np.empty((nodes, int(self.module.MC_FIELDS)), np.int64)
        self.visits = np.zeros(nodes, np.int64)
        self.totals = np.zeros((nodes, search.nplayers), np.float64)
        self.moves = np.empty(min(nodes * width, 1 << 22) + width, np.int64)
        self.kids = np.empty(self.moves.shape[0], np.int64)
        self.used = np.zeros(2, np.int64)
        self.module.mcts_new_node(self.tree, self.visits, self.totals, self.used, -1)  # the root
        self.done = 0

    def run(self, iterations: int) -> int:
        """Run `iterations` more iterations; how many were run."""
        left = int(iterations)
        while left > 0:
            done, status, x = self.module.mcts_run(self.root, self.hist, self.nhist, self.tree, self.visits,
                                                   self.totals, self.moves, self.kids, self.used, left,
                                                   self.c, self.rollout, self.x, self.parts)
            self.x = np.uint64(x)  # Numba gives a Python int back, which it would take as an int64
            left -= done
            self.done += done
            if status == NEED_NODES:
                self.tree = _grown(self.tree)
                self.visits = _grown(self.visits)
                self.totals = _grown(self.totals)
            elif status == NEED_MOVES:
                self.moves = _grown(self.moves)
                self.kids = _grown(self.kids)
            elif status != 0:
                self.search.ng._check(int(status))
                raise Unsupported(f"a search that stopped (status {status})")
        return int(iterations)

    def children(self) -> list:
        """[(move, visits, mean result of the seat to move at the root)] of the root's moves
        (the moves not tried yet: 0 visits)."""
        mod = self.module
        first, n = int(self.tree[0, mod.MC_FIRST]), int(self.tree[0, mod.MC_N])
        if first < 0:
            return []
        seat = int(self.tree[0, mod.MC_SEAT])
        out = []
        for j in range(first, first + n):
            k = int(self.kids[j])
            visits = int(self.visits[k]) if k >= 0 else 0
            mean = float(self.totals[k, seat]) / visits if visits else 0.0
            out.append((self.search.ng.move(int(self.moves[j])), visits, mean))
        return out

    @property
    def nodes(self) -> int:
        return int(self.used[0])


class NativeInfoTree:
    """One information-set MCTS tree (search_ismcts) in native arrays: made at a position, run in
    slices. The position's own pieces in the zones hidden from its mover are never searched: each
    iteration deals them again."""

    def __init__(self, search: NativeSearch, state, c: float, rollout: int, seed: int, iterations: int,
                 parts: bool = False):
        ng = search.ng
        self.parts = policy(parts)
        self.search, self.module = search, search.module
        self.root, _hist, _n = ng.start(state, history=False)
        side = state.side
        self.seat = ng.seats(self.root)[side]
        self.hidden = np.array([int(v is not None and side not in v) for v in state.game.zone_viewers] or [0],
                               dtype=np.int64)
        self.c, self.rollout = float(c), int(rollout)
        self.x = np.uint64(seed & 0xFFFFFFFFFFFFFFFF)
        nodes = max(64, iterations + 2)
        self.tree = np.empty((nodes, int(self.module.IS_FIELDS)), np.int64)
        self.visits = np.zeros(nodes, np.int64)
        self.avail = np.zeros(nodes, np.int64)
        self.totals = np.zeros((nodes, search.nplayers), np.float64)
        self.used = np.zeros(1, np.int64)
        self.module.is_new_node(self.tree, self.visits, self.avail, self.totals, self.used, -1, -1)  # the root
        self.done = 0

    def run(self, iterations: int) -> int:
        """Run `iterations` more iterations; how many were run."""
        left = int(iterations)
        while left > 0:
            done, status, x = self.module.ismcts_run(self.root, self.hidden, self.tree, self.visits, self.avail,
                                                     self.totals, self.used, left, self.c, self.rollout, self.x,
                                                     self.parts)
            self.x = np.uint64(x)
            left -= done
            self.done += done
            if status == NEED_NODES:
                self.tree, self.visits = _grown(self.tree), _grown(self.visits)
                self.avail, self.totals = _grown(self.avail), _grown(self.totals)
            elif status != 0:
                self.search.ng._check(int(status))
                raise Unsupported(f"a search that stopped (status {status})")
        return int(iterations)

    def children(self) -> list:
        """[(move, visits, mean result of the mover's seat)] of the root's children."""
        mod, out = self.module, []
        k = int(self.tree[0, mod.IS_CHILD])
        while k >= 0:
            visits = int(self.visits[k])
            out.append((self.search.ng.move(int(self.tree[k, mod.IS_MOVE])), visits,
                        float(self.totals[k, self.seat]) / visits if visits else 0.0))
            k = int(self.tree[k, mod.IS_SIB])
        return out


def _grown(a: np.ndarray) -> np.ndarray:
    """The array twice as long (its rows kept)."""
    out = np.empty((a.shape[0] * 2,) + a.shape[1:], a.dtype)
    out[:a.shape[0]] = a
    return out
