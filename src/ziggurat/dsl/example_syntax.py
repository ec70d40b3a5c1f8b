"""The syntax of `example` and `symmetry` declarations: their AST nodes, and the part of the
parser's transformer that makes them (kept apart from the rules' own: these declarations are
checked by `ziggurat test`, never compiled)."""

from __future__ import annotations

from attrs import frozen
from lark import v_args
from lark.visitors import Transformer_NonRecursive

from . import ast
from .ast import NOWHERE, Pos


# ---- the nodes ---------------------------------------------------------------------------------


@frozen
class ExampleItem:
    """One line of an example: `kind` is options, position, after, legal, illegal, moves, outcome,
    perft, points, seats, turn or odds; `values` what the line gives (texts, numbers, names), as
    written: points are (moves or None, ((player, points), ...)), seats (moves or None, (player,
    ...)), turn (moves or None, player), odds (moves or None, ((move, numerator, denominator), ...))."""

    kind: str
    values: tuple
    pos: Pos = NOWHERE


@frozen
class Example:
    """`example "NAME":` a position (text or start, then moves) and what must hold there."""

    name: str
    items: tuple  # ExampleItem, in file order
    pos: Pos = NOWHERE


@frozen
class SymmetryPart:
    """One part of a symmetry: `mirror files`, `rotate 180`, `swap south north` (the words)."""

    words: tuple
    pos: Pos = NOWHERE


@frozen
class Symmetry:
    """`symmetry "NAME": PART, PART`: a map of positions the rules must not tell apart."""

    name: str
    parts: tuple
    pos: Pos = NOWHERE


# ---- the transformer ---------------------------------------------------------------------------


@v_args(meta=True)
class ExampleTransforms(Transformer_NonRecursive):
    """The parser's transformer (`parser._ToAst`, which extends this) for examples and symmetries."""

    # The parser's transformer gives these two: where a node is (in the file being parsed), and
    # the text of a "string" (one reading for the whole parser).
    def _pos(self, meta) -> ast.Pos:
        raise NotImplementedError

    @staticmethod
    def _unquote(token) -> str:
        raise NotImplementedError

    def example(self, meta, c):
        return Example(self._unquote(c[0]), tuple(c[1:]), self._pos(meta))

    def _item(self, kind, meta, values):
        return ExampleItem(kind, tuple(values), self._pos(meta))

    def ex_setting(self, meta, c):
        v = str(c[1])
        return (str(c[0]), int(v) if v.isdigit() else v)

    def ex_options(self, meta, c):
        return self._item("options", meta, c)

    def ex_position(self, meta, c):
        return self._item("position", meta, [self._unquote(c[0])])

    def ex_after(self, meta, c):
        return self._item("after", meta, [self._unquote(c[0])])

    def ex_legal(self, meta, c):
        return self._item("legal", meta, [self._unquote(x) for x in c])

    def ex_illegal(self, meta, c):
        return self._item("illegal", meta, [self._unquote(x) for x in c])

    def ex_count(self, meta, c):
        return self._item("moves", meta, [int(c[0])])

    def ex_outcome(self, meta, c):
        moves, kind, who, reason = c
        return self._item("outcome", meta, [self._unquote(moves) if moves else None, str(kind),
                                            str(who) if who else None, self._unquote(reason) if reason else None])

    def ex_perft(self, meta, c):
        return self._item("perft", meta, [int(c[0]), int(c[1])])

    def ex_score(self, meta, c):
        return (str(c[0]), int(c[1]))

    def ex_score_negative(self, meta, c):
        return (str(c[0]), -int(c[1]))

    def ex_points(self, meta, c):
        return self._item("points", meta, [self._unquote(c[0]) if c[0] else None, tuple(c[1:])])

    def ex_seats(self, meta, c):
        return self._item("seats", meta, [self._unquote(c[0]) if c[0] else None, tuple(str(x) for x in c[1:])])

    def ex_turn(self, meta, c):
        return self._item("turn", meta, [self._unquote(c[0]) if c[0] else None, str(c[1])])

    def ex_odd(self, meta, c):
        return (self._unquote(c[0]), int(c[1]), int(c[2]))

    def ex_odds(self, meta, c):
        return self._item("odds", meta, [self._unquote(c[0]) if c[0] else None, tuple(c[1:])])

    def sym_part(self, meta, c):
        return SymmetryPart(tuple(str(x) for x in c), self._pos(meta))

    def symmetry(self, meta, c):
        return Symmetry(self._unquote(c[0]), tuple(c[1:]), self._pos(meta))
