"""The checked plan: a ruleset's rules with every name resolved and every expression typed.

`resolve` (pass 1) turns the model's AST into these nodes; `fold` (pass 2) turns them into the same
nodes at one set of option values, with constants computed and dead branches gone; the compiler
lowers actions to steps and the backends write code from them. The nodes do not depend on option
values until `fold`: an option is an `Opt` node, a board size a `Global`.

Every expression has a `type` (dsl.types) and a `pos` (which carries its file). Names are gone:
a bound name is a `Local` whose `name` is unique in its action or function (a name bound again
inside, or a name bound inside an expanded def, gets a fresh name with a `#`, which no rules name
can contain); an option is an `Opt`; a zone or counter is a `ZoneRef` / `CounterRef`.
"""

from __future__ import annotations

from typing import Iterator, Optional, TypeAlias

import attrs
from attrs import define, field, frozen

from . import types as T
from .ast import NOWHERE, Pos

_pos = attrs.field(default=NOWHERE, eq=False, repr=False)


# ---- expressions ----------------------------------------------------------------------------


@frozen
class Const:
    """A fixed value: a number, a truth value, a string, a player, an attribute value (its number),
    a direction (its index in model.BUILTIN_DIRECTIONS), a direction set (a tuple of direction
    names), a piece (its code), a cell (its index, -1 off the board) or a tuple of such."""

    value: object
    type: T.Type
    pos: Pos = _pos


@frozen
class Opt:
    """The value of an option (fold replaces it with a Const)."""

    name: str
    type: T.Type
    pos: Pos = _pos


@frozen
class Local:
    """A bound name: a choice, a let, a loop variable, a repeat's variable, `top` in `control`."""

    name: str
    type: T.Type
    pos: Pos = _pos
    neutral: bool = False  # a player value that may be a neutral one (`colour: players, green`)


GLOBALS = ("mover", "ply", "cells", "players", "files", "ranks", "no_moves", "last", "placed")


@frozen
class Global:
    """What the game provides: mover, ply, cells, players, files, ranks, no_moves, last."""

    what: str
    type: T.Type
    pos: Pos = _pos


@frozen
class ZoneRef:
    """A zone, or one player's zone of a per-player zone (`prisoners[mover]`)."""

    name: str
    player: Optional[Expr]  # for a per-player zone
    type: T.Type = T.ZONE
    pos: Pos = _pos


@frozen
class CounterRef:
    """A counter's value, or one player's of a per-player counter; for a set of cells, the mark
    (1 or 0) of one cell (`cell`) in it."""

    name: str
    player: Optional[Expr]
    type: T.Type = T.INT
    pos: Pos = _pos
    cell: Optional[Expr] = None  # a set's cell: its slot is the set's first + cell * (players or 1)


@frozen
class Call:
    """A built-in function of the language (see resolve.calls.BUILTINS)."""

    fn: str
    args: tuple[Expr, ...]
    type: T.Type
    pos: Pos = _pos


@frozen
class Attr:
    """A piece's attribute (`top(c).size`) or a cell's `rank` / `file`."""

    obj: Expr
    name: str
    type: T.Type
    pos: Pos = _pos
    neutral: bool = False


@frozen
class Index:
    """A level of a cell's stack (`c[2]`), or a position in a list or zone (`zone[1]`); from 1."""

    obj: Expr
    index: Expr
    type: T.Type
    pos: Pos = _pos
    index_pos: Pos = _pos  # where the index is written (for messages)


@frozen
class TableGet:
    name: str
    key: Expr
    type: T.Type
    pos: Pos = _pos
    key_pos: Pos = _pos  # where the key is written (for messages)


@frozen
class Not:
    operand: Expr
    type: T.Type = T.BOOL
    pos: Pos = _pos


@frozen
class Neg:
    operand: Expr
    type: T.Type = T.INT
    pos: Pos = _pos


@frozen
class Arith:
    op: str  # + - * // %
    left: Expr
    right: Expr
    type: T.Type = T.INT
    pos: Pos = _pos


@frozen
class Compare:
    op: str  # == != < <= > >= in "not in"
    left: Expr
    right: Expr
    type: T.Type = T.BOOL
    pos: Pos = _pos


@frozen
class BoolOp:
    op: str  # and / or
    values: tuple[Expr, ...]
    type: T.Type = T.BOOL
    pos: Pos = _pos


@frozen
class Ternary:
    cond: Expr
    then: Expr
    orelse: Expr
    type: T.Type
    pos: Pos = _pos


@frozen
class Range:
    lo: Expr
    hi: Expr
    type: T.Type = T.list_of(T.INT)
    pos: Pos = _pos


@frozen
class ListLit:
    items: tuple[Expr, ...]
    type: T.Type
    pos: Pos = _pos


@frozen
class CompFor:
    var: str
    iter: Expr
    cond: Optional[Expr]
    pos: Pos = _pos


@frozen
class Comp:
    """`func(elt for var in iter where cond ...)`: sum, count, all, any, min, max, list, product."""

    func: str
    elt: Expr
    fors: tuple[CompFor, ...]
    type: T.Type
    pos: Pos = _pos


@frozen
class PieceLit:
    """`piece(owner, size)`: the piece with these attribute values, in declaration order."""

    parts: tuple[tuple[str, Expr], ...]  # (attribute name, expression) for every attribute
    type: T.Type = T.PIECE
    pos: Pos = _pos


@frozen
class DirUnion:
    """`diagonal + orthogonal`, `ne + nw`: the directions of both, the left's first."""

    left: Expr
    right: Expr
    type: T.Type = T.DIRSET
    pos: Pos = _pos


@frozen
class ListJoin:
    left: Expr
    right: Expr
    type: T.Type
    pos: Pos = _pos


@frozen
class AsDirset:
    """A single direction where a set of directions is wanted."""

    operand: Expr
    type: T.Type = T.DIRSET
    pos: Pos = _pos


Expr: TypeAlias = (Const | Opt | Local | Global | ZoneRef | CounterRef | Call | Attr | Index | TableGet | Not | Neg
                   | Arith | Compare | BoolOp | Ternary | Range | ListLit | Comp | PieceLit | DirUnion | ListJoin
                   | AsDirset)
"""An expression: a node with a `type` and a `pos` (a `CompFor` is part of a `Comp`, not one)."""


# ---- statements -----------------------------------------------------------------------------


@frozen
class Let:
    var: str
    value: Expr
    pos: Pos = _pos


@frozen
class If:
    cond: Expr
    body: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...]
    pos: Pos = _pos


@frozen
class For:
    var: str
    iter: Expr
    cond: Optional[Expr]
    body: tuple[Stmt, ...]
    pos: Pos = _pos


@frozen
class SetCounter:
    target: CounterRef
    op: str  # = += -=
    value: Expr
    pos: Pos = _pos


@frozen
class Effect:
    """A change to the game: move, take, place, remove, put, insert, change, swap_seats,
    extra_turn (arguments typed and in order; see resolve.effects)."""

    fn: str
    args: tuple[Expr, ...]
    pos: Pos = _pos


@frozen
class Outcome:
    kind: str  # win / lose / draw
    who: Optional[Expr]
    reason: Optional[str]
    pos: Pos = _pos
    points: Optional[Expr] = None  # `win P by 2`: what the win (or loss) is worth, an int


@frozen
class RankBy:
    """`rank by a, b`: the game ends; each key is an expression over the player `var`."""

    var: str
    keys: tuple[Expr, ...]
    reason: Optional[str]
    pos: Pos = _pos
    scored: bool = False  # `win by points`: the one key is each player's points, the game's result


Stmt: TypeAlias = Let | If | For | SetCounter | Effect | Outcome | RankBy
"""A statement of a block (setup, a move's `do:`, the end block)."""


def scores_points(end) -> bool:
    """Whether an end block makes points the game's result: some `win P by K`, `lose P by K` or
    `win by points` in it (then every outcome of the game gives each player points)."""
    return any(isinstance(n, Outcome) and n.points is not None or isinstance(n, RankBy) and n.scored
               for n in walk(end or ()))


# ---- the parts of an action -----------------------------------------------------------------


@frozen
class When:
    cond: Expr
    pos: Pos = _pos
    text: str = ""  # the condition as written, for messages


@frozen
class Require:
    cond: Expr
    message: Optional[str]
    pos: Pos = _pos
    text: str = ""


@frozen
class Choice:
    """`name: domain where cond else "message"`: one value of the move, from the domain."""

    name: str  # the choice's name, as the move and its notation know it
    domain: Expr
    cond: Optional[Expr]
    message: Optional[str]
    type: T.Type  # the type of one value (a repeated choice holds a list of them in the move)
    pos: Pos = _pos
    domain_text: str = ""  # the domain and the condition as written, for messages
    cond_text: str = ""


@frozen
class Effects:
    body: tuple[Stmt, ...]
    pos: Pos = _pos


@frozen
class Measure:
    """A value of the move read at the position before it, not part of making it: `weight` (how
    likely a chance outcome is, relative to the others) or `seen` (the players who see the move)."""

    kind: str  # weight / seen
    value: Expr
    pos: Pos = _pos


@frozen
class Repeat:
    """A part made once or more, each pass from where the last ended (see ast.Repeat)."""

    var: str
    start: Expr
    cond: Optional[Expr]
    items: tuple[Item, ...]
    may_stop: bool = False
    pos: Pos = _pos
    previous: Optional[str] = None  # the Local holding `previous(var)`, when the rules ask for it
    cond_text: str = ""
    earlier: tuple[tuple[str, Local], ...] = ()  # (list Local's name, Local): the lists `earlier(x)` the rules ask for

    @property
    def choice(self) -> Optional[Choice]:
        return next((i for i in self.items if isinstance(i, Choice)), None)


Item: TypeAlias = When | Require | Choice | Let | Effects | Measure | Repeat
"""A part of an action, of its after block or of a repeat, in the order written."""


@define
class Action:
    index: int
    name: str
    fmt: str
    items: tuple[Item, ...]  # When, Choice, Let, Require, Effects, Repeat, in the order written
    after_items: Optional[tuple[Item, ...]]  # the after block's items, resolved after this action's, or None
    choices: list  # [name, Type] of every value of a move: the action's own, then the after block's
    repeated: frozenset = frozenset()
    priority: int = 0
    fallback: bool = False  # `otherwise`: only when no other action has a move
    pos: Pos = NOWHERE
    nbase: int = 0  # how many of `choices` are the action's own
    broken: bool = False  # resolve found mistakes in it (reported): its items are those that resolved
    chance: bool = False  # `by chance`: nature's moves, before any other


@define
class After:
    """The end-of-turn part of every action; offered after it, skipped when it offers no choice
    (its items are resolved with each action: `Action.after_items`)."""

    fmt: str
    choices: list
    repeated: frozenset = frozenset()
    pos: Pos = NOWHERE
    may_decline: bool = False  # the move may also end without it, where it offers something


# ---- declarations ---------------------------------------------------------------------------


@frozen
class OptionDecl:
    name: str
    kind: str  # bool / int / range / enum
    default: Optional[Expr]  # None when resolve refused it (reported)
    lo: Optional[Expr] = None
    hi: Optional[Expr] = None
    values: tuple[str, ...] = ()
    doc: str = ""
    pos: Pos = NOWHERE
    type_pos: Optional[Pos] = None
    type: T.Type = T.INT  # the type of its value in expressions


@frozen
class CounterDecl:
    name: str
    per_player: bool
    init: Optional[Expr]  # None when resolve refused it (reported)
    type: T.Type = T.INT  # a number, or a cell (`counter last: cell`)
    pos: Pos = NOWHERE
    bookkeeping: bool = False  # the rules' own record: in positions and records, not shown to players
    holds: str = ""  # "cells" for a set of cells (`set visited of cells`): one 0/1 slot per cell
    cleared: bool = False  # a set `cleared each turn`: emptied when the turn passes to another player


@frozen
class ZoneDecl:
    name: str
    per_player: bool
    hidden: bool = False
    pos: Pos = NOWHERE


@frozen
class TableDecl:
    name: str
    key_type: T.Type
    value_type: T.Type
    entries: tuple[tuple[Expr, Expr], ...]
    pos: Pos = NOWHERE


@frozen
class CheckDecl:
    cond: Expr
    message: str
    pos: Pos = NOWHERE


@frozen
class InvariantDecl:
    text: str
    expr: Expr
    pos: Pos = NOWHERE


@define
class StatisticDecl:
    text: str
    expr: Expr  # a number or a bool
    pos: Pos = NOWHERE


@define
class Plan:
    """A whole ruleset, checked: what each later pass reads instead of the AST."""

    title: str = "Untitled"
    description: str = ""
    players: tuple = ()
    files: tuple = ()  # the paths of the extends chain, base first
    options: dict[str, OptionDecl] = field(factory=dict)  # in declaration order
    checks: list[CheckDecl] = field(factory=list)
    board: dict[str, Expr] = field(factory=dict)  # files / ranks -> expression
    board_pos: Optional[Pos] = None
    # lattice -> expression; width / length -> (Local piece, expression)
    surface: dict[str, Expr | tuple[Local, Expr]] = field(factory=dict)
    surface_pos: Optional[Pos] = None
    attributes: dict = field(factory=dict)  # name -> model.Attribute
    control: Optional[Expr] = None  # expression over Local("top"), or None for the owner
    control_pos: Optional[Pos] = None
    zones: dict[str, ZoneDecl] = field(factory=dict)
    counters: dict[str, CounterDecl] = field(factory=dict)
    tables: dict[str, TableDecl] = field(factory=dict)
    setup: list[tuple[Stmt, ...]] = field(factory=list)  # blocks, run in order
    actions: list[Action] = field(factory=list)
    after: Optional[After] = None
    end: Optional[tuple[Stmt, ...]] = None
    end_pos: Optional[Pos] = None
    invariants: list[InvariantDecl] = field(factory=list)
    statistics: list[StatisticDecl] = field(factory=list)
    heuristic: Optional[Expr] = None
    heuristic_pos: Optional[Pos] = None
    # the parts resolve refused: ("action", name), ("table", name), ...
    broken: set[tuple[str, str]] = field(factory=set)


# ---- walking --------------------------------------------------------------------------------


def children(node: object) -> list[object]:
    """The nodes directly under a node (expressions, statements, items), in field order."""
    out: list[object] = []
    cls = type(node)
    if not attrs.has(cls):
        return out
    for f in attrs.fields(cls):
        if f.name in ("pos", "type"):
            continue
        v = getattr(node, f.name)
        if isinstance(v, (tuple, list)):
            for x in v:
                if isinstance(x, tuple):
                    out.extend(y for y in x if attrs.has(type(y)))
                elif attrs.has(type(x)):
                    out.append(x)
        elif attrs.has(type(v)) and not isinstance(v, Pos):
            out.append(v)
    return out


def walk(node: object) -> Iterator[object]:
    """Every node under `node` (a node, or a tuple or list of them), the node itself first."""
    if isinstance(node, (tuple, list)):
        for x in node:
            yield from walk(x)
        return
    if node is None or not attrs.has(type(node)) or isinstance(node, Pos):
        return
    yield node
    for c in children(node):
        yield from walk(c)
