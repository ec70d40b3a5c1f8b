"""Operators, attributes, indexing, tables, lists and comprehensions: their types, checked."""

from __future__ import annotations

from ...errors import did_you_mean
from .. import ast, ir
from .. import types as T
from .surface import is_spot_distance, spot_distance
from .core import EXPRESSIONS, Ctx, Resolver, handles, may_be_neutral, numeric
from .names import qualified
from .sets import loop, member, not_a_value


@handles(EXPRESSIONS, ast.Neg)
def neg(r: Resolver, node, ctx: Ctx):
    e = r.expect(r.expr(node.operand, ctx), T.INT, node, "'-' needs a number: its operand")
    return ir.Neg(e, pos=node.pos)


@handles(EXPRESSIONS, ast.Not)
def not_(r: Resolver, node, ctx: Ctx):
    e = r.expect(r.expr(node.operand, ctx), T.BOOL, node.operand, "the operand of 'not'")
    return ir.Not(e, pos=node.pos)


@handles(EXPRESSIONS, ast.BoolOp)
def boolop(r: Resolver, node, ctx: Ctx):
    values = tuple(r.expect(r.expr(v, ctx), T.BOOL, v, f"each side of '{node.op}'") for v in node.values)
    return ir.BoolOp(node.op, values, pos=node.pos)


@handles(EXPRESSIONS, ast.BinOp)
def binop(r: Resolver, node, ctx: Ctx):
    left, right = r.expr(node.left, ctx), r.expr(node.right, ctx)
    if node.op == "+" and {left.type, right.type} <= {T.DIR, T.DIRSET}:  # `ne + nw`: a set of two
        return ir.DirUnion(r.as_dirset(left), r.as_dirset(right), pos=node.pos)
    if node.op == "+" and T.is_list(left.type) and T.is_list(right.type):
        if not r.compatible(left.type, right.type):
            r.fail(node, f"cannot join {T.a(left.type)} and {T.a(right.type)}")
        return ir.ListJoin(left, right, left.type, pos=node.pos)
    r.expect(left, T.INT, node.left, f"the left side of '{node.op}'")
    r.expect(right, T.INT, node.right, f"the right side of '{node.op}'")
    return ir.Arith(node.op, left, right, pos=node.pos)


@handles(EXPRESSIONS, ast.Compare)
def compare(r: Resolver, node, ctx: Ctx):
    op = node.op
    if op in ("<", "<=", ">", ">=", "==", "!=") and (is_spot_distance(r, node.left) or is_spot_distance(r, node.right)):
        return compare_distance(r, node, ctx)
    if op in ("in", "not in"):
        if (in_set := member(r, node, ctx)) is not None:
            return in_set
    left, right = r.expr(node.left, ctx), r.expr(node.right, ctx)
    if {left.type, right.type} == {T.SPOT, T.CELL}:  # a spot and `none`: no spot
        none = left if left.type == T.CELL else right
        if isinstance(none, ir.Const) and none.value == -1:
            spot = ir.Const(-1, T.SPOT, none.pos)
            left, right = (spot, right) if left is none else (left, spot)
    if {left.type, right.type} == {T.DIR, T.CELL}:  # a direction and `none`: no direction
        none = left if left.type == T.CELL else right
        if isinstance(none, ir.Const) and none.value == -1:
            nodir = ir.Const(-1, T.DIR, none.pos)
            left, right = (nodir, right) if left is none else (left, nodir)
    if op in ("in", "not in"):
        elem = T.element(right.type)
        if elem is None:
            r.fail(node.right, f"'{op}' needs a list or range on its right, not {T.a(right.type)}")
        if not (r.compatible(left.type, elem) or r.compatible(elem, left.type)):
            r.fail(node, f"{T.a(left.type)} is never in {T.a(right.type)}")
    elif op in ("<", "<=", ">", ">="):
        r.expect(left, T.INT, node.left, f"the left side of '{op}'")
        r.expect(right, T.INT, node.right, f"the right side of '{op}'")
    else:
        same = (r.compatible(left.type, right.type) or r.compatible(right.type, left.type)
                or (numeric(left.type, r.m) and numeric(right.type, r.m)))
        if not same:
            hint = None
            if left.type.name == "enum" or right.type.name == "enum":
                hint = "compare a piece's attribute with a value of that attribute"
            r.fail(node, f"comparing {T.a(left.type)} with {T.a(right.type)} is always false", hint=hint)
    return ir.Compare(op, left, right, pos=node.pos)


def compare_distance(r: Resolver, node, ctx: Ctx):
    """`distance(a, b) <= R` between spots, compared exactly through squares: d <= R is
    d^2 <= R * |R| (false for R < 0), and the same for the other comparisons."""
    flip = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
    if is_spot_distance(r, node.left):
        d, other, op = node.left, node.right, node.op
    else:
        d, other, op = node.right, node.left, flip[node.op]
    if is_spot_distance(r, other):
        r.fail(node, "compare a distance on the table with a length, not with another distance",
               hint="distance(a, b) <= 6in")
    squared = spot_distance(r, d, ctx)
    bound = r.expect(r.expr(other, ctx), T.INT, other, "a length compared with a distance")
    limit = ir.Arith("*", bound, ir.Call("abs", (bound,), T.INT, bound.pos), T.INT, pos=bound.pos)
    return ir.Compare(op, squared, limit, pos=node.pos)


@handles(EXPRESSIONS, ast.Ternary)
def ternary(r: Resolver, node, ctx: Ctx):
    cond = r.expect(r.expr(node.cond, ctx), T.BOOL, node.cond, "the condition of 'if'")
    a, b = r.expr(node.then, ctx), r.expr(node.orelse, ctx)
    typ = a.type
    if not (r.compatible(a.type, b.type) or r.compatible(b.type, a.type)):
        if numeric(a.type, r.m) and numeric(b.type, r.m):
            typ = T.INT
        else:
            r.fail(node, f"the two branches differ: {T.a(a.type)} and {T.a(b.type)}")
    elif a.type == T.ANY:
        typ = b.type
    return ir.Ternary(cond, a, b, typ, pos=node.pos)


@handles(EXPRESSIONS, ast.Range)
def range_(r: Resolver, node, ctx: Ctx):
    lo = r.expect(r.expr(node.lo, ctx), T.INT, node.lo, "the start of a range")
    hi = r.expect(r.expr(node.hi, ctx), T.INT, node.hi, "the end of a range")
    return ir.Range(lo, hi, pos=node.pos)


@handles(EXPRESSIONS, ast.ListLit)
def list_lit(r: Resolver, node, ctx: Ctx):
    items = tuple(r.expr(i, ctx) for i in node.items)
    if not items:
        return ir.ListLit((), T.list_of(T.ANY), pos=node.pos)
    typ = items[0].type
    for i, c in zip(node.items[1:], items[1:]):
        if not r.compatible(c.type, typ):
            r.fail(i, f"a list holds one kind of thing: this is {T.a(c.type)}, the first {T.a(typ)}")
    return ir.ListLit(items, T.list_of(typ), pos=node.pos)


@handles(EXPRESSIONS, ast.Attr)
def attr(r: Resolver, node, ctx: Ctx):
    column = columned(r, node.obj, ctx)
    if column is not None:  # deck[card].target: one column of a table with columns
        if node.name not in column.columns:
            r.fail(node, f"table {column.name!r} has no column {node.name!r}",
                   hint=did_you_mean(node.name, column.columns) or "its columns: " + ", ".join(column.columns))
        return table_get(r, column.column(node.name), node.obj, ctx)
    if not (isinstance(node.obj, ast.Name) and node.obj.id in ctx.scope):
        value = qualified(r, node)
        if value is not None:
            return value
    obj = r.expr(node.obj, ctx)
    if obj.type == T.ANY:  # unknown after a reported mistake
        return ir.Attr(obj, node.name, T.ANY, pos=node.pos)
    if obj.type == T.CELL:
        if node.name in ("rank", "file"):
            return ir.Attr(obj, node.name, T.INT, pos=node.pos)
        r.fail(node, f"a cell has no {node.name!r}", hint="a cell has .rank and .file; its pieces are top(c), c[LEVEL]")
    if obj.type == T.PIECE:
        a = r.m.attributes.get(node.name)
        if a is None:
            r.fail(node, f"pieces have no attribute {node.name!r}",
                   hint=did_you_mean(node.name, r.m.attributes) or "declared attributes: " + ", ".join(r.m.attributes))
        typ = T.PLAYER if a.players else T.enum(a.name)
        return ir.Attr(obj, a.name, typ, pos=node.pos, neutral=bool(a.players and a.neutral))
    r.fail(node, f"{T.a(obj.type)} has no attribute {node.name!r}")


@handles(EXPRESSIONS, ast.Index)
def index(r: Resolver, node, ctx: Ctx):
    m = r.m
    if isinstance(node.obj, ast.Name):
        n = node.obj.id
        if n not in ctx.scope:
            if n in m.tables:
                if m.tables[n].columns:
                    cols = m.tables[n].columns
                    r.fail(node, f"table {n!r} has columns ({', '.join(cols)}): read one of them",
                           hint=f"{n}[KEY].{cols[0]}")
                return table_get(r, m.tables[n], node, ctx)
            if n in m.zones and m.zones[n].per_player:
                p = r.expect(r.expr(node.index, ctx), T.PLAYER, node.index, f"the index of zone {n!r}")
                return ir.ZoneRef(n, p, pos=node.pos)
            if n in m.counters and m.counters[n].kind == "set":
                not_a_value(r, node, n)
            if n in m.counters and m.counters[n].per_player:
                p = r.expect(r.expr(node.index, ctx), T.PLAYER, node.index, f"the index of counter {n!r}")
                from .names import counter_type
                return ir.CounterRef(n, p, counter_type(m.counters[n]), pos=node.pos)
    obj = r.expr(node.obj, ctx)
    idx = r.expr(node.index, ctx)
    if obj.type == T.ANY:
        return ir.Index(obj, idx, T.ANY, pos=node.pos, index_pos=node.index.pos)
    if obj.type == T.CELL:
        r.expect(idx, T.INT, node.index, "a level")
        return ir.Index(obj, idx, T.PIECE, pos=node.pos, index_pos=node.index.pos)
    elem = T.element(obj.type)
    if elem is not None and obj.type != T.DIRSET:
        r.expect(idx, T.INT, node.index, "a position in a list")
        return ir.Index(obj, idx, elem, pos=node.pos, index_pos=node.index.pos)
    r.fail(node, f"{T.a(obj.type)} cannot be indexed")


def columned(r: Resolver, node, ctx: Ctx):
    """The table with columns that `node` indexes (`deck[card]`), or None."""
    if isinstance(node, ast.Index) and isinstance(node.obj, ast.Name) and node.obj.id not in ctx.scope:
        table = r.m.tables.get(node.obj.id)
        if table is not None and table.columns:
            return table
    return None


def table_get(r: Resolver, table: ast.Table, node, ctx: Ctx):
    from .decls import table_decl

    decl = table_decl(r, table)
    key = r.expr(node.index, ctx)
    if not (r.compatible(key.type, decl.key_type) or r.compatible(decl.key_type, key.type)):
        r.fail(node.index, f"table {table.name!r} is keyed by {decl.key_type.plural()}, "
                           f"not {key.type.plural()}")
    return ir.TableGet(table.name, key, decl.value_type, pos=node.pos, key_pos=node.index.pos)


COMP_FUNCS = ("sum", "count", "all", "any", "min", "max", "list", "product")


# Functions that fold a comprehension's items into one value: what each item must be, what they
# give, and what the function does with them (for messages).
FOLDS = {
    "sum": (T.INT, T.INT, "adds up"),
    "all": (T.BOOL, T.BOOL, "tests"),
    "any": (T.BOOL, T.BOOL, "tests"),
    "count": (T.BOOL, T.INT, "tests"),
    "min": (T.INT, T.INT, "compares"),
    "max": (T.INT, T.INT, "compares"),
}


@handles(EXPRESSIONS, ast.Comprehension)
def comprehension(r: Resolver, node, ctx: Ctx):
    inner = ctx
    fors = []
    for f in node.fors:
        var, it, cond, inner = loop(r, f, inner)
        fors.append(ir.CompFor(var, it, cond, f.pos))
    elt = r.expr(node.elt, inner)
    fn = node.func
    if fn in FOLDS:
        want, typ, what = FOLDS[fn]
        r.expect(elt, want, node.elt, f"what '{fn}' {what}")
    elif fn == "list":
        typ = T.list_of(elt.type)
    elif fn == "product":
        # product(OPTIONS for x in LIST): every way to pick one item of OPTIONS for each x, as
        # lists in the order of LIST (one choice per item: `each` in a single move).
        if not T.is_list(elt.type):
            r.fail(node.elt, f"what 'product' combines must be a list for each item, not {T.a(elt.type)}")
        typ = T.list_of(elt.type)
    else:
        r.fail(node, f"{fn!r} cannot take a 'for' clause",
               hint="use sum, count, all, any, min, max, list or product")
    return ir.Comp(fn, elt, tuple(fors), typ, pos=node.pos)


__all__ = ["may_be_neutral"]
