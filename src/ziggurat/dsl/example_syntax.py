"""The parse tree of `example` and `symmetry` declarations to AST nodes (a part of the parser's
transformer, kept apart: these declarations are checked by `ziggurat test`, never compiled)."""

from __future__ import annotations

from lark import v_args
from lark.visitors import Transformer_NonRecursive

from . import ast


def _unquote(token) -> str:
    from .parser import _unquote as unquote  # one reading of a "string" for the whole parser

    return unquote(token)


@v_args(meta=True)
class ExampleTransforms(Transformer_NonRecursive):
    """The parser's transformer (`parser._ToAst`, which extends this) for examples and symmetries."""

    file = None  # the transformer's: the file being parsed

    def _pos(self, meta):
        from .parser import _pos

        return _pos(meta, self.file)

    def example(self, meta, c):
        return ast.Example(_unquote(c[0]), tuple(c[1:]), self._pos(meta))

    def _item(self, kind, meta, values):
        return ast.ExampleItem(kind, tuple(values), self._pos(meta))

    def ex_setting(self, meta, c):
        v = str(c[1])
        return (str(c[0]), int(v) if v.isdigit() else v)

    def ex_options(self, meta, c):
        return self._item("options", meta, c)

    def ex_position(self, meta, c):
        return self._item("position", meta, [_unquote(c[0])])

    def ex_after(self, meta, c):
        return self._item("after", meta, [_unquote(c[0])])

    def ex_legal(self, meta, c):
        return self._item("legal", meta, [_unquote(x) for x in c])

    def ex_illegal(self, meta, c):
        return self._item("illegal", meta, [_unquote(x) for x in c])

    def ex_count(self, meta, c):
        return self._item("moves", meta, [int(c[0])])

    def ex_outcome(self, meta, c):
        moves, kind, who, reason = c
        return self._item("outcome", meta, [_unquote(moves) if moves else None, str(kind),
                                            str(who) if who else None, _unquote(reason) if reason else None])

    def ex_perft(self, meta, c):
        return self._item("perft", meta, [int(c[0]), int(c[1])])

    def sym_part(self, meta, c):
        return ast.SymmetryPart(tuple(str(x) for x in c), self._pos(meta))

    def symmetry(self, meta, c):
        return ast.Symmetry(_unquote(c[0]), tuple(c[1:]), self._pos(meta))
