"""The fixed world of one compiled game: board geometry, piece codes, zones, tables.

Everything here is computed once, at compile time, and emitted into the generated module as
constant tuples: rays per direction set and cell, attribute tables per piece code, and so on.
"""

from __future__ import annotations

from attrs import define, field

from ..dsl import ast
from ..dsl import types as T
from ..dsl.model import BUILTIN_DIRECTIONS, Model

DIRECTION_NAMES = list(BUILTIN_DIRECTIONS)


@define
class CompiledTable:
    pyname: str
    key_type: T.Type
    value_type: T.Type
    values: dict
    node: ast.Table


@define
class World:
    model: Model
    files: int
    ranks: int
    hashing: bool = False
    dirsets: list = field(factory=list)  # id -> tuple of direction names
    stride: dict = field(factory=dict)
    attr_tables: dict = field(factory=dict)  # attribute -> tuple over piece codes
    npieces: int = 1
    zone_index: dict = field(factory=dict)
    zone_names: list = field(factory=list)  # slot -> printable name
    counter_index: dict = field(factory=dict)
    counter_names: list = field(factory=list)
    counter_init: list = field(factory=list)  # slot -> ast expression
    tables: dict = field(factory=dict)
    suffix_sums: set = field(factory=set)  # attributes summed over stacks (memo tables SUF_<attr>)

    # ---- geometry ---------------------------------------------------------------------------

    @property
    def ncells(self) -> int:
        return self.files * self.ranks

    def cell(self, f: int, r: int) -> int:
        """Cell index of file f, rank r (both 0-based), or -1 off the board."""
        if 0 <= f < self.files and 0 <= r < self.ranks:
            return r * self.files + f
        return -1

    def cell_name(self, c: int) -> str:
        return file_letters(c % self.files) + str(c // self.files + 1)

    @property
    def RANK(self):
        return tuple(c // self.files + 1 for c in range(self.ncells))

    @property
    def FILE(self):
        return tuple(c % self.files + 1 for c in range(self.ncells))

    @property
    def CORNER(self):
        return tuple((c % self.files in (0, self.files - 1)) and (c // self.files in (0, self.ranks - 1))
                     for c in range(self.ncells))

    @property
    def EDGE(self):
        return tuple((c % self.files in (0, self.files - 1)) or (c // self.files in (0, self.ranks - 1))
                     for c in range(self.ncells))

    def ray_cells(self, c: int, d: str) -> tuple:
        df, dr = BUILTIN_DIRECTIONS[d]
        f, r = c % self.files, c // self.files
        out = []
        while True:
            f, r = f + df, r + dr
            n = self.cell(f, r)
            if n < 0:
                return tuple(out)
            out.append(n)

    def dirset(self, names) -> int:
        names = tuple(names)
        if names not in self.dirsets:
            self.dirsets.append(names)
        return self.dirsets.index(names)

    @property
    def RAYS(self):
        return tuple(tuple(tuple(r for r in (self.ray_cells(c, d) for d in ds) if r)
                           for c in range(self.ncells)) for ds in self.dirsets)

    @property
    def longest(self) -> int:
        return max(self.files, self.ranks)

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

    @property
    def LINE1(self):
        """LINE1[direction][cell]: the cells from cell to the edge in one direction, nearest first."""
        return tuple(tuple(self.ray_cells(c, d) for c in range(self.ncells)) for d in DIRECTION_NAMES)

    @property
    def STEPK(self):
        """STEPK[k][direction][cell]: the cell k steps away (k up to the longest line), -1 off the board."""
        lines = self.LINE1
        return tuple(tuple(tuple((c if k == 0 else line[k - 1] if k <= len(line) else -1)
                                 for c, line in enumerate(per_dir)) for per_dir in lines)
                     for k in range(self.longest + 1))

    def single_dirsets(self) -> tuple:
        """Register the eight one-direction sets; DIRSET1[d] is then the set holding d alone."""
        return tuple(self.dirset((d,)) for d in DIRECTION_NAMES)

    @property
    def DIRSET1(self):
        return tuple(self.dirsets.index((d,)) for d in DIRECTION_NAMES)

    @property
    def STEP(self):
        return tuple(tuple((self.ray_cells(c, d) or (-1,))[0] for c in range(self.ncells))
                     for d in DIRECTION_NAMES)

    @property
    def DIST(self):
        fr = [(c % self.files, c // self.files) for c in range(self.ncells)]
        return tuple(tuple(max(abs(a[0] - b[0]), abs(a[1] - b[1])) for b in fr) for a in fr)

    # ---- pieces -----------------------------------------------------------------------------

    def build_pieces(self) -> None:
        stride = 1
        for a in self.model.attributes.values():
            self.stride[a.name] = stride
            stride *= max(1, len(a.values))
        self.npieces = stride
        for a in self.model.attributes.values():
            n = max(1, len(a.values))
            s = self.stride[a.name]
            self.attr_tables[a.name] = tuple(a.numbers[(code // s) % n] if a.values else 0
                                             for code in range(self.npieces))

    def value_index(self, attr: str, number: int) -> int:
        return self.model.attributes[attr].numbers.index(number)

    def value_index_src(self, attr: str, src: str) -> str:
        a = self.model.attributes[attr]
        if a.numbers == list(range(len(a.numbers))):
            return f"({src})"
        return f"VIDX_{attr}[{src}]"

    def piece_code(self, values: dict) -> int:
        return sum(self.stride[n] * self.value_index(n, v) for n, v in values.items())

    def attr_table_name(self, attr: str) -> str:
        return "A_" + attr

    def piece_text(self, code: int) -> str:
        out = []
        for a in self.model.attributes.values():
            n = max(1, len(a.values))
            out.append(a.codes[(code // self.stride[a.name]) % n] if a.values else "")
        return "".join(out)

    def piece_by_text(self) -> dict:
        return {self.piece_text(c): c for c in range(self.npieces)}

    def piece_width(self) -> int:
        return len(self.piece_text(0)) if self.npieces else 1

    # ---- zones, counters, tables ------------------------------------------------------------

    def build_slots(self) -> None:
        players = self.model.players
        for z in self.model.zones.values():
            self.zone_index[z.name] = len(self.zone_names)
            if z.per_player:
                self.zone_names += [f"{z.name}.{p}" for p in players]
            else:
                self.zone_names.append(z.name)
        for c in self.model.counters.values():
            self.counter_index[c.name] = len(self.counter_names)
            if c.per_player:
                self.counter_names += [f"{c.name}.{p}" for p in players]
                self.counter_init += [c.init] * len(players)
            else:
                self.counter_names.append(c.name)
                self.counter_init.append(c.init)

    def table(self, tr, table: ast.Table) -> CompiledTable:
        if table.name in self.tables:
            return self.tables[table.name]
        saved_ctx, saved_rep = tr.context, tr.rep
        tr.context, tr.rep = "table", self.model.reporter_for(table)
        try:
            values, key_type, value_type = {}, None, None
            for key_node, value_node in table.entries:
                k = tr.expr(key_node, {})
                v = tr.expr(value_node, {})
                if not k.const:
                    tr.fail(key_node, "a table key must be fixed: a value, a player or a number")
                if not v.const:
                    tr.fail(value_node, "a table entry must be fixed: it may use options, values and numbers")
                if key_type is None:
                    key_type, value_type = k.type, v.type
                elif not tr.compatible(k.type, key_type):
                    tr.fail(key_node, f"the keys of a table are one kind of thing: this is a {k.type}, the first a {key_type}")
                elif not tr.compatible(v.type, value_type):
                    tr.fail(value_node, f"the entries of a table are one kind of thing: this is a {v.type}, the first a {value_type}")
                if k.value in values:
                    tr.fail(key_node, "this key is already in the table")
                values[k.value] = v.value
            if key_type is None:
                tr.fail(table, f"table {table.name!r} is empty")
            compiled = CompiledTable("T_" + table.name, key_type, value_type, values, table)
            self.tables[table.name] = compiled
            return compiled
        finally:
            tr.context, tr.rep = saved_ctx, saved_rep

    def table_constant(self, t: CompiledTable):
        keys = list(t.values)
        if all(isinstance(k, int) and not isinstance(k, bool) and 0 <= k <= 64 for k in keys):
            size = max(keys) + 1
            if t.key_type == T.PLAYER:  # room for neutral player values too (no entry: None)
                owner = next((a for a in self.model.attributes.values() if a.players), None)
                size = max(size, len(owner.values) if owner else 0)
            return tuple(t.values.get(i) for i in range(size))
        return dict(t.values)


def file_letters(i: int) -> str:
    """0 -> a, 25 -> z, 26 -> aa: files beyond z keep going."""
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(97 + r) + s
    return s
