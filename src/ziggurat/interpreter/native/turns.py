"""Whole turns in the native backend: what the module of a game that declares `whole turns, at most
N parts [, one per position] [, keeping the most parts | NAME]` holds more than another's, and the
loops `NativeGame` runs for it.

`turns_text(game)` is the constants of the declaration and the kernel `turns_kernel.py` (its
listing `legal_turns`, `turn_perft`, `turn_study_chunk`), appended to the game's module; a module
of a game without whole turns is unchanged. `TurnLoops(ng)` runs them for a `NativeGame`: perft
and divide count whole turns (over nature's moves, as the Python backend's perft); playouts and a
study's chunk draw each turn uniformly among the listed turns (the Python random agent's process,
from the native generator); `legal(state)` lists the turns as the Python backend's tuples, in its
order (the tests compare the two).

Not native: a game whose rules ask about repetition (a turn's positions would need their history
within the listing: `game._write` refuses it), the rollout policy `parts` (it draws one part of a
move at a time), and the native searches (their tree plays parts): each raises `Unsupported` with
its reason.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

import numpy as np
from attrs import frozen

from ...errors import Unsupported
from .playout import Playout
from .module import KERNEL_MARK

TOO_LONG = -5  # turns_kernel's code: a turn past its declared parts


def turns_text(game) -> str:
    """The constants of the game's whole-turn declaration and the whole-turn kernel ("" without one)."""
    spec = game.spec
    if not spec.turn_parts:
        return ""
    keep, slot = 0, 0
    if spec.turn_keeping == "parts":
        keep = 1
    elif spec.turn_keeping:
        keep, slot = 2, game.world.counter_index[spec.turn_keeping]
    consts = [f"TURNPARTS = {spec.turn_parts!r}", f"TURNMERGED = {bool(spec.turn_merged)!r}",
              f"TURNKEEP = {keep!r}  # 0 every turn, 1 the most parts, 2 the highest counter TURNSLOT",
              f"TURNSLOT = {slot!r}", f"USESLAST = {bool(spec.uses_last)!r}"]
    return "\n\n# ---- whole turns " + "-" * 80 + "\n" + "\n".join(consts) + "\n\n" + _kernel()


@lru_cache(maxsize=1)
def _kernel() -> str:
    text = resources.files(__package__).joinpath("turns_kernel.py").read_text(encoding="utf-8")
    return text.partition(KERNEL_MARK + "\n")[2]


class TurnLoops:
    """The loops of whole turns of one `NativeGame` (`ng`)."""

    def __init__(self, ng):
        self.ng, self.module = ng, ng.module
        self.most = ng.game.spec.turn_parts  # a game whose rules ask about repetition has no module (game._write)

    def check(self, code: int) -> None:
        if code == TOO_LONG:  # the Python backend raises the ruleset's error at the declaration
            raise Unsupported(f"a turn longer than {self.most} parts")
        self.ng._check(code)

    def legal(self, state) -> list:
        """The moves of `state` as the Python backend's tuples, listed natively."""
        v, _h, _n = self.ng.start(state)
        out = np.empty((self.module.MAXM, self.most), np.int64)
        lens = np.empty(self.module.MAXM, np.int64)
        n = int(self.module.turns_of(v, out, lens))
        if n < 0:
            self.check(n)
        return [self.turn(out[i, :lens[i]]) for i in range(n)]

    def turn(self, parts) -> tuple:
        """A turn's packed parts as the Python backend's move: the parts' tuples, concatenated."""
        return tuple(x for m in np.asarray(parts).tolist() for x in self.ng.codec.unpack(m))

    def perft(self, state, depth: int) -> int:
        v, _h, _n = self.ng.start(state)
        n = int(self.module.turn_perft(v, int(depth)))
        if n < 0:
            self.check(n)
        return n

    def divide(self, state, depth: int) -> list:
        """[(move, leaves)] by first move, in the Python backend's order."""
        out = []
        for m in state.moves():
            state.push(m)
            try:
                out.append((m, self.perft(state, max(0, depth - 1)) if depth > 0 else 1))
            finally:
                state.pop()
        return out

    def chunk(self, starts, seeds, max_plies: int, finals, moves_out, lens_out) -> tuple:
        return self.module.turn_study_chunk(starts, seeds, int(max_plies), finals, moves_out, lens_out)

    def playout(self, state, seed: int, max_plies: int, history: bool) -> "TurnPlayout":
        ng = self.ng
        v, _h, _n = ng.start(state, history)
        plies = max(0, int(max_plies))
        moves = np.zeros((1, plies * self.most), np.int64)
        lens = np.zeros((1, plies), np.int64)
        final = np.empty((1, ng.layout.size), np.int64)
        n, codes, results, branching, _a, _s = self.chunk(v[None, :], np.array([seed & 0xFFFFFFFFFFFFFFFF], np.uint64),
                                                          plies, final, moves, lens)
        code = int(codes[0])
        if code < 0:
            self.check(code)
        raw = results[0]
        kind, who, reason, res = ng.ended(code, raw)
        scores = tuple(float(r) for r in raw[:ng.layout.nplayers]) if ng.game.points and kind else ()
        k = int(n[0])
        used = int(lens[0, :k].sum())
        return TurnPlayout(moves[0, :used], ng.codec, k, kind, who, reason, res, int(branching[0]), final[0], scores,
                           lens[0, :k].copy())


@frozen
class TurnPlayout(Playout):
    """A native playout of whole turns: `packed` holds the parts, `lengths` each turn's number of them."""

    lengths: np.ndarray = np.zeros(0, np.int64)

    @property
    def moves(self) -> tuple:
        """The moves as the Python backend's tuples (a whole turn: its parts' tuples, concatenated)."""
        parts = self.codec.unpack_all(self.packed)
        out, i = [], 0
        for n in self.lengths.tolist():
            out.append(tuple(x for p in parts[i:i + n] for x in p))
            i += n
        return tuple(out)

    def actions(self) -> list:
        """The action of each move (a whole turn's: its first part's)."""
        starts = np.concatenate(([0], np.cumsum(self.lengths)[:-1])).astype(np.int64)
        return (self.packed[starts] & ((1 << self.codec.abits) - 1)).tolist() if len(self.lengths) else []
