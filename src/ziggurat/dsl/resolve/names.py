"""Names: what a bare word means where it is written (a choice, an option, a player, a value,
a direction, a zone, ...), or why it means nothing there."""

from __future__ import annotations

from typing import Optional

from attrs import evolve

from ...errors import did_you_mean
from .. import ast, ir
from .. import types as T
from ..model import BUILTIN_DIRECTIONS, BUILTIN_DIRSETS
from .core import Ctx, Resolver, Where, const, handles, EXPRESSIONS

UNLIMITED = 1 << 30  # `unlimited`: farther than any board


def names_in_scope(r: Resolver, ctx: Ctx) -> list:
    m = r.m
    return (list(ctx.scope) + list(m.options) + list(m.players) + list(m.value_names())
            + list(m.zones) + list(m.counters) + list(m.directions) + list(BUILTIN_DIRECTIONS)
            + list(BUILTIN_DIRSETS) + ["cells", "players", "mover", "ply", "files", "ranks",
                                       "unlimited", "true", "false", "no_moves", "last", "none"]
            + (["placed"] if r.m.surface_node is not None else []))


def option_type(decl) -> T.Type:
    """The type of an option's value in expressions."""
    kind = decl.type.kind if decl.type is not None else "int"
    return {"bool": T.BOOL, "enum": T.STR}.get(kind, T.INT)


@handles(EXPRESSIONS, ast.Name)
def name(r: Resolver, node: ast.Name, ctx: Ctx):
    n, m, pos = node.id, r.m, node.pos
    if n in ctx.scope:
        found = ctx.scope[n]
        return evolve(found, pos=pos) if isinstance(found, ir.Local) else found
    if n in ("true", "false"):
        return const(n == "true", T.BOOL, pos)
    if n == "none":
        return const(NONE_CELL, T.CELL, pos)
    visible = ctx.options if ctx.options is not None else tuple(m.options)
    # The option `players` counts the seats; in the rules `players` is the list of those seated.
    seated_list = n == "players" and ctx.where != Where.OPTION
    if n in visible and not seated_list:
        return ir.Opt(n, option_type(m.options[n]), pos)
    if n in m.options and not seated_list:
        r.fail(node, f"option {n!r} is used before its value is known",
               hint="an option's default may use only the options declared above it")
    if ctx.where == Where.OPTION:
        r.fail(node, f"unknown name {n!r} in an option", hint=did_you_mean(n, list(visible)) or
               "an option's value may use only numbers, true/false and earlier options")
    if n in ("files", "ranks"):
        if ctx.where == Where.BOARD:
            r.fail(node, f"the board's {n} cannot depend on the board", hint="use options and numbers")
        return ir.Global(n, T.INT, pos)
    if ctx.where == Where.BOARD:
        r.fail(node, f"unknown name {n!r} in the board", hint=did_you_mean(n, list(visible)))
    if n == "unlimited":
        return const(UNLIMITED, T.INT, pos)
    owners = m.value_owners(n)
    if n in m.players:
        if owners:
            r.fail(node, f"{n!r} is both a player and a value of {owners[0]!r}",
                   hint=f"write players.{n} for the player or {owners[0]}.{n} for the value")
        return const(m.players.index(n), T.PLAYER, pos)
    if len(owners) > 1:
        r.fail(node, f"{n!r} is a value of {len(owners)} attributes: " + ", ".join(map(repr, owners)),
               hint="say which: " + " or ".join(f"{a}.{n}" for a in owners))
    if owners:
        return attr_value(m.attributes[owners[0]], n, pos)
    if n in BUILTIN_DIRECTIONS:
        return const(list(BUILTIN_DIRECTIONS).index(n), T.DIR, pos)
    if n in BUILTIN_DIRSETS:
        return const(BUILTIN_DIRSETS[n], T.DIRSET, pos)
    if n in m.directions:
        return directions(r, m.directions[n])
    if n == "cells":
        if r.m.surface_node is not None:
            r.fail(node, "this game is played on an open table (surface:), which has no cells",
                   hint="'placed' lists the spots of the pieces on the table")
        return ir.Global("cells", T.list_of(T.CELL), pos)
    if n == "placed":
        if r.m.surface_node is None:
            r.fail(node, "'placed' lists the pieces on an open table, and this game has no 'surface:'",
                   hint="a board's places are its 'cells'")
        if ctx.where.before_board:
            r.fail(node, "'placed' looks at the table, which has nothing on it yet here")
        return ir.Global("placed", T.list_of(T.SPOT), pos)
    if n == "players":
        return ir.Global("players", T.list_of(T.PLAYER), pos)
    if n in m.zones and not m.zones[n].per_player:
        return ir.ZoneRef(n, None, pos=pos)
    if n in m.counters and m.counters[n].kind == "set":
        from .sets import not_a_value
        not_a_value(r, node, n)
    if n in m.counters and not m.counters[n].per_player:
        return ir.CounterRef(n, None, counter_type(m.counters[n]), pos)
    if n in m.zones or n in m.counters:
        r.fail(node, f"{n!r} is kept per player: write {n}[PLAYER]", hint=f"for example {n}[mover]")
    if ctx.where == Where.TABLE:
        r.fail(node, f"unknown name {n!r} in a table", hint=did_you_mean(n, names_in_scope(r, ctx)))
    if ctx.where == Where.SETUP and n in ("mover", "ply", "no_moves", "last"):
        r.fail(node, f"{n!r} has no meaning during setup")
    if n == "mover":
        return ir.Global("mover", T.PLAYER, pos)
    if n == "ply":
        return ir.Global("ply", T.INT, pos)
    if n == "no_moves":
        if not ctx.where.allows(Where.END):
            r.fail(node, "'no_moves' can only be tested in the end block")
        return ir.Global("no_moves", T.BOOL, pos)
    if n == "last":
        return ir.Global("last", T.list_of(T.CELL), pos)
    if n in m.tables and m.tables[n].columns:  # a table with columns: the list of its keys
        keys = tuple(r.expr(entry[0], Ctx(Where.TABLE)) for entry in m.tables[n].entries)
        return ir.ListLit(keys, T.list_of(keys[0].type), pos=pos)
    if n in m.tables:
        r.fail(node, f"table {n!r} must be indexed: {n}[KEY]")
    if n in m.defs:
        r.fail(node, f"{n!r} is a def: call it with its arguments, {n}(...)")
    r.fail(node, f"unknown name {n!r}", hint=did_you_mean(n, names_in_scope(r, ctx)))


def counter_type(decl) -> T.Type:
    return T.CELL if getattr(decl, "kind", None) == "cell" else T.INT


NONE_CELL = -1  # `none`: no cell (off the board)


def directions(r: Resolver, d: ast.Directions):
    """A declared direction set: its expression, resolved where it is declared (once)."""
    cache = r.direction_sets
    if d.name not in cache:
        if d.name in r.resolving_dirs:
            r.fail(d, f"direction set {d.name!r} is defined by itself")
        r.resolving_dirs.add(d.name)
        try:
            e = r.expr(d.expr, Ctx(Where.TABLE))
        finally:
            r.resolving_dirs.discard(d.name)
        cache[d.name] = e
    return cache[d.name]


def attr_value(attr, value: str, pos=ast.NOWHERE) -> ir.Const:
    """The constant for a value of an attribute (a player index for a players attribute)."""
    number = attr.numbers[attr.values.index(value)]
    return const(number, T.PLAYER if attr.players else T.enum(attr.name), pos)


def qualified(r: Resolver, node: ast.Attr) -> Optional[ir.Const]:
    """`colour.green`, `players.black`: a value named through its attribute, or None."""
    if not isinstance(node.obj, ast.Name):
        return None
    n = node.obj.id
    if n == "players" and n not in r.m.attributes:
        if node.name in r.m.players:
            return const(r.m.players.index(node.name), T.PLAYER, node.pos)
        r.fail(node, f"{node.name!r} is not a player", hint=did_you_mean(node.name, r.m.players))
    attr = r.m.attributes.get(n)
    if attr is None:
        return None
    if node.name in attr.values:
        return attr_value(attr, node.name, node.pos)
    r.fail(node, f"{node.name!r} is not a value of {n!r}",
           hint=did_you_mean(node.name, attr.values) or "its values: " + ", ".join(attr.values))


@handles(EXPRESSIONS, ast.Num)
def num(r, node, ctx):
    if node.length and r.m.surface_node is None and ctx.where != Where.OPTION:
        r.fail(node, "a length in inches measures an open table, and this game is played on a board",
               hint="on a board, distances are counted in cells: distance(a, b) <= 2")
    return const(node.value, T.INT, node.pos)


@handles(EXPRESSIONS, ast.Str)
def string(r, node, ctx):
    return const(node.value, T.STR, node.pos)
