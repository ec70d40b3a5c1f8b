"""Folds written once, as functions of the module, instead of at every place they are used.

A fold (`any`, `all`, `count`, `sum`, `min`, `max` over a comprehension or a collection:
`fuse.foldable`) is a loop of several lines. A rules `def` is expanded at each of its uses, and
`legal`, its parts, `apply` and the end block each write the same actions' folds again, so one
fold of the rules is often written ten or more times. Numba types and lowers every written line
(about 7 ms a line, cold), so such a fold costs at every place; written once as a function
`fold_K(s, mover, a0, a1, ...)`, it costs once, and each place is a call.

Which folds: the writer writes the module twice (`game._write`). The first time, `Outline`
counts each fold's shape: the fold with the names it reads from outside it made positional
(`a0`, `a1`, ... in order of first reading), its own bindings numbered, rules positions left
out, so that two uses of one def with different arguments have one shape. The second time, each
shape counted at least twice becomes a function; the others stay written in place. A fold is
left in place when it reads anything but the position (`s`), the mover, `ply`, `nxt` and scalar
values (numbers, cells, pieces, players, directions): a list or a zone bound outside it, the
history, the number of moves. A buffer the fold fills (a list it builds) is the caller's, given
to the function: allocated at the caller's top as the fold written in place would be, not at
every call.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from typing import Optional

import attrs

from ...dsl import ir
from ...dsl import types as T
from . import fuse
from .code import WIDTH, Code

SCALAR = ("int", "bool", "cell", "piece", "player", "direction", "direction set", "enum")
GLOBALS = ("mover", "ply", "nxt", "cells", "players", "files", "ranks", "last")
FROM_LINES = 600  # a module of fewer lines in its functions is written as it is, outlining nothing
LARGE = 16  # an expression of this many nodes (a def's arithmetic, expanded) is outlined when repeated
HISTORY = ("repeated", "repeated_board")  # read `hist`, a parameter of the end block only


_FIELDS: dict = {}  # a node's class -> the fields a shape reads (a comprehension's `fors` first)
_READ: dict = {}  # a class -> whether a shape reads its instances field by field (an IR node)


def fields(cls) -> tuple:
    names = _FIELDS.get(cls)
    if names is None:
        names = tuple(f.name for f in attrs.fields(cls) if f.name != "pos" and not f.name.endswith("_pos"))
        names = _FIELDS[cls] = tuple(sorted(names, key=lambda n: n != "fors"))  # bound before they are read
    return names


class Refused(Exception):
    """A fold no function of the module could be given: `outside` when only for want of a name
    this place does not bind (another place may)."""

    def __init__(self, outside: bool = False):
        self.outside = outside


def shape(e, env: dict) -> Optional[tuple]:
    """(key, params): e's shape and the names it reads from env, in order; None when e reads
    something a function of the module could not be given (see the module's docstring)."""
    try:
        return _shape(e, env)
    except Refused:
        return None


def _shape(e, env: dict) -> tuple:
    params: list = []
    bound: dict = {}

    def dump(node):
        if isinstance(node, (tuple, list)):
            return tuple(dump(x) for x in node)
        if isinstance(node, ir.Local):
            if node.name in bound:
                return ("L", bound[node.name])
            if node.type.name not in SCALAR:
                raise Refused()
            if node.name not in env:
                raise Refused(outside=True)
            if node.name not in params:
                params.append(node.name)
            return ("P", params.index(node.name), node.type)
        if isinstance(node, ir.CompFor):
            over = dump(node.iter)
            return ("F", bound.setdefault(node.var, len(bound)), over, dump(node.cond))
        if isinstance(node, ir.Global) and node.what not in GLOBALS:
            raise Refused()
        if isinstance(node, ir.Call) and node.fn in HISTORY:
            raise Refused()
        read = _READ.get(type(node))
        if read is None:  # the first node of its class: whether a shape reads it field by field
            read = _READ[type(node)] = (attrs.has(type(node)) and not isinstance(node, T.Type)
                                        and hasattr(node, "pos"))
        if read:
            return (type(node).__name__,) + tuple(
                dump(getattr(node, f)) if f != "type" else node.type for f in fields(type(node)))
        return node

    return dump(e), params


def function_lines(text: str) -> int:
    """The lines inside the functions of a module's game part (above the kernel), tables left out."""
    count, inside = 0, False
    for line in text.split("\n# ---- kernel.py")[0].splitlines():
        if line.startswith("def "):
            inside = True
        elif line and not line[0].isspace() and not line.startswith(("@", "#")):
            inside = False
        elif inside and line.strip() and not line.lstrip().startswith("#"):
            count += 1
    return count


def second(counted: "Outline", text: str) -> Optional["Outline"]:
    """The Outline the module's second writing uses, from the first's counts and text; None for
    a module of fewer than FROM_LINES lines in its functions (its first text is its text). A
    small module's compile is mostly the kernel's, and a fold called in `legal`'s loop may cost
    its speed: a game's `legal` calling its end test's fold (a flank count) ran at 0.76x."""
    if function_lines(text) < FROM_LINES:
        return None
    return Outline(counted.repeated(), counted.shapes)


@contextmanager
def listing(outline: Optional["Outline"]):
    """While the moves' listing is written (`legal`, its parts, `after_K`, `legal_parts`), every
    fold in place: called there, once per candidate, a fold of the module cost one shipped game's
    kernel a quarter of its speed, another's two fifths (kernel_ab.py)."""
    if outline is None:
        yield
        return
    outline.paused += 1
    try:
        yield
    finally:
        outline.paused -= 1


@contextmanager
def once_a_move(outline: Optional["Outline"]):
    """While code run once a move is written from inside the listing (`after_do_K`, written with
    the `after_K` that `legal` asks for): as outside it, folds outlined and the helpers that write
    the position called (`Statements.once`)."""
    if outline is None:
        yield
        return
    saved, outline.paused = outline.paused, 0
    try:
        yield
    finally:
        outline.paused = saved


def extra(e) -> tuple:
    """`ply` and `nxt` when e reads them: locals of the caller, given to the function by name."""
    reads = {n.what for n in ir.walk(e) if isinstance(n, ir.Global)}
    return tuple(w for w in ("ply", "nxt") if w in reads)


class Outline:
    """Counts fold shapes (`counting`), or writes the shapes in `chosen` as functions."""

    def __init__(self, chosen: Optional[frozenset] = None, shapes: Optional[dict] = None):
        self.counting = chosen is None
        self.shapes = shapes if shapes is not None else {}  # id(e) -> (e, (key, params) or None)
        self.counts: dict = {}
        self.chosen = chosen or frozenset()
        self.names: dict = {}  # a shape -> its function's name, or None: written in place
        self.texts: list = []  # the functions' texts, inner ones first
        self.made = 0
        self.paused = 0  # inside `listing`: nothing counted, nothing outlined
        self.inner: dict = {}  # id(e) -> (e, the folds inside it)

    def shape(self, e, env: dict) -> Optional[tuple]:
        """`shape(e, env)`, kept by e's identity: the writer writes the same expression at several
        places (and twice), and a large one's shape is most of the writing's time."""
        kept = self.shapes.get(id(e))
        if kept is not None:
            found = kept[1]
            return found if found is None or all(p in env for p in found[1]) else None
        try:
            found = _shape(e, env)
        except Refused as why:
            if why.outside:
                return None  # another place may bind the name
            found = None
        self.shapes[id(e)] = (e, found)  # e kept: its id is not used again
        return found

    @staticmethod
    def large(e) -> bool:
        """A scalar expression of LARGE nodes or more (a def's arithmetic, expanded)."""
        if not isinstance(e, (ir.Ternary, ir.BoolOp, ir.Arith, ir.Compare, ir.Not)) or e.type.name not in SCALAR:
            return False
        count = 0
        for _ in ir.walk(e):
            count += 1
            if count >= LARGE:
                return True
        return False

    @staticmethod
    def wraps(value: str) -> bool:
        """Whether a fold's code, written with the folds inside it called, is one short line that
        calls them: cheaper in place than as one more function (Numba compiles each function
        through its whole pipeline, and LLVM optimises again the folds linked into it, a chain
        of such functions at every level of it)."""
        return len(value) <= WIDTH and re.search(r"\bfold_\d+\(", value) is not None

    def repeated(self) -> frozenset:
        return frozenset(k for k, n in self.counts.items() if n > 1)

    def call(self, x, e, env: dict, code: Code) -> Optional[str]:
        """The call standing for fold e (its function written the first time), or None: e is
        written in place."""
        if self.paused:
            return None
        if x.memo and any(fuse.memo_key(n, env) in x.memo for n in self.folds_in(e)):
            return None  # it reads a fold the caller hoisted (computed once, before a loop): in place
        found = self.shape(e, env)
        if found is None:
            return None
        key, params = found
        if self.counting:
            self.counts[key] = self.counts.get(key, 0) + 1
            return None
        if key not in self.chosen:
            return None
        if key not in self.names:
            self.names[key] = self.write(x, e, params, env, code)
        made = self.names[key]
        if made is None:
            return None
        name, more, buffers = made
        for buf, size in buffers:  # the caller's buffers, allocated once at its top as in place
            code.buffer(buf, *size)
        return f"{name}({', '.join(['s', 'mover'] + [env[p] for p in params] + more + [b for b, _ in buffers])})"

    def folds_in(self, e) -> list:
        """The folds inside e (e left out), kept by e's identity."""
        kept = self.inner.get(id(e))
        if kept is None:
            kept = self.inner[id(e)] = (e, [n for n in ir.walk(e) if n is not e and fuse.foldable(n)])
        return kept[1]

    def write(self, x, e, params: list, env: dict, code: Code) -> Optional[tuple]:
        """(fold_K, the caller's names it is given after the params, its buffers: (name, shape)
        each) with fold_K's text put in self.texts; or None for a fold of no lines, or of one
        short line of calls of other folds (`wraps`). A buffer the
        fold's code fills (a list it builds) is a parameter: each caller allocates it at its top,
        with its own, once a call of the caller, as the fold written in place would."""
        name = f"fold_{self.made}"  # numbered before its body is written: a fold inside it comes after
        self.made += 1
        fn = Code(code._fresh)
        fn.pos = code.pos
        fn("@njit(cache=True, internal=True)")  # only compiled code calls it: no wrappers (numbacache.njit)
        names = [f"a{i}" for i in range(len(params))]
        more = list(extra(e))
        fn("def")  # the def line, once the buffers are known
        fn.depth += 1
        saved, x.memo = x.memo, {}  # the caller's hoisted folds are its locals, not this function's
        try:
            value = x.expr(e, dict(zip(params, names)), fn, outline=False)
        finally:
            x.memo = saved
        if len(fn.lines) == 2 and (not self.large(e) or self.wraps(value)):
            return None
        buffers = sorted(fn.top.items())
        fn.top = {}
        fn.lines[1] = (0, f"def {name}({', '.join(['s', 'mover'] + names + more + [b for b, _ in buffers])}):",
                       fn.lines[1][2])
        fn(f"return {value}")
        self.texts.append(fn.text())
        return name, more, buffers
