"""Rules expressions and statements to Python source, type-checked on the way.

One walk does both jobs: every expression comes back as a `Code` (Python source, its type, and
its value when it is a constant). Options are constants here, so whole branches of a ruleset fold
away before Python ever sees them. Nothing from the ruleset reaches the output as raw text: names
become `v_<name>` identifiers (the grammar allows only letters, digits and '_'), and every literal
goes through `repr`.
"""

from __future__ import annotations

import itertools
import operator
from typing import Optional

from attrs import define, field

from ..dsl import ast
from ..dsl import types as T
from ..errors import Reporter, did_you_mean
from ..dsl.model import BUILTIN_DIRSETS, BUILTIN_DIRECTIONS, Model

UNLIMITED = 1 << 30


class CheckFailed(Exception):
    """A type or name error at a node; the compiler turns it into a Diagnostic."""

    def __init__(self, rep: Reporter, pos, message, hint=None, expected=None):
        super().__init__(message)
        self.rep, self.pos, self.message, self.hint, self.expected = rep, pos, message, hint, expected


@define
class Code:
    src: str
    type: T.Type
    const: bool = False
    value: object = None
    stack: Optional[str] = None  # a local holding cells[src], valid while the board cannot change
    attrs: Optional[dict] = None  # attribute -> local holding its value, for a piece variable
    origin: Optional[tuple] = None  # (function, cell Code, level Code) for slices of a stack
    occupied: Optional[bool] = None  # for a cell: known to hold a stack (True) or to be empty (False)
    neutral: bool = False  # a player value that may be a neutral one (`colour: players, green`)
    hoist: Optional[tuple] = None  # for a chosen cell: (Writer, marker line) where reads of its stack can go


def const(value, typ) -> Code:
    return Code(repr(value), typ, True, value)


NUMERIC = ("int",)


def numeric(t: T.Type, model: Model) -> bool:
    if t == T.INT:
        return True
    if t.name == "enum":
        a = model.attributes.get(t.attr)
        return bool(a and a.numeric)
    return False


@define
class Writer:
    """Lines of Python with indentation, each remembering the rules line it came from."""

    lines: list = field(factory=list)
    depth: int = 0
    counter: itertools.count = field(factory=lambda: itertools.count(1))

    def line(self, text: str, src_line: int = 0) -> None:
        pad = "    " * self.depth
        self.lines.append(pad + text + (f"  # rules:{src_line}" if src_line else ""))

    def fresh(self, stem: str = "t") -> str:
        return f"_{stem}{next(self.counter)}"

    def indent(self):
        writer = self

        class _Indent:
            def __enter__(self):
                writer.depth += 1

            def __exit__(self, *exc):
                writer.depth -= 1

        return _Indent()

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


# Functions a rules expression may call: name -> (argument types, result type, template).
# A template is a format string over the argument sources {0}, {1}, ...
CELL_FUNCS = {
    "height": ((T.CELL,), T.INT, "len({s0})"),
    "top": ((T.CELL,), T.PIECE, "{s0}[-1]"),
    "bottom": ((T.CELL,), T.PIECE, "{s0}[0]"),
    "stack": ((T.CELL,), T.STACK, "{s0}"),
    "above": ((T.CELL, T.INT), T.STACK, "{s0}[{1}:]"),
    "below": ((T.CELL, T.INT), T.STACK, "{s0}[:{1} - 1]"),
    "empty": ((T.CELL,), T.BOOL, "(not {s0})"),
    "occupied": ((T.CELL,), T.BOOL, "({s0} != ())"),
    "controller": ((T.CELL,), T.PLAYER, "(CTRL[{s0}[-1]] if {s0} else -1)"),
    "mine": ((T.CELL,), T.BOOL, "({s0} != () and CTRL[{s0}[-1]] == mover)"),
    "theirs": ((T.CELL,), T.BOOL, "({s0} != () and -1 != CTRL[{s0}[-1]] != mover)"),
    "corner": ((T.CELL,), T.BOOL, "CORNER[{0}]"),
    "edge": ((T.CELL,), T.BOOL, "EDGE[{0}]"),
    "ray": ((T.CELL, T.DIRSET, T.INT), T.list_of(T.CELL), "_ray(cells, RAYS[{1}][{0}], {2})"),
    "neighbours": ((T.CELL, T.DIRSET), T.list_of(T.CELL), "NEIGH[{1}][{0}]"),
    "line": ((T.CELL, T.DIRSET), T.list_of(T.CELL), "LINES[{1}][{0}]"),
    "step": ((T.CELL, T.DIR), T.CELL, "STEP[{1}][{0}]"),
    "on_board": ((T.CELL,), T.BOOL, "({0} >= 0)"),
    "distance": ((T.CELL, T.CELL), T.INT, "DIST[{0}][{1}]"),
    "flanked": ((T.CELL, T.DIR, T.PLAYER), T.list_of(T.CELL), "_flanked(cells, CTRL, LINE1[{1}][{0}], {2})"),
    "connected": ((T.list_of(T.CELL), T.DIRSET), T.BOOL, "_connected({0}, NEIGH[{1}])"),
    "between": ((T.CELL, T.CELL), T.list_of(T.CELL), "_between({0}, {1}, FILES)"),
}
END_ONLY = {"repeated", "repeated_board", "no_moves"}
EFFECTS = {"move", "take", "place", "swap_seats", "extra_turn", "remove", "put", "insert", "change"}


def collection(code: Code) -> str:
    """Python for iterating over a value: a zone's pieces, a direction set's directions, a list."""
    if code.type == T.ZONE:
        return f"zones[{code.src}]"
    if code.type == T.DIRSET:
        return f"DIRS[{code.src}]"
    return code.src


class Translator:
    """Translates the expressions and statements of one model at one set of option values."""

    def __init__(self, model: Model, consts: dict, world):
        self.m = model
        self.consts = consts  # option name -> value
        self.world = world  # geometry and piece tables (compiler.World)
        self.rep: Optional[Reporter] = None
        self.context = "action"  # option, board, table, setup, action, effects, end, invariant
        self.inlining: list = []
        self.uses_repetition = False
        self.uses_moves = False
        self.uses_change = False
        self.uses_place = False  # place() in a move: pieces are created during play  # change() turns pieces into others: their number is kept, not their kinds

    # ---- errors ---------------------------------------------------------------------------

    def fail(self, node, message, hint=None, expected=None):
        raise CheckFailed(self.rep, getattr(node, "pos", None), message, hint, expected)

    def expect(self, code: Code, want: T.Type, node, what: str) -> Code:
        if self.compatible(code.type, want):
            return code
        self.fail(node, f"{what} must be {T.a(want)}, not {T.a(code.type)}")

    def compatible(self, got: T.Type, want: T.Type) -> bool:
        if got == want or got == T.ANY or want == T.ANY:
            return True
        if want == T.INT and numeric(got, self.m):
            return True
        if want == T.BOOL and got.name in ("list",):
            return False
        if got.name == "list" and want.name == "list":
            return self.compatible(got.elem, want.elem)
        if got == T.ZONE and want == T.STACK:
            return True
        return False

    # ---- names ----------------------------------------------------------------------------

    def names_in_scope(self, scope) -> list:
        m = self.m
        return (list(scope) + list(m.options) + list(m.players) + list(m.value_names())
                + list(m.zones) + list(m.counters) + list(m.directions) + list(BUILTIN_DIRECTIONS)
                + list(BUILTIN_DIRSETS) + ["cells", "players", "mover", "ply", "files", "ranks",
                                           "unlimited", "true", "false", "no_moves"])

    def name(self, node: ast.Name, scope: dict) -> Code:
        n = node.id
        m = self.m
        if n in scope:
            return scope[n]
        if n in ("true", "false"):
            return const(n == "true", T.BOOL)
        if n in self.consts:
            v = self.consts[n]
            opt = m.options.get(n)
            if opt is not None and opt.type is not None and opt.type.kind == "enum":
                return Code(repr(v), T.STR, True, v)
            return const(v, T.BOOL if isinstance(v, bool) else T.INT)
        if n in m.options:
            self.fail(node, f"option {n!r} is used before its value is known",
                      hint="an option's default may use only the options declared above it")
        if self.context == "option":
            self.fail(node, f"unknown name {n!r} in an option", hint=did_you_mean(n, list(self.consts)) or
                      "an option's value may use only numbers, true/false and earlier options")
        if n in ("files", "ranks"):
            return const(self.world.files if n == "files" else self.world.ranks, T.INT)
        if self.context == "board":
            self.fail(node, f"unknown name {n!r} in the board", hint=did_you_mean(n, list(self.consts)))
        if n == "unlimited":
            return const(UNLIMITED, T.INT)
        owners = m.value_owners(n)
        if n in m.players:
            if owners:
                self.fail(node, f"{n!r} is both a player and a value of {owners[0]!r}",
                          hint=f"write players.{n} for the player or {owners[0]}.{n} for the value")
            return const(m.players.index(n), T.PLAYER)
        if len(owners) > 1:
            self.fail(node, f"{n!r} is a value of {len(owners)} attributes: " + ", ".join(map(repr, owners)),
                      hint="say which: " + " or ".join(f"{a}.{n}" for a in owners))
        if owners:
            return self.attr_value(m.attributes[owners[0]], n)
        if n in BUILTIN_DIRECTIONS:
            return const(list(BUILTIN_DIRECTIONS).index(n), T.DIR)
        if n in BUILTIN_DIRSETS:
            return const(self.world.dirset(BUILTIN_DIRSETS[n]), T.DIRSET)
        if n in m.directions:
            d = m.directions[n]
            saved = self.rep
            self.rep = m.reporter_for(d)
            try:
                code = self.expr(d.expr, {})
            finally:
                self.rep = saved
            return code
        if n == "cells":
            return Code("ALLCELLS", T.list_of(T.CELL), False)
        if n == "players":
            return Code("ALLPLAYERS", T.list_of(T.PLAYER), False)
        if n in m.zones and not m.zones[n].per_player:
            return const(self.world.zone_index[n], T.ZONE)
        if n in m.counters and not m.counters[n].per_player:
            return Code(f"counters[{self.world.counter_index[n]}]", T.INT)
        if n in m.zones or n in m.counters:
            self.fail(node, f"{n!r} is kept per player: write {n}[PLAYER]", hint=f"for example {n}[mover]")
        if self.context in ("table",):
            self.fail(node, f"unknown name {n!r} in a table", hint=did_you_mean(n, self.names_in_scope(scope)))
        if self.context == "setup" and n in ("mover", "ply", "no_moves"):
            self.fail(node, f"{n!r} has no meaning during setup")
        if n == "mover":
            return Code("mover", T.PLAYER)
        if n == "ply":
            return Code("ply", T.INT)
        if n == "no_moves":
            if self.context != "end":
                self.fail(node, "'no_moves' can only be tested in the end block")
            self.uses_moves = True
            return Code("(not moves)", T.BOOL)
        if n in m.tables:
            self.fail(node, f"table {n!r} must be indexed: {n}[KEY]")
        if n in m.defs:
            self.fail(node, f"{n!r} is a def: call it with its arguments, {n}(...)")
        self.fail(node, f"unknown name {n!r}", hint=did_you_mean(n, self.names_in_scope(scope)))

    # ---- expressions ----------------------------------------------------------------------

    def expr(self, node, scope: dict) -> Code:
        method = getattr(self, "x_" + type(node).__name__, None)
        if method is None:
            self.fail(node, f"a {type(node).__name__.lower()} cannot be used here")
        return method(node, scope)

    def x_Num(self, node, scope):
        return const(node.value, T.INT)

    def x_Str(self, node, scope):
        return const(node.value, T.STR)

    def x_Name(self, node, scope):
        return self.name(node, scope)

    def x_Neg(self, node, scope):
        c = self.expect(self.expr(node.operand, scope), T.INT, node, "'-' needs a number: its operand")
        if c.const:
            return const(-c.value, T.INT)
        return Code(f"(-{c.src})", T.INT)

    def x_Not(self, node, scope):
        c = self.expect(self.expr(node.operand, scope), T.BOOL, node.operand, "the operand of 'not'")
        if c.const:
            return const(not c.value, T.BOOL)
        return Code(f"(not {c.src})", T.BOOL)

    def x_BoolOp(self, node, scope):
        parts = []
        for v in node.values:
            c = self.expect(self.expr(v, scope), T.BOOL, v, f"each side of '{node.op}'")
            parts.append(c)
        # Fold constants: `false and x` is false, `true or x` is true, neutral ones vanish.
        kept = []
        for c in parts:
            if c.const:
                if node.op == "and" and not c.value:
                    return const(False, T.BOOL)
                if node.op == "or" and c.value:
                    return const(True, T.BOOL)
                continue
            kept.append(c)
        if not kept:
            return const(node.op == "and", T.BOOL)
        if len(kept) == 1:
            return kept[0]
        return Code("(" + f" {node.op} ".join(c.src for c in kept) + ")", T.BOOL)

    _ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv,
              "%": operator.mod}

    def x_BinOp(self, node, scope):
        left, right = self.expr(node.left, scope), self.expr(node.right, scope)
        if node.op == "+" and {left.type, right.type} <= {T.DIR, T.DIRSET}:  # `ne + nw`: a set of two
            left, right = self.as_dirset(left), self.as_dirset(right)
        if node.op == "+" and left.type == T.DIRSET and right.type == T.DIRSET:
            if not (left.const and right.const):
                self.fail(node, "direction sets can be joined only when both are fixed")
            dirs = self.world.dirsets[left.value] + tuple(
                d for d in self.world.dirsets[right.value] if d not in self.world.dirsets[left.value])
            return const(self.world.dirset(dirs), T.DIRSET)
        if node.op == "+" and T.is_list(left.type) and T.is_list(right.type):
            if not self.compatible(left.type, right.type):
                self.fail(node, f"cannot join {T.a(left.type)} and {T.a(right.type)}")
            return Code(f"(tuple({left.src}) + tuple({right.src}))", left.type)
        self.expect(left, T.INT, node.left, f"the left side of '{node.op}'")
        self.expect(right, T.INT, node.right, f"the right side of '{node.op}'")
        if node.op in ("//", "%") and right.const and right.value == 0:
            self.fail(node.right, "division by zero")
        if left.const and right.const:
            return const(self._ARITH[node.op](left.value, right.value), T.INT)
        return Code(f"({left.src} {node.op} {right.src})", T.INT)

    _CMP = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
            ">": operator.gt, ">=": operator.ge}

    def x_Compare(self, node, scope):
        left, right = self.expr(node.left, scope), self.expr(node.right, scope)
        op = node.op
        if op in ("in", "not in"):
            elem = T.element(right.type)
            if elem is None:
                self.fail(node.right, f"'{op}' needs a list or range on its right, not {T.a(right.type)}")
            if not (self.compatible(left.type, elem) or self.compatible(elem, left.type)):
                self.fail(node, f"{T.a(left.type)} is never in {T.a(right.type)}")
            return Code(f"({left.src} {op} {collection(right)})", T.BOOL)
        if op in ("<", "<=", ">", ">="):
            self.expect(left, T.INT, node.left, f"the left side of '{op}'")
            self.expect(right, T.INT, node.right, f"the right side of '{op}'")
        else:
            same = (self.compatible(left.type, right.type) or self.compatible(right.type, left.type)
                    or (numeric(left.type, self.m) and numeric(right.type, self.m)))
            if not same:
                hint = None
                if left.type.name == "enum" or right.type.name == "enum":
                    hint = "compare a piece's attribute with a value of that attribute"
                self.fail(node, f"comparing {T.a(left.type)} with {T.a(right.type)} is always false", hint=hint)
        if left.const and right.const:
            return const(self._CMP[op](left.value, right.value), T.BOOL)
        return Code(f"({left.src} {op} {right.src})", T.BOOL)

    def x_Ternary(self, node, scope):
        cond = self.expect(self.expr(node.cond, scope), T.BOOL, node.cond, "the condition of 'if'")
        a, b = self.expr(node.then, scope), self.expr(node.orelse, scope)
        typ = a.type
        if not (self.compatible(a.type, b.type) or self.compatible(b.type, a.type)):
            if numeric(a.type, self.m) and numeric(b.type, self.m):
                typ = T.INT
            else:
                self.fail(node, f"the two branches differ: {T.a(a.type)} and {T.a(b.type)}")
        elif a.type == T.ANY:
            typ = b.type
        if cond.const:
            return a if cond.value else b
        return Code(f"({a.src} if {cond.src} else {b.src})", typ)

    def x_Range(self, node, scope):
        lo = self.expect(self.expr(node.lo, scope), T.INT, node.lo, "the start of a range")
        hi = self.expect(self.expr(node.hi, scope), T.INT, node.hi, "the end of a range")
        if lo.const and hi.const:
            return Code(f"range({lo.value}, {hi.value + 1})", T.list_of(T.INT), True,
                        tuple(range(lo.value, hi.value + 1)))
        return Code(f"range({lo.src}, {hi.src} + 1)", T.list_of(T.INT))

    def x_ListLit(self, node, scope):
        items = [self.expr(i, scope) for i in node.items]
        if not items:
            return Code("()", T.list_of(T.ANY), True, ())
        typ = items[0].type
        for i, c in zip(node.items[1:], items[1:]):
            if not self.compatible(c.type, typ):
                self.fail(i, f"a list holds one kind of thing: this is {T.a(c.type)}, the first {T.a(typ)}")
        if all(c.const for c in items):
            value = tuple(c.value for c in items)
            return Code(repr(value), T.list_of(typ), True, value)
        return Code("(" + ", ".join(c.src for c in items) + ",)", T.list_of(typ))

    def attr_value(self, attr, value: str) -> Code:
        """The constant for a value of an attribute (a player index for a players attribute)."""
        number = attr.numbers[attr.values.index(value)]
        return const(number, T.PLAYER if attr.players else T.enum(attr.name))

    def qualified(self, node) -> Optional[Code]:
        """`colour.green`, `players.black`: a value named through its attribute, or None."""
        if not isinstance(node.obj, ast.Name):
            return None
        n = node.obj.id
        if n == "players" and n not in self.m.attributes:
            if node.name in self.m.players:
                return const(self.m.players.index(node.name), T.PLAYER)
            self.fail(node, f"{node.name!r} is not a player", hint=did_you_mean(node.name, self.m.players))
        attr = self.m.attributes.get(n)
        if attr is None:
            return None
        if node.name in attr.values:
            return self.attr_value(attr, node.name)
        self.fail(node, f"{node.name!r} is not a value of {n!r}",
                  hint=did_you_mean(node.name, attr.values) or "its values: " + ", ".join(attr.values))

    def x_Attr(self, node, scope):
        if not (isinstance(node.obj, ast.Name) and node.obj.id in scope):
            value = self.qualified(node)
            if value is not None:
                return value
        obj = self.expr(node.obj, scope)
        if obj.type == T.CELL:
            if node.name in ("rank", "file"):
                table = "RANK" if node.name == "rank" else "FILE"
                if obj.const:
                    return const(getattr(self.world, table)[obj.value], T.INT)
                return Code(f"{table}[{obj.src}]", T.INT)
            self.fail(node, f"a cell has no {node.name!r}", hint="a cell has .rank and .file; its pieces are top(c), c[LEVEL]")
        if obj.type == T.PIECE:
            attr = self.m.attributes.get(node.name)
            if attr is None:
                self.fail(node, f"pieces have no attribute {node.name!r}",
                          hint=did_you_mean(node.name, self.m.attributes) or
                          "declared attributes: " + ", ".join(self.m.attributes))
            typ = T.PLAYER if attr.players else T.enum(attr.name)
            table = self.world.attr_table_name(attr.name)
            neutral = bool(attr.players and attr.neutral)
            if obj.attrs and node.name in obj.attrs:
                return Code(obj.attrs[node.name], typ, neutral=neutral)
            if obj.const:
                return const(self.world.attr_tables[attr.name][obj.value], typ)
            return Code(f"{table}[{obj.src}]", typ, neutral=neutral)
        self.fail(node, f"{T.a(obj.type)} has no attribute {node.name!r}")

    def x_Index(self, node, scope):
        if isinstance(node.obj, ast.Name):
            n = node.obj.id
            if n not in scope:
                if n in self.m.tables:
                    return self.table_lookup(self.m.tables[n], node, scope)
                if n in self.m.zones and self.m.zones[n].per_player:
                    p = self.expect(self.expr(node.index, scope), T.PLAYER, node.index, f"the index of zone {n!r}")
                    base = self.world.zone_index[n]
                    if p.const:
                        return const(base + p.value, T.ZONE)
                    return Code(f"({base} + {p.src})", T.ZONE)
                if n in self.m.counters and self.m.counters[n].per_player:
                    p = self.expect(self.expr(node.index, scope), T.PLAYER, node.index, f"the index of counter {n!r}")
                    base = self.world.counter_index[n]
                    return Code(f"counters[{base} + {p.src}]", T.INT)
        obj = self.expr(node.obj, scope)
        idx = self.expr(node.index, scope)
        if idx.const and isinstance(idx.value, int) and not isinstance(idx.value, bool) and idx.value < 1:
            self.fail(node.index, f"levels and positions count from 1, so [{idx.value}] is never there",
                      hint="the bottom piece of a stack, and the first of a list, is [1]")
        if obj.type == T.CELL:
            self.expect(idx, T.INT, node.index, "a level")
            return Code(f"{self.stack_of(obj)}[{idx.src} - 1]", T.PIECE)
        elem = T.element(obj.type)
        if elem is not None and obj.type != T.DIRSET:
            self.expect(idx, T.INT, node.index, "a position in a list")
            src = f"zones[{obj.src}]" if obj.type == T.ZONE else obj.src
            return Code(f"{src}[{idx.src} - 1]", elem)
        self.fail(node, f"{T.a(obj.type)} cannot be indexed")

    def table_lookup(self, table: ast.Table, node, scope) -> Code:
        key = self.expr(node.index, scope)
        compiled = self.world.table(self, table)
        if not (self.compatible(key.type, compiled.key_type) or self.compatible(compiled.key_type, key.type)):
            self.fail(node.index, f"table {table.name!r} is keyed by {compiled.key_type.plural()}, "
                                  f"not {key.type.plural()}")
        if key.const:
            if key.value not in compiled.values:
                self.fail(node.index, f"table {table.name!r} has no entry for this key")
            return const(compiled.values[key.value], compiled.value_type)
        # A key that varies must find an entry whatever its value (players and attribute values).
        if key.type == T.PLAYER:
            domain = list(zip(range(len(self.m.players)), self.m.players))
            owner = next((a for a in self.m.attributes.values() if a.players), None)
            if key.neutral and owner is not None:
                domain = list(zip(owner.numbers, owner.values))
        elif key.type.name == "enum" and key.type.attr in self.m.attributes:
            a = self.m.attributes[key.type.attr]
            domain = list(zip(a.numbers, a.values))
        else:
            domain = []
        missing = [name for value, name in domain if value not in compiled.values]
        if missing:
            self.fail(node.index, f"table {table.name!r} has no entry for {missing[0]!r}, "
                                  f"which {self.rep.snippet(node.index.pos) if self.rep else 'the key'} can be",
                      hint=f"add it to the table: {missing[0]}: ...")
        return Code(f"{compiled.pyname}[{key.src}]", compiled.value_type)

    def x_Comprehension(self, node, scope):
        inner = dict(scope)
        clauses = []
        iters = []
        for f in node.fors:
            it = self.expr(f.iter, inner)
            iters.append(it)
            elem = T.element(it.type)
            if elem is None:
                self.fail(f.iter, f"cannot loop over {T.a(it.type)}")
            # Inside an expanded def, a loop variable gets the def's name too, so that it cannot
            # capture a name of the same spelling in the caller's arguments.
            var = "v_" + f.var + "".join("__" + d for d in self.inlining)
            inner = dict(inner)
            inner[f.var] = Code(var, elem)
            src = collection(it)
            clause = f"for {var} in {src}"
            if f.cond is not None:
                cond = self.expect(self.expr(f.cond, inner), T.BOOL, f.cond, "a 'where' condition")
                clause += f" if {cond.src}"
            clauses.append(clause)
        elt = self.expr(node.elt, inner)
        gen = f"{elt.src} {' '.join(clauses)}"
        fn = node.func
        # sum(x.attr for x in S) -> sum(map(A_attr.__getitem__, S)): no Python frame per item.
        f0 = node.fors[0]
        if (fn == "sum" and len(node.fors) == 1 and f0.cond is None and isinstance(node.elt, ast.Attr)
                and isinstance(node.elt.obj, ast.Name) and node.elt.obj.id == f0.var
                and inner[f0.var].type == T.PIECE and node.elt.name in self.m.attributes):
            it_src = clauses[0].split(" in ", 1)[1]
            table = self.world.attr_table_name(node.elt.name)
            memo = self.stack_sum(iters[0], node.elt.name)
            if memo is not None:
                return memo
            return Code(f"sum(map({table}.__getitem__, {it_src}))", T.INT)
        if fn == "sum":
            self.expect(elt, T.INT, node.elt, "what 'sum' adds up")
            return Code(f"sum({gen})", T.INT)
        if fn in ("all", "any"):
            self.expect(elt, T.BOOL, node.elt, f"what '{fn}' tests")
            return Code(f"{fn}({gen})", T.BOOL)
        if fn == "count":
            self.expect(elt, T.BOOL, node.elt, "what 'count' tests")
            return Code(f"sum(1 for _ in ({gen}) if _)", T.INT)
        if fn in ("min", "max"):
            self.expect(elt, T.INT, node.elt, f"what '{fn}' compares")
            return Code(f"{fn}(({gen}), default=0)", T.INT)
        if fn == "list":
            return Code(f"tuple({gen})", T.list_of(elt.type))
        if fn == "product":
            # product(OPTIONS for x in LIST): every way to pick one item of OPTIONS for each x, as
            # lists in the order of LIST (one choice per item: `each` in a single move).
            if not T.is_list(elt.type):
                self.fail(node.elt, f"what 'product' combines must be a list for each item, not {T.a(elt.type)}")
            return Code(f"_product({gen})", T.list_of(elt.type))
        self.fail(node, f"{fn!r} cannot take a 'for' clause",
                  hint="use sum, count, all, any, min, max, list or product")

    def x_Call(self, node, scope):
        fn = node.func
        args = node.args
        if fn in self.m.defs:
            return self.inline(self.m.defs[fn], node, scope)
        if fn == "step" and len(args) == 3:  # k steps at once
            c = self.expect(self.expr(args[0], scope), T.CELL, args[0], "argument 1 of step()")
            d = self.expect(self.expr(args[1], scope), T.DIR, args[1], "argument 2 of step()")
            k = self.expect(self.expr(args[2], scope), T.INT, args[2], "argument 3 of step()")
            if self.context in ("option", "board", "table"):
                self.fail(node, "step() looks at the board, which does not exist yet here")
            if k.const and 0 <= k.value <= self.world.longest:  # a table lookup, cut in advance
                return Code(f"STEPK[{k.value}][{d.src}][{c.src}]", T.CELL)
            if k.const:
                return const(-1, T.CELL)
            return Code(f"_stepk({c.src}, LINE1[{d.src}][{c.src}], {k.src})", T.CELL)
        if fn in CELL_FUNCS:
            want, result, template = CELL_FUNCS[fn]
            if len(args) != len(want):
                self.fail(node, f"{fn}() takes {len(want)} argument{'s' if len(want) != 1 else ''}, not {len(args)}")
            codes = [self.expect(self.as_dirset(self.expr(a, scope)) if w == T.DIRSET else self.expr(a, scope),
                                 w, a, f"argument {i + 1} of {fn}()")
                     for i, (a, w) in enumerate(zip(args, want))]
            if self.context in ("option", "board", "table"):
                self.fail(node, f"{fn}() looks at the board, which does not exist yet here")
            if fn in ("corner", "edge", "neighbours", "line", "step", "distance") and all(c.const for c in codes):
                return self.fold_world(fn, codes, result)
            known = self.known_occupancy(fn, codes[0])
            if known is not None:
                return known
            stacks = {f"s{i}": self.stack_of(c) for i, c in enumerate(codes)}
            origin = (fn, codes[0], codes[1] if len(codes) > 1 else None) if fn in ("above", "below", "stack") else None
            return Code(template.format(*(c.src for c in codes), **stacks), result, origin=origin)
        if fn in ("min", "max") and len(args) >= 2:
            codes = [self.expect(self.expr(a, scope), T.INT, a, f"an argument of {fn}()") for a in args]
            if all(c.const for c in codes):
                return const((min if fn == "min" else max)(c.value for c in codes), T.INT)
            return Code(f"{fn}({', '.join(c.src for c in codes)})", T.INT)
        if fn in ("sum", "count", "min", "max", "any", "all", "abs") and len(args) == 1:
            c = self.expr(args[0], scope)
            if fn == "abs":
                self.expect(c, T.INT, args[0], "the argument of abs()")
                return Code(f"abs({c.src})", T.INT)
            elem = T.element(c.type)
            if elem is None:
                self.fail(args[0], f"{fn}() needs a list, not {T.a(c.type)}")
            src = collection(c)
            if fn == "count":
                return Code(f"len({src})", T.INT)
            if fn in ("any", "all"):
                self.expect(Code("", elem), T.BOOL, args[0], f"what {fn}() tests")
                return Code(f"{fn}({src})", T.BOOL)
            self.expect(Code("", elem), T.INT, args[0], f"what {fn}() works on")
            if fn == "sum":
                return Code(f"sum({src})", T.INT)
            return Code(f"{fn}({src}, default=0)", T.INT)
        if fn == "piece":
            return self.piece_literal(node, scope)
        if fn == "shuffled":
            if len(args) != 1:
                self.fail(node, f"shuffled() takes 1 argument, a list, not {len(args)}")
            c = self.expr(args[0], scope)
            elem = T.element(c.type)
            if elem is None or c.type == T.DIRSET:
                self.fail(args[0], f"shuffled() needs a list, not {T.a(c.type)}")
            if self.context != "setup":
                self.fail(node, "shuffled() draws from the setup's random numbers, so it is for setup only")
            src = collection(c)
            return Code(f"_shuffled(rng, {src})", T.list_of(elem))
        if fn in ("repeated", "repeated_board"):
            if self.context != "end":
                self.fail(node, f"{fn}() can only be tested in the end block")
            if len(args) != 1:
                self.fail(node, f"{fn}() takes one argument: how many times a position has occurred")
            n = self.expect(self.expr(args[0], scope), T.INT, args[0], f"the argument of {fn}()")
            self.uses_repetition = True
            if fn == "repeated_board":  # the same pieces everywhere, whoever is to move
                return Code(f"(sum(seen.get(st.h ^ _k, 0) for _k in SIDEKEY) >= {n.src})", T.BOOL)
            return Code(f"(seen.get(st.h ^ SIDEKEY[mover], 0) >= {n.src})", T.BOOL)
        if fn in EFFECTS:
            self.fail(node, f"{fn}() is an effect: it belongs on a line of its own in a 'do:' or 'setup:' block")
        known = list(self.m.defs) + list(CELL_FUNCS) + ["min", "max", "sum", "count", "any", "all",
                                                        "abs", "piece", "repeated", "repeated_board", "shuffled"]
        self.fail(node, f"unknown function {fn!r}", hint=did_you_mean(fn, known))

    def stack_sum(self, it: Code, attr: str) -> Optional[Code]:
        """sum(x.attr for x in above(c, k) | stack(c) | below(c, k)) as a lookup in a table of
        suffix sums kept per distinct stack (stacks are tuples, so equal stacks share an entry)."""
        if self.context in ("option", "board", "table"):
            return None
        memo = f"SUF_{attr}"
        if it.type == T.ZONE:
            self.world.suffix_sums.add(attr)
            zone = f"zones[{it.src}]"
            return Code(f"({memo}.get({zone}) or _suffix({memo}, A_{attr}, {zone}))[0]", T.INT)
        if it.origin is None:
            return None
        fn, cell, k = it.origin
        self.world.suffix_sums.add(attr)
        stack = self.stack_of(cell)
        suf = f"({memo}.get({stack}) or _suffix({memo}, A_{attr}, {stack}))"
        if cell.hoist is not None and cell.stack is not None:
            suf = self.hoisted(cell, f"_u{len(attr)}_{attr}_{cell.src}", suf)
        if fn == "stack":
            return Code(f"{suf}[0]", T.INT)
        if fn == "above":
            return Code(f"{suf}[{k.src}]", T.INT)
        return Code(f"({suf}[0] - {suf}[{k.src} - 1])", T.INT)

    @staticmethod
    def hoisted(cell: Code, alias: str, src: str) -> str:
        """`src`, which reads only the chosen cell's stack, computed once where the cell was chosen
        (just before its marker line) rather than in every loop below it; the local's name."""
        if cell.attrs is None:
            cell.attrs = {}
        if alias not in cell.attrs:
            w, marker = cell.hoist
            at = w.lines.index(marker)
            w.lines.insert(at, marker[:len(marker) - len(marker.lstrip())] + f"{alias} = {src}")
            cell.attrs[alias] = alias
        return alias

    def known_occupancy(self, fn: str, cell: Code) -> Optional[Code]:
        """Fold a cell test when the generator already knows whether the cell is empty."""
        occ = cell.occupied
        if occ is None or self.context == "effects" or cell.stack is None:
            return None
        s = cell.stack
        if fn == "empty":
            return const(not occ, T.BOOL)
        if fn == "occupied":
            return const(occ, T.BOOL)
        if not occ:
            folded = {"height": const(0, T.INT), "mine": const(False, T.BOOL),
                      "theirs": const(False, T.BOOL), "controller": const(-1, T.PLAYER)}
            return folded.get(fn)
        hoisted = cell.attrs or {}
        top = hoisted.get("@top", f"{s}[-1]")
        ctrl = hoisted.get("@ctrl", f"CTRL[{top}]")
        return {"mine": Code(f"({ctrl} == mover)", T.BOOL),
                "theirs": Code(f"(-1 != {ctrl} != mover)", T.BOOL),
                "controller": Code(ctrl, T.PLAYER),
                "top": Code(top, T.PIECE) if "@top" in hoisted else None}.get(fn)

    def as_dirset(self, code: Code) -> Code:
        """A single direction where a direction set is wanted: the set of that direction alone."""
        if code.type != T.DIR:
            return code
        if code.const:
            return const(self.world.dirset((list(BUILTIN_DIRECTIONS)[code.value],)), T.DIRSET)
        self.world.single_dirsets()
        return Code(f"DIRSET1[{code.src}]", T.DIRSET)

    def stack_of(self, cell: Code) -> str:
        """Python for the stack on a cell: a local alias where the board cannot change meanwhile."""
        if cell.stack is not None and self.context != "effects":
            return cell.stack
        return f"cells[{cell.src}]"

    def fold_world(self, fn, codes, result):
        w = self.world
        v = [c.value for c in codes]
        value = {
            "corner": lambda: w.CORNER[v[0]],
            "edge": lambda: w.EDGE[v[0]],
            "neighbours": lambda: w.NEIGH[v[1]][v[0]],
            "line": lambda: w.LINES[v[1]][v[0]],
            "step": lambda: w.STEP[v[1]][v[0]],
            "distance": lambda: w.DIST[v[0]][v[1]],
        }[fn]()
        return Code(repr(value), result, True, value)

    def piece_literal(self, node, scope) -> Code:
        chosen = {}
        parts = []
        for a in node.args:
            c = self.expr(a, scope)
            if c.type == T.PLAYER:
                attr = next((x for x in self.m.attributes.values() if x.players), None)
            elif c.type.name == "enum":
                attr = self.m.attributes[c.type.attr]
            else:
                attr = None
            if attr is None:
                self.fail(a, f"piece() takes attribute values, not {T.a(c.type)}")
            if attr.name in chosen:
                self.fail(a, f"piece() names {attr.name!r} twice")
            chosen[attr.name] = c
        missing = [n for n in self.m.attributes if n not in chosen]
        if missing:
            self.fail(node, "piece() needs a value for " + ", ".join(repr(n) for n in missing))
        w = self.world
        if all(c.const for c in chosen.values()):
            return const(w.piece_code({n: c.value for n, c in chosen.items()}), T.PIECE)
        for name in self.m.attributes:
            c = chosen[name]
            parts.append(f"{w.stride[name]} * {w.value_index_src(name, c.src)}")
        return Code("(" + " + ".join(parts) + ")", T.PIECE)

    def inline(self, d: ast.Def, node: ast.Call, scope) -> Code:
        if len(node.args) != len(d.params):
            self.fail(node, f"{d.name}() takes {len(d.params)} argument{'s' if len(d.params) != 1 else ''}, "
                      f"not {len(node.args)}", hint=f"def {d.name}({', '.join(d.params)}) is on line {d.pos.line}")
        if d.name in self.inlining:
            self.fail(node, f"{d.name}() calls itself; defs are expanded in place and cannot recurse")
        inner = {}
        for p, a in zip(d.params, node.args):
            c = self.expr(a, scope)
            inner[p] = c if c.const or c.src.isidentifier() else Code(f"({c.src})", c.type, False,
                                                                       stack=c.stack, attrs=c.attrs, origin=c.origin,
                                                                       neutral=c.neutral)
        self.inlining.append(d.name)
        saved = self.rep
        self.rep = self.m.reporter_for(d)
        try:
            return self.expr(d.body, inner)
        finally:
            self.rep = saved
            self.inlining.pop()

    # ---- statements -----------------------------------------------------------------------

    def block(self, stmts, scope: dict, w: Writer) -> None:
        before = len(w.lines)
        scope = dict(scope)
        for s in stmts:
            self.stmt(s, scope, w)
        if len(w.lines) == before:  # everything folded away: keep the block valid Python
            w.line("pass")

    def stmt(self, s, scope: dict, w: Writer) -> None:
        line = s.pos.line
        if isinstance(s, ast.Let):
            c = self.expr(s.value, scope)
            if c.const:
                scope[s.name] = c
            else:
                var = "v_" + s.name
                w.line(f"{var} = {c.src}", line)
                scope[s.name] = Code(var, c.type, neutral=c.neutral)
        elif isinstance(s, ast.If):
            cond = self.expect(self.expr(s.cond, scope), T.BOOL, s.cond, "the condition of 'if'")
            if cond.const:
                kept, dropped = (s.body, s.orelse) if cond.value else (s.orelse, s.body)
                if kept:
                    self.block(kept, scope, w)
                if dropped:  # folded away by the options, but still checked
                    self.block(dropped, scope, Writer(counter=w.counter))
                return
            w.line(f"if {cond.src}:", line)
            with w.indent():
                self.block(s.body, scope, w)
            if s.orelse:
                w.line("else:")
                with w.indent():
                    self.block(s.orelse, scope, w)
        elif isinstance(s, ast.For):
            it = self.expr(s.iter, scope)
            elem = T.element(it.type)
            if elem is None:
                self.fail(s.iter, f"cannot loop over {T.a(it.type)}")
            var = "v_" + s.var
            src = collection(it)
            w.line(f"for {var} in {src}:", line)
            inner = dict(scope)
            inner[s.var] = Code(var, elem)
            with w.indent():
                if s.cond is not None:
                    cond = self.expect(self.expr(s.cond, inner), T.BOOL, s.cond, "a 'where' condition")
                    w.line(f"if {cond.src}:")
                    with w.indent():
                        self.block(s.body, inner, w)
                else:
                    self.block(s.body, inner, w)
        elif isinstance(s, ast.Assign):
            self.assign(s, scope, w)
        elif isinstance(s, ast.ExprStmt):
            if isinstance(s.expr, ast.Call) and s.expr.func not in EFFECTS and s.expr.func not in self.m.defs:
                self.fail(s.expr, f"unknown effect {s.expr.func!r}",
                          hint=did_you_mean(s.expr.func, EFFECTS) or "effects are " + ", ".join(sorted(EFFECTS)) + "()")
            if not isinstance(s.expr, ast.Call) or s.expr.func not in EFFECTS:
                self.fail(s, "this line does nothing: a statement must be an effect, an assignment or an outcome",
                          hint="effects are " + ", ".join(sorted(EFFECTS)) + "()")
            self.effect(s.expr, scope, w)
        elif isinstance(s, ast.Outcome):
            if self.context != "end":
                self.fail(s, f"'{s.kind}' ends the game, so it belongs in the end block")
            who = "None"
            if s.who is not None:
                who = self.expect(self.expr(s.who, scope), T.PLAYER, s.who, f"who '{s.kind}'s").src
            w.line(f"return ({s.kind!r}, {who}, {s.reason!r})", line)
        elif isinstance(s, ast.Rank):
            if self.context != "end":
                self.fail(s, "'rank by' ends the game, so it belongs in the end block")
            keys = [self.rank_key(key.id, key) for key in s.keys]
            w.line(f"return ('rank', tuple(({''.join(k + ', ' for k in keys)}) for _rp in ALLPLAYERS), "
                   f"{s.reason!r})", line)
        else:
            self.fail(s, "this statement cannot be used here")

    def rank_key(self, name: str, s) -> str:
        """Python for one key of `rank by` for the player `_rp`: a def of one player, or a
        per-player counter."""
        m = self.m
        player = Code("_rp", T.PLAYER)
        if name in m.counters and m.counters[name].per_player:
            return f"counters[{self.world.counter_index[name]} + _rp]"
        if name not in m.defs:
            self.fail(s, f"'rank by' needs a def of one player (or a per-player counter), and {name!r} is neither",
                      hint=did_you_mean(name, list(m.defs)) or f"declare one: def {name}(p): ...")
        d = m.defs[name]
        if len(d.params) != 1:
            self.fail(s, f"'rank by' calls {name}() with one player, but it takes {len(d.params)} arguments",
                      hint=f"def {name}(p): ... (line {d.pos.line})")
        call = ast.Call(name, (ast.Name("_rp", s.pos),), s.pos)
        c = self.inline(d, call, {"_rp": player})
        self.expect(c, T.INT, s, f"{name}(), a key of 'rank by',")
        return c.src

    def assign(self, s: ast.Assign, scope, w: Writer) -> None:
        if self.context not in ("effects", "setup"):
            self.fail(s, "the game state can only change in a 'do:' or 'setup:' block")
        target = s.target
        if isinstance(target, ast.Name) and target.id in self.m.counters and not self.m.counters[target.id].per_player:
            idx = str(self.world.counter_index[target.id])
        elif (isinstance(target, ast.Index) and isinstance(target.obj, ast.Name)
              and target.obj.id in self.m.counters and self.m.counters[target.obj.id].per_player):
            p = self.expect(self.expr(target.index, scope), T.PLAYER, target.index, "the player of a counter")
            idx = f"{self.world.counter_index[target.obj.id]} + {p.src}"
        else:
            self.fail(target, "only counters can be assigned", hint="declare one: counter NAME = 0")
        value = self.expect(self.expr(s.value, scope), T.INT, s.value, "a counter's value")
        i = w.fresh("i")
        w.line(f"{i} = {idx}", s.pos.line)
        new = value.src if s.op == "=" else f"counters[{i}] {s.op[0]} {value.src}"
        self.write_slot(w, "counters", i, new, tag=2)

    def write_slot(self, w: Writer, lst: str, index: str, new: str, tag: int) -> None:
        """Set lst[index] = new, logging the old value for undo (and the position hash)."""
        old, val = w.fresh("o"), w.fresh("n")
        w.line(f"{old} = {lst}[{index}]")
        w.line(f"{val} = {new}")
        w.line(f"log.append(({lst}, {index}, {old}))")
        w.line(f"{lst}[{index}] = {val}")
        if self.world.hashing:
            w.line(f"h ^= hash(({tag}, {index}, {old})) ^ hash(({tag}, {index}, {val}))")

    def effect(self, call: ast.Call, scope, w: Writer) -> None:
        fn, args = call.func, call.args
        line = call.pos.line
        if self.context not in ("effects", "setup"):
            self.fail(call, f"{fn}() changes the game, so it belongs in a 'do:' or 'setup:' block")

        def arg(i, typ, what):
            if i >= len(args):
                self.fail(call, f"{fn}() is missing {what}")
            return self.expect(self.expr(args[i], scope), typ, args[i], f"{what} of {fn}()")

        def arity(n):
            if len(args) != n:
                self.fail(call, f"{fn}() takes {n} argument{'s' if n != 1 else ''}, not {len(args)}")

        if fn == "move":
            arity(3)
            a, k, b = arg(0, T.CELL, "the cell to move from"), arg(1, T.INT, "the level"), arg(2, T.CELL, "the cell to move to")
            ta, tk, tb = w.fresh("a"), w.fresh("k"), w.fresh("b")
            w.line(f"{ta} = {a.src}; {tk} = {k.src} - 1; {tb} = {b.src}", line)
            w.line(f"_unit = cells[{ta}][{tk}:]")
            self.write_slot(w, "cells", ta, f"cells[{ta}][:{tk}]", 0)
            self.write_slot(w, "cells", tb, f"cells[{tb}] + _unit", 0)
        elif fn == "take":
            arity(2)
            c, z = arg(0, T.CELL, "the cell"), arg(1, T.ZONE, "the zone")
            tc, tz = w.fresh("c"), w.fresh("z")
            w.line(f"{tc} = {c.src}; {tz} = {z.src}", line)
            self.write_slot(w, "zones", tz, f"zones[{tz}] + cells[{tc}]", 1)
            self.write_slot(w, "cells", tc, "()", 0)
        elif fn == "place":
            arity(2)
            p = self.expr(args[0], scope)
            if p.type == T.PIECE:
                src = f"({p.src},)"
            else:
                src = self.expect(p, T.STACK, args[0], "the pieces to place").src
                src = f"tuple({src})"
            c = arg(1, T.CELL, "the cell")
            if self.context != "setup":
                self.uses_place = True  # pieces come into play from nowhere: not conserved
            tc = w.fresh("c")
            w.line(f"{tc} = {c.src}", line)
            self.write_slot(w, "cells", tc, f"cells[{tc}] + {src}", 0)
        elif fn == "remove":
            # remove(cell, level, zone): the piece at that level leaves the stack for the zone.
            arity(3)
            c, k, z = arg(0, T.CELL, "the cell"), arg(1, T.INT, "the level"), arg(2, T.ZONE, "the zone")
            tc, tk, tz = w.fresh("c"), w.fresh("k"), w.fresh("z")
            w.line(f"{tc} = {c.src}; {tk} = {k.src} - 1; {tz} = {z.src}", line)
            w.line(f"_piece = cells[{tc}][{tk}]")
            self.write_slot(w, "zones", tz, f"zones[{tz}] + (_piece,)", 1)
            self.write_slot(w, "cells", tc, f"cells[{tc}][:{tk}] + cells[{tc}][{tk} + 1:]", 0)
        elif fn in ("put", "insert"):
            # put(zone, piece, cell): one such piece leaves the zone for the top of the cell;
            # insert(zone, piece, cell, level): the same, slipped in so that it stands at that level.
            arity(3 if fn == "put" else 4)
            z, p, c = arg(0, T.ZONE, "the zone"), arg(1, T.PIECE, "the piece"), arg(2, T.CELL, "the cell")
            tz, tp, tc = w.fresh("z"), w.fresh("p"), w.fresh("c")
            w.line(f"{tz} = {z.src}; {tp} = {p.src}; {tc} = {c.src}", line)
            w.line(f"_at = zones[{tz}].index({tp})")
            self.write_slot(w, "zones", tz, f"zones[{tz}][:_at] + zones[{tz}][_at + 1:]", 1)
            if fn == "put":
                self.write_slot(w, "cells", tc, f"cells[{tc}] + ({tp},)", 0)
            else:
                k = arg(3, T.INT, "the level")
                tk = w.fresh("k")
                w.line(f"{tk} = {k.src} - 1")
                self.write_slot(w, "cells", tc, f"cells[{tc}][:{tk}] + ({tp},) + cells[{tc}][{tk}:]", 0)
        elif fn == "change":
            # change(cell, level, piece): the piece at that level becomes another piece (a
            # promotion, a flip, a layer changing hands); the stack keeps its height.
            arity(3)
            self.uses_change = True
            c, k, p = arg(0, T.CELL, "the cell"), arg(1, T.INT, "the level"), arg(2, T.PIECE, "the new piece")
            tc, tk, tp = w.fresh("c"), w.fresh("k"), w.fresh("p")
            w.line(f"{tc} = {c.src}; {tk} = {k.src} - 1; {tp} = {p.src}", line)
            self.write_slot(w, "cells", tc, f"cells[{tc}][:{tk}] + ({tp},) + cells[{tc}][{tk} + 1:]", 0)
        elif fn == "swap_seats":
            arity(2)
            a, b = arg(0, T.PLAYER, "the first side"), arg(1, T.PLAYER, "the second side")
            ta, tb = w.fresh("a"), w.fresh("b")
            w.line(f"{ta} = {a.src}; {tb} = {b.src}; _sa = seats[{ta}]; _sb = seats[{tb}]", line)
            self.write_slot(w, "seats", ta, "_sb", 3)
            self.write_slot(w, "seats", tb, "_sa", 3)
        elif fn == "extra_turn":
            arity(0)
            if self.context != "effects":
                self.fail(call, "extra_turn() is for moves")
            w.line("nxt = mover", line)
        else:  # pragma: no cover - EFFECTS lists exactly the branches above
            self.fail(call, f"unknown effect {fn!r}")
