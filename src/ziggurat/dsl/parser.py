"""Text to AST: the Lark grammar, indentation, and syntax errors that a person can act on."""

from __future__ import annotations

import hashlib
import io
import re
import sys
from functools import lru_cache
from importlib import resources

from lark import Lark, v_args
from lark import __version__ as lark_version
from lark.exceptions import UnexpectedInput
from lark.indenter import DedentError, Indenter

from . import ast, budgets, surface, text_budgets
from .example_syntax import ExampleTransforms
from .syntax_errors import syntax_diagnostic
from .. import cachedir
from ..errors import Reporter, RulesetError


class _RulesIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4

    def handle_NL(self, token):
        # Lark's DedentError says neither where nor why; name the line instead.
        try:
            yield from super().handle_NL(token)
        except DedentError:
            indent = len(token.rsplit("\n", 1)[1].expandtabs(self.tab_len))
            raise _BadDedent(token.end_line, indent, self.indent_level[-1]) from None


class _BadDedent(Exception):
    """A line indented less than its block but more than the block around it."""

    def __init__(self, line: int, indent: int, outer: int):
        super().__init__(line, indent, outer)
        self.line, self.indent, self.outer = line, indent, outer


GRAMMAR_CACHE = "grammar.lark-cache"  # the grammar's analysis, a sealed entry in the cache root


@lru_cache(maxsize=2)
def grammar(cached: bool = True) -> Lark:
    """The shipped grammar, built once a process; its analysis is kept in the cache folder. With
    `cached=False` it is built afresh: a grammar lark read back from its cache has no rules to
    generate programs from (hypothesis.extra.lark needs them: tests/language/test_fuzz.py).

    Not Lark's own cache (`cache=`): a pickle it loads after checking only its first line, written
    through whatever is at the name. The entry is Lark's `save` (a pickle) behind a line naming
    the grammar's text, lark and Python, sealed (`ziggurat.cachedir`): unpickled only when the
    seal vouches for it and the line matches; else the grammar is built and the entry rewritten."""
    where = cachedir.root() if cached else None
    if where is None:
        return _build()
    text = resources.files("ziggurat").joinpath("grammar", "ziggurat.lark").read_text(encoding="utf-8")
    stamp = hashlib.sha256(f"{text}\0{lark_version}\0{sys.version_info[:2]}".encode()).hexdigest().encode() + b"\n"
    entry = where / GRAMMAR_CACHE
    known = cachedir.read_sealed(entry)
    if known is not None and known.startswith(stamp):
        try:
            return Lark.load(io.BytesIO(known[len(stamp):]))
        except Exception:  # vouched for by the seal, but lark cannot read it: build it again
            pass
    lark = _build()
    saved = io.BytesIO()
    lark.save(saved)
    cachedir.write_sealed(entry, stamp + saved.getvalue())
    return lark


def _build() -> Lark:
    return Lark.open_from_package(
        "ziggurat",
        "ziggurat.lark",
        ("grammar",),
        parser="lalr",
        postlex=_RulesIndenter(),
        propagate_positions=True,
        maybe_placeholders=True,
    )


def _pos(meta_or_token, file=None) -> ast.Pos:
    line = getattr(meta_or_token, "line", 0) or 0
    col = getattr(meta_or_token, "column", 0) or 0
    end_line = getattr(meta_or_token, "end_line", line) or line
    end_col = getattr(meta_or_token, "end_column", col) or col + 1
    return ast.Pos(line, col, end_col, end_line, file)


_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"'}


def _unquote(token: str) -> str:
    """The text of a "string": \\n, \\t, \\\\ and \\" are escapes; any other backslash stays as written."""
    body = token[1:-1]
    if "\\" not in body:
        return body
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(0)), body)


def _flat(kind, items):
    return [i for i in items if i is not None]


@v_args(meta=True)
class _ToAst(ExampleTransforms):  # a Transformer_NonRecursive
    """Lark tree -> ast nodes. Single-child operator nodes collapse into their child; every
    position points at the file being parsed. Non-recursive: a deeply nested text (limited by
    budgets.MAX_NESTING only once it is an AST) cannot overflow Python's stack here."""

    def __init__(self, file):
        super().__init__()
        self.file = file

    _unquote = staticmethod(_unquote)  # for ExampleTransforms

    def _pos(self, meta):
        return _pos(meta, self.file)

    # ---- expressions
    def int_lit(self, meta, c):
        return ast.Num(int(c[0]), self._pos(meta))

    def length_lit(self, meta, c):
        return ast.Num(surface.length_units(str(c[0])), self._pos(meta), length=True)

    def str_lit(self, meta, c):
        return ast.Str(_unquote(c[0]), self._pos(meta))

    def name(self, meta, c):
        return ast.Name(str(c[0]), self._pos(meta))

    def attr(self, meta, c):
        return ast.Attr(c[0], str(c[1]), self._pos(meta))

    def index(self, meta, c):
        return ast.Index(c[0], c[1], self._pos(meta))

    def call(self, meta, c):
        args = c[1] if c[1] is not None else ()
        return ast.Call(str(c[0]), tuple(args), self._pos(meta))

    def args(self, meta, c):
        return tuple(c)

    def comp_for(self, meta, c):
        return ast.CompFor(str(c[0]), c[1], c[2], self._pos(meta))

    def comprehension(self, meta, c):
        return ast.Comprehension(str(c[0]), c[1], tuple(c[2:]), self._pos(meta))

    def list_lit(self, meta, c):
        return ast.ListLit(tuple(x for x in c if x is not None), self._pos(meta))

    def arith(self, meta, c):
        node = c[0]
        for op, right in zip(c[1::2], c[2::2]):
            node = ast.BinOp(str(op), node, right, self._pos(meta))
        return node

    def range_(self, meta, c):
        if len(c) == 1 or c[1] is None:
            return c[0]
        return ast.Range(c[0], c[1], self._pos(meta))

    def compare(self, meta, c):
        if len(c) == 1:
            return c[0]
        return ast.Compare(str(c[1]), c[0], c[2], self._pos(meta))

    def not_in(self, meta, c):
        return ast.Compare("not in", c[0], c[1], self._pos(meta))

    def and_(self, meta, c):
        return c[0] if len(c) == 1 else ast.BoolOp("and", tuple(c), self._pos(meta))

    def or_(self, meta, c):
        return c[0] if len(c) == 1 else ast.BoolOp("or", tuple(c), self._pos(meta))

    def not_(self, meta, c):
        return ast.Not(c[0], self._pos(meta))

    def neg(self, meta, c):
        return ast.Neg(c[0], self._pos(meta))

    def ternary(self, meta, c):
        return ast.Ternary(c[1], c[0], c[2], self._pos(meta))

    # ---- statements
    def block(self, meta, c):
        return tuple(c)

    def let(self, meta, c):
        return ast.Let(str(c[0]), c[1], self._pos(meta))

    def if_stmt(self, meta, c):
        cond, body, *rest = c
        orelse = rest[-1] if rest and rest[-1] is not None else ()
        for elif_cond, elif_body, elif_pos in reversed([e for e in rest[:-1]]):
            orelse = (ast.If(elif_cond, elif_body, orelse, elif_pos),)
        return ast.If(cond, body, orelse, self._pos(meta))

    def elif_part(self, meta, c):
        return (c[0], c[1], self._pos(meta))

    def for_stmt(self, meta, c):
        return ast.For(str(c[0]), c[1], c[2], c[3], self._pos(meta))

    def assign(self, meta, c):
        return ast.Assign(c[0], "=", c[1], self._pos(meta))

    def augassign(self, meta, c):
        return ast.Assign(c[0], str(c[1]), c[2], self._pos(meta))

    def call_stmt(self, meta, c):
        return ast.ExprStmt(c[0], self._pos(meta))

    def win(self, meta, c):
        return ast.Outcome("win", c[0], _unquote(c[2]) if c[2] else None, self._pos(meta), c[1])

    def lose(self, meta, c):
        return ast.Outcome("lose", c[0], _unquote(c[2]) if c[2] else None, self._pos(meta), c[1])

    def by_points(self, meta, c):
        return c[0]

    def win_by(self, meta, c):
        key = ast.Name(str(c[0]), self._pos(c[0]))
        return ast.Rank((key,), _unquote(c[1]) if c[1] else None, self._pos(meta), scored=True)

    def draw(self, meta, c):
        return ast.Outcome("draw", None, _unquote(c[0]) if c[0] else None, self._pos(meta))

    def rank(self, meta, c):
        *keys, reason = c
        names = tuple(ast.Name(str(k), self._pos(k)) for k in keys)
        return ast.Rank(names, _unquote(reason) if reason else None, self._pos(meta))

    # ---- declarations
    def game(self, meta, c):
        return ast.Game(_unquote(c[0]), _unquote(c[1]) if len(c) > 1 and c[1] else "", self._pos(meta))

    def extends(self, meta, c):
        t = str(c[0])
        return ast.Extends(_unquote(t) if t.startswith('"') else t, self._pos(meta))

    def bool_type(self, meta, c):
        return ast.OptionType("bool", pos=self._pos(meta))

    def int_type(self, meta, c):
        return ast.OptionType("int", pos=self._pos(meta))

    def range_type(self, meta, c):
        r = c[0]
        if isinstance(r, ast.Range):
            return ast.OptionType("range", r.lo, r.hi, pos=self._pos(meta))
        return ast.OptionType("range", r, r, pos=self._pos(meta))

    def enum_type(self, meta, c):
        return ast.OptionType("enum", values=tuple(str(x) for x in c), pos=self._pos(meta))

    def option(self, meta, c):
        name, typ, default, *doc = c
        doc = [d for d in doc if d is not None]
        return ast.Option(str(name), typ, default, _unquote(doc[0]) if doc else "", self._pos(meta))

    def check(self, meta, c):
        return ast.Check(c[0], _unquote(c[1]), self._pos(meta))

    def players(self, meta, c):
        return ast.Players(tuple(str(x) for x in c), self._pos(meta))

    def setting(self, meta, c):
        return ast.Setting(str(c[0]), c[1], self._pos(meta))

    def board(self, meta, c):
        return ast.Board(tuple(c), self._pos(meta))

    def surface_setting(self, meta, c):
        return ast.SurfaceSetting(str(c[0]), str(c[1]) if c[1] is not None else None, c[2], self._pos(meta))

    def surface(self, meta, c):
        return ast.Surface(tuple(c), self._pos(meta))

    def attr_value(self, meta, c):
        number = int(c[1]) if c[1] is not None else None
        code = _unquote(c[2]) if c[2] is not None else None
        return ast.AttrValue(str(c[0]), number, code, self._pos(meta))

    def attribute(self, meta, c):
        return ast.Attribute(str(c[0]), tuple(c[1:]), self._pos(meta))

    def piece(self, meta, c):
        return ast.Piece(tuple(c), self._pos(meta))

    def control(self, meta, c):
        return ast.Control(c[0], self._pos(meta))

    def per_player(self, meta, c):
        return True

    def zone(self, meta, c):
        return ast.Zone(str(c[0]), bool(c[1]), bool(c[2]), self._pos(meta))

    def counter(self, meta, c):
        kind = str(c[2]) if c[2] is not None else "number"
        return ast.Counter(str(c[0]), bool(c[1]), c[3], self._pos(meta), kind, c[4] is not None)

    def set_decl(self, meta, c):
        return ast.Counter(str(c[0]), bool(c[2]), None, self._pos(meta), "set", c[4] is not None,
                           holds=str(c[1]), cleared=bool(c[3]))

    def cleared_each_turn(self, meta, c):
        return True

    def directions(self, meta, c):
        return ast.Directions(str(c[0]), c[1], self._pos(meta))

    def entry(self, meta, c):
        return tuple(c)  # the key, then one value per column

    def columns(self, meta, c):
        return tuple(str(n) for n in c)

    def table(self, meta, c):
        columns = c[2] or ()
        entries = tuple(e if columns else e[:2] for e in c[3:])
        return ast.Table(str(c[1]), entries, c[0] is not None, self._pos(meta), columns,
                         tuple(len(e) - 1 for e in c[3:]))

    def def_(self, meta, c):
        override = c[0] is not None
        name, *rest = c[1:]
        body = rest[-1]
        params = tuple(str(p) for p in rest[:-1] if p is not None)
        return ast.Def(str(name), params, body, override, self._pos(meta))

    def procedure(self, meta, c):
        params = tuple(str(p) for p in c[2:-1] if p is not None)
        return ast.Procedure(str(c[1]), params, c[-1], c[0] is not None, self._pos(meta))

    def whole_turns(self, meta, c):
        return ast.WholeTurns(int(c[0]), c[1] is not None, c[2] or "", self._pos(meta))

    def one_per_position(self, meta, c):
        return True

    def keeping(self, meta, c):
        return str(c[0])

    def remove(self, meta, c):
        name = str(c[1])
        return ast.Remove(str(c[0]), _unquote(name) if name.startswith('"') else name, self._pos(meta))

    def setup(self, meta, c):
        return ast.Setup(c[0], self._pos(meta))

    def when(self, meta, c):
        return ast.When(c[0], self._pos(meta))

    def choice(self, meta, c):
        return ast.Choice(str(c[0]), c[1], c[2], _unquote(c[3]) if c[3] else None, self._pos(meta))

    def require(self, meta, c):
        return ast.Require(c[0], _unquote(c[1]) if c[1] else None, self._pos(meta))

    def effects(self, meta, c):
        return ast.Effects(c[0], self._pos(meta))

    def repeat(self, meta, c):
        var, start, cond, may_stop, *items = c
        return ast.Repeat(str(var), start, cond, tuple(items), may_stop is not None, self._pos(meta))

    def may_stop(self, meta, c):
        return True

    def otherwise(self, meta, c):
        return ast.Otherwise(self._pos(meta))

    def priority(self, meta, c):
        return ast.Priority(int(c[0]), self._pos(meta))

    def answer(self, meta, c):
        return ast.Answer(self._pos(meta))

    def by_chance(self, meta, c):
        return ast.ByChance(self._pos(meta))

    def weight(self, meta, c):
        return ast.Weight(c[0], self._pos(meta))

    def seen_by(self, meta, c):
        return ast.SeenBy(c[0], self._pos(meta))

    def action(self, meta, c):
        override = c[0] is not None
        name, fmt, *items = c[1:]
        return ast.Action(str(name), _unquote(fmt) if fmt else None, tuple(items), override, self._pos(meta))

    def after(self, meta, c):
        override = c[0] is not None
        fmt, decline, *items = c[1:]
        return ast.After(_unquote(fmt) if fmt else None, tuple(items), override, self._pos(meta), decline is not None)

    def may_decline(self, meta, c):
        return True

    def end(self, meta, c):
        return ast.End(c[0], self._pos(meta))

    def invariant(self, meta, c):
        return ast.Invariant(_unquote(c[0]), c[1], self._pos(meta))

    def heuristic(self, meta, c):
        return ast.Heuristic(c[0], self._pos(meta))

    def statistic(self, meta, c):
        return ast.Statistic(_unquote(c[0]), c[1], self._pos(meta))

    def start(self, meta, c):
        return tuple(c)


# `def` is a Python keyword, so the tree's `def` node is routed by hand.
setattr(_ToAst, "def", _ToAst.def_)


def parse(text: str, path: str = "<rules>") -> ast.Ruleset:
    """Parse ruleset text into an ast.Ruleset, or raise RulesetError pointing at the mistake.

    The AST is immutable, so a text parsed once is not parsed again (loading the same ruleset
    many times, as a census or a simulation does, costs only the reading of the file)."""
    return _parse_cached(text, path)


@lru_cache(maxsize=128)
def _parse_cached(text: str, path: str) -> ast.Ruleset:
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > budgets.MAX_SOURCE_BYTES:
        raise RulesetError([text_budgets.too_large(path, size)])
    if not text.endswith("\n"):
        text += "\n"
    crowded = text_budgets.too_many_tokens(text, path)
    if crowded is not None:
        raise RulesetError([crowded])
    try:
        tree = grammar().parse(text)
    except UnexpectedInput as err:
        raise RulesetError([syntax_diagnostic(err, text, path, grammar().parse)]) from None
    except _BadDedent as err:
        rep = Reporter(path, text)
        raise RulesetError([rep.make(
            ast.Pos(err.line, err.indent + 1),
            f"this line is indented by {err.indent}, which lines up with no block around it",
            hint=f"indent it as the lines of its block, or by {err.outer} to end the block")]) from None
    file = Reporter(path, text)
    problems = text_budgets.literals_too_large(tree, file)
    if problems:
        raise RulesetError(problems)
    decls = _ToAst(file).transform(tree)
    deep = text_budgets.too_deep(decls)
    if deep is not None:
        raise RulesetError([file.make(
            deep.pos, f"the rules nest more than {budgets.MAX_NESTING} levels deep here (an operator, a call, "
                      f"a statement or a block inside another each count one)",
            hint="name a part with a let or a def, or split the condition in two")])
    return ast.Ruleset(tuple(decls), path, text, file)
