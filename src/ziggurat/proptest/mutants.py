"""The mutants of a ruleset (`ziggurat test --mutants`): one-place changes to its rules text.

Each mutant is made from the ruleset's parse tree (the Lark tree, which keeps every token's place)
and is one textual change at a known line and column, so a report can show the line, the text
there and what it became. The operators, by `Mutant.operator`:

- `comparison`: a comparison flipped (`<` <-> `<=`, `>` <-> `>=`, `==` <-> `!=`);
- `arithmetic`: `+` <-> `-`, `+=` <-> `-=`;
- `constant`: a whole number plus one, and minus one (never below 0);
- `condition`: a `require` or `when` line dropped, or the `where` of a choice, a `for` or a
  comprehension;
- `effect`: a statement of a `do:` block, an `end:` block or a procedure dropped (with its block);
- `player`: a player's name changed to the next player's, `mine` <-> `theirs`;
- `direction`: a direction to its clockwise neighbour (`n` -> `ne`), `orthogonal` <-> `diagonal`,
  `adjacent` -> `orthogonal`;
- `piece`: a value of a piece attribute (a size, a kind) to the next value of that attribute.

Never mutated: the `example` and `symmetry` blocks (they are the tests), invariants, statistics,
the heuristic, `check` lines, the types of options, the game's title and the player list. A
dropped line keeps its line breaks, so every line after it keeps its number.

`mutants(text)` lists them in file order (deterministic); `pick(all, limit, seed)` takes a seeded
sample, kept in file order.
"""

from __future__ import annotations

import random
from typing import Iterator, Optional

from attrs import frozen
from lark import Token, Tree

from ..dsl.types import BUILTIN_DIRECTIONS
from ..errors import RulesetError

OPERATORS = ("comparison", "arithmetic", "constant", "condition", "effect", "player", "direction", "piece")

FLIPS = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "==", "+": "-", "-": "+",
         "+=": "-=", "-=": "+="}
_CLOCKWISE = list(BUILTIN_DIRECTIONS)  # n ne e se s sw w nw
DIRECTION_NEIGHBOUR = {d: _CLOCKWISE[(i + 1) % len(_CLOCKWISE)] for i, d in enumerate(_CLOCKWISE)}
DIRECTION_NEIGHBOUR.update({"orthogonal": "diagonal", "diagonal": "orthogonal", "adjacent": "orthogonal"})
PLAYER_CALLS = {"mine": "theirs", "theirs": "mine"}

# Declarations whose text is never mutated: the tests themselves, and what is not the game's play.
_SKIPPED = {"example", "symmetry", "invariant", "statistic", "heuristic", "check", "game", "players",
            "extends", "remove"}
# Blocks whose statements are effects.
_EFFECT_BLOCKS = {"effects", "end", "procedure"}
_STATEMENTS = {"if_stmt", "for_stmt", "assign", "augassign", "call_stmt", "win", "lose", "draw", "rank", "let"}


@frozen
class Mutant:
    """One change: `text[start:end]` (the `original` text, at `line`:`col`) becomes `changed`."""

    operator: str
    line: int
    col: int
    start: int
    end: int
    original: str
    changed: str

    @property
    def key(self) -> str:
        """What names this mutant in a journal: where, which operator, and the change."""
        return f"{self.line}:{self.col}:{self.operator}:{self.original}->{self.changed}"

    def apply(self, text: str) -> str:
        """The rules text with this change."""
        return text[:self.start] + self.changed + text[self.end:]

    def shown(self) -> tuple:
        """(original, changed) as one line each, for a table (a dropped line shows as `(dropped)`)."""
        def one(s: str) -> str:
            return " ".join(s.split()) or "(dropped)"
        return one(self.original), one(self.changed)

    def as_json(self) -> dict:
        return {"operator": self.operator, "line": self.line, "col": self.col, "original": self.original,
                "changed": self.changed}


def parse_tree(text: str, path: str = "<rules>") -> Tree:
    """The Lark tree of a rules text (positions kept); RulesetError if it does not parse."""
    from ..dsl.parser import parse, grammar

    if not text.endswith("\n"):
        text += "\n"
    parse(text, path)  # a text that does not parse is said as `check` says it
    return grammar().parse(text)


def mutants(text: str, path: str = "<rules>") -> list:
    """Every mutant of a rules text, in file order (then by operator and change)."""
    tree = parse_tree(text, path)
    maker = _Maker(text, tree)
    out = {m.key: m for m in maker.run()}  # one of each (a token may be reached twice)
    return sorted(out.values(), key=lambda m: (m.start, m.end, OPERATORS.index(m.operator), m.changed))


def pick(found: list, limit: Optional[int], seed: int = 0) -> list:
    """At most `limit` of `found`, a sample drawn with `seed`, in file order (all when no limit)."""
    if limit is None or limit >= len(found):
        return list(found)
    chosen = set(random.Random(seed).sample(range(len(found)), limit))
    return [m for i, m in enumerate(found) if i in chosen]


def _tokens(node) -> Iterator[Token]:
    if isinstance(node, Token):
        yield node
    elif isinstance(node, Tree):
        for c in node.children:
            yield from _tokens(c)


class _Maker:
    def __init__(self, text: str, tree: Tree):
        self.text = text
        self.tree = tree
        self.players: list = []
        self.values: dict = {}  # piece attribute value -> the next value of its attribute
        self.bound: set = set()  # the parameters of the def or procedure being walked
        for decl in tree.children:
            if isinstance(decl, Tree) and decl.data == "players":
                self.players = [str(t) for t in decl.children if isinstance(t, Token)]
            if isinstance(decl, Tree) and decl.data == "piece":
                for attr in decl.children:
                    names = [str(v.children[0]) for v in attr.children[1:] if isinstance(v, Tree)]
                    for i, v in enumerate(names):
                        if len(names) > 1:
                            self.values[v] = names[(i + 1) % len(names)]

    def run(self) -> Iterator[Mutant]:
        for decl in self.tree.children:
            if not isinstance(decl, Tree) or decl.data in _SKIPPED:
                continue
            if decl.data == "option":  # its default, not its type
                yield from self.walk(decl.children[2], effects=False)
                continue
            if decl.data == "piece":  # the numbers of attribute values (`small = 1`)
                for t in _tokens(decl):
                    if t.type == "INT":
                        yield from self.constant(t)
                continue
            # a def's or procedure's parameters are its own names: `s` in `def full(p, s)` is no direction
            self.bound = ({str(t) for t in decl.children[2:] if isinstance(t, Token) and t.type == "NAME"}
                          if decl.data in ("def", "procedure") else set())
            yield from self.walk(decl, effects=decl.data in _EFFECT_BLOCKS)

    def walk(self, node, effects: bool) -> Iterator[Mutant]:
        if isinstance(node, Token):
            yield from self.token(node, None)
            return
        if not isinstance(node, Tree):
            return
        kind = node.data
        if kind in ("require", "when"):
            yield self.drop(node, "condition")
        if kind in ("choice", "for_stmt", "comp_for") and node.children[2] is not None:
            yield self.where(node)
        if kind == "effects":
            effects = True
        if kind == "block" and effects:
            for stmt in node.children:
                if isinstance(stmt, Tree) and stmt.data in _STATEMENTS and stmt.data != "let":
                    yield self.drop(stmt, "effect")
        for c in node.children:
            if isinstance(c, Token):
                yield from self.token(c, node)
            else:
                yield from self.walk(c, effects)

    def token(self, t: Token, parent: Optional[Tree]) -> Iterator[Mutant]:
        kind = parent.data if parent is not None else None
        if t.type in ("COMP_OP", "ADD_OP", "AUG_OP") and str(t) in FLIPS:
            yield self.change(t, "comparison" if t.type == "COMP_OP" else "arithmetic", FLIPS[str(t)])
        elif t.type == "INT" and kind in ("int_lit", "priority", "attr_value"):
            yield from self.constant(t)
        elif t.type == "NAME" and kind == "name" and str(t) not in self.bound:
            name = str(t)
            if name in self.players and len(self.players) > 1:
                yield self.change(t, "player", self.players[(self.players.index(name) + 1) % len(self.players)])
            elif name in DIRECTION_NEIGHBOUR:
                yield self.change(t, "direction", DIRECTION_NEIGHBOUR[name])
            elif name in self.values:
                yield self.change(t, "piece", self.values[name])
        elif (t.type == "NAME" and kind == "call" and parent is not None and parent.children[0] is t
              and str(t) in PLAYER_CALLS):
            yield self.change(t, "player", PLAYER_CALLS[str(t)])

    def constant(self, t: Token) -> Iterator[Mutant]:
        n = int(str(t))
        yield self.change(t, "constant", str(n + 1))
        if n > 0:
            yield self.change(t, "constant", str(n - 1))

    def change(self, t: Token, operator: str, new: str) -> Mutant:
        return Mutant(operator, _n(t.line), _n(t.column), _n(t.start_pos), _n(t.end_pos), str(t), new)

    def drop(self, node: Tree, operator: str) -> Mutant:
        """The statement `node` taken out to the end of its last line (a closing bracket is not in
        the tree), its line breaks kept."""
        start = node.meta.start_pos
        end = self.text.find("\n", max(_n(t.end_pos) for t in _tokens(node)))
        end = len(self.text) if end < 0 else end
        gone = self.text[start:end]
        return Mutant(operator, node.meta.line, node.meta.column, start, end, gone, "\n" * gone.count("\n"))

    def where(self, node: Tree) -> Mutant:
        """The `where` condition of a choice, a `for` or a comprehension taken out (from the end of
        what it filters to the end of the condition)."""
        start, end = _end(node.children[1]), _end(node.children[2])
        gone = self.text[start:end]
        at = self.text.find("where", start)  # the place shown: the keyword
        line = self.text.count("\n", 0, at) + 1
        col = at - self.text.rfind("\n", 0, at)
        return Mutant("condition", line, col, start, end, gone, "\n" * gone.count("\n"))


def _end(node) -> int:
    """Where an expression ends in the text (its closing brackets included)."""
    return _n(node.end_pos) if isinstance(node, Token) else node.meta.end_pos


def _n(x: Optional[int]) -> int:
    """A token's place (Lark types it optional; a parsed token always has it)."""
    return int(x or 0)


__all__ = ["Mutant", "OPERATORS", "RulesetError", "mutants", "parse_tree", "pick"]
