"""Fused generation, for the native `legal`: two actions of one priority group that begin with the
same choice (the same domain and `where`, up to the names they bind) go over it in one loop, each
action's other steps inside it (a step and a capture that both choose `from: cells where
mine(from)`). Where their next choices share a domain too, that loop is shared as well (a
`to: landings(from)` of both, built once per `from` instead of once per action).

The moves stay in the order the actions make them one after the other, as the Python backend
lists them (perft's counts do not depend on it; seeded playouts do): the first action's moves go
up from `out[n]` as usual, the second's down from the top of `out` (`out[MAXM - 1 - nb]`), and
after the loop those are turned round and moved down behind the first's. Each write checks that
the two ends have not met (their sum below MAXM); `n` counts every move either way, so a position
with more moves than `out` holds still returns more than MAXM.

Only actions whose steps are choices, conditions, lets and staged effects are fused: a repeated
part or an after block reads `n` itself (`legal.Legal.repeat`, `after_part`).

Inside a comprehension with a `where`, a fold (a count, a sum, `any`...) of the value just bound
that the `where` always computes and the comprehension reads again is computed once, right where
the value is bound, into a local the other readings use (`hoist`): a def such as `reach(c, d)` that
other defs read four times a direction is computed once for each cell of the line inside
`all(...)`. Nothing changes the position inside an expression, so the value stays good
until the comprehension's loop ends (`Exprs.forget`).
"""

from __future__ import annotations

import attrs

from ...dsl import ir
from ...dsl import types as T
from .. import steps as P
from ..names import pyname
from . import occupancy

PLAIN = (P.Guard, P.Bind, P.Choose, P.Apply, P.Measure, P.Stage)


def canonical(e, names: dict):
    """e with its bound names made canonical: the names in `names` (a binding of an enclosing
    choice) replaced by theirs, the names its comprehensions bind numbered in order of appearance;
    two expressions that differ only in what they call their bindings come out equal."""
    if e is None:
        return None
    bound: dict = {}

    def rename(name: str) -> str:
        if name in names:
            return names[name]
        return bound.setdefault(name, f"#b{len(bound)}")

    def rebuild(node):
        if isinstance(node, tuple):
            return tuple(rebuild(x) for x in node)
        if isinstance(node, ir.Local):
            return attrs.evolve(node, name=rename(node.name))
        if isinstance(node, ir.CompFor):
            return attrs.evolve(node, var=rename(node.var), iter=rebuild(node.iter), cond=rebuild(node.cond))
        if attrs.has(type(node)) and not isinstance(node, (T.Type,)) and hasattr(node, "pos"):
            fields = {f.name: rebuild(getattr(node, f.name)) for f in attrs.fields(type(node))
                      if f.name not in ("pos", "type")}
            return attrs.evolve(node, **fields)
        return node

    return rebuild(e)


def loop_choice(s) -> bool:
    """A choice `open_loop` writes (not a choice of lists, not one over a zone's kinds)."""
    return isinstance(s, P.Choose) and not T.is_list(s.type) and s.domain.type != T.ZONE


def plain(steps) -> bool:
    return all(isinstance(s, PLAIN) for s in steps)


def same_choice(a: P.Choose, b: P.Choose, na: dict, nb: dict, cond: bool) -> bool:
    """Whether choices a and b (their enclosing shared bindings named by na, nb) go over the same
    values (with `cond`: and keep the same ones)."""
    if canonical(a.domain, na) != canonical(b.domain, nb):
        return False
    if not cond:
        return True
    key = f"#s{len(na)}"
    return canonical(a.cond, {**na, a.name: key}) == canonical(b.cond, {**nb, b.name: key})


def fusable(a, b) -> bool:
    """Whether plans a and b (in this order, one priority group) can share their first choice."""
    if not a.steps or not b.steps or not plain(a.steps) or not plain(b.steps):
        return False
    ha, hb = a.steps[0], b.steps[0]
    return loop_choice(ha) and loop_choice(hb) and same_choice(ha, hb, {}, {}, True)


def write_group(lg, plans: list, code) -> None:
    """The actions of one priority group, in order, pairs that share a first choice fused."""
    for item in items(plans):
        write_item(lg, item, code)


def items(plans: list) -> list:
    """The actions of one priority group in order, one item each, or two where they are fused."""
    out, i = [], 0
    while i < len(plans):
        n = 2 if i + 1 < len(plans) and fusable(plans[i], plans[i + 1]) else 1
        out.append(plans[i:i + n])
        i += n
    return out


def write_item(lg, item: list, code) -> None:
    """The moves of one item of `items`."""
    if len(item) == 2:
        write_pair(lg, item[0], item[1], code)
        return
    p = item[0]
    lg.plan = p
    with code.at(p.pos):
        code(f"# action {p.spec.name}")
        lg.gen(list(p.steps), 0, {}, code)


class Part:
    """One of the fused actions: its plan, its steps, where its moves go."""

    def __init__(self, plan, sink):
        self.plan, self.steps, self.sink = plan, list(plan.steps), sink


def write_pair(lg, a, b, code) -> None:
    nb = code.fresh("nb")

    def low(m: str, c) -> None:
        c(f"if n + {nb} < MAXM:")
        c(f"    out[U(n)] = {m}")  # U: not below 0 (kernel.py)
        c("n += 1")

    def high(m: str, c) -> None:
        c(f"if n + {nb} < MAXM:")
        c(f"    out[U(MAXM - 1 - {nb})] = {m}")
        c(f"{nb} += 1")

    with code.at(a.pos):
        code(f"# actions {a.spec.name} and {b.spec.name}, fused: one loop over their first choice")
        code(f"{nb} = 0")
    shared(lg, [Part(a, low), Part(b, high)], 0, [{}, {}], [{}, {}], code)
    i, lo, hi = code.fresh("i"), code.fresh("lo"), code.fresh("hi")
    with code.at(b.pos):  # the second action's moves, behind the first's, in the order made
        code(f"if {nb} > 0:")
        code(f"    if n + {nb} <= MAXM:")
        code(f"        if n + {nb} > MAXM - {nb}:  # the two ends overlap: turn the top round in place")
        code(f"            {lo} = MAXM - {nb}")
        code(f"            {hi} = MAXM - 1")
        code(f"            while {lo} < {hi}:")
        code(f"                out[{lo}], out[{hi}] = out[{hi}], out[{lo}]")
        code(f"                {lo} += 1")
        code(f"                {hi} -= 1")
        code(f"            for {i} in range({nb}):")
        code(f"                out[n + {i}] = out[MAXM - {nb} + {i}]")
        code("        else:")
        code(f"            for {i} in range({nb}):")
        code(f"                out[n + {i}] = out[MAXM - 1 - {i}]")
        code(f"    n += {nb}")


def rest(lg, part: Part, i: int, env: dict, code) -> None:
    """The part's steps from i on, alone, its moves to its sink."""
    lg.plan, lg.sink = part.plan, part.sink
    try:
        lg.gen(part.steps, i, env, code)
    finally:
        lg.sink = None


def shared(lg, parts: list, i: int, envs: list, names: list, code) -> None:
    """One loop over the choice every part makes at step i (the same values for all: see
    same_choice); inside, the parts' conditions, and their next choice shared again where they
    all keep the same values and make the same next choice."""
    heads = [p.steps[i] for p in parts]
    taken = {pyname(s.name) for p in parts for s in p.steps[i + 1:] if isinstance(s, P.Choose)}
    taken |= {pyname(s.var) for p in parts for s in p.steps[i + 1:] if isinstance(s, P.Bind)}
    var = pyname(heads[0].name)
    if var in taken or any(env.get(h.name) == var for h, env in zip(heads, envs)):
        var = code.fresh("f")
    one_cond = all(same_choice(heads[0], h, names[0], nm, True) for h, nm in zip(heads[1:], names[1:]))
    own = occupancy.bit_choice(lg.x, heads[0].domain, heads[0].cond, heads[0].name) if one_cond else None
    cond = heads[0].cond if own is None else own[0]
    with code.at(heads[0].pos):
        if own is not None:  # the mover's own (or the empty) cells: the bits of the occupancy words
            levels = occupancy.open_own(var, lg.x, code, which=own[1])
        else:
            levels = lg.loops.open_loop(heads[0].domain, var, envs[0], code)
    inner = [{**env, h.name: var} for h, env in zip(heads, envs)]
    key = f"#s{len(names[0])}"
    inner_names = [{**nm, h.name: key} for h, nm in zip(heads, names)]
    if one_cond:
        opened = 0
        if cond is not None:
            with code.at(heads[0].pos):
                code(f"if {lg.x.expr(cond, inner[0], code)}:")
            code.depth += 1
            opened = 1
        nxt = [p.steps[i + 1] for p in parts if i + 1 < len(p.steps) and loop_choice(p.steps[i + 1])]
        if len(nxt) == len(parts) and all(
                same_choice(nxt[0], s, inner_names[0], nm, False) for s, nm in zip(nxt[1:], inner_names[1:])):
            shared(lg, parts, i + 1, inner, inner_names, code)
        else:
            for part, env in zip(parts, inner):
                rest(lg, part, i + 1, env, code)
        code.depth -= opened
    else:
        for part, h, env in zip(parts, heads, inner):
            opened = 0
            if h.cond is not None:
                with code.at(h.pos):
                    code(f"if {lg.x.expr(h.cond, env, code)}:")
                code.depth += 1
                opened = 1
            rest(lg, part, i + 1, env, code)
            code.depth -= opened
    lg.loops.close_loop(levels, code)


def fused_pairs(plans: list) -> list:
    """[(a, b)] of the plans the writer fuses (for the tests and the docs)."""
    out: list = []
    groups: dict = {}
    for p in plans:
        groups.setdefault(-1e18 if p.chance else 1e9 if p.fallback else -p.priority, []).append(p)
    for key in sorted(groups):
        ps, i = groups[key], 0
        while i < len(ps):
            if i + 1 < len(ps) and fusable(ps[i], ps[i + 1]):
                out.append((ps[i].spec.name, ps[i + 1].spec.name))
                i += 2
            else:
                i += 1
    return out


# ---- folds computed once a binding ------------------------------------------------------------

FOLDS = ("sum", "count", "any", "all", "min", "max")


def foldable(e) -> bool:
    """A loop's worth of work without effects: a fold of a comprehension or of a collection, or
    the length of a collection counted by a loop."""
    if isinstance(e, ir.Comp):
        return e.func in FOLDS
    if isinstance(e, ir.Call) and len(e.args) == 1:
        if e.fn in ("sum", "any", "all", "min", "max"):
            return True
        a = e.args[0]
        return e.fn == "len" and (isinstance(a, (ir.Comp, ir.ListJoin)) or (
            isinstance(a, ir.Call) and a.fn in ("line", "ray", "neighbours", "between")))
    return False


def memo_key(e, env: dict):
    """e with the names it reads from env replaced by their locals' names (canonical)."""
    return canonical(e, {n.name: "@" + env[n.name] for n in ir.walk(e) if isinstance(n, ir.Local) and n.name in env})


def closed(e, env: dict) -> bool:
    """Whether every name e reads is bound in env or inside e."""
    inner = {f.var for f in ir.walk(e) if isinstance(f, ir.CompFor)}
    return all(n.name in env or n.name in inner for n in ir.walk(e) if isinstance(n, ir.Local))


def always(e):
    """The folds e computes whenever it is computed (not behind `and`/`or`, a ternary, a loop)."""
    if foldable(e):
        yield e
        return
    if isinstance(e, ir.BoolOp):
        yield from always(e.values[0])
        return
    if isinstance(e, ir.Ternary):
        yield from always(e.cond)
        return
    if isinstance(e, ir.Comp):
        return
    for c in ir.children(e):
        yield from always(c)


def hoist(x, var: str, cond, later: list, env: dict, code) -> list:
    """Write, right after `var` is bound (env binds it), each fold reading `var` that `cond`
    always computes and that cond and `later` (what the loop computes after it) compute more than
    once, into a local; x.memo serves it to the other readings. The keys added."""
    count: dict = {}
    for part in [cond] + [e for e in later if e is not None]:
        for n in ir.walk(part):
            if foldable(n) and closed(n, env) and any(isinstance(v, ir.Local) and v.name == var for v in ir.walk(n)):
                k = memo_key(n, env)
                count[k] = count.get(k, 0) + 1
    picked: dict = {}
    for n in always(cond):
        k = memo_key(n, env)
        if count.get(k, 0) > 1 and k not in picked:
            picked[k] = n
    added = []
    for k, n in sorted(picked.items(), key=lambda kn: sum(1 for _ in ir.walk(kn[1]))):  # the smaller inside first
        local = x.expr(n, env, code)
        if not local.isidentifier():
            t = code.fresh("h")
            code(f"{t} = {local}")
            local = t
        x.memo[k] = local
        added.append(k)
    return added


# ---- cells by rank or file ----------------------------------------------------------------------


def cells_by_line(f: ir.CompFor):
    """(attr, key, the rest of the where) of `c in cells where c.rank == key ...` (or .file, on
    either side of the ==, alone or first of an `and`) whose key does not read c; else None."""
    if not (isinstance(f.iter, ir.Global) and f.iter.what == "cells") or f.cond is None:
        return None
    cond, rest = f.cond, None
    if isinstance(cond, ir.BoolOp) and cond.op == "and":
        whole = cond
        cond = whole.values[0]
        more = whole.values[1:]
        rest = more[0] if len(more) == 1 else attrs.evolve(whole, values=tuple(more))
    if not (isinstance(cond, ir.Compare) and cond.op == "=="):
        return None
    for side, key in ((cond.left, cond.right), (cond.right, cond.left)):
        if (isinstance(side, ir.Attr) and side.name in ("rank", "file") and isinstance(side.obj, ir.Local)
                and side.obj.name == f.var and side.obj.type == T.CELL
                and not any(isinstance(n, ir.Local) and n.name == f.var for n in ir.walk(key))):
            return side.name, key, rest
    return None


def neighbours_by_line(f: ir.CompFor):
    """(attr, key, the rest of the where) of `x in neighbours(c, ds) where x.rank == key ...` (or
    .file, either side of the ==, alone or first of an `and`) whose key does not read x; else None.
    A neighbour is one step away, so its rank (file) is c's, one more or one less: the loop goes
    over the neighbours with the rank `key` asks for only, from a table (`Exprs.geometry`'s NBR)."""
    if not (isinstance(f.iter, ir.Call) and f.iter.fn == "neighbours") or f.cond is None:
        return None
    found = cells_by_line(ir.CompFor(f.var, ir.Global("cells", f.iter.type), f.cond, f.pos))
    return found


def joined(e) -> list:
    """The lists `a + b + ...` joins, in order (e alone when it joins none)."""
    if isinstance(e, ir.ListJoin):
        return joined(e.left) + joined(e.right)
    return [e]


# ---- a sum or count compared with zero: answered at the first term that decides it -------------------

NONNEG_CALLS = ("len", "height", "abs", "distance")


def nonneg(e) -> bool:
    """Whether the number e can never be below 0 (a count, a length, a sum of those...)."""
    if isinstance(e, ir.Const):
        return isinstance(e.value, int) and e.value >= 0
    if isinstance(e, ir.Call):
        return e.fn in NONNEG_CALLS
    if isinstance(e, ir.Comp):
        return e.func == "count" or (e.func == "sum" and nonneg(e.elt))
    if isinstance(e, ir.Arith):
        return e.op in ("+", "*") and nonneg(e.left) and nonneg(e.right)
    if isinstance(e, ir.Ternary):
        return nonneg(e.then) and nonneg(e.orelse)
    return False


def positive_test(e: ir.Compare):
    """For `X > 0` (`X != 0`, `X >= 1`, either way round) or `X == 0` (`X <= 0`, `X < 1`) where X
    is a sum of terms that are never negative or a count: `any(term > 0 ...)` (`any(cond ...)`
    for a count), or `not` that, which stop at the first term that settles the answer instead
    of adding up the rest, as (X, that); None for any other comparison."""
    flip = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}
    for x, op, k in ((e.left, e.op, e.right), (e.right, flip.get(e.op), e.left)):
        if not (isinstance(k, ir.Const) and isinstance(k.value, int) and not isinstance(k.value, bool)):
            continue
        if not (isinstance(x, ir.Comp) and (x.func == "count" or (x.func == "sum" and nonneg(x.elt)))):
            continue
        if (op, k.value) in ((">", 0), ("!=", 0), (">=", 1)):
            positive = True
        elif (op, k.value) in (("==", 0), ("<=", 0), ("<", 1)):
            positive = False
        else:
            continue
        elt = x.elt if x.func == "count" else ir.Compare(">", x.elt, ir.Const(0, T.INT), T.BOOL, x.elt.pos)
        found = ir.Comp("any", elt, x.fors, T.BOOL, x.pos)
        return x, (found if positive else ir.Not(found, T.BOOL, e.pos))
    return None
