"""Calls: the language's built-in functions (their arguments typed), pieces, and defs, which are
expanded in place with their arguments."""

from __future__ import annotations

from ...errors import did_you_mean
from .. import ast, budgets, ir
from .. import types as T
from .core import EXPRESSIONS, Ctx, Resolver, Where, handles
from .surface import SURFACE_FUNCS, distance_alone, is_spot_distance, surface_call
from .sets import size as set_size

# Functions of the board and its stacks: name -> (argument types, result type).
CELL_FUNCS = {
    "height": ((T.CELL,), T.INT),
    "top": ((T.CELL,), T.PIECE),
    "bottom": ((T.CELL,), T.PIECE),
    "stack": ((T.CELL,), T.STACK),
    "above": ((T.CELL, T.INT), T.STACK),
    "below": ((T.CELL, T.INT), T.STACK),
    "empty": ((T.CELL,), T.BOOL),
    "occupied": ((T.CELL,), T.BOOL),
    "controller": ((T.CELL,), T.PLAYER),
    "mine": ((T.CELL,), T.BOOL),
    "theirs": ((T.CELL,), T.BOOL),
    "corner": ((T.CELL,), T.BOOL),
    "edge": ((T.CELL,), T.BOOL),
    "ray": ((T.CELL, T.DIRSET, T.INT), T.list_of(T.CELL)),
    "neighbours": ((T.CELL, T.DIRSET), T.list_of(T.CELL)),
    "line": ((T.CELL, T.DIRSET), T.list_of(T.CELL)),
    "step": ((T.CELL, T.DIR), T.CELL),
    "on_board": ((T.CELL,), T.BOOL),
    "distance": ((T.CELL, T.CELL), T.INT),
    "direction": ((T.CELL, T.CELL), T.DIR),  # the direction from a to b on one line, or none
    "flanked": ((T.CELL, T.DIR, T.PLAYER), T.list_of(T.CELL)),
    "connected": ((T.list_of(T.CELL), T.DIRSET), T.BOOL),
    "between": ((T.CELL, T.CELL), T.list_of(T.CELL)),
    "run": ((T.CELL, T.DIR, T.PLAYER), T.INT),
}
END_ONLY = {"repeated", "repeated_board", "no_moves"}
EFFECTS = {"move", "take", "place", "swap_seats", "extra_turn", "remove", "put", "insert", "change", "add",
           "transfer", "turn_to", "clear"}  # clear(SET): resolve.sets
OTHER_FUNCS = ["min", "max", "sum", "count", "any", "all", "abs", "piece", "repeated", "repeated_board",
               "shuffled", "previous", "earlier", "ways", "showing"]
DICE = {"ways": "the total", "showing": "how many show the face"}  # counts of throws: chance weights


@handles(EXPRESSIONS, ast.Call)
def call(r: Resolver, node: ast.Call, ctx: Ctx):
    fn, args, pos = node.func, node.args, node.pos
    if fn in r.m.defs:
        return inline(r, r.m.defs[fn], node, ctx)
    if fn in r.m.procedures:
        from .procedures import not_a_value

        not_a_value(r, r.m.procedures[fn], node)
    if fn in ("count", "size") and (in_set := set_size(r, node, ctx)) is not None:
        return in_set
    if fn in SURFACE_FUNCS:
        return surface_call(r, node, ctx)
    if is_spot_distance(r, node):
        distance_alone(r, node)
    if (fn in CELL_FUNCS or fn == "step") and r.m.surface_node is not None:
        r.fail(node, f"{fn}() looks at a board's cells, and this game is played on an open table (surface:)",
               hint="on the table: lattice(), flush(), overlaps(), hit(), piece_at(), standing(), distance()")
    if fn == "step" and len(args) == 3:  # k steps at once
        c = r.expect(r.expr(args[0], ctx), T.CELL, args[0], "argument 1 of step()")
        d = r.expect(r.expr(args[1], ctx), T.DIR, args[1], "argument 2 of step()")
        k = r.expect(r.expr(args[2], ctx), T.INT, args[2], "argument 3 of step()")
        if ctx.where.before_board:
            r.fail(node, "step() looks at the board, which does not exist yet here")
        return ir.Call("step", (c, d, k), T.CELL, pos)
    if fn in CELL_FUNCS:
        want, result = CELL_FUNCS[fn]
        if len(args) != len(want):
            r.fail(node, f"{fn}() takes {len(want)} argument{'s' if len(want) != 1 else ''}, not {len(args)}")
        codes = tuple(r.expect(r.as_dirset(r.expr(a, ctx)) if w == T.DIRSET else r.expr(a, ctx),
                               w, a, f"argument {i + 1} of {fn}()")
                      for i, (a, w) in enumerate(zip(args, want)))
        if ctx.where.before_board:
            r.fail(node, f"{fn}() looks at the board, which does not exist yet here")
        if fn in ("flanked", "run") and r.m.control is not None and any(
                isinstance(n, ast.Name) and n.id == "cell" for n in ast.walk(r.m.control.expr)):
            r.fail(node, f"{fn}() reads who controls each stack from its top piece, and this ruleset's "
                         f"control reads the cell too (line {r.m.control.pos.line})",
                   hint="write the run with a loop over line(c, d) and controller()")
        return ir.Call(fn, codes, result, pos)
    if fn in ("min", "max") and len(args) >= 2:
        codes = tuple(r.expect(r.expr(a, ctx), T.INT, a, f"an argument of {fn}()") for a in args)
        return ir.Call(fn, codes, T.INT, pos)
    if fn in ("sum", "count", "min", "max", "any", "all", "abs") and len(args) == 1:
        c = r.expr(args[0], ctx)
        if fn == "abs":
            r.expect(c, T.INT, args[0], "the argument of abs()")
            return ir.Call("abs", (c,), T.INT, pos)
        elem = T.element(c.type)
        if elem is None:
            r.fail(args[0], f"{fn}() needs a list, not {T.a(c.type)}")
        if fn == "count":
            return ir.Call("len", (c,), T.INT, pos)
        if fn in ("any", "all"):
            r.expect(ir.Const(None, elem), T.BOOL, args[0], f"what {fn}() tests")
            return ir.Call(fn, (c,), T.BOOL, pos)
        r.expect(ir.Const(None, elem), T.INT, args[0], f"what {fn}() works on")
        return ir.Call(fn, (c,), T.INT, pos)
    if fn == "piece":
        return piece_literal(r, node, ctx)
    if fn in DICE:
        last = DICE[fn]
        if len(args) != 3:
            r.fail(node, f"{fn}() takes 3 arguments: how many dice, their faces, {last}; not {len(args)}")
        what = ("how many dice", "the faces of a die", last)
        codes = tuple(r.expect(r.expr(a, ctx), T.INT, a, f"{w} in {fn}()") for a, w in zip(args, what))
        return ir.Call(fn, codes, T.INT, pos)
    if fn == "shuffled":
        if len(args) != 1:
            r.fail(node, f"shuffled() takes 1 argument, a list, not {len(args)}")
        c = r.expr(args[0], ctx)
        elem = T.element(c.type)
        if elem is None or c.type == T.DIRSET:
            r.fail(args[0], f"shuffled() needs a list, not {T.a(c.type)}")
        if not ctx.where.allows(Where.SETUP):
            r.fail(node, "shuffled() draws from the setup's random numbers, so it is for setup only")
        return ir.Call("shuffled", (c,), T.list_of(elem), pos)
    if fn in ("repeated", "repeated_board"):
        if not ctx.where.allows(Where.END):
            r.fail(node, f"{fn}() can only be tested in the end block")
        if len(args) != 1:
            r.fail(node, f"{fn}() takes one argument: how many times a position has occurred")
        n = r.expect(r.expr(args[0], ctx), T.INT, args[0], f"the argument of {fn}()")
        return ir.Call(fn, (n,), T.BOOL, pos)
    if fn == "previous":
        return previous(r, node, ctx)
    if fn == "earlier":
        return earlier(r, node, ctx)
    if fn in EFFECTS:
        r.fail(node, f"{fn}() is an effect: it belongs on a line of its own in a 'do:' or 'setup:' block")
    space = list(SURFACE_FUNCS) if r.m.surface_node is not None else list(CELL_FUNCS)  # those of its space
    known = list(r.m.defs) + space + OTHER_FUNCS
    r.fail(node, f"unknown function {fn!r}", hint=did_you_mean(fn, known))


def previous(r: Resolver, node: ast.Call, ctx: Ctx):
    """`previous(at)`: a repeat's variable as it was in the pass before (off the board, or -1,
    in the first pass)."""
    args = node.args
    if len(args) != 1 or not isinstance(args[0], ast.Name) or args[0].id not in ctx.previous:
        r.fail(node, "previous() takes the variable of the repeat it is in: previous(at)",
               hint="write it inside a 'repeat at = ...' block" if not ctx.previous
               else "the repeat's variable is " + " or ".join(repr(v) for v in ctx.previous))
    return ctx.previous[args[0].id]


def earlier(r: Resolver, node: ast.Call, ctx: Ctx):
    """`earlier(x)`: the values a name bound in a repeat's pass (or the repeat's variable) had
    in the passes before this one, first pass first (empty in the first pass)."""
    args, here = node.args, ctx.passing
    if here is None:
        r.fail(node, "earlier() looks back over the passes of a repeat: write it inside a 'repeat' block")
    if len(args) != 1 or not isinstance(args[0], ast.Name):
        r.fail(node, "earlier() takes one name bound in the repeat's pass: earlier(over)")
    x = args[0].id
    local = ctx.scope.get(x)
    if x != here.var and (local is None or here.outside.get(x) is local):
        r.fail(node, f"earlier() takes a name bound in the repeat's pass, and {x!r} is "
               + ("not bound before this point" if local is None else "bound outside it"),
               hint=f"the repeat's variable {here.var!r}, or a choice or let of the pass written above")
    if not isinstance(local, ir.Local):
        r.fail(node, f"earlier() follows a name the pass binds, not {x!r}")
    if local.name not in here.earlier:
        here.earlier[local.name] = (local, ir.Local(r.fresh(x + "_earlier"), T.list_of(local.type), node.pos))
    return here.earlier[local.name][1]


def piece_literal(r: Resolver, node: ast.Call, ctx: Ctx):
    chosen = {}
    for a in node.args:
        c = r.expr(a, ctx)
        if c.type == T.ANY:  # unknown after a reported mistake
            continue
        if c.type == T.PLAYER:
            attr = next((x for x in r.m.attributes.values() if x.players), None)
        elif c.type.name == "enum":
            attr = r.m.attributes[c.type.attr]
        else:
            attr = None
        if attr is None:
            r.fail(a, f"piece() takes attribute values, not {T.a(c.type)}")
        if attr.name in chosen:
            r.fail(a, f"piece() names {attr.name!r} twice")
        chosen[attr.name] = c
    missing = [n for n in r.m.attributes if n not in chosen]
    if missing and len(chosen) < len(node.args):  # some were unknown: do not guess which
        return ir.Const(0, T.PIECE, node.pos)
    if missing:
        r.fail(node, "piece() needs a value for " + ", ".join(repr(n) for n in missing))
    return ir.PieceLit(tuple((n, chosen[n]) for n in r.m.attributes), pos=node.pos)


def inline(r: Resolver, d: ast.Def, node: ast.Call, ctx: Ctx):
    """A def's body with its parameters standing for the call's arguments."""
    if len(node.args) != len(d.params):
        r.fail(node, f"{d.name}() takes {len(d.params)} argument{'s' if len(d.params) != 1 else ''}, "
                     f"not {len(node.args)}", hint=f"def {d.name}({', '.join(d.params)}) is on line {d.pos.line}")
    if d.name in ctx.inlining:
        r.fail(node, f"{d.name}() calls itself; defs are expanded in place and cannot recurse")
    if len(ctx.inlining) <= 1:  # a use outside any def (or in an unused def's body): its whole expansion
        within_budget(r, node, counted=not ctx.inlining)
    r.inlined.add(d.name)
    scope = {p: r.expr(a, ctx) for p, a in zip(d.params, node.args)}
    inner = Ctx(ctx.where, scope, ctx.options, ctx.inlining + (d.name,), {})
    return r.expr(d.body, inner)


class _TooLarge(Exception):
    def __init__(self, kind: str, chain: tuple):
        super().__init__(kind)
        self.kind, self.chain = kind, chain


def within_budget(r: Resolver, node: ast.Call, counted: bool = True) -> None:
    """Fail at a def's use if expanding it in place (with the defs it calls) would make more
    than budgets.MAX_DEF_NODES nodes, nest deeper than budgets.MAX_NESTING, or expand defs more
    than budgets.MAX_DEF_DEPTH inside one another; and, for a use outside any def (`counted`),
    if the expansions of the ruleset would add up to more than budgets.MAX_EXPANDED_NODES.
    Counted without expanding anything: each def's size is worked out once for the sizes of its
    arguments."""
    memo = r.expansions
    try:
        size, _ = _expansion(r, node, {}, (), memo)
        total = r.expanded + (size if counted else 0)
        r.expanded = total
        if total > budgets.MAX_EXPANDED_NODES:
            r.fail(node, f"the defs used in this ruleset, each expanded in place where it is used, add up to more "
                         f"than {budgets.MAX_EXPANDED_NODES:,} nodes of rules with this use of {node.func}()",
                   hint="defs are copied at every use: compute a large one once with a let, or use it fewer times")
    except _TooLarge as e:
        chain = " -> ".join(f"{n}()" for n in e.chain)
        if e.kind == "depth":
            message = (f"{node.func}() expands defs inside one another more than {budgets.MAX_DEF_DEPTH} deep "
                       f"({chain})")
        elif e.kind == "nesting":
            message = (f"{node.func}() expanded in place here would nest more than {budgets.MAX_NESTING} levels "
                       f"deep ({chain})")
        else:
            message = (f"{node.func}() expanded in place here would be more than {budgets.MAX_DEF_NODES:,} nodes "
                       f"of rules ({chain})")
        r.fail(node, message, hint="defs are copied at every use, so a def that uses another twice doubles it; "
                                   "compute the part once with a let, or use it fewer times")


def _expansion(r: Resolver, node, env: dict, chain: tuple, memo: dict, level: int = 0) -> tuple:
    """(nodes, depth) of an expression with every def call expanded; env gives the (nodes,
    depth) a parameter of the def being expanded stands for; `level` is how deep the node is in
    the expansion, so the walk stops at budgets.MAX_NESTING (it recurses no deeper)."""
    if isinstance(node, (tuple, list)):
        size = depth = 0
        for x in node:
            s, d = _expansion(r, x, env, chain, memo, level)
            size, depth = size + s, max(depth, d)
        return size, depth
    if not hasattr(node, "__attrs_attrs__") or isinstance(node, ast.Pos):
        return 0, 0
    if level > budgets.MAX_NESTING and chain:
        raise _TooLarge("nesting", chain)
    if isinstance(node, ast.Name) and node.id in env:
        return env[node.id]
    if isinstance(node, ast.Call) and node.func in r.m.defs:
        d = r.m.defs[node.func]
        if d.name in chain or len(d.params) != len(node.args):
            return 1, 1  # a def that calls itself, or a wrong call: reported when it is resolved
        args = tuple(_expansion(r, a, env, chain, memo, level) for a in node.args)
        inner = chain + (d.name,)
        if len(inner) > budgets.MAX_DEF_DEPTH:
            raise _TooLarge("depth", inner)
        key = (d.name, args)
        if key not in memo:
            memo[key] = _expansion(r, d.body, dict(zip(d.params, args)), inner, memo, level)
        size, depth = memo[key]
        if size > budgets.MAX_DEF_NODES:
            raise _TooLarge("nodes", inner)
        if depth > budgets.MAX_NESTING or level + depth > 2 * budgets.MAX_NESTING:
            raise _TooLarge("nesting", inner)
        return size, depth
    size, depth = 1, 0
    for f in node.__attrs_attrs__:
        if f.name != "pos":
            s, d = _expansion(r, getattr(node, f.name), env, chain, memo, level + 1)
            size, depth = size + s, max(depth, d)
    if size > budgets.MAX_DEF_NODES and chain:
        raise _TooLarge("nodes", chain)
    return size, depth + 1
