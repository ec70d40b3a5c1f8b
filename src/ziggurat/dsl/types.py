"""The types of the rules language. Every expression has one; checks compare them."""

from __future__ import annotations

from typing import Optional

from attrs import frozen


@frozen
class Type:
    name: str
    elem: Optional["Type"] = None  # for list types
    attr: Optional[str] = None  # for attribute value types

    def __str__(self) -> str:
        if self.name == "list":
            return "list" if self.elem is None or self.elem.name == "anything" else f"list of {self.elem.plural()}"
        if self.name == "enum":
            return f"{self.attr} value"
        return "number" if self.name == "int" else self.name

    def plural(self) -> str:
        """The name of several values of this type, for messages ('numbers', 'lists of cells')."""
        if self.name == "list":
            return "lists" if self.elem is None or self.elem.name == "anything" else f"lists of {self.elem.plural()}"
        return {"anything": "anything"}.get(self.name, str(self) + "s")


INT = Type("int")
BOOL = Type("bool")
STR = Type("string")
CELL = Type("cell")
PIECE = Type("piece")
PLAYER = Type("player")
DIR = Type("direction")
DIRSET = Type("direction set")
ZONE = Type("zone")
NONE = Type("none")
SPOT = Type("spot")  # a place on the open table: a footprint's centre and a pose
ANY = Type("anything")  # an empty list's element, or an unknown after an error


def list_of(t: Type) -> Type:
    return Type("list", elem=t)


def enum(attr: str) -> Type:
    return Type("enum", attr=attr)


STACK = list_of(PIECE)


def is_list(t: Type) -> bool:
    return t.name == "list"


def element(t: Type) -> Optional[Type]:
    """What iterating over a value of type t yields, or None if it cannot be iterated."""
    if t.name == "list":
        return t.elem
    if t == ZONE:
        return PIECE
    if t == DIRSET:
        return DIR
    if t == ANY:  # unknown (after a reported mistake): anything goes, so that nothing cascades
        return ANY
    return None


def a(t: Type) -> str:
    """The type's name with its article, for messages: 'a cell', 'an owner value'."""
    text = str(t)
    return ("an " if text[:1] in "aeiou" else "a ") + text


# The eight directions of a grid, as (files, ranks) steps: `n` towards higher ranks, `e` towards
# later files. Here, in the lightest module of the language, so the runtime reads them without it.
BUILTIN_DIRECTIONS = {
    "n": (0, 1), "ne": (1, 1), "e": (1, 0), "se": (1, -1),
    "s": (0, -1), "sw": (-1, -1), "w": (-1, 0), "nw": (-1, 1),
}

# The counters the engine gives a ruleset that opens response windows (dsl.windows): who is asked,
# in order, and who asked.
WINDOW_COUNTERS = ("asked", "asker")
