"""What a compiled game declares, as plain data: the public description every tool reads.

A `GameSpec` is everything about a game that is not code: its players, options (with their
bounds), piece attributes, zones, counters, actions and their choices, and a few facts the
compiler found (does a move ever create pieces? does the heuristic read `mover`?). The compiler
makes it; it is saved beside the generated module in the cache (as JSON) and read back without
parsing the ruleset again. Tools read a game through `Game` and this spec, never the AST.
"""

from __future__ import annotations

from typing import Optional

from attrs import asdict, define, field, frozen

from ..dsl import types as T


@frozen
class OptionSpec:
    """One option: its kind, bounds and meaning, and how its type and default are written."""

    name: str
    kind: str  # bool / int / range / enum
    doc: str = ""
    low: Optional[int] = None  # a range's bounds, at these option values
    high: Optional[int] = None
    values: tuple = ()  # an enum's values
    type_text: str = ""  # the type as written ("2..5", "one of a, b"); the kind when not shown
    default_text: str = ""  # the default as written in the file ("size == 2")


@frozen
class AttributeSpec:
    """A piece attribute: its values (names), their numbers and their notation codes."""

    name: str
    values: tuple
    numbers: tuple
    codes: tuple
    players: bool = False  # the values are the players (then any neutral values)
    numeric: bool = False  # the values carry numbers (sizes with pips)

    def value_name(self, number: int) -> Optional[str]:
        """The name of the value with this number, or None."""
        return self.values[self.numbers.index(number)] if number in self.numbers else None


PRESENT = "after"
"""The choice that marks a move holding the after part, when the after block makes no choice of
its own but has a condition (interpreter.steps): `after` is a keyword, so no choice of the rules
has this name."""


@define
class ActionSpec:
    """An action as moves see it: its notation and its choices, in move order.

    A move of this action is the tuple (index, value of choice 1, value of choice 2, ...). The
    ruleset's `after` block, when there is one, adds its choices after the action's own
    (`nbase` of them); a move whose turn ended without the after part holds None there.
    """

    index: int
    name: str
    fmt: str
    choices: list  # [name, Type]
    nbase: int = 0
    after_fmt: Optional[str] = None
    repeated: set = field(factory=set)  # choices made once per pass of a `repeat`: a tuple in the move
    chance: bool = False  # `by chance`: nature's moves, equally likely unless `weighted`
    weighted: bool = False  # `weight EXPR`: each outcome's likelihood relative to the others
    secret: bool = False  # `seen by EXPR`: only those players see what the move is
    # number choice -> (lo, a, b): lo <= its value <= a * P + b, P the most pieces a position holds
    # (interpreter.bounds); None when the compiler found no bound
    bounds: dict = field(factory=dict)

    def choice_types(self) -> dict:
        return dict((n, t) for n, t in self.choices)


@define
class GameSpec:
    """Everything the runtime and the tools need to know about a compiled game, as data."""

    name: str
    title: str
    description: str
    players: tuple
    options: dict  # name -> value
    option_specs: dict  # name -> OptionSpec
    attributes: tuple  # AttributeSpec, in declaration order
    files: int
    ranks: int
    dirsets: tuple  # direction sets by number (tuples of direction names)
    zones: tuple  # (name, per_player, hidden)
    counters: tuple  # (name, per_player, kind): kind "int" or "cell"
    actions: tuple  # ActionSpec
    invariant_texts: tuple
    has_heuristic: bool = False
    heuristic_per_mover: bool = False
    changes_pieces: bool = False  # change() turns pieces into others: their number is kept, not their kinds
    creates_pieces: bool = False  # place() in a move: pieces come into play
    hashing: bool = False  # the end block tests repetition: moves keep a position hash
    uses_last: bool = False  # the rules read `last`: states remember the last move
    tables: tuple = ()  # the board tables the module is given when loaded
    sources: tuple = ()  # the rules files, base first
    linemap: tuple = ()  # (generated line, source index, line, col, end col), where the rules position changes
    statistic_texts: tuple = ()  # the ruleset's `statistic` declarations, in order
    nonnegative: tuple = ()  # the number counters the rules never make negative (nonnegative_counters)
    surface: Optional[tuple] = None  # the open table: (lattice step, widths, lengths per piece code), or None
    bookkeeping: tuple = ()  # the counters marked `bookkeeping`: kept in positions, not shown to players
    places: bool = False  # the rules read no geometry of the board: its cells are only places (dsl.places)
    facts: tuple = ()  # per piece code, what the ruleset's tables of columns say of it ("target 18"), as text
    cards: tuple = ()  # the piece codes those tables list with a row not all 0s: drawn as cards

    # ---- JSON -------------------------------------------------------------------------------

    def to_json(self) -> dict:
        d = {k: getattr(self, k) for k in ("name", "title", "description", "options", "files", "ranks",
                                           "has_heuristic", "heuristic_per_mover", "changes_pieces",
                                           "creates_pieces", "hashing", "uses_last")}
        d["players"] = list(self.players)
        d["option_specs"] = [_plain(asdict(o)) for o in self.option_specs.values()]
        d["attributes"] = [_plain(asdict(a)) for a in self.attributes]
        d["dirsets"] = [list(x) for x in self.dirsets]
        d["zones"] = [list(z) for z in self.zones]
        d["counters"] = [list(c) for c in self.counters]
        d["actions"] = [{"index": a.index, "name": a.name, "fmt": a.fmt, "nbase": a.nbase, "after_fmt": a.after_fmt,
                         "choices": [[n, type_to_json(t)] for n, t in a.choices], "repeated": sorted(a.repeated),
                         "chance": a.chance, "weighted": a.weighted, "secret": a.secret,
                         "bounds": {n: list(b) if b else None for n, b in a.bounds.items()}}
                        for a in self.actions]
        d["invariant_texts"] = list(self.invariant_texts)
        d["tables"] = list(self.tables)
        d["sources"] = list(self.sources)
        d["linemap"] = [list(x) for x in self.linemap]
        d["statistic_texts"] = list(self.statistic_texts)
        d["nonnegative"] = list(self.nonnegative)
        d["surface"] = [self.surface[0], list(self.surface[1]), list(self.surface[2])] if self.surface else None
        d["bookkeeping"] = list(self.bookkeeping)
        d["places"] = self.places
        d["facts"] = [list(f) for f in self.facts]
        d["cards"] = list(self.cards)
        return d

    @classmethod
    def from_json(cls, d: dict) -> "GameSpec":
        return cls(
            d["name"], d["title"], d["description"], tuple(d["players"]), dict(d["options"]),
            {o["name"]: OptionSpec(**{**o, "values": tuple(o["values"])}) for o in d["option_specs"]},
            tuple(AttributeSpec(a["name"], tuple(a["values"]), tuple(a["numbers"]), tuple(a["codes"]),
                                a["players"], a["numeric"]) for a in d["attributes"]),
            d["files"], d["ranks"], tuple(tuple(x) for x in d["dirsets"]), tuple(tuple(z) for z in d["zones"]),
            tuple(tuple(c) for c in d["counters"]),
            tuple(ActionSpec(a["index"], a["name"], a["fmt"], [[n, type_from_json(t)] for n, t in a["choices"]],
                             a["nbase"], a["after_fmt"], set(a["repeated"]), a["chance"],
                             a["weighted"], a["secret"],
                             {n: tuple(b) if b else None for n, b in a.get("bounds", {}).items()})
                  for a in d["actions"]),
            tuple(d["invariant_texts"]), d["has_heuristic"], d["heuristic_per_mover"], d["changes_pieces"],
            d["creates_pieces"], d["hashing"], d["uses_last"], tuple(d["tables"]), tuple(d["sources"]),
            tuple(tuple(x) for x in d["linemap"]), tuple(d.get("statistic_texts", ())),
            tuple(d.get("nonnegative", ())),
            (d["surface"][0], tuple(d["surface"][1]), tuple(d["surface"][2])) if d.get("surface") else None,
            tuple(d.get("bookkeeping", ())), bool(d.get("places", False)),
            tuple(tuple(f) for f in d.get("facts", ())), tuple(d.get("cards", ())))


def _plain(d: dict) -> dict:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in d.items()}


def type_to_json(t: Optional[T.Type]):
    if t is None:
        return None
    return {"name": t.name, "elem": type_to_json(t.elem), "attr": t.attr}


def type_from_json(d) -> Optional[T.Type]:
    if d is None:
        return None
    return T.Type(d["name"], type_from_json(d["elem"]), d["attr"])
