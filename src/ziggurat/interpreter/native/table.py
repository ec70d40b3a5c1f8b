"""The open table in the native writer: its built-ins as expressions, loops and one effect over
the table region of the position vector (`layout.add_table`), calling the compiled helpers of
`table_kernel.py`, which only a module of a game on the table holds (`kernel_text`).

What the Python backend's generated code asks of `interpreter/geometry.py` is asked here of the
kernel with the same arguments, and answered in the same order (`table_kernel`): `placed` (the
spots in placing order), `piece_at`, `on_table`, `standing`, `pointing`, `dist2`, `nearest`,
`overlaps`, `hit`, and the lists `lattice` and `flush`, each made into a buffer of the generated
function (a lattice's at most `lattice_cap` points: more stop the loop, OVER 1) and gone over
like any list.
"""

from __future__ import annotations

from importlib import resources
from typing import Optional

from ...dsl import ir
from ...dsl import types as T
from ...errors import Unsupported

FLUSH_CAP = 12  # four sides, three places along each
VALUES = {  # the built-ins that are values, by number of arguments: the kernel's text
    ("standing", 1): "(({0} & 7) == 0)", ("pointing", 1): "(({0} & 7) - 1)",
    ("piece_at", 1): "tb_piece_at(s, {0})", ("on_table", 1): "tb_on_table(s, {0})",
    ("dist2", 2): "tb_dist2({0}, {1})", ("overlaps", 2): "tb_overlaps(s, {0}, {1})",
    ("hit", 2): "tb_hit(s, {0}, {1})",
}
LISTS = ("lattice", "flush")


def is_placed(e) -> bool:
    return isinstance(e, ir.Global) and e.what == "placed"


def value(x, e, env, code) -> Optional[str]:
    """The text of a table built-in used as a value (None: e is none of them)."""
    if not isinstance(e, ir.Call):
        return None
    if e.fn == "nearest" and len(e.args) == 2:
        b = x.loops.materialize(e.args[1], env, code)
        return f"tb_nearest({x.expr(e.args[0], env, code)}, {b}, {b}_n)"
    text = VALUES.get((e.fn, len(e.args)))
    if text is None:
        return None
    args = []
    for a in e.args:
        t = x.expr(a, env, code)
        if not (t.isidentifier() or t.lstrip("-").isdigit()):  # read once, whatever the text reads
            v = code.fresh("t")
            code(f"{v} = {t}")
            t = v
        args.append(t)
    return text.format(*args)


def lattice_cap(x) -> int:
    """The most points a lattice list of the module holds: the moves a position may have (the
    module's MAXM, which the writer's maker sets, `Exprs.tlist`)."""
    return x.tlist


def iter_cap(x, it) -> Optional[int]:
    """The most values a loop over a table list binds (None: `it` is none)."""
    if is_placed(it):
        return max(1, x.tcap)
    if isinstance(it, ir.Call) and it.fn == "flush":
        return FLUSH_CAP
    if isinstance(it, ir.Call) and it.fn == "lattice":
        return lattice_cap(x)
    return None


def open_loop(x, it, var: str, env: dict, code) -> Optional[list]:
    """The loop header binding `var` to each item of a table list (iteration.Loops.open_loop's
    levels), or None when `it` is none."""
    k = code.fresh("k")
    if is_placed(it):  # the table's count read once: a piece placed in the loop is not gone over
        n = code.fresh("n")
        code(f"{n} = s[TBL]")
        code(f"for {k} in range({n}):")
        code.depth += 1
        code(f"{var} = s[TBL + 1 + 2 * {k}]")
        return [[]]
    if not (isinstance(it, ir.Call) and it.fn in LISTS):
        return None
    b, n = code.fresh("tl"), code.fresh("n")
    args = it.args
    if it.fn == "flush":
        if len(args) not in (2, 3):
            return None
        code.buffer(b, FLUSH_CAP)
        a, p = (x.expr(a, env, code) for a in args[:2])
        offsets = x.expr(args[2], env, code) if len(args) == 3 else "3"
        code(f"{n} = tb_flush(s, {a}, {p}, {offsets}, {b})")
    else:
        if len(args) not in (1, 3):
            return None
        code.buffer(b, lattice_cap(x))
        reach = x.expr(args[0], env, code)
        if len(args) == 3:
            avoid = x.loops.materialize(args[1], env, code)
            code(f"{n} = tb_lattice(s, {reach}, {avoid}, {avoid}_n, {x.expr(args[2], env, code)}, {b})")
        else:
            code(f"{n} = tb_lattice(s, {reach}, {b}, 0, 0, {b})")
    code(f"for {k} in range({n}):")
    code.depth += 1
    code(f"{var} = {b}[{k}]")
    return [[]]


def put_effect(stmts, st, env: dict, code) -> None:
    """`put(zone, piece, spot)` onto the table: the piece leaves the zone (its first such one)
    and lies at the spot, last in placing order."""
    x = stmts.x
    if st.args[1].type != T.PIECE:
        raise Unsupported("put() of several pieces onto the table", getattr(st, "pos", None))
    z, p, c = code.fresh("z"), code.fresh("p"), code.fresh("c")
    code(f"{z} = {x.zone(st.args[0], env, code)}")
    code(f"{p} = {x.expr(st.args[1], env, code)}")
    code(f"{c} = {x.expr(st.args[2], env, code)}")
    stmts.call(code, "zone_drop", z, p)
    stmts.call(code, "tb_put", c, p)  # not one of the helpers that keep the hash: it is made from scratch


def kernel_text(mark: str) -> str:
    """table_kernel.py below its line `mark` (module.KERNEL_MARK), for the end of a module of a
    game on the table."""
    text = resources.files(__package__).joinpath("table_kernel.py").read_text(encoding="utf-8")
    head, found, body = text.partition(mark + "\n")
    if not found:
        raise AssertionError(f"table_kernel.py has no line {mark!r}")
    return "\n\n# ---- table_kernel.py " + "-" * 82 + "\n" + body
