"""The fixed world of one game at one set of options: the board's geometry, the piece codes, and
the slots of zones and counters.

A board is `files` x `ranks` cells numbered rank by rank from a1 (cell 0); -1 is off the board.
A piece is one small integer, its *code*, that packs one value of every attribute (the first
attribute varies fastest). Geometry tables (rays, neighbours, lines, distances) are computed
here, from the board's size and the direction sets the rules use, both by the compiler (to fold
lookups on fixed cells) and when a compiled game is loaded (they are passed to its module).
"""

from __future__ import annotations

from functools import cached_property

from .types import BUILTIN_DIRECTIONS

DIRECTION_NAMES = list(BUILTIN_DIRECTIONS)


def file_letters(i: int) -> str:
    """0 -> a, 25 -> z, 26 -> aa: files beyond z keep going."""
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(97 + r) + s
    return s


class World:
    """Geometry, piece codes and slots. `attributes` are objects with `name`, `values`,
    `numbers`, `codes` (model.Attribute or spec.AttributeSpec); zones and counters are
    (name, per_player) pairs in declaration order."""

    def __init__(self, files: int, ranks: int, attributes=(), players=(), zones=(), counters=(),
                 dirsets=(), surface=None):
        self.files, self.ranks = files, ranks
        # The open table, for a game played on one (then the board has no cells): (lattice step,
        # width per piece code, length per piece code), in units of dsl.surface.
        self.surface = surface
        self.attributes = list(attributes)
        self.players = list(players)
        self.dirsets: list = [tuple(d) for d in dirsets]  # id -> tuple of direction names
        self._pieces()
        self.zone_index, self.zone_names = self._slots(zones)
        self.counter_index, self.counter_names = self._slots(counters)

    # ---- geometry ---------------------------------------------------------------------------

    @property
    def ncells(self) -> int:
        return self.files * self.ranks

    @property
    def longest(self) -> int:
        return max(self.files, self.ranks)

    def cell(self, f: int, r: int) -> int:
        """Cell index of file f, rank r (both 0-based), or -1 off the board."""
        if 0 <= f < self.files and 0 <= r < self.ranks:
            return r * self.files + f
        return -1

    def cell_name(self, c: int) -> str:
        return file_letters(c % self.files) + str(c // self.files + 1)

    def file_name(self, f: int) -> str:
        """The letters of file f (from 0): a, b, ..., z, aa, ..."""
        return file_letters(f)

    def ray_cells(self, c: int, d: str) -> tuple:
        df, dr = BUILTIN_DIRECTIONS[d]
        f, r = c % self.files, c // self.files
        out: list[int] = []
        while True:
            f, r = f + df, r + dr
            n = self.cell(f, r)
            if n < 0:
                return tuple(out)
            out.append(n)

    def dirset(self, names) -> int:
        """The number of a direction set (registered on first use)."""
        names = tuple(names)
        if names not in self.dirsets:
            self.dirsets.append(names)
        return self.dirsets.index(names)

    def single_dirsets(self) -> tuple:
        """Register the eight one-direction sets and the empty one; DIRSET1[d] is then the set
        holding d alone, and DIRSET1[-1] (the direction `none`) the empty set."""
        return tuple(self.dirset((d,)) for d in DIRECTION_NAMES) + (self.dirset(()),)

    def neighbours(self, dirs, c: int) -> tuple:
        """The cells next to c in the given directions (names), in their order."""
        return tuple(r[0] for r in (self.ray_cells(c, d) for d in dirs) if r)

    def line_cells(self, dirs, c: int) -> tuple:
        """The cells from c to the edge in each of the given directions, one direction after another."""
        return tuple(x for d in dirs for x in self.ray_cells(c, d))

    # Board tables by name: what generated code indexes. Each is computed on first use.
    TABLES = ("RANK", "FILE", "CORNER", "EDGE", "RAYS", "RAYSTO", "DIRS", "NEIGH", "LINES", "LINE1", "STEPK",
              "DIRSET1", "STEP", "DIST", "DIRTO")

    def table(self, name: str):
        if name not in self.TABLES:
            raise KeyError(name)
        return getattr(self, name)

    @cached_property
    def RANK(self):
        return tuple(c // self.files + 1 for c in range(self.ncells))

    @cached_property
    def FILE(self):
        return tuple(c % self.files + 1 for c in range(self.ncells))

    @cached_property
    def CORNER(self):
        return tuple((c % self.files in (0, self.files - 1)) and (c // self.files in (0, self.ranks - 1))
                     for c in range(self.ncells))

    @cached_property
    def EDGE(self):
        return tuple((c % self.files in (0, self.files - 1)) or (c // self.files in (0, self.ranks - 1))
                     for c in range(self.ncells))

    @property
    def RAYS(self):
        """RAYS[dirset][cell]: the rays from cell, one per direction that has a cell next to it."""
        return tuple(tuple(tuple(r for r in (self.ray_cells(c, d) for d in ds) if r)
                           for c in range(self.ncells)) for ds in self.dirsets)

    @property
    def RAYSTO(self):
        """RAYSTO[dirset][k][cell]: the rays from cell cut to at most k cells (k up to the longest)."""
        rays = self.RAYS
        return tuple(tuple(tuple(tuple(r[:k] for r in per_cell if r[:k]) for per_cell in rays[d])
                           for k in range(self.longest + 1)) for d in range(len(self.dirsets)))

    @property
    def DIRS(self):
        """DIRS[dirset]: the direction numbers of a direction set, for looping over it."""
        return tuple(tuple(DIRECTION_NAMES.index(d) for d in ds) for ds in self.dirsets)

    @property
    def NEIGH(self):
        return tuple(tuple(tuple(r[0] for r in (self.ray_cells(c, d) for d in ds) if r)
                           for c in range(self.ncells)) for ds in self.dirsets)

    @property
    def LINES(self):
        return tuple(tuple(tuple(x for d in ds for x in self.ray_cells(c, d))
                           for c in range(self.ncells)) for ds in self.dirsets)

    @cached_property
    def LINE1(self):
        """LINE1[direction][cell]: the cells from cell to the edge in one direction, nearest first.
        A ninth row, empty, is the direction `none` (-1, as `direction(a, b)` gives it): a line or a
        step along `none` meets no cell, as tables indexed by -1 read their last row."""
        return (tuple(tuple(self.ray_cells(c, d) for c in range(self.ncells)) for d in DIRECTION_NAMES)
                + (tuple(() for _ in range(self.ncells)),))

    @cached_property
    def STEPK(self):
        """STEPK[k][direction][cell]: the cell k steps away (k up to the longest line), -1 off the board."""
        lines = self.LINE1
        return tuple(tuple(tuple((c if k == 0 else line[k - 1] if k <= len(line) else -1)
                                 for c, line in enumerate(per_dir)) for per_dir in lines)
                     for k in range(self.longest + 1))

    @property
    def DIRSET1(self):
        """DIRSET1[direction]: the direction set holding that direction alone; the last entry, read
        for `none` (-1), is the empty set."""
        return tuple(self.dirsets.index((d,)) for d in DIRECTION_NAMES) + (self.dirsets.index(()),)

    @cached_property
    def STEP(self):
        """STEP[direction][cell]: the next cell, -1 off the board; the last row (`none`) is all -1."""
        return tuple(tuple((self.ray_cells(c, d) or (-1,))[0] for c in range(self.ncells))
                     for d in DIRECTION_NAMES) + ((-1,) * self.ncells,)

    @cached_property
    def DIST(self):
        fr = [(c % self.files, c // self.files) for c in range(self.ncells)]
        return tuple(tuple(max(abs(a[0] - b[0]), abs(a[1] - b[1])) for b in fr) for a in fr)

    @cached_property
    def DIRTO(self):
        """DIRTO[a][b]: the direction (0-7) whose line from cell a passes cell b, or -1 when a and
        b are not on one line of the eight directions (or are the same cell)."""
        out = [[-1] * self.ncells for _ in range(self.ncells)]
        for d, per_cell in enumerate(self.LINE1):
            for a, line in enumerate(per_cell):
                for b in line:
                    out[a][b] = d
        return tuple(tuple(row) for row in out)

    # ---- pieces -----------------------------------------------------------------------------

    def _pieces(self) -> None:
        self.stride: dict = {}
        stride = 1
        for a in self.attributes:
            self.stride[a.name] = stride
            stride *= max(1, len(a.values))
        self.npieces = stride
        self.attr_tables: dict = {}  # attribute -> its value's number, per piece code
        for a in self.attributes:
            n, s = max(1, len(a.values)), self.stride[a.name]
            self.attr_tables[a.name] = tuple(a.numbers[(code // s) % n] if a.values else 0
                                             for code in range(self.npieces))

    def value_index(self, attr: str, number: int) -> int:
        return self._attribute(attr).numbers.index(number)

    def _attribute(self, name: str):
        return next(a for a in self.attributes if a.name == name)

    def piece_code(self, values: dict) -> int:
        """The code of the piece with these attribute values (attribute -> number)."""
        return sum(self.stride[n] * self.value_index(n, v) for n, v in values.items())

    def piece_terms(self, parts) -> tuple:
        """How a piece made of attribute values (`piece(p, large)`: (attribute, value) pairs, each
        value either fixed, with `.value`, or known only as the game is played) is computed:
        (the fixed parts' sum, [(value, stride, the attribute, whether its numbers must be
        looked up as value indices)] for the others). Every backend writes `piece(...)` from it."""
        from . import ir  # the compiler's: imported here, so that loading a game does not import it

        offset, terms = 0, []
        for attr, v in parts:
            a = self._attribute(attr)
            stride = self.stride[attr]
            if isinstance(v, ir.Const):
                offset += stride * a.numbers.index(v.value)
                continue
            terms.append((v, stride, a, list(a.numbers) != list(range(len(a.numbers)))))
        return offset, terms

    def piece_text(self, code: int) -> str:
        out = []
        for a in self.attributes:
            n = max(1, len(a.values))
            out.append(a.codes[(code // self.stride[a.name]) % n] if a.values else "")
        return "".join(out)

    def piece_by_text(self) -> dict:
        return {self.piece_text(c): c for c in range(self.npieces)}

    def piece_width(self) -> int:
        return len(self.piece_text(0)) if self.npieces else 1

    # ---- zones and counters -----------------------------------------------------------------

    def _slots(self, decls) -> tuple[dict[str, int], list[str]]:
        """Each declaration's first slot, and every slot's name. A set of cells (a third item,
        "cells") has a slot per cell, players inner: `visited.a1`, or `visited.south.a1`,
        cell by cell (slot: first + cell * players + player)."""
        index: dict[str, int] = {}
        names: list[str] = []
        for name, per_player, *holds in decls:
            index[name] = len(names)
            one = [f"{name}.{p}" for p in self.players] if per_player else [name]
            if holds and holds[0]:
                one = [f"{n}.{self.cell_name(c)}" for c in range(self.ncells) for n in one]
            names += one
        return index, names
