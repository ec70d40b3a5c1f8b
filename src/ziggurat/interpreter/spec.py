"""What a compiled game declares, as plain data: the public description every tool reads.

A `GameSpec` is everything about a game that is not code: its players, options (with their
bounds), piece attributes, zones, counters, actions and their choices, and a few facts the
compiler found (does a move ever create pieces? does the heuristic read `mover`?). It is made by
the compiler, saved beside the generated module in the cache (as JSON), and read back without
parsing the ruleset again. Tools (agents, simulate, census, render, records, proptest) read a
game through `Game` and this spec, never through the ruleset's AST.
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

    def choice_types(self) -> dict:
        return dict((n, t) for n, t in self.choices)


def type_to_json(t: Optional[T.Type]):
    if t is None:
        return None
    return {"name": t.name, "elem": type_to_json(t.elem), "attr": t.attr}


def type_from_json(d) -> Optional[T.Type]:
    if d is None:
        return None
    return T.Type(d["name"], type_from_json(d["elem"]), d["attr"])


def option_to_json(o: OptionSpec) -> dict:
    d = asdict(o)
    d["values"] = list(o.values)
    return d


def attribute_to_json(a: AttributeSpec) -> dict:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(a).items()}
