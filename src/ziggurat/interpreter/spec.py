"""What a compiled game declares, as plain data: the public description every tool reads.

A `GameSpec` is everything about a game that is not code: its players, options (with their
bounds), piece attributes, zones, counters, actions and their choices, and a few facts the
compiler found (does a move ever create pieces? does the heuristic read `mover`?). The compiler
makes it; it is saved beside the generated module in the cache (as JSON) and read back without
parsing the ruleset again. Tools read a game through `Game` and this spec, never the AST.
"""

from __future__ import annotations

from types import UnionType
from typing import Any, Optional, Union, get_args, get_origin, get_type_hints

from attrs import field, fields as attrs_fields, frozen, has

from ..dsl import types as T


@frozen
class OptionSpec:
    """One option: its kind, bounds and meaning, and how its type and default are written."""

    name: str
    kind: str  # bool / int / range / enum
    doc: str = ""
    low: Optional[int] = None  # a range's bounds, at these option values
    high: Optional[int] = None
    values: tuple[str, ...] = ()  # an enum's values
    type_text: str = ""  # the type as written ("2..5", "one of a, b"); the kind when not shown
    default_text: str = ""  # the default as written in the file ("size == 2")


@frozen
class AttributeSpec:
    """A piece attribute: its values (names), their numbers and their notation codes."""

    name: str
    values: tuple[str, ...]
    numbers: tuple[int, ...]
    codes: tuple[str, ...]
    players: bool = False  # the values are the players (then any neutral values)
    numeric: bool = False  # the values carry numbers (sizes with pips)

    def value_name(self, number: int) -> Optional[str]:
        """The name of the value with this number, or None."""
        return self.values[self.numbers.index(number)] if number in self.numbers else None


PRESENT = "after"
"""The choice that marks a move holding the after part, when the after block makes no choice of
its own but has a condition (interpreter.steps): `after` is a keyword, so no choice of the rules
has this name."""


Choice = tuple[str, Optional[T.Type]]
"""A choice of an action: its name and the type of one value."""

Bound = Optional[tuple[int, int, int]]
"""A number choice's range (lo, a, b): lo <= value <= a * P + b, P the most pieces a position holds
(interpreter.bounds); None when the compiler found no bound."""


@frozen(kw_only=True)
class ActionSpec:
    """An action as moves see it: its notation and its choices, in move order.

    A move of this action is the tuple (index, value of choice 1, value of choice 2, ...). The
    ruleset's `after` block, when there is one, adds its choices after the action's own
    (`nbase` of them); a move whose turn ended without the after part holds None there.
    Made once by `interpreter.steps.lower`, with everything it says, and never changed.
    """

    index: int
    name: str
    fmt: str
    choices: tuple[Choice, ...]
    nbase: int = 0
    after_fmt: Optional[str] = None
    repeated: frozenset[str] = frozenset()  # choices made once per pass of a `repeat`: a tuple in the move
    chance: bool = False  # `by chance`: nature's moves, equally likely unless `weighted`
    weighted: bool = False  # `weight EXPR`: each outcome's likelihood relative to the others
    secret: bool = False  # `seen by EXPR`: only those players see what the move is
    bounds: dict[str, Bound] = field(factory=dict)  # each number choice's range (see `Bound`)

    def choice_types(self) -> dict:
        return dict(self.choices)


@frozen(kw_only=True)
class GameSpec:
    """Everything the runtime and the tools need to know about a compiled game, as data.

    Built by keyword in one expression (`interpreter.compile`) and never changed after; written
    to JSON and read back by one converter (`to_json`, `from_json`) that follows these types."""

    name: str
    title: str
    description: str
    players: tuple[str, ...]
    options: dict[str, Any]  # name -> value (a bool, a number or an enum value's name)
    option_specs: dict[str, OptionSpec]
    attributes: tuple[AttributeSpec, ...]  # in declaration order
    files: int
    ranks: int
    dirsets: tuple[tuple[str, ...], ...]  # direction sets by number (tuples of direction names)
    zones: tuple[tuple[str, bool, bool], ...]  # (name, per_player, hidden)
    counters: tuple[tuple[str, bool, str], ...]  # (name, per_player, kind): kind "int" or "cell"
    actions: tuple[ActionSpec, ...]
    invariant_texts: tuple[str, ...]
    has_heuristic: bool = False
    outcome_reads_moves: bool = True  # the end block reads the moves (`no_moves`): `outcome(st, moves)` needs them
    heuristic_per_mover: bool = False
    changes_pieces: bool = False  # change() turns pieces into others: their number is kept, not their kinds
    creates_pieces: bool = False  # place() in a move: pieces come into play
    hashing: bool = False  # the end block tests repetition: moves keep a position hash
    uses_last: bool = False  # the rules read `last`: states remember the last move
    tables: tuple[str, ...] = ()  # the board tables the module is given when loaded
    sources: tuple[str, ...] = ()  # the rules files, base first
    # (generated line, source index, line, col, end col), where the rules position changes
    linemap: tuple[tuple[int, int, int, int, int], ...] = ()
    statistic_texts: tuple[str, ...] = ()  # the ruleset's `statistic` declarations, in order
    # results in points (`win P by K`, `win by NAME`): "zero-sum" (wins and losses by K only), "general-sum"
    points: Optional[str] = None
    nonnegative: tuple[str, ...] = ()  # the number counters the rules never make negative (nonnegative_counters)
    # the open table: (lattice step, widths, lengths per piece code), or None
    surface: Optional[tuple[int, tuple[int, ...], tuple[int, ...]]] = None
    bookkeeping: tuple[str, ...] = ()  # the counters marked `bookkeeping`: kept in positions, not shown to players
    places: bool = False  # the rules read no geometry of the board: its cells are only places (dsl.places)
    facts: tuple[tuple[str, ...], ...] = ()  # per piece code, what the ruleset's tables of columns say of it
    cards: tuple[int, ...] = ()  # the piece codes those tables list with a row not all 0s: drawn as cards
    # whole turns (interpreter.whole_turns): the most parts of a turn (0: a move is one part), one
    # move per position reached, and where the rules declare it ("file:line:col")
    turn_parts: int = 0
    turn_merged: bool = False
    turn_at: str = ""
    turn_keeping: str = ""  # `keeping the most NAME`: "parts", a counter's name; "": every turn is kept

    # ---- JSON -------------------------------------------------------------------------------

    def to_json(self) -> dict:
        """The spec as JSON data (dicts, lists, strings, numbers): what the cache stores."""
        return _codec(GameSpec)[0](self)

    @classmethod
    def from_json(cls, d: dict) -> "GameSpec":
        """The spec `to_json` wrote; KeyError, TypeError or ValueError if `d` is not one."""
        return _codec(cls)[1](d)


# ---- the converter: JSON data by the fields' types ------------------------------------------------
# A record is written as a dict of its fields, each by its declared type: a tuple and a set as a list
# (a set sorted, so the same spec writes the same text), a dict by its values, None as null, and
# read back by the same types (so a new field needs no code here). This is cattrs's way, written
# out for the few types specs use: importing cattrs would add about a fifth (30 ms of CPU) to the
# time a cached game takes to load, the start of every `ziggurat play`.

_CODECS: dict = {}


def _same(x):
    return x


def _codec(tp) -> tuple:
    """(write, read) for values of the type `tp`, made once per type."""
    found = _CODECS.get(tp)
    if found is None:
        found = _CODECS[tp] = _make_codec(tp)
    return found


def _make_codec(tp) -> tuple:
    if tp in (str, int, bool, float, Any):
        return _same, _same
    if has(tp):
        return _record_codec(tp)
    origin, args = get_origin(tp), get_args(tp)
    if origin in (Union, UnionType) and len(args) == 2 and type(None) in args:  # Optional[X]
        write, read = _codec(next(a for a in args if a is not type(None)))
        return (lambda v: None if v is None else write(v)), (lambda v: None if v is None else read(v))
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:  # tuple[X, ...]
        write, read = _codec(args[0])
        return (lambda v: [write(x) for x in v]), (lambda v: tuple(read(x) for x in _listed(v)))
    if origin is tuple:  # tuple[X, Y, Z]
        codecs = [_codec(a) for a in args]

        def read_fixed(v):
            if len(_listed(v)) != len(codecs):
                raise ValueError(f"{len(v)} values where {tp} has {len(codecs)}")
            return tuple(r(x) for (_, r), x in zip(codecs, v))
        return (lambda v: [w(x) for (w, _), x in zip(codecs, v)]), read_fixed
    if origin is frozenset:
        write, read = _codec(args[0])
        return (lambda v: sorted(write(x) for x in v)), (lambda v: frozenset(read(x) for x in _listed(v)))
    if origin is dict and args[0] is str:
        write, read = _codec(args[1])
        return ((lambda v: {k: write(x) for k, x in v.items()}),
                (lambda v: {str(k): read(x) for k, x in _mapped(v).items()}))
    raise TypeError(f"no JSON form for {tp}")


def _record_codec(cls) -> tuple:
    """An attrs record as a dict of its fields; read back by keyword (every field must be there)."""
    fields: list = []  # (name, write, read), filled at first use: a record may hold itself (T.Type)

    def known() -> list:
        if not fields:
            hints = get_type_hints(cls)
            fields[:] = [(f.name, *_codec(hints[f.name])) for f in attrs_fields(cls)]
        return fields

    def write(v) -> dict:
        return {name: w(getattr(v, name)) for name, w, _ in known()}

    def read(d):
        d = _mapped(d)
        return cls(**{name: r(d[name]) for name, _, r in known()})
    return write, read


def _listed(v) -> list:
    if not isinstance(v, list):
        raise TypeError(f"a list was expected, not {type(v).__name__}")
    return v


def _mapped(v) -> dict:
    if not isinstance(v, dict):
        raise TypeError(f"a dict was expected, not {type(v).__name__}")
    return v
