"""The native backend's data: a position as one flat int64 vector, a move as one packed int64.

A position is a vector of fixed length (numpy int64), laid out as

| slots | what |
|---|---|
| `SIDE`, `PLY`, `LAST`, `OVER` | the side to move, the ply, the last move (-1: none), a flag set when a stack outgrew `CAP` |
| `SEATS + p` | the seat of each side |
| `CNT + k` | each counter slot |
| `ZON + z * NPIECES + p` | how many pieces of code p zone slot z holds (a zone as a multiset) |
| `HGT + c` | the height of the stack on cell c |
| `STK + c * CAP + k` | the piece at level k + 1 of cell c (bottom first) |

so copying a position is one array copy (perft copies, playouts write in place). A move is
`action | (choice_1 + BIAS) << 8 | (choice_2 + BIAS) << 24 | ...`: 16 bits a choice, at most
three choices (`MAX_CHOICES`). Conversions between this and the Python backend's `State` and move
tuples are here too, so that both backends can be checked against each other.
"""

from __future__ import annotations

from typing import Optional

import numpy as np
from attrs import frozen

SIDE, PLY, LAST, OVER, SEATS = 0, 1, 2, 3, 4
BIAS = 1 << 15  # a choice's value v is stored as v + BIAS in its 16 bits
MAX_CHOICES = 3


@frozen
class Layout:
    """Where each part of a position lives in the vector of one game."""

    nplayers: int
    ncells: int
    cap: int  # pieces a stack may hold
    npieces: int
    nzones: int
    ncounters: int

    @property
    def cnt(self) -> int:
        return SEATS + self.nplayers

    @property
    def zon(self) -> int:
        return self.cnt + self.ncounters

    @property
    def hgt(self) -> int:
        return self.zon + self.nzones * self.npieces

    @property
    def stk(self) -> int:
        return self.hgt + self.ncells

    @property
    def size(self) -> int:
        return self.stk + self.ncells * self.cap

    def constants(self) -> dict:
        return {"NPLAYERS": self.nplayers, "NC": self.ncells, "CAP": self.cap, "NPIECES": self.npieces,
                "CNT": self.cnt, "ZON": self.zon, "HGT": self.hgt, "STK": self.stk, "SIZE": self.size}

    # ---- positions ------------------------------------------------------------------------------

    def vector(self, st) -> Optional[np.ndarray]:
        """The vector of a Python backend State; None when a stack is deeper than `cap`."""
        v = np.zeros(self.size, dtype=np.int64)
        v[SIDE], v[PLY] = st.side, st.ply
        v[LAST] = -1
        v[SEATS:SEATS + self.nplayers] = st.seats
        v[self.cnt:self.cnt + self.ncounters] = st.counters
        for z, pieces in enumerate(st.zones):
            for p in pieces:
                v[self.zon + z * self.npieces + p] += 1
        for c, stack in enumerate(st.cells):
            if len(stack) > self.cap:
                return None
            v[self.hgt + c] = len(stack)
            v[self.stk + c * self.cap:self.stk + c * self.cap + len(stack)] = stack
        return v

    def cells(self, v: np.ndarray) -> list:
        """The stacks of a vector, as the Python backend holds them (tuples, bottom first)."""
        return [tuple(int(p) for p in v[self.stk + c * self.cap:self.stk + c * self.cap + int(v[self.hgt + c])])
                for c in range(self.ncells)]


def pack(move: tuple) -> int:
    """A Python backend move tuple (action, choice, ...) as a packed int."""
    m = move[0]
    for k, value in enumerate(move[1:]):
        m |= (int(value) + BIAS) << (8 + 16 * k)
    return m


def unpack(m: int, nchoices: int) -> tuple:
    """A packed move as the Python backend's tuple, for an action with `nchoices` choices."""
    m = int(m)
    return (m & 0xFF,) + tuple(((m >> (8 + 16 * k)) & 0xFFFF) - BIAS for k in range(nchoices))
