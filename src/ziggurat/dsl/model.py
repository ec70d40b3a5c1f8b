"""The model of a ruleset: its declarations sorted into symbol tables, variants merged.

`build_model` takes the files of a ruleset (a base and the variants that extend it, base first),
applies `override` and `remove`, and checks that every name is declared once and means one thing.
"""

from __future__ import annotations

from typing import Optional

from attrs import define, field

from . import ast, budgets, examples, whole_turns
from . import example_syntax as syntax
from ..errors import Reporter, did_you_mean

PLAYER_VALUES = "players"  # `owner: players` makes an attribute whose values are the players
# `colour: players, green` adds neutral values after the players: their numbers come after the
# players' indices, and a stack they top is controlled by nobody.

# Kept in dsl.types, light for the runtime (dsl.world); read from here too.
from .types import BUILTIN_DIRECTIONS as BUILTIN_DIRECTIONS  # noqa: E402

BUILTIN_DIRSETS = {
    "orthogonal": ("n", "e", "s", "w"),
    "diagonal": ("ne", "se", "sw", "nw"),
    "adjacent": ("n", "ne", "e", "se", "s", "sw", "w", "nw"),
}


@define
class Attribute:
    name: str
    values: list  # names, in order
    numbers: list  # int per value (its number, or its index when the attribute has none)
    codes: list  # notation code per value
    players: bool = False  # the values are the players (then any neutral values)
    numeric: bool = False
    node: Optional[ast.Attribute] = None
    neutral: list = field(factory=list)  # AttrValue: the values after the players, for `players, X`


@define
class Model:
    """Everything a ruleset declares, by kind and name; `owner` maps a node to its Reporter."""

    title: str = "Untitled"
    description: str = ""
    options: dict = field(factory=dict)  # name -> ast.Option (merged: type from base, default from last)
    checks: list = field(factory=list)
    players: list = field(factory=list)
    players_node: Optional[ast.Players] = None
    board: dict = field(factory=dict)  # setting name -> ast.Setting
    board_node: Optional[ast.Board] = None
    surface: dict = field(factory=dict)  # setting name -> ast.SurfaceSetting
    surface_node: Optional[ast.Surface] = None
    piece_node: Optional[ast.Piece] = None  # the last piece block (a variant's adds to the base's)
    attributes: dict = field(factory=dict)  # name -> Attribute
    control: Optional[ast.Control] = None
    zones: dict = field(factory=dict)
    counters: dict = field(factory=dict)
    directions: dict = field(factory=dict)
    tables: dict = field(factory=dict)
    defs: dict = field(factory=dict)
    procedures: dict = field(factory=dict)  # name -> ast.Procedure
    setup: list = field(factory=list)  # ast.Setup blocks, run in order
    actions: dict = field(factory=dict)
    end: Optional[ast.End] = None
    after: Optional[ast.After] = None  # end-of-turn choices and effects
    whole_turns: Optional[ast.WholeTurns] = None  # a move is a player's whole turn (dsl.whole_turns)
    invariants: list = field(factory=list)
    statistics: list = field(factory=list)
    heuristic: Optional[ast.Heuristic] = None
    examples: list = field(factory=list)  # Example, Symmetry (dsl.example_syntax): for `ziggurat test`
    owner: dict = field(factory=dict)  # id(decl) -> Reporter of the file it came from
    files: list = field(factory=list)  # paths, base first
    sources: list = field(factory=list)  # (path, text as read), base first
    warnings: list = field(factory=list)

    def reporter_for(self, decl) -> Reporter:
        return self.owner[id(decl)]

    def value_names(self) -> dict:
        """Attribute value name -> attribute name, for every named value (not the players)."""
        out: dict[str, str] = {}
        for a in self.attributes.values():
            for v in a.values:
                if not (a.players and v in self.players):
                    out.setdefault(v, a.name)
        return out

    def value_owners(self, name: str) -> list:
        """The attributes that have a value called `name` (a players attribute counts only for its
        neutral values: a player's name means the player, whatever attribute holds it)."""
        return [a.name for a in self.attributes.values()
                if name in a.values and not (a.players and name in self.players)]


_KEYED = {
    ast.Table: "tables",
    ast.Def: "defs",
    ast.Procedure: "procedures",
    ast.Action: "actions",
    ast.Zone: "zones",
    ast.Counter: "counters",
    ast.Directions: "directions",
}


def build_model(files) -> tuple[Model, list]:
    """Merge (Ruleset, Reporter) pairs, base first, into a Model; returns (model, reporters)."""
    m = Model()
    reporters = []
    for index, (rules, rep) in enumerate(files):
        reporters.append(rep)
        m.files.append(rules.path)
        variant = index > 0
        for d in rules.decls:
            m.owner[id(d)] = rep
            _add(m, d, rep, variant)
    _finish(m, reporters[0] if reporters else None)
    examples.check(m)
    return m, reporters


def _add(m: Model, d, rep: Reporter, variant: bool) -> None:
    if isinstance(d, ast.Game):
        m.title, m.description = d.title, d.description or m.description
    elif isinstance(d, ast.Extends):
        if not variant and rep is not None:
            pass  # handled by the loader before the model is built
    elif isinstance(d, ast.Option):
        old = m.options.get(d.name)
        if d.type is None:
            if old is None:
                rep.error(d.pos, f"option {d.name!r} changes a default, but no base declares it",
                          hint=did_you_mean(d.name, m.options) or "give it a type: option NAME: TYPE = DEFAULT")
                return
            m.options[d.name] = ast.Option(d.name, old.type, d.default, d.doc or old.doc, d.pos)
            m.owner[id(m.options[d.name])] = rep
        else:
            if old is not None and not variant:
                rep.error(d.pos, f"option {d.name!r} is declared twice",
                          hint=f"the first is on line {old.pos.line}")
                return
            m.options[d.name] = d
    elif isinstance(d, ast.Check):
        m.checks.append(d)
    elif isinstance(d, ast.Players):
        if m.players_node is not None and not variant:
            rep.error(d.pos, "players are declared twice")
        m.players = list(d.names)
        m.players_node = d
        seen = set()
        for n in d.names:
            if n in seen:
                rep.error(d.pos, f"player {n!r} is named twice")
            seen.add(n)
    elif isinstance(d, ast.Board):
        for s in d.settings:
            m.board[s.name] = s
            m.owner[id(s)] = rep
        m.board_node = d
    elif isinstance(d, ast.Surface):
        for s in d.settings:
            m.surface[s.name] = s
            m.owner[id(s)] = rep
        m.surface_node = d
    elif isinstance(d, ast.Piece):
        m.piece_node = d
        for a in d.attributes:
            if a.name in m.attributes and not variant:
                rep.error(a.pos, f"piece attribute {a.name!r} is declared twice")
            m.attributes[a.name] = _attribute(a, rep)
            m.owner[id(a)] = rep
    elif isinstance(d, ast.Control):
        m.control = d
    elif isinstance(d, ast.Setup):
        m.setup = [d] if variant else m.setup + [d]  # a variant's setup replaces the base's
    elif isinstance(d, ast.End):
        m.end = d
    elif isinstance(d, ast.After):
        if m.after is not None and not variant:
            rep.error(d.pos, "a ruleset has one 'after' block", hint=f"the first is on line {m.after.pos.line}")
        if d.fmt:
            _check_format_fields(d, rep)
        m.after = d
    elif isinstance(d, ast.WholeTurns):
        whole_turns.add(m, d, rep, variant)
    elif isinstance(d, ast.Invariant):
        m.invariants.append(d)
    elif isinstance(d, ast.Statistic):
        if any(s.text == d.text for s in m.statistics):
            rep.error(d.pos, f"statistic {d.text!r} is declared twice", hint="give each its own words")
        m.statistics.append(d)
    elif isinstance(d, ast.Heuristic):
        m.heuristic = d
    elif isinstance(d, (syntax.Example, syntax.Symmetry)):
        m.examples.append(d)
    elif isinstance(d, ast.Remove):
        kinds = {"action": "actions", "def": "defs", "procedure": "procedures", "table": "tables", "zone": "zones",
                 "counter": "counters", "directions": "directions"}
        if d.kind == "invariant":
            before = len(m.invariants)
            m.invariants = [i for i in m.invariants if i.text != d.name]
            if len(m.invariants) == before:
                rep.error(d.pos, f"no invariant {d.name!r} to remove")
            return
        if d.kind not in kinds:
            rep.error(d.pos, f"cannot remove a {d.kind!r}", expected="one of " + ", ".join(kinds),
                      hint=did_you_mean(d.kind, kinds))
            return
        table = getattr(m, kinds[d.kind])
        if d.name not in table:
            rep.error(d.pos, f"no {d.kind} {d.name!r} to remove", hint=did_you_mean(d.name, table))
            return
        del table[d.name]
    elif type(d) in _KEYED:
        if isinstance(d, ast.Counter) and d.kind == "set" and d.holds != "cells":
            rep.error(d.pos, f"set {d.name!r} holds cells, not {d.holds!r}",
                      hint=f"write set {d.name} of cells")
        elif isinstance(d, ast.Counter) and d.kind not in ("number", "cell", "set"):
            rep.error(d.pos, f"a counter holds a number or a cell, not {d.kind!r}",
                      hint=f"write counter {d.name}: cell = none, or counter {d.name} = 0")
        if isinstance(d, ast.Action) and d.fmt:
            _check_format_fields(d, rep)
        if isinstance(d, ast.Table):
            _check_table_widths(d, rep)
        if isinstance(d, (ast.Def, ast.Procedure)) and len(set(d.params)) != len(d.params):
            twice = next(p for p in d.params if d.params.count(p) > 1)
            rep.error(d.pos, f"{type(d).__name__.lower()} {d.name!r} names the parameter {twice!r} twice")
        table = getattr(m, _KEYED[type(d)])
        override = getattr(d, "override", False)
        kind = type(d).__name__.lower()
        if d.name in table:
            if not override:
                prev = table[d.name]
                where = m.owner[id(prev)].path
                rep.error(d.pos, f"{kind} {d.name!r} is already declared ({where}:{prev.pos.line})",
                          hint=(f"write 'override {kind} {d.name}' to replace it"
                                if variant and kind in ("action", "def", "procedure", "table")
                                else "give it another name"))
                return
        elif override:
            rep.error(d.pos, f"'override' needs {_a(kind)} {d.name!r} in the base to replace",
                      hint=did_you_mean(d.name, table))
        table[d.name] = d


def _check_table_widths(d: ast.Table, rep: Reporter) -> None:
    """An entry gives one value, or one per column of a table with columns."""
    want = len(d.columns) or 1
    if len(set(d.columns)) != len(d.columns):
        twice = next(c for c in d.columns if d.columns.count(c) > 1)
        rep.error(d.pos, f"table {d.name!r} names the column {twice!r} twice")
    for entry, width in zip(d.entries, d.widths):
        if width != want:
            cols = ", ".join(d.columns)
            rep.error(entry[0].pos, f"this entry of table {d.name!r} gives {width} value{'s' * (width != 1)}, "
                                    f"not {want}",
                      hint=f"one value for each column: KEY: {cols}" if d.columns else
                      f"a table with several values per key names its columns: table {d.name}(a, b):")


def _check_format_fields(d: ast.Action | ast.After, rep: Reporter) -> None:
    """A notation field is a bare choice name: '{from}', never '{from!r}' or '{from:>3}'."""
    import string

    try:
        fields = [(f, spec, conv) for _, f, spec, conv in string.Formatter().parse(d.fmt or "") if f is not None]
    except ValueError:
        return  # malformed: the compiler names the problem
    for f, spec, conv in fields:
        if spec or conv:
            written = "{" + f + (f"!{conv}" if conv else "") + (f":{spec}" if spec else "") + "}"
            what = f"action {d.name!r}" if isinstance(d, ast.Action) else "the after block"
            rep.error(d.pos, f"the notation of {what} writes {written!r}, but a field is just "
                      "the name of a choice", hint=f"write {{{f}}}")


def _a(noun: str) -> str:
    """'a def', 'an option': the noun with its indefinite article."""
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


def _attribute(a: ast.Attribute, rep: Reporter) -> Attribute:
    if any(v.name == PLAYER_VALUES and v.number is None for v in a.values):
        if a.values[0].name != PLAYER_VALUES:
            rep.error(a.pos, f"in {a.name!r}, 'players' comes first: the neutral values follow it",
                      hint=f"write {a.name}: players, "
                      + ", ".join(v.name for v in a.values if v.name != PLAYER_VALUES))
        neutral = [v for v in a.values if v.name != PLAYER_VALUES]
        if any(v.number is not None for v in neutral):
            rep.error(a.pos, f"the neutral values of {a.name!r} cannot have numbers",
                      hint="their numbers follow the players' own")
        return Attribute(a.name, [], [], [], players=True, node=a, neutral=neutral)
    names = [v.name for v in a.values]
    numeric = all(v.number is not None for v in a.values)
    if not numeric and any(v.number is not None for v in a.values):
        rep.error(a.pos, f"give every value of {a.name!r} a number, or none",
                  hint="numbers make values comparable, like sizes with pips")
    numbers = [v.number for v in a.values] if numeric else list(range(len(names)))
    if len(set(names)) != len(names):
        rep.error(a.pos, f"attribute {a.name!r} names a value twice")
    if numeric and len(set(numbers)) != len(numbers):
        rep.error(a.pos, f"two values of {a.name!r} have the same number")
    codes = []
    for v, num in zip(a.values, numbers):
        if v.code is not None:
            codes.append(v.code)
        elif numeric and len({len(str(n)) for n in numbers}) == 1:
            codes.append(str(num))
        else:
            codes.append(v.name[0])
    if len(set(codes)) != len(codes):
        rep.error(a.pos, f"two values of {a.name!r} print the same in positions: {codes}",
                  hint='give one a code of its own: value as "x"')
    if len({len(c) for c in codes}) > 1:
        rep.error(a.pos, f"the codes of {a.name!r} must all have the same length: {codes}")
    if any(not c or not c.isalnum() for c in codes):
        rep.error(a.pos, f"the codes of {a.name!r} must be letters or digits: {codes}")
    return Attribute(a.name, names, numbers, codes, False, numeric, a)


def _player_values(m: Model, a: Attribute) -> None:
    """The values of a players attribute: the players, then its neutral values, with codes that
    differ (first letters, else two letters; a neutral value's own code is kept)."""
    names = list(m.players) + [v.name for v in a.neutral]
    given = [None] * len(m.players) + [v.code for v in a.neutral]
    a.values = names
    a.numbers = list(range(len(names)))
    a.codes = [g or n[0].upper() for n, g in zip(names, given)]
    if len(set(a.codes)) != len(a.codes):
        a.codes = [g or n[:2].capitalize() for n, g in zip(names, given)]
    rep = m.owner.get(id(a.node))
    if rep is None or a.node is None:
        return
    neutral = [v.name for v in a.neutral]
    clash = [n for n in neutral if n in m.players]
    if clash:
        rep.error(a.node.pos, f"{clash[0]!r} is a player, so it cannot also be a neutral value of {a.name!r}")
    elif len(set(neutral)) != len(neutral):
        rep.error(a.node.pos, f"attribute {a.name!r} names a value twice")
    elif len(set(names)) != len(names):
        return  # players named twice: reported with the players
    elif len(set(a.codes)) != len(a.codes):
        rep.error(a.node.pos, f"two values of {a.name!r} print the same in positions: {a.codes}",
                  hint='give the neutral value a code of its own: value as "x"')
    elif len({len(c) for c in a.codes}) > 1:
        rep.error(a.node.pos, f"the codes of {a.name!r} must all have the same length: {a.codes}")


def _finish(m: Model, rep: Optional[Reporter]) -> None:
    if rep is None:
        return
    if not m.players:
        rep.error(ast.Pos(1, 1), "the ruleset declares no players", hint="add a line: players south, north")
    if not m.actions:
        rep.error(ast.Pos(1, 1), "the ruleset declares no action, so nobody can ever move",
                  hint='add one: action move "{from}-{to}": ...')
    for a in m.attributes.values():
        if a.players:
            _player_values(m, a)
    whole_turns.check(m)
    # One meaning per name across kinds.
    seen: dict[str, tuple[str, object]] = {}
    def claim(name, kind, node):
        if name in seen and seen[name][0] != kind:
            other_kind, other = seen[name]
            m.owner[id(node)].error(node.pos, f"{name!r} is both {_a(other_kind)} and {_a(kind)}",
                                    hint="rename one of them")
        seen.setdefault(name, (kind, node))
    # Single-letter direction names stay usable as option names (a ruling's `n`); the docs say an
    # option then hides that direction in expressions.
    reserved = set(BUILTIN_DIRSETS) | {
        "cells", "players", "mover", "ply", "files", "ranks", "unlimited", "true", "false", "no_moves", "top",
        "last", "none", "placed"}
    for kind, table in (("option", m.options), ("def", m.defs), ("table", m.tables), ("zone", m.zones),
                        ("counter", m.counters), ("direction set", m.directions)):
        for name, node in table.items():
            if name in reserved and not (kind == "option" and name == "players"):  # the seats
                m.owner[id(node)].error(node.pos, f"the {kind} {name!r} would hide the built-in name {name!r}",
                                        hint="give it another name")
    for o in m.options.values():
        claim(o.name, "option", o)
    for t in m.tables.values():
        claim(t.name, "table", t)
    for d in m.defs.values():
        claim(d.name, "def", d)
    for d in m.procedures.values():
        claim(d.name, "procedure", d)
    for z in m.zones.values():
        claim(z.name, "zone", z)
    for c in m.counters.values():
        claim(c.name, "counter", c)
    for d in m.directions.values():
        claim(d.name, "direction set", d)


def check_budgets(m: Model, reporters: list) -> None:
    """The limits of dsl.budgets that the model can tell: kinds of piece, actions, and how deeply
    the code written for an action or a block would nest. Reported at the declaration."""
    if not reporters:
        return
    first = reporters[0]

    def rep(node) -> Reporter:
        return m.owner.get(id(node), first)

    kinds = 1
    for a in m.attributes.values():
        kinds *= max(1, len(a.values))
    if m.piece_node is not None and kinds > budgets.MAX_PIECE_KINDS:
        sizes = " x ".join(f"{len(a.values)} {a.name}" for a in m.attributes.values())
        rep(m.piece_node).error(m.piece_node.pos, f"the piece block makes {kinds:,} kinds of piece ({sizes}), "
                                                  f"and a ruleset has at most {budgets.MAX_PIECE_KINDS:,}",
                                hint="fewer attributes or fewer values; a count is better kept in a counter")
    actions = list(m.actions.values())
    if len(actions) > budgets.MAX_ACTIONS:
        extra = actions[budgets.MAX_ACTIONS]
        rep(extra).error(extra.pos, f"the ruleset declares {len(actions):,} actions, and a ruleset has at most "
                                    f"{budgets.MAX_ACTIONS}",
                                    hint="one action with a choice can make many kinds of move")
        return
    after = list(m.after.items) if m.after is not None else []
    for a in actions:
        items = list(a.items) + ([] if a.by_chance else after)
        node, levels, loops = budgets.items_too_deep(items, procedures=m.procedures)
        if node is not None:
            rep(node).error(node.pos, budgets.too_deep_message(f"action {a.name!r}", levels, loops),
                            hint="fewer choices or conditions nested in one action: split it in two actions, "
                                 "or test several things in one 'require'")
    blocks = [("the setup", s.body) for s in m.setup] + ([("the end block", m.end.body)] if m.end else [])
    for what, body in blocks:
        found = budgets.statements_too_deep(body, procedures=m.procedures)
        if found is not None:
            node, levels, loops = found
            rep(node).error(node.pos, budgets.too_deep_message(what, levels, loops),
                            hint="fewer ifs and loops inside one another: a def or a comprehension can say part of it")
