"""An after block's first list of cells kept from one candidate move to the next, for the native
`legal`.

`legal` runs the after block once per candidate move (`after_K`, with the candidate's effects made
on the position). Where the block begins `let L = list(c for c in cells where P(c))` and P reads
the position only on c and on c's neighbours in fixed direction sets (`occupied`, `top`, `mine`,
`stack`... of c or of `d in neighbours(c, D)`; no zone, counter, table or other cell), P(c) can
change only where a cell the candidate wrote is c or one of its neighbours. So `legal` computes
once, at its own position, the mask of the cells where P holds (`after_list_K(s, mover, 0, -1)`);
for each candidate, `after_list_K(s, mover, base, dirty)` is given that mask and the mask of the
cells the candidate's effects wrote (`dirty`: the cells of its Stages' `move`, `place`, `change`,
`put`, `insert` and `remove`, which undo.Undo notes as it writes them), evaluates P again on the
cells those reach only (REACH_K: a cell, and the cells it is a neighbour of) and keeps the rest of
the mask; `after_K` gets the mask and lists L from it lowest cell first: the board's order, as the
loop over every cell. Where the block's next step is `require count(L) > 0`, a candidate whose
mask is empty does not call `after_K` (it would add no move). `dirty` is -1 where the written
cells are not known (a Stage kept by a copy, a repeated part, `legal_parts`, a split `legal`):
every cell is evaluated, as before.

Safe because the candidate's position differs from `legal`'s only on the written cells (the
effects write nothing else P reads: zones and counters it does not read), the mover is the same,
and P(c) reads no cell but c and its neighbours. A board of more than 64 cells, control by place,
or a P reading anything else keeps the loop over every cell.
"""

from __future__ import annotations

from typing import Optional

from ...dsl import ir
from .. import steps as P
from ..names import pyname
from .narrow import MAGIC, MASK_CELLS, bit_table

CELL_READS = frozenset({"occupied", "empty", "top", "bottom", "height", "mine", "theirs", "controller"})


def find(x, part) -> Optional[tuple]:
    """(the Bind step, its cell variable, P, the direction sets P's neighbours use, the part's
    steps) of an after part whose first list can be kept, else None."""
    steps = list(part.steps)
    if x.world.ncells > MASK_CELLS or x.game.ctrl_at is not None or not steps or not isinstance(steps[0], P.Bind):
        return None
    e = steps[0].value
    if not (isinstance(e, ir.Comp) and e.func == "list" and len(e.fors) == 1):
        return None
    f = e.fors[0]
    if not (isinstance(f.iter, ir.Global) and f.iter.what == "cells" and f.cond is not None
            and isinstance(e.elt, ir.Local) and e.elt.name == f.var):
        return None
    dirsets: list = []
    if not local(f.cond, f.var, {f.var: "cell"}, dirsets):
        return None
    return steps[0], f.var, f.cond, dirsets, steps


def local(e, c: str, bound: dict, dirsets: list) -> bool:
    """Whether e reads the position only on cell c and its neighbours (bound: name -> "cell" for
    c, "near" for a neighbour of c, "value" for anything else a comprehension binds)."""
    def ok(y, b=bound):
        return local(y, c, b, dirsets)

    def cell(y, b=bound):
        return isinstance(y, ir.Local) and b.get(y.name) in ("cell", "near")

    match e:
        case ir.Const():
            return True
        case ir.Local():
            return e.name in bound
        case ir.Global():  # the same for every candidate of one `legal`
            return e.what in ("mover", "ply", "files", "ranks")
        case ir.Not() | ir.Neg():
            return ok(e.operand)
        case ir.Arith() | ir.Compare():
            return ok(e.left) and ok(e.right)
        case ir.BoolOp():
            return all(ok(v) for v in e.values)
        case ir.Ternary():
            return ok(e.cond) and ok(e.then) and ok(e.orelse)
        case ir.Attr():
            return ok(e.obj)
        case ir.Index():  # a level of a stack
            return cell(e.obj) and ok(e.index)
        case ir.Call() if e.fn in CELL_READS:
            return len(e.args) == 1 and cell(e.args[0])
        case ir.Comp():
            inner = dict(bound)
            for f in e.fors:
                it = f.iter
                if isinstance(it, ir.Call) and it.fn == "neighbours" and len(it.args) == 2 \
                        and isinstance(it.args[0], ir.Local) and it.args[0].name == c \
                        and isinstance(it.args[1], ir.Const):
                    dirsets.append(it.args[1].value)
                    inner[f.var] = "near"
                elif isinstance(it, ir.Call) and it.fn == "stack" and len(it.args) == 1 and cell(it.args[0], inner):
                    inner[f.var] = "value"
                elif isinstance(it, ir.Const) and isinstance(it.value, tuple):
                    inner[f.var] = "value"
                else:
                    return False
                if f.cond is not None and not local(f.cond, c, inner, dirsets):
                    return False
            return local(e.elt, c, inner, dirsets)
    return False


def reach(world, dirsets: list) -> list:
    """Each cell's own and the cells it is a neighbour of (in any of the direction sets)."""
    n = world.ncells
    out = [{w} for w in range(n)]
    for ds in dirsets:
        for c in range(n):
            for w in world.neighbours(ds, c):
                out[w].add(c)
    return [sorted(r) for r in out]


def tables(lg, k: int, dirsets: list) -> None:
    """REACH_K, REACHN_K and BITIDX into the module's tables."""
    rows = reach(lg.x.world, dirsets)
    width = max(len(r) for r in rows)
    lg.x.tables[f"REACH{k}"] = [r + [-1] * (width - len(r)) for r in rows]
    lg.x.tables[f"REACHN{k}"] = [len(r) for r in rows]
    lg.x.tables["BITIDX"] = bit_table()


# Masks are built from np.int64(1): run as plain Python too, every mask is then an int64 that wraps
# as in Numba (1 << 63, a Python int, would not mix with them).


def lowest(code, rest: str, var: str) -> None:
    """Take the lowest set bit out of `rest` into cell `var` (inside a `while rest != 0:`)."""
    low = code.fresh("low")
    code(f"{low} = {rest} & -{rest}")
    code(f"{rest} ^= {low}")
    code(f"{var} = BITIDX[(({low} * {MAGIC:#x}) >> 58) & 63]")


def list_function(lg, k: int, found: tuple, code) -> None:
    """`after_list_K(s, mover, base, dirty)`: the mask of the cells where P holds, P evaluated
    again on the cells the written ones reach (on every cell where dirty is -1), base kept
    elsewhere."""
    _bind, var, cond, dirsets, _steps = found
    x = lg.x
    tables(lg, k, dirsets)
    v = pyname(var)
    aff, m, rest, w, j = (code.fresh(s) for s in ("aff", "m", "rest", "w", "j"))
    code("@njit(cache=True, internal=True)")
    code(f"def after_list_{k}(s, mover, base, dirty):")
    code.depth += 1
    code(f"{aff} = 0")
    code("if dirty == -1:")
    code(f"    for {w} in range(NC):")
    code(f"        {aff} |= np.int64(1) << {w}")
    code("else:")
    code.depth += 1
    code(f"{rest} = dirty")
    code(f"while {rest} != 0:")
    code.depth += 1
    lowest(code, rest, w)
    code(f"for {j} in range(REACHN{k}[{w}]):")
    code(f"    {aff} |= np.int64(1) << REACH{k}[{w}, {j}]")
    code.depth -= 2
    code(f"{m} = base & ~{aff}")
    code(f"{rest} = {aff}")
    code(f"while {rest} != 0:")
    code.depth += 1
    lowest(code, rest, v)
    code(f"if {x.expr(cond, {var: v}, code)}:")
    code(f"    {m} |= np.int64(1) << {v}")
    code.depth -= 1
    code(f"return {m}")


def empty_adds_nothing(found: tuple) -> bool:
    """Whether the after block's next step is `require count(L) > 0` (or >= 1, != 0): with L
    empty, after_K adds no move, and need not be called."""
    bind, steps = found[0], found[4]
    if len(steps) < 2 or not isinstance(steps[1], P.Guard):
        return False
    e = steps[1].cond
    return (isinstance(e, ir.Compare) and isinstance(e.left, ir.Call) and e.left.fn == "len"
            and len(e.left.args) == 1 and isinstance(e.left.args[0], ir.Local) and e.left.args[0].name == bind.var
            and isinstance(e.right, ir.Const) and (e.op, e.right.value) in ((">", 0), (">=", 1), ("!=", 0)))


def write_list(lg, k: int, found: tuple, code) -> dict:
    """In after_K (parameter `mask`, after_list_K's): the list L from the mask, lowest cell first;
    the env binding L."""
    bind, var = found[0], found[1]
    x = lg.x
    v, name = pyname(var), pyname(bind.var)
    rest = code.fresh("rest")
    with code.at(bind.pos):
        code.buffer(name, x.world.ncells)
        x.caps[name] = x.world.ncells
        code(f"{name}_n = 0")
        code(f"{rest} = mask")
        code(f"while {rest} != 0:")
        code.depth += 1
        lowest(code, rest, v)
        code(f"{name}[{name}_n] = {v}")
        code(f"{name}_n += 1")
        code.depth -= 1
    return {bind.var: name}
