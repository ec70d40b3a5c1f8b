"""The abstract syntax tree of a ruleset: attrs classes that know where they came from.

Every node carries ``pos`` (line, column, both 1-based) so that checks can point at the
mistake. Expression nodes are small and immutable; declarations keep their source order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional, TypeAlias

import attrs
from attrs import frozen

if TYPE_CHECKING:
    from ..errors import Reporter, SourceFile


@frozen
class Pos:
    """Where a node starts (and, when known, ends), and its file (an errors.SourceFile, left out of comparisons)."""

    line: int = 0
    col: int = 0
    end_col: int = 0
    end_line: int = 0
    file: Optional[SourceFile] = attrs.field(default=None, eq=False, repr=False)

    def snippet(self) -> str:
        """The source text at this position (its first line), or '' when the file is unknown."""
        return self.file.snippet(self) if self.file is not None else ""


NOWHERE = Pos()


def walk(x):
    """Every node under x (a node, or a tuple or list of them), x's own nodes included."""
    if isinstance(x, (tuple, list)):
        for y in x:
            yield from walk(y)
    elif hasattr(x, "__attrs_attrs__") and not isinstance(x, Pos):
        yield x
        for f in x.__attrs_attrs__:
            if f.name != "pos":
                yield from walk(getattr(x, f.name))


# ---- expressions --------------------------------------------------------------------------


@frozen
class Num:
    value: int
    pos: Pos = NOWHERE
    length: bool = False  # written as a length on the open table (`6in`): the value is in its units


@frozen
class Str:
    value: str
    pos: Pos = NOWHERE


@frozen
class Name:
    id: str
    pos: Pos = NOWHERE


@frozen
class Attr:
    obj: Expr
    name: str
    pos: Pos = NOWHERE


@frozen
class Index:
    obj: Expr
    index: Expr
    pos: Pos = NOWHERE


@frozen
class Call:
    func: str
    args: tuple[Expr, ...]
    pos: Pos = NOWHERE


@frozen
class CompFor:
    var: str
    iter: Expr
    cond: Optional[Expr]
    pos: Pos = NOWHERE


@frozen
class Comprehension:
    """``func(elt for var in iter where cond ...)``: sum, count, all, any, min, max, list."""

    func: str
    elt: Expr
    fors: tuple[CompFor, ...]
    pos: Pos = NOWHERE


@frozen
class ListLit:
    items: tuple[Expr, ...]
    pos: Pos = NOWHERE


@frozen
class BinOp:
    op: str
    left: Expr
    right: Expr
    pos: Pos = NOWHERE


@frozen
class Compare:
    op: str  # == != < <= > >= in "not in"
    left: Expr
    right: Expr
    pos: Pos = NOWHERE


@frozen
class BoolOp:
    op: str  # and / or
    values: tuple[Expr, ...]
    pos: Pos = NOWHERE


@frozen
class Not:
    operand: Expr
    pos: Pos = NOWHERE


@frozen
class Neg:
    operand: Expr
    pos: Pos = NOWHERE


@frozen
class Range:
    lo: Expr
    hi: Expr
    pos: Pos = NOWHERE


@frozen
class Ternary:
    cond: Expr
    then: Expr
    orelse: Expr
    pos: Pos = NOWHERE


Expr: TypeAlias = (Num | Str | Name | Attr | Index | Call | Comprehension | ListLit | BinOp | Compare | BoolOp | Not
                   | Neg | Range | Ternary)
"""An expression as written (resolve turns it into an ir.Expr)."""


# ---- statements ---------------------------------------------------------------------------


@frozen
class Let:
    name: str
    value: Expr
    pos: Pos = NOWHERE


@frozen
class If:
    cond: Expr
    body: tuple
    orelse: tuple  # statements (an elif becomes a nested If)
    pos: Pos = NOWHERE


@frozen
class For:
    var: str
    iter: Expr
    cond: Optional[Expr]
    body: tuple
    pos: Pos = NOWHERE


@frozen
class Assign:
    target: Expr
    op: str  # = += -=
    value: Expr
    pos: Pos = NOWHERE


@frozen
class ExprStmt:
    expr: Expr
    pos: Pos = NOWHERE


@frozen
class Outcome:
    kind: str  # win / lose / draw
    who: Optional[Expr]
    reason: Optional[str]
    pos: Pos = NOWHERE
    points: Optional[Expr] = None  # `win P by 2`: the points the win is worth


@frozen
class Rank:
    """``rank by score, tiebreak``: the game ends; the players are ranked by these defs."""

    keys: tuple  # Name nodes: defs of one player (or per-player counters), most important first
    reason: Optional[str]
    pos: Pos = NOWHERE
    scored: bool = False  # `win by points`: the one key is each player's points, the game's result


# ---- declarations -------------------------------------------------------------------------


@frozen
class Game:
    title: str
    description: str
    pos: Pos = NOWHERE


@frozen
class Extends:
    target: str
    pos: Pos = NOWHERE


@frozen
class OptionType:
    kind: str  # bool / int / range / enum
    lo: Optional[Expr] = None
    hi: Optional[Expr] = None
    values: tuple = ()
    pos: Pos = NOWHERE


@frozen
class Option:
    name: str
    type: Optional[OptionType]  # None in a variant that only changes the default
    default: Expr
    doc: str
    pos: Pos = NOWHERE


@frozen
class Check:
    cond: Expr
    message: str
    pos: Pos = NOWHERE


@frozen
class Players:
    names: tuple
    pos: Pos = NOWHERE


@frozen
class Setting:
    name: str
    value: Expr
    pos: Pos = NOWHERE


@frozen
class Board:
    settings: tuple
    pos: Pos = NOWHERE


@frozen
class SurfaceSetting:
    """A line of the `surface` block: `lattice: 1in`, or a measure of each piece, `width(x): ...`."""

    name: str
    param: Optional[str]  # the piece's name in a measure (`x` in `width(x)`), None for `lattice`
    value: Expr
    pos: Pos = NOWHERE


@frozen
class Surface:
    """The open table a game is played on instead of a board."""

    settings: tuple
    pos: Pos = NOWHERE


@frozen
class AttrValue:
    name: str
    number: Optional[int]
    code: Optional[str]
    pos: Pos = NOWHERE


@frozen
class Attribute:
    name: str
    values: tuple  # AttrValue; a single value named ``players`` means "one of the players"
    pos: Pos = NOWHERE


@frozen
class Piece:
    attributes: tuple
    pos: Pos = NOWHERE


@frozen
class Control:
    expr: Expr
    pos: Pos = NOWHERE


@frozen
class Zone:
    name: str
    per_player: bool
    hidden: bool
    pos: Pos = NOWHERE


@frozen
class Counter:
    name: str
    per_player: bool
    init: Expr
    pos: Pos = NOWHERE
    kind: str = "number"  # what it holds: a number, a cell (`counter last: cell = none`), or "set"
    bookkeeping: bool = False  # `bookkeeping`: the rules' own record, not shown to players
    holds: str = ""  # a set's elements (`set visited of cells`)
    cleared: bool = False  # a set `cleared each turn`: emptied when the turn passes to another player


@frozen
class Directions:
    name: str
    expr: Expr
    pos: Pos = NOWHERE


@frozen
class Table:
    name: str
    entries: tuple  # (key expr, value expr) pairs; with columns, (key, value, value, ...)
    override: bool = False
    pos: Pos = NOWHERE
    columns: tuple = ()  # `table deck(colour, target, value):`: a value per column in each entry
    widths: tuple = ()  # how many values each entry gave, as written

    def column(self, name: str) -> "Table":
        """One column as a table of its own, named `deck.colour`."""
        i = self.columns.index(name) + 1
        return Table(f"{self.name}.{name}", tuple((e[0], e[i]) for e in self.entries), self.override, self.pos)


@frozen
class Def:
    name: str
    params: tuple
    body: Expr
    override: bool = False
    pos: Pos = NOWHERE


@frozen
class Procedure:
    """`procedure NAME(params):` a named block of statements, expanded in place where it is
    called on a line of its own (dsl/resolve/procedures.py)."""

    name: str
    params: tuple
    body: tuple
    override: bool = False
    pos: Pos = NOWHERE


@frozen
class WholeTurns:
    """`whole turns, at most N parts [, one per position] [, keeping the most NAME]`: a move is a whole turn."""

    parts: int
    one_per_position: bool = False
    keeping: str = ""  # "parts", a counter's name, or "" (every turn is kept)
    pos: Pos = NOWHERE


@frozen
class Remove:
    kind: str
    name: str
    pos: Pos = NOWHERE


@frozen
class Setup:
    body: tuple
    pos: Pos = NOWHERE


@frozen
class When:
    cond: Expr
    pos: Pos = NOWHERE


@frozen
class Choice:
    name: str
    domain: Expr
    cond: Optional[Expr]
    message: Optional[str] = None
    pos: Pos = NOWHERE


@frozen
class Require:
    cond: Expr
    message: Optional[str]
    pos: Pos = NOWHERE


@frozen
class Effects:
    body: tuple
    pos: Pos = NOWHERE


@frozen
class Otherwise:
    pos: Pos = NOWHERE


@frozen
class Answer:
    """`answer`: the action answers a response window (see dsl/windows.py)."""

    pos: Pos = NOWHERE


@frozen
class ByChance:
    """`by chance`: nature makes this action's moves (see Action.by_chance)."""

    pos: Pos = NOWHERE


@frozen
class Weight:
    """`weight EXPR` in a chance action: how likely each outcome is, relative to the others."""

    value: Expr
    pos: Pos = NOWHERE


@frozen
class SeenBy:
    """`seen by EXPR`: the players (one, or a list) who see what the move is; the others see only
    that a move of this action was made."""

    value: Expr
    pos: Pos = NOWHERE


@frozen
class Priority:
    value: int
    pos: Pos = NOWHERE


@frozen
class Repeat:
    """`repeat VAR = START [while COND] [, may stop]:` a part of a move made once or more, each pass
    from where the last one ended: VAR is START at first, then the value of the block's one choice
    in the pass before. The move goes on while COND holds after a pass and another pass is
    possible; with `may stop`, it may also end after any pass."""

    var: str
    start: Expr
    cond: Optional[Expr]
    items: tuple  # When, Choice, Let, Require, Effects
    may_stop: bool = False
    pos: Pos = NOWHERE

    @property
    def choices(self):
        return tuple(i for i in self.items if isinstance(i, Choice))


def _choices_of(items) -> tuple:
    return tuple(c for i in items for c in ((i,) if isinstance(i, Choice)
                                            else i.choices if isinstance(i, Repeat) else ()))


@frozen
class Action:
    name: str
    fmt: Optional[str]
    items: tuple  # When, Choice, Let, Require, Effects, Repeat, Otherwise, Priority in source order
    override: bool = False
    pos: Pos = NOWHERE

    @property
    def choices(self):
        """Every choice of the action, a repeated part's included."""
        return _choices_of(self.items)

    @property
    def effects(self):
        return tuple(s for i in self.items for e in ((i,) if isinstance(i, Effects) else
                                                     i.items if isinstance(i, Repeat) else ())
                     if isinstance(e, Effects) for s in e.body)

    @property
    def is_fallback(self):
        return any(isinstance(i, Otherwise) for i in self.items)

    @property
    def priority(self):
        return next((i.value for i in self.items if isinstance(i, Priority)), 0)

    @property
    def by_chance(self):
        """Nature's action: where it has moves, the position is a chance node and its moves,
        equally likely, are the only ones."""
        return any(isinstance(i, ByChance) for i in self.items)


@frozen
class After:
    """End-of-turn choices and effects, appended to every action; skipped when it offers no choice."""

    fmt: Optional[str]
    items: tuple
    override: bool = False
    pos: Pos = NOWHERE
    may_decline: bool = False  # `after "...", may decline:`: every move is offered without it too

    @property
    def choices(self):
        return _choices_of(self.items)


@frozen
class End:
    body: tuple
    pos: Pos = NOWHERE


@frozen
class Invariant:
    text: str
    expr: Expr
    pos: Pos = NOWHERE


@frozen
class Statistic:
    """`statistic "text": EXPR`: a number (or a truth, counted as 0 or 1) measured on the last
    position of every game a study plays."""

    text: str
    expr: Expr
    pos: Pos = NOWHERE


@frozen
class Heuristic:
    expr: Expr
    pos: Pos = NOWHERE


@frozen
class Ruleset:
    """One parsed file: its declarations in order, and where it came from."""

    decls: tuple
    path: str = "<rules>"
    source: str = attrs.field(default="", repr=False)
    file: Optional[Reporter] = attrs.field(default=None, eq=False, repr=False)
