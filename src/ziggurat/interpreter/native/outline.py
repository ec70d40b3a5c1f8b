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
history, the number of moves; and when its code would allocate a buffer (a call would allocate
it at every call).
"""

from __future__ import annotations

from typing import Optional

import attrs

from ...dsl import ir
from ...dsl import types as T
from . import fuse
from .code import Code

SCALAR = ("int", "bool", "cell", "piece", "player", "direction", "direction set", "enum")
GLOBALS = ("mover", "ply", "nxt", "cells", "players", "files", "ranks", "last")
LARGE = 16  # an expression of this many nodes (a def's arithmetic, expanded) is outlined when repeated
HISTORY = ("repeated", "repeated_board")  # read `hist`, a parameter of the end block only


def shape(e, env: dict) -> Optional[tuple]:
    """(key, params): e's shape and the names it reads from env, in order; None when e reads
    something a function of the module could not be given (see the module's docstring)."""
    params: list = []
    bound: dict = {}
    inner = {f.var for f in ir.walk(e) if isinstance(f, ir.CompFor)}

    def dump(node):
        if isinstance(node, (tuple, list)):
            return tuple(dump(x) for x in node)
        if isinstance(node, ir.Local):
            if node.name in inner:
                return ("L", bound.setdefault(node.name, len(bound)))
            if node.name not in env or node.type.name not in SCALAR:
                raise LookupError
            if node.name not in params:
                params.append(node.name)
            return ("P", params.index(node.name), node.type)
        if isinstance(node, ir.CompFor):
            return ("F", bound.setdefault(node.var, len(bound)), dump(node.iter), dump(node.cond))
        if isinstance(node, ir.Global) and node.what not in GLOBALS:
            raise LookupError
        if isinstance(node, ir.Call) and node.fn in HISTORY:
            raise LookupError
        if attrs.has(type(node)) and not isinstance(node, T.Type) and hasattr(node, "pos"):
            return (type(node).__name__,) + tuple(
                dump(getattr(node, f.name)) if f.name != "type" else getattr(node, f.name)
                for f in attrs.fields(type(node)) if f.name != "pos" and not f.name.endswith("_pos"))
        return node

    try:
        return dump(e), params
    except LookupError:
        return None


def extra(e) -> tuple:
    """`ply` and `nxt` when e reads them: locals of the caller, given to the function by name."""
    reads = {n.what for n in ir.walk(e) if isinstance(n, ir.Global)}
    return tuple(w for w in ("ply", "nxt") if w in reads)


class Outline:
    """Counts fold shapes (`counting`), or writes the shapes in `chosen` as functions."""

    def __init__(self, chosen: Optional[frozenset] = None):
        self.counting = chosen is None
        self.counts: dict = {}
        self.chosen = chosen or frozenset()
        self.names: dict = {}  # a shape -> its function's name, or None: written in place
        self.texts: list = []  # the functions' texts, inner ones first
        self.made = 0

    @staticmethod
    def large(e) -> bool:
        """A scalar expression of LARGE nodes or more (a def's arithmetic, expanded)."""
        if not isinstance(e, (ir.Ternary, ir.BoolOp, ir.Arith, ir.Compare, ir.Not)) or e.type.name not in SCALAR:
            return False
        count = 0
        for n in ir.walk(e):
            count += 1
        return count >= LARGE

    def repeated(self) -> frozenset:
        return frozenset(k for k, n in self.counts.items() if n > 1)

    def call(self, x, e, env: dict, code: Code) -> Optional[str]:
        """The call standing for fold e (its function written the first time), or None: e is
        written in place."""
        if x.memo and any(fuse.foldable(n) and fuse.memo_key(n, env) in x.memo for n in ir.walk(e) if n is not e):
            return None  # it reads a fold the caller hoisted (computed once, before a loop): in place
        found = shape(e, env)
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
        name = self.names[key]
        if name is None:
            return None
        args = ", ".join(["s", "mover"] + [env[p] for p in params] + list(extra(e)))
        return f"{name}({args})"

    def write(self, x, e, params: list, env: dict, code: Code) -> Optional[str]:
        """fold_K's text (into self.texts), or None when it would allocate a buffer."""
        name = f"fold_{self.made}"  # numbered before its body is written: a fold inside it comes after
        self.made += 1
        fn = Code(code._fresh)
        fn.pos = code.pos
        fn("@njit(cache=True)")
        names = [f"a{i}" for i in range(len(params))]
        fn(f"def {name}({', '.join(['s', 'mover'] + names + list(extra(e)))}):")
        fn.depth += 1
        saved, x.memo = x.memo, {}  # the caller's hoisted folds are its locals, not this function's
        try:
            value = x.expr(e, dict(zip(params, names)), fn, outline=False)
        finally:
            x.memo = saved
        if fn.top or (len(fn.lines) == 2 and not self.large(e)):  # a buffer a call would allocate; a fold of no lines
            return None
        fn(f"return {value}")
        self.texts.append(fn.text())
        return name
