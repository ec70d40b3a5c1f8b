"""The native backend's data: a position as one flat int64 vector, a move as one packed int64.

A position is a vector of fixed length (numpy int64), laid out as

| slots | what |
|---|---|
| `SIDE`, `PLY`, `LAST`, `OVER` | the side to move, the ply, the last move (-1: none), a flag set when a stack outgrew `CAP` |
| `SEATS + p` | the seat of each side |
| `CNT + k` | each counter slot |
| `ZON + z * NPIECES + p` | how many pieces of code p zone slot z holds (a zone as a multiset) |
| `HSH` | the position's hash, kept up to date by every move (see `loops`), when the rules ask about repetition |
| `HGT + c` | the height of the stack on cell c |
| `STK + c * CAP + k` | the piece at level k + 1 of cell c (bottom first) |

where a stack's slots above its height are left as they were (nothing reads them: copying a
position and its hash skip them; perft copies, playouts write in place). A move is
`action | (choice_1 + BIAS) << 8 | (choice_2 + BIAS) << 24 | ...`: 16 bits a choice, at most
three choices (`MAX_CHOICES`). Conversions between this and the Python backend's `State` and move
tuples are here too, so that both backends can be checked against each other.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

SIDE, PLY, LAST, OVER, SEATS = 0, 1, 2, 3, 4
BIAS = 1 << 15  # a choice's value v is stored as v + BIAS in its 16 bits
MAX_CHOICES = 3


class Layout:
    """Where each part of a position lives in the vector of one game."""

    def __init__(self, nplayers: int, ncells: int, cap: int, npieces: int, nzones: int, ncounters: int):
        self.nplayers, self.ncells, self.cap = nplayers, ncells, cap  # cap: the pieces a stack may hold
        self.npieces, self.nzones, self.ncounters = npieces, nzones, ncounters
        self.cnt = SEATS + nplayers
        self.zon = self.cnt + ncounters
        self.hsh = self.zon + nzones * npieces
        self.hgt = self.hsh + 1
        self.stk = self.hgt + ncells
        self.size = self.stk + ncells * cap

    def __eq__(self, other) -> bool:
        return isinstance(other, Layout) and self.constants() == other.constants()

    def constants(self) -> dict:
        return {"NPLAYERS": self.nplayers, "NC": self.ncells, "CAP": self.cap, "NPIECES": self.npieces,
                "CNT": self.cnt, "ZON": self.zon, "HSH": self.hsh, "HGT": self.hgt, "STK": self.stk, "SIZE": self.size}

    # ---- positions ------------------------------------------------------------------------------

    def vector(self, st) -> Optional[np.ndarray]:
        """The vector of a Python backend State (its hash slot 0: `NativeGame.start` fills it);
        None when a stack is deeper than `cap`."""
        v = np.zeros(self.size, dtype=np.int64)
        v[SIDE], v[PLY], v[LAST] = st.side, st.ply, -1
        v[SEATS:SEATS + self.nplayers] = st.seats
        v[self.cnt:self.cnt + self.ncounters] = st.counters
        zon, npieces = self.zon, self.npieces
        for z, pieces in enumerate(st.zones):
            for p in pieces:
                v[zon + z * npieces + p] += 1
        heights = [len(stack) for stack in st.cells]
        if heights and max(heights) > self.cap:
            return None
        v[self.hgt:self.stk] = heights
        slots = v[self.stk:].reshape(self.ncells, self.cap)
        for c, stack in enumerate(st.cells):
            if stack:
                slots[c, :len(stack)] = stack
        return v

    def cells(self, v: np.ndarray) -> list:
        """The stacks of a vector, as the Python backend holds them (tuples, bottom first)."""
        heights = v[self.hgt:self.stk].tolist()
        slots = v[self.stk:].reshape(self.ncells, self.cap).tolist()
        return [tuple(row[:h]) if h else () for row, h in zip(slots, heights)]


def pack(move: tuple) -> int:
    """A Python backend move tuple (action, choice, ...) as a packed int."""
    m = move[0]
    for k, value in enumerate(move[1:]):
        m |= (int(value) + BIAS) << (8 + 16 * k)
    return m


def unpack_all(moves: np.ndarray, nchoices: list) -> list:
    """Packed moves as the Python backend's tuples (`nchoices[action]`: its number of choices)."""
    actions = (moves & 0xFF).tolist()
    fields = [(((moves >> (8 + 16 * k)) & 0xFFFF) - BIAS).tolist() for k in range(max(nchoices, default=0))]
    return [(a,) + tuple(f[i] for f in fields[:nchoices[a]]) for i, a in enumerate(actions)]


def unpack(m: int, nchoices: int) -> tuple:
    """A packed move as the Python backend's tuple, for an action with `nchoices` choices."""
    m = int(m)
    return (m & 0xFF,) + tuple(((m >> (8 + 16 * k)) & 0xFFFF) - BIAS for k in range(nchoices))
