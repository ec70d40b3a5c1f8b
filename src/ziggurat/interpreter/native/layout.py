"""The native backend's data: a position as one flat int64 vector, a move as one packed int64.

A position is a vector of fixed length (numpy int64), laid out as

| slots | what |
|---|---|
| `SIDE`, `PLY`, `LAST`, `OVER` | the side to move, the ply, the last move (-1: none), OVER 1, 2, 3 (see below) |
| `SEATS + p` | the seat of each side |
| `CNT + k` | each counter slot |
| `ZON + z * ZW` | how many pieces zone slot z holds (`ZW = ZCAP + 1`) |
| `ZON + z * ZW + 1 + i` | its pieces, in the order they came (as the Python backend's tuple); 0 past its length |
| `HSH` | the position's hash, kept up to date by every move (see `loops`), when the rules ask about repetition |
| `HGT + c` | the height of the stack on cell c |
| `STK + c * CAP + k` | the piece at level k + 1 of cell c (bottom first) |
| `OCC + p * NW + w` | bit i: cell 64 w + i has a top piece p controls (`occupancy.py`; NW = 0: none) |
| `TBL` | a game on the open table only (`add_table`): how many pieces lie on it |
| `TBL + 1 + 2 i`, `TBL + 2 + 2 i` | the spot and the piece code of its i-th piece, in placing order |

where a stack's slots above its height are left as they were (nothing reads them: copying a
position and its hash skip them; perft copies, playouts write in place). A move is one
int64 of bit fields (`Codec`): the action in the lowest bits, then each choice in order, in as
many bits as its type needs (a cell: enough for the board's cells; a number: 16, biased by
`BIAS`); a list (a repeat's passes, a choice of a list) is its length then its items; the choices
of the `after` block follow one bit saying whether the move holds them. A move whose fields pass
63 bits cannot be held: the native loop stops (the position's OVER flag, 2) and Python runs it.
The OVER flag: 1 a stack past `CAP`, a zone past `ZCAP` or the table past `TCAP` pieces (or
more lattice points than a list of the table's holds, `table_kernel`), 2 a move too long to pack, 3 an effect
at a level its stack does not have (Python runs the position and stops at the rule).
Conversions between this and the Python backend's `State` and move tuples are here too, so that
both backends can be checked against each other.
"""

from __future__ import annotations

from typing import Callable, Optional

import numpy as np

from ...dsl import types as T
from ..geometry import CODE_BITS, CODE_MASK

SIDE, PLY, LAST, OVER, SEATS = 0, 1, 2, 3, 4
BIAS = 1 << 15  # a number's value v is stored as v + BIAS in its 16 bits
MOVE_BITS = 63  # a packed move is a non-negative int64 (-1 stands for no move)


class Layout:
    """Where each part of a position lives in the vector of one game."""

    def __init__(self, nplayers: int, ncells: int, cap: int, npieces: int, nzones: int, ncounters: int,
                 zcap: int = 64, ctrl: Optional[tuple] = None):
        self.nplayers, self.ncells, self.cap = nplayers, ncells, cap  # cap: the pieces a stack may hold
        self.npieces, self.nzones, self.ncounters = npieces, nzones, ncounters
        self.zcap = zcap  # the pieces a zone may hold
        self.cnt = SEATS + nplayers
        self.zon = self.cnt + ncounters
        self.hsh = self.zon + nzones * (zcap + 1)
        self.hgt = self.hsh + 1
        self.stk = self.hgt + ncells
        self.occ = self.stk + ncells * cap
        # the occupancy words (`ctrl`: each piece's controller, given where the moves read them)
        self.ctrl = tuple(ctrl) if ctrl is not None else None
        self.nw = (ncells + 63) // 64 if ctrl is not None else 0
        self.size = self.occ + nplayers * self.nw
        self.codec: Optional["Codec"] = None  # how its moves are packed (the writer sets it)
        self.growing: list = []  # (name, rules position) of the actions whose moves may grow too long to pack
        self.tcap = self.tbl = self.pitch = 0  # the open table (add_table): none

    def add_table(self, tcap: int, pitch: int) -> None:
        """The open table's region, at the end of the vector: its count, then `tcap` entries of
        a spot and a piece code; `pitch`: the surface's lattice, in units."""
        self.tcap, self.tbl, self.pitch = tcap, self.size, pitch
        self.size += 1 + 2 * tcap

    def __eq__(self, other) -> bool:
        return isinstance(other, Layout) and self.constants() == other.constants()

    def constants(self) -> dict:
        return {"NPLAYERS": self.nplayers, "NC": self.ncells, "CAP": self.cap, "NPIECES": self.npieces,
                "ZCAP": self.zcap, "ZW": self.zcap + 1, "CNT": self.cnt, "ZON": self.zon, "HSH": self.hsh,
                "HGT": self.hgt, "STK": self.stk, "OCC": self.occ, "NW": self.nw, "SIZE": self.size,
                **({"TBL": self.tbl, "TCAP": self.tcap, "PITCH": self.pitch} if self.tcap else {})}

    # ---- positions ------------------------------------------------------------------------------

    def vector(self, st) -> Optional[np.ndarray]:
        """The vector of a Python backend State (its hash slot 0: `NativeGame.start` fills it);
        None when a stack is deeper than `cap`, a zone holds more than `zcap` pieces or the
        table more than `tcap`."""
        v = np.zeros(self.size, dtype=np.int64)
        v[SIDE], v[PLY], v[LAST] = st.side, st.ply, -1
        v[SEATS:SEATS + self.nplayers] = st.seats
        v[self.cnt:self.cnt + self.ncounters] = st.counters
        zw = self.zcap + 1
        for z, pieces in enumerate(st.zones):
            if len(pieces) > self.zcap:
                return None
            v[self.zon + z * zw] = len(pieces)
            v[self.zon + z * zw + 1:self.zon + z * zw + 1 + len(pieces)] = pieces
        heights = [len(stack) for stack in st.cells]
        if heights and max(heights) > self.cap:
            return None
        v[self.hgt:self.stk] = heights
        slots = v[self.stk:self.occ].reshape(self.ncells, self.cap)
        for c, stack in enumerate(st.cells):
            if stack:
                slots[c, :len(stack)] = stack
                owner = self.ctrl[stack[-1]] if self.ctrl is not None else -1
                if owner >= 0:  # a word's bit 63 makes it negative: the bits as an int64
                    w = self.occ + owner * self.nw + c // 64
                    v[w] = np.int64(np.uint64(v[w]) | np.uint64(1 << (c % 64)))
        if self.tcap:
            entries = st.table[0]
            if len(entries) > self.tcap:
                return None
            v[self.tbl] = len(entries)
            for i, e in enumerate(entries):
                v[self.tbl + 1 + 2 * i], v[self.tbl + 2 + 2 * i] = e >> CODE_BITS, e & CODE_MASK
        return v

    def table(self, v: np.ndarray) -> tuple:
        """The open table of a vector as the Python backend holds it: (spot << 12) | piece, in
        placing order (() for a game without one)."""
        if not self.tcap:
            return ()
        n = int(v[self.tbl])
        return tuple((int(v[self.tbl + 1 + 2 * i]) << CODE_BITS) | int(v[self.tbl + 2 + 2 * i]) for i in range(n))

    def zones(self, v: np.ndarray) -> list:
        """The zones of a vector, as the Python backend holds them (tuples, in order)."""
        zw = self.zcap + 1
        return [tuple(int(p) for p in v[self.zon + z * zw + 1:self.zon + z * zw + 1 + int(v[self.zon + z * zw])])
                for z in range(self.nzones)]

    def cells(self, v: np.ndarray) -> list:
        """The stacks of a vector, as the Python backend holds them (tuples, bottom first)."""
        heights = v[self.hgt:self.stk].tolist()
        slots = v[self.stk:self.occ].reshape(self.ncells, self.cap).tolist()
        return [tuple(row[:h]) if h else () for row, h in zip(slots, heights)]


class TooLong(ValueError):
    """A move whose fields do not fit in one packed int64."""


class Field:
    """How one value is stored: `width` bits holding value - `bias`; a list holds its length in
    `lwidth` bits first, then its items."""

    def __init__(self, width: int, bias: int, is_list: bool = False, least: int = 0):
        self.width, self.bias, self.is_list = width, bias, is_list
        self.lwidth = (MOVE_BITS // max(1, width)).bit_length() if is_list else 0
        self.least = least  # a list's fewest items (a repeat makes one pass at least)

    @property
    def shortest(self) -> int:
        """The fewest bits the value takes in a move."""
        return self.lwidth + self.least * self.width if self.is_list else self.width

    @property
    def mask(self) -> int:
        return (1 << self.width) - 1

    @property
    def lmask(self) -> int:
        return (1 << self.lwidth) - 1


class Codec:
    """The bit fields of the moves of one game: per action, a Field per choice, and where the
    after block's choices start (None: the action has none)."""

    def __init__(self, actions: list, field_of: Callable[[T.Type], tuple[int, int]]):
        """`actions`: ActionSpecs; `field_of(type)`: (bits, bias) of one value of that type."""
        self.abits = max(1, (len(actions) - 1).bit_length())
        self.fields: list[list[Field]] = []
        self.after: list[Optional[int]] = []
        for a in actions:
            fs = []
            for name, typ in a.choices:
                elem = typ.elem if typ.name == "list" else None
                fs.append(Field(*field_of(elem), is_list=True, least=int(name in a.repeated)) if elem is not None
                          else Field(*field_of(typ)))
            self.fields.append(fs)
            self.after.append(a.nbase if len(a.choices) > a.nbase else None)

    def shortest(self, a: int) -> tuple:
        """(bits, bits with the after block's choices) of the shortest moves of action a: its
        own fields at their fewest bits (a list empty, a repeat's list with one pass), then the
        bit saying whether the after block's choices follow and those at their fewest (the
        second is the first when the action has none)."""
        fields, first = self.fields[a], self.after[a]
        own = self.abits + sum(f.shortest for f in fields[:first])
        if first is None:
            return own, own
        return own + 1, own + 1 + sum(f.shortest for f in fields[first:])

    def action(self, m: int) -> int:
        return int(m) & ((1 << self.abits) - 1)

    def pack(self, move: tuple) -> int:
        """A Python backend move tuple (action, choice, ...) as a packed int; TooLong when it
        does not fit."""
        a = move[0]
        m, o = a, self.abits
        for k, (f, value) in enumerate(zip(self.fields[a], move[1:])):
            if k == self.after[a]:
                present = value is not None
                m |= int(present) << o
                o += 1
                if not present:
                    break
            if f.is_list:
                items = list(value)
                if len(items) > f.lmask:
                    raise TooLong(move)
                m |= len(items) << o
                o += f.lwidth
            else:
                items = [value]
            for v in items:
                v = int(v) - f.bias
                if not 0 <= v <= f.mask:
                    raise ValueError(f"{move}: {v + f.bias} does not fit its field")
                m |= v << o
                o += f.width
        if o > MOVE_BITS:
            raise TooLong(move)
        return m

    def unpack(self, m: int) -> tuple:
        """A packed move as the Python backend's tuple."""
        m = int(m)
        a = self.action(m)
        out: list[int | tuple[int, ...] | None] = [a]
        o = self.abits
        fields = self.fields[a]
        for k, f in enumerate(fields):
            if k == self.after[a]:
                o += 1
                if not (m >> (o - 1)) & 1:
                    out.extend([None] * (len(fields) - k))
                    break
            if f.is_list:
                n = (m >> o) & f.lmask
                o += f.lwidth
                out.append(tuple(((m >> (o + i * f.width)) & f.mask) + f.bias for i in range(n)))
                o += n * f.width
            else:
                out.append(((m >> o) & f.mask) + f.bias)
                o += f.width
        return tuple(out)

    def unpack_all(self, moves) -> list:
        return [self.unpack(m) for m in np.asarray(moves).tolist()]
