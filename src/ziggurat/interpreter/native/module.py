"""The native module of one game, assembled: its text, written from the same step plans as the
Python backend's (`interpreter.steps`), for Numba to compile.

| part | written by |
|---|---|
| the layout's constants, the game's tables (one row a line) | `NativeWriter.write` |
| `legal(s, out)` (a large one calls its parts `legal_K`), `after_K`: the moves, packed, into `out` | `legal.Legal` |
| `do_N(s, m)`, `apply(s, m)`, `after_do_K`, `pick_chance`: making a move in place | `apply.Apply` |
| `outcome(s, nmoves, res, hist, nhist)`: the end block (0 while the game goes on) | `NativeWriter.outcome` |
| helpers over the vector, the hash, the random words; `perft`, `playout`, `playouts` | the kernel: `KERNEL` |

The statements and effects are `effects.Statements`, the expressions `exprs.Exprs` and their loops
`iteration.Loops`, the packed moves `moves.Moves`; each generated line names the rules line it was
written for (`code`). What this backend does not compile raises `errors.Unsupported`.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from typing import Optional

import attrs

from ...dsl import ir
from ...dsl import types as T
from ...dsl.ast import Pos
from ...dsl.world import DIRECTION_NAMES
from .code import WIDTH, Code
from .effects import Statements
from .exprs import Exprs
from .layout import Layout
from .legal import Legal
from .apply import Apply
from .moves import Moves
from . import occupancy
from .outline import listing, once_a_move
from .parts import parts_function
from .search_eval import search_functions

MAXM = 16384  # moves one position may have in native code (more: the loop stops, Python runs it)


CAP = 64  # the deepest stack a native position holds (a deeper one: the loop falls back to Python)
CAP_MADE = 16  # the same when moves make pieces (no supply bounds the stacks)

# The game-independent part of every module: files of this package, each read as a resource and
# put in whole below the mark (what is above it declares, for linters and editors, the names the
# generated part defines). Another kernel file is one more name here.
# (The searches' evaluation is search_eval.)
KERNEL = ("kernel.py", "kernel_dice.py", "kernel_loops.py", "search_kernel.py", "search_ismcts.py")
# The game's functions the kernel's loops call: each compiled once, with machine code of its own, and
# when large called by its symbol (`numbacache.Shared`), not linked into (and optimised again in) every loop.
# `legal_turns` (turns_kernel.py): the whole turns' listing both loops of such a game call.
SHARED = ("legal", "legal_parts", "apply", "outcome", "pick_chance", "legal_turns")
KERNEL_MARK = "# ---- kernel: from here on, the same in every native module ----"
PLAIN_NJIT = "def njit(*a, **k):\n    return a[0] if a and callable(a[0]) else (lambda f: f)"


def plain_text(text: str) -> str:
    """A written module's text made to run as plain Python (its decorator the identity: nothing
    compiled), for tests and benchmarks that check what the code does without Numba. Either
    header: `njit` made by `sharing` (this code's) or imported (an older checkout's)."""
    out = re.sub(r"(?m)^njit = sharing\(.*$", lambda _m: PLAIN_NJIT, text, count=1)
    out = out.replace("from ziggurat.interpreter.native.numbacache import njit", PLAIN_NJIT)
    if out == text:
        raise ValueError("not a written native module: no njit to replace")
    return out


def plan_layout(folded, supply: int, plans: Optional[list] = None) -> Layout:
    """The layout of a game whose setup places `supply` pieces (0: moves make pieces, no bound),
    with the occupancy words where its moves (`plans`) choose among the mover's own cells.
    A stack holds at most the pieces there are, at most CAP, and at most what an invariant
    `all(height(c) <= K for c in cells)` declares; a stack that outgrows it anyway stops the
    native loop (the position's OVER flag), which then runs in Python."""
    w = folded.world
    cap = max(1, min(supply, CAP)) if supply else CAP_MADE
    declared = height_bound(folded.plan)
    if declared is not None:
        cap = max(1, min(cap, declared))
    zcap = max(1, supply) if supply else CAP  # a zone holds at most every piece there is
    ctrl = tuple(int(c) for c in folded.ctrl) if plans is not None and occupancy.wanted(plans, folded) else None
    return Layout(len(folded.plan.players), w.ncells, cap, w.npieces, len(w.zone_names), len(w.counter_names), zcap,
                  ctrl)


def height_bound(plan) -> Optional[int]:
    """K of an invariant `all(height(c) <= K for c in cells)` (alone, or one part of an `and`, or
    `all(height(c) <= K and ... for c in cells)`)."""
    for inv in plan.invariants:
        parts = inv.expr.values if isinstance(inv.expr, ir.BoolOp) and inv.expr.op == "and" else (inv.expr,)
        for e in parts:
            if not (isinstance(e, ir.Comp) and e.func == "all" and len(e.fors) == 1 and e.fors[0].cond is None):
                continue
            f = e.fors[0]
            for elt in e.elt.values if isinstance(e.elt, ir.BoolOp) and e.elt.op == "and" else (e.elt,):
                if (isinstance(f.iter, ir.Global) and f.iter.what == "cells" and isinstance(elt, ir.Compare)
                        and elt.op == "<=" and isinstance(elt.left, ir.Call) and elt.left.fn == "height"
                        and isinstance(elt.left.args[0], ir.Local) and elt.left.args[0].name == f.var
                        and isinstance(elt.right, ir.Const) and isinstance(elt.right.value, int)):
                    return elt.right.value
    return None


def after_key(part) -> tuple:
    """An after part's steps as plain data, read from the plan: the same for every action whose
    after part differs only in the numbers its bindings were given (`c`, `c#3` and `c#11` alike:
    a binding is numbered where the action has a name like it) and in where its choices go in
    the move (`index`); rules positions left out."""

    def plain(v):
        if isinstance(v, Pos):
            return None
        if isinstance(v, str):
            return v.split("#")[0]
        if isinstance(v, (tuple, list)):
            return tuple(plain(x) for x in v)
        if isinstance(v, frozenset):
            return frozenset(plain(x) for x in v)
        if attrs.has(type(v)):
            return (type(v).__name__,) + tuple(
                (f.name, plain(getattr(v, f.name))) for f in attrs.fields(type(v))
                if f.name != "pos" and not (f.name == "index" and isinstance(getattr(v, f.name), int)))
        return v

    return plain(part.steps)


class NativeWriter:
    """Writes the native module of one folded game, or raises Unsupported."""

    def __init__(self, folded, plans: list, layout: Layout, hashing: bool, outline=None):
        self.game, self.plans, self.layout, self.hashing = folded, plans, layout, hashing
        self.tables: dict = {}
        self.x = Exprs(folded, self.tables)
        self.x.outline = outline  # outline.Outline: folds written once, as functions
        self.x.cap = layout.cap
        self.x.nw = layout.nw  # the occupancy words a player (occupancy.py), 0 for none
        self.stmts = Statements(self.x, hashing)
        self.fresh = [0]
        self.moves = Moves(folded, plans, layout, self.x)
        self.codec = self.moves.codec
        self.legal, self.apply = Legal(self), Apply(self)
        self.afters: dict = {}  # an after part's key -> K of its functions after_K, after_do_K
        self.after_texts: list = []
        self.split_legal: list = []  # K of the functions legal_K a split `legal` calls

    @property
    def outcomes(self) -> list:
        """(kind, reason) of each outcome statement of the end block: outcome code = index + 1."""
        return self.stmts.outcomes

    def after_number(self, part, plan) -> int:
        """The number K of the functions `after_K` (its moves, given the action's part of the
        move) and `after_do_K` (its effects) written for this after part: one for all the
        actions whose after parts are the same but for the names of their bindings."""
        key = after_key(part)
        if key not in self.afters:
            k = self.afters[key] = len(self.afters)
            self.after_texts.append(self.legal.after_function(k, part, plan))
            with once_a_move(self.x.outline):
                self.after_texts.append(self.apply.after_function(k, part, plan))
        return self.afters[key]

    def outcome(self) -> str:
        """`outcome(s, nmoves, res, hist, nhist)`: the end block."""
        code = Code(self.fresh)
        code("@njit(cache=True)")
        code("def outcome(s, nmoves, res, hist, nhist):")
        code.depth += 1
        code("mover = s[SIDE]")
        code("ply = s[PLY]")
        self.stmts.block(self.game.plan.end or (), {}, code)
        code("return 0")
        return code.text()

    def row_names(self, table: str) -> Optional[list]:
        """What each first-level row of a geometry table is for: a direction, or a direction set."""
        if table in ("LN", "LNN", "STEP"):
            return list(DIRECTION_NAMES) + ["none"]
        if table in ("DS", "NB", "NBN"):
            return ["directions " + " ".join(ds) for ds in self.game.world.dirsets]
        return None

    # ---- the whole ----------------------------------------------------------------------------

    def write(self, title: str) -> str:
        """The module's text."""
        with listing(self.x.outline):  # legal's loops call nothing of outline.py's
            functions = [self.legal.legal()]
        functions += (self.apply.dos()
                     + [self.apply.apply(), self.outcome(), self.apply.weight()])
        functions.append(search_functions(self))  # the heuristic and weights the search kernel reads
        with listing(self.x.outline):
            functions.append(parts_function(self))  # a turn drawn part by part (the rollout policy `parts`)
        functions[1:1] = self.after_texts
        functions += self.x.outline.texts if self.x.outline is not None else []
        lay, n = self.layout, self.layout.nplayers
        head = [f"# Generated by ziggurat's native backend from {title}. Do not edit.",
                "# The layout's constants and the game's tables; legal and after_K (the moves); do_N, after_do_K and",
                "# apply (making one); outcome (the end block); pick_chance; then the kernel, the same in every",
                "# module. A line's comment names the rules line it was written for (the lines below it too).",
                "import numpy as np", "from ziggurat.interpreter.native.numbacache import sharing",
                "from ziggurat.interpreter.native.study_seeds import study_seed  # compiled once per machine",
                "from ziggurat.interpreter.native.lowbit import low_bit", "",
                f"njit = sharing({SHARED!r})  # numba's njit; the loops call these by symbol when large", ""]
        consts = dict(lay.constants())
        consts.update({"FILES": self.game.world.files, "SIDE": 0, "PLY": 1, "LAST": 2, "OVER": 3, "SEATS": 4,
                       "MAXM": MAXM,
                       "HASHING": self.hashing, "NACTIONS": len(self.plans),
                       "AMASK": (1 << self.codec.abits) - 1, "CELLMASK": (1 << self.moves.field_of(T.CELL)[0]) - 1,
                       "INCREMENTAL": self.hashing and self.stmts.hash.keeps_hash})
        lines = [f"{k} = {v!r}" for k, v in consts.items()]
        lines += table("NEXT", [(p + 1) % max(1, n) for p in range(n)])
        lines.append(f"CHANCE = {any(p.chance for p in self.plans)!r}")
        lines += table("CHANCEACT", [int(p.chance) for p in self.plans] or [0])
        lines += table("CTRL", list(self.game.ctrl) or [-1])
        cells_of = [self.moves.cell_shifts(p) for p in self.plans]
        width = max([len(c) for c in cells_of] + [1])
        lines += table("LASTCELLS", [c + [0] * (width - len(c)) for c in cells_of] or [[0]])
        lines += table("LASTN", [len(c) for c in cells_of] or [0])
        self.x.lines_table()  # the helpers read LN
        for name in sorted(self.tables):
            rows = self.tables[name] if self.tables[name] is not None else self.x.geometry(name)
            lines += table(name, rows, (self.game.world.files, self.game.world.ncells), self.row_names(name))
        text = "\n".join(head + lines + ["", ""] + [f + "\n\n" for f in functions])
        return text + "\n" + kernel()


# ---- the tables: one row a line ---------------------------------------------------------------------


def table(name: str, rows: list, board: Optional[tuple] = None, names: Optional[list] = None) -> list:
    """The lines defining a table (int64 array) `name`: on one line when it fits in WIDTH, else one
    row a line (a row too long: one of the board's ranks a line when it has a number a cell of
    the `board`, (files, cells), else as many numbers as fit). `names`: what each row is for,
    shown as a comment."""
    one = f"{name} = np.array({rows!r}, dtype=np.int64)"
    if len(one) <= WIDTH:
        return [one]
    return [f"{name} = np.array(["] + _rows(rows, 1, board, names) + ["], dtype=np.int64)"]


def _rows(rows: list, depth: int, board: Optional[tuple], names: Optional[list] = None) -> list:
    pad = "    " * depth
    if not any(isinstance(r, list) for r in rows):  # numbers: a rank a line, or as many as fit
        words = [f"{r!r}," for r in rows]
        run = board[0] if board is not None and len(rows) == board[1] else None
        if run is None or len(pad) + sum(len(w) + 1 for w in words[:run]) > WIDTH:
            run = max(1, (WIDTH - len(pad)) // (max(len(w) for w in words) + 1))
        return [pad + " ".join(words[i:i + run]) for i in range(0, len(words), run)]
    out = []
    for k, r in enumerate(rows):
        note = f"  # {names[k]}" if names is not None and k < len(names) else ""
        text = f"{r!r},"
        if len(pad) + len(text) <= WIDTH or not isinstance(r, list):
            out.append(pad + text + note)
        else:
            out += [pad + "[" + note] + _rows(r, depth + 1, board) + [pad + "],"]
    return out


# ---- the kernel ---------------------------------------------------------------------------------------


@lru_cache(maxsize=None)
def kernel() -> str:
    """The kernel files' code (below each one's mark), for the end of every module."""
    parts = []
    for name in KERNEL:
        text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
        head, mark, body = text.partition(KERNEL_MARK + "\n")
        if not mark:
            raise AssertionError(f"{name} has no line {KERNEL_MARK!r}")
        parts.append(f"# ---- {name} " + "-" * (93 - len(name)) + "\n" + body)
    return "\n\n".join(parts)
