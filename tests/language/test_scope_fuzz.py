"""Scope fuzzing: every binder of every shipped ruleset renamed to hostile names, same game.

For each shipped ruleset (a variant together with the base it extends), every name a designer
binds is renamed: choices (and their fields in the notation), lets, loop and comprehension
variables, repeat variables, def parameters, and the defs themselves. The new names are chosen
by Hypothesis from names that are legal in the rules but hostile to a compiler: names with
`__`, names like the generated code's own (`st`, `v_x`, `_v1_x`, `_sv_x`, `_0`, `mover_`,
`CTRL`), Python keywords and builtins, and the names of other binders of the ruleset (a loop
variable of one action named like a choice of another, a def's parameter named like the
caller's let). Two binders that are visible at the same place never get the same name (that
would be a hiding error now), and no binder gets the name of anything else the ruleset uses.

The renaming is scope-aware: the ruleset is parsed, a walk that follows the checker's scope
rules finds which binder each name refers to, and the file is rewritten token by token (strings
and comments untouched, except the `{choice}` fields of notations). The renamed ruleset must
check without errors, write its moves alike, and give the same perft counts at small options.
"""

from __future__ import annotations

import bisect
import re
import time
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ziggurat
from ziggurat.dsl import ast
from ziggurat.dsl.checks import check
from ziggurat.dsl.loader import find, shipped_names
from ziggurat.dsl.parser import parse
from ziggurat.interpreter.games import small_options

# ---- tokens ---------------------------------------------------------------------------------------

TOKEN = re.compile(r'(?P<str>"(?:\\.|[^"\\\n])*")|(?P<comment>#[^\n]*)|(?P<name>[A-Za-z_][A-Za-z_0-9]*)|(?P<num>[0-9]+)')


def tokens(text: str) -> list:
    """[(line, col, kind, text)] of names and strings, skipping comments (col from 1, as the parser)."""
    out = []
    for i, line in enumerate(text.split("\n"), 1):
        for m in TOKEN.finditer(line):
            if m.lastgroup in ("name", "str"):
                out.append((i, m.start() + 1, m.lastgroup, m.group()))
    return out


class File:
    """One rules file: its text, tokens, and AST."""

    def __init__(self, key: int, text: str, path: str):
        self.key, self.text = key, text
        self.toks = tokens(text)
        self.keys = [(t[0], t[1]) for t in self.toks]
        self.tree = parse(text, path)

    def find(self, pos, name: str, kind: str = "name"):
        """The first token `name` at or after pos: (line, col)."""
        i = bisect.bisect_left(self.keys, (pos.line, pos.col))
        for t in self.toks[i:]:
            if t[2] == kind and (t[3] == name or kind == "str"):
                return (t[0], t[1])
        raise AssertionError(f"no token {name!r} after {pos}")


# ---- the scope walk -------------------------------------------------------------------------------


class Scopes:
    """Binders (by the file and place of their name), what every name refers to, and which
    binders are visible together (so they need different names)."""

    def __init__(self):
        self.binders: dict = {}  # (file, line, col) -> old name
        self.parent: dict = {}  # union-find: references that must share one new name
        self.refs: dict = {}  # (file, line, col) -> binder key
        self.conflicts: dict = {}  # binder key -> set of binder keys
        self.defs: set = set()  # def names
        self.def_places: list = []  # (file, line, col) of every def name token
        self.formats: list = []  # (file, line, col of the string, {choice name: binder key})

    def root(self, k):
        while self.parent.get(k, k) != k:
            k = self.parent[k]
        return k

    def union(self, a, b):
        a, b = self.root(a), self.root(b)
        if a != b:
            self.parent[b] = a

    # ---- binding

    def bind(self, f: File, node_pos, name: str, scope: dict) -> tuple:
        line, col = f.find(node_pos, name)
        key = (f.key, line, col)
        self.binders[key] = name
        self.parent.setdefault(key, key)
        for other in scope.values():
            if other != key:
                self.conflicts.setdefault(key, set()).add(other)
                self.conflicts.setdefault(other, set()).add(key)
        new = dict(scope)
        new[name] = key
        return key, new

    # ---- expressions

    def expr(self, f: File, e, scope: dict) -> None:
        if e is None:
            return
        if isinstance(e, ast.Name):
            if e.id in scope:
                key = (f.key, e.pos.line, e.pos.col)
                if key in self.refs:
                    self.union(self.refs[key], scope[e.id])  # the after block, walked per action
                else:
                    self.refs[key] = scope[e.id]
            return
        if isinstance(e, ast.Comprehension):
            inner = scope
            for c in e.fors:
                self.expr(f, c.iter, inner)
                _, inner = self.bind(f, c.pos, c.var, inner)
                self.expr(f, c.cond, inner)
            self.expr(f, e.elt, inner)
            return
        if isinstance(e, ast.Call):
            if e.func in self.defs:
                self.def_places.append((f.key,) + f.find(e.pos, e.func))
            for a in e.args:
                self.expr(f, a, scope)
            return
        if isinstance(e, ast.Attr):
            self.expr(f, e.obj, scope)
            return
        for field in e.__attrs_attrs__:
            if field.name == "pos":
                continue
            value = getattr(e, field.name)
            for v in (value if isinstance(value, tuple) else (value,)):
                if hasattr(v, "__attrs_attrs__") and not isinstance(v, ast.Pos):
                    self.expr(f, v, scope)

    # ---- statements

    def block(self, f: File, stmts, scope: dict) -> None:
        for s in stmts:
            scope = self.stmt(f, s, scope)

    def stmt(self, f: File, s, scope: dict) -> dict:
        if isinstance(s, ast.Let):
            self.expr(f, s.value, scope)
            return self.bind(f, s.pos, s.name, scope)[1]
        if isinstance(s, ast.If):
            self.expr(f, s.cond, scope)
            self.block(f, s.body, scope)
            self.block(f, s.orelse, scope)
        elif isinstance(s, ast.For):
            self.expr(f, s.iter, scope)
            _, inner = self.bind(f, s.pos, s.var, scope)
            self.expr(f, s.cond, inner)
            self.block(f, s.body, inner)
        elif isinstance(s, ast.Rank):
            for k in s.keys:
                if k.id in self.defs:
                    self.def_places.append((f.key, k.pos.line, k.pos.col))
        elif isinstance(s, ast.Assign):
            self.expr(f, s.target, scope)
            self.expr(f, s.value, scope)
        elif isinstance(s, ast.ExprStmt):
            self.expr(f, s.expr, scope)
        elif isinstance(s, ast.Outcome):
            self.expr(f, s.who, scope)
            self.expr(f, s.points, scope)  # `win P by EXPR`
        return scope

    # ---- actions

    def items(self, f: File, items, scope: dict, choices: dict) -> dict:
        for it in items:
            if isinstance(it, (ast.When, ast.Require)):
                self.expr(f, it.cond, scope)
            elif isinstance(it, (ast.Weight, ast.SeenBy)):
                self.expr(f, it.value, scope)
            elif isinstance(it, ast.Let):
                scope = self.stmt(f, it, scope)
            elif isinstance(it, ast.Choice):
                self.expr(f, it.domain, scope)
                choices[it.name], scope = self.bind(f, it.pos, it.name, scope)
                self.expr(f, it.cond, scope)
            elif isinstance(it, ast.Effects):
                self.block(f, it.body, scope)
            elif isinstance(it, ast.Repeat):
                self.expr(f, it.start, scope)
                var, inner = self.bind(f, it.pos, it.var, scope)
                inner = self.items(f, it.items, inner, choices)
                self.expr(f, it.cond, inner)
                for c in it.choices:
                    scope = {**scope, c.name: choices[c.name]}
                scope = {**scope, it.var: var}
        return scope

    def notation(self, f: File, node, fmt, choices: dict) -> None:
        if fmt is not None:
            self.formats.append(((f.key,) + f.find(node.pos, "", "str"), dict(choices)))

    def ruleset(self, f: File, after) -> None:
        for d in f.tree.decls:
            if isinstance(d, ast.Def):
                place = f.find(d.pos, d.name)
                self.def_places.append((f.key,) + place)
                scope = {}
                at = ast.Pos(place[0], place[1] + len(d.name))
                for p in d.params:
                    key, scope = self.bind(f, at, p, scope)
                    at = ast.Pos(key[1], key[2] + len(p))
                self.expr(f, d.body, scope)
            elif isinstance(d, ast.Remove) and d.kind == "def":
                self.def_places.append((f.key,) + f.find(ast.Pos(d.pos.line, d.pos.col + len("remove def")), d.name))
            elif isinstance(d, (ast.Setup, ast.End)):
                self.block(f, d.body, {})
            elif isinstance(d, ast.Action):
                choices: dict = {}
                scope = self.items(f, d.items, {}, choices)
                own = dict(choices)
                if after is not None and not d.by_chance:
                    af, a = after
                    after_choices: dict = {}
                    self.items(af, a.items, scope, after_choices)
                    if a.fmt is not None:
                        self.notation(af, a, a.fmt, after_choices)
                if d.fmt is not None:
                    self.notation(f, d, d.fmt, own)
            elif isinstance(d, ast.After):
                pass  # walked with each action
            else:
                for field in d.__attrs_attrs__:
                    value = getattr(d, field.name)
                    for v in (value if isinstance(value, tuple) else (value,)):
                        if hasattr(v, "__attrs_attrs__") and not isinstance(v, ast.Pos):
                            self.expr(f, v, {})
                        elif isinstance(v, tuple):  # table entries, board settings
                            for w in v:
                                if hasattr(w, "__attrs_attrs__"):
                                    self.expr(f, w, {})


# ---- a ruleset and its chain ----------------------------------------------------------------------

WINDOW_NAMES = {"ask_list_", "ask_i_", "ask_j_", "ask_q_", "ask_r_", "asked_players_", "asked", "asker"}
RULES_BUILTINS = {"cells", "players", "mover", "ply", "files", "ranks", "unlimited", "true", "false", "no_moves",
                  "last", "none", "top"}


@lru_cache(maxsize=None)
def chain(name: str) -> tuple:
    """The texts of a shipped ruleset and of what it extends, base first: ((name, text), ...)."""
    text = find(name).read_text(encoding="utf-8")
    m = re.search(r"^extends\s+(\w[\w-]*)\s*$", text, re.M)
    return (chain(m.group(1)) if m else ()) + ((name, text),)


class Analysis:
    def __init__(self, name: str):
        self.names = [n for n, _ in chain(name)]
        self.files = [File(i, t, f"{n}.rules") for i, (n, t) in enumerate(chain(name))]
        s = self.scopes = Scopes()
        for f in self.files:
            s.defs |= {d.name for d in f.tree.decls if isinstance(d, ast.Def)}
        after = None
        for f in self.files:
            a = next((d for d in f.tree.decls if isinstance(d, ast.After)), None)
            after = (f, a) if a is not None else after
        for f in self.files:
            s.ruleset(f, after)
        # Every binder group, in file order; what conflicts with each group.
        groups: dict = {}
        for k in sorted(s.binders):
            groups.setdefault(s.root(k), []).append(k)
        self.groups = list(groups)
        self.old = {g: s.binders[g] for g in self.groups}
        self.conflicts = {g: set() for g in self.groups}
        for k, others in s.conflicts.items():
            for o in others:
                if s.root(k) != s.root(o):
                    self.conflicts[s.root(k)].add(s.root(o))
        used = {(f.key, t[0], t[1]) for f in self.files for t in f.toks if t[2] == "name"}
        special = set(s.binders) | set(s.refs) | set(s.def_places)
        self.globals = {t[3] for f in self.files for t in f.toks
                        if t[2] == "name" and (f.key, t[0], t[1]) not in special} | WINDOW_NAMES | RULES_BUILTINS
        assert used >= special, "a binder or reference that is not a name token"
        self.defs = sorted(s.defs)

    def rewrite(self, new_binder: dict, new_def: dict) -> list:
        """The texts of the chain with binders and defs renamed: [(name, text)]."""
        s = self.scopes
        at: dict = {}
        for k in s.binders:
            at[k] = new_binder[s.root(k)]
        for k, b in s.refs.items():
            at[k] = new_binder[s.root(b)]
        for k in s.def_places:
            f = self.files[k[0]]
            old = next(t[3] for t in f.toks if (t[0], t[1]) == k[1:])
            at[k] = new_def[old]
        fields: dict = {}
        for k, choices in s.formats:
            fields[k] = {old: new_binder[s.root(b)] for old, b in choices.items()}
        out = []
        for f in self.files:
            lines = f.text.split("\n")
            for (line, col, kind, text) in reversed(f.toks):
                key = (f.key, line, col)
                if kind == "name" and key in at:
                    new = at[key]
                elif kind == "str" and key in fields:
                    names = fields[key]
                    new = re.sub(r"\{(\w+)\}", lambda m: "{" + names.get(m.group(1), m.group(1)) + "}", text)
                else:
                    continue
                row = lines[line - 1]
                assert row[col - 1:col - 1 + len(text)] == text
                lines[line - 1] = row[:col - 1] + new + row[col - 1 + len(text):]
            out.append((self.names[f.key], "\n".join(lines)))
        return out


@lru_cache(maxsize=None)
def analysis(name: str) -> Analysis:
    return Analysis(name)


# ---- hostile names --------------------------------------------------------------------------------

CANDIDATES = [
    # with `__`, or shaped like what the compiler derives from a name
    "a__b", "__x", "x__", "__", "___", "c__1", "to__size", "base__size", "from__", "v__x", "_v1__x", "p__owner",
    "v_x", "v_", "_v1_x", "_v2_c", "_v3_to", "_sv_x", "_s", "_t", "_c", "_sa", "_sb", "_e_x", "_a4_size_v_from",
    "_u4_size_v_from", "x_previous", "at_previous", "over_earlier", "_rp",
    # the generated code's own names
    "st", "m", "mover_", "cells_", "log", "nxt", "out", "add", "h", "seen", "zones", "counters", "seats", "rng",
    "moves", "k", "_", "_0", "_1", "_2", "_unit", "_at", "_piece", "_k", "_last", "_a1", "_o1", "_n2", "_r1",
    "_rep1", "_path2", "_mk1", "UNLIMITED", "ALLCELLS", "ALLPLAYERS", "CTRL", "A_size", "T_home", "SUF_size",
    "RAYS", "NEIGH", "LINES", "STEP", "DIST", "FILE", "RANK", "NEXT", "DO", "EXPLAIN", "_ray", "_suffix",
    "_product", "_flanked", "legal", "apply", "undo", "outcome", "do_0", "explain_0", "do_go", "explain_go", "count_",
    # Python keywords and builtins
    "self", "cls", "class", "lambda", "return", "import", "pass", "yield", "None", "True", "False", "is",
    "global", "nonlocal", "del", "try", "except", "finally", "with", "as", "assert", "async", "await",
    "break", "continue", "from", "raise", "print", "len", "range", "tuple", "list", "dict", "set", "sum",
    "min", "max", "any", "all", "abs", "map", "iter", "next", "open", "exec", "eval", "object", "type", "id",
    "hash", "__import__", "__builtins__", "__name__", "__class__", "__dict__",
    # directions and plain names
    "n", "e", "s", "w", "ne", "nw", "se", "sw", "x", "y", "i", "j", "c", "d", "p", "q",
]

PROBE = '''game "probe"
players a, b
board:
    files: 2
    ranks: 2
piece:
    owner: players
def NAME(NAME): NAME + 1
action go "{NAME}":
    NAME: 1..2
    let y = NAME(NAME)
    do:
        for z in cells:
            place(piece(mover), z)
'''


@lru_cache(maxsize=None)
def legal_names() -> tuple:
    """The candidates the rules language takes as names (a choice, a def and its parameter)."""
    out = []
    for name in CANDIDATES:
        errors = [d for d in check("probe.rules", text=PROBE.replace("NAME", name)) if d.severity == "error"]
        # 'NAME' as the def's own parameter hides nothing: the def is a scope of its own
        if not errors:
            out.append(name)
    return tuple(out)


def test_most_hostile_candidates_are_legal_names():
    """The language takes names with `__`, Python's keywords and the compiler's own names."""
    names = legal_names()
    assert {"a__b", "_v1_x", "v_x", "st", "class", "lambda", "self", "_0", "mover_", "CTRL"} <= set(names)
    # The probe refuses what the language refuses: a keyword cannot be a name.
    for word in ("let", "for", "in", "if", "as"):
        assert [d for d in check("probe.rules", text=PROBE.replace("NAME", word)) if d.severity == "error"]


@st.composite
def renamings(draw, a: Analysis):
    pool = [n for n in legal_names() if n not in a.globals]
    olds = sorted({v for v in a.old.values()} - a.globals)
    new: dict = {}
    for g in a.groups:
        taken = {new[o] for o in a.conflicts[g] if o in new}
        # Half the time, the name of a binder of another scope (a loop variable of an earlier
        # `do:` block named like a later choice is where a shared Python name would show).
        again = [n for n in dict.fromkeys(new.values()) if n not in taken]
        fresh = [n for n in dict.fromkeys(pool + olds) if n not in taken]
        new[g] = draw(st.sampled_from(again) | st.sampled_from(fresh) if again else st.sampled_from(fresh))
    defs: dict = {}
    for d in a.defs:
        choices = [n for n in dict.fromkeys(pool + olds) if n not in defs.values()]
        defs[d] = draw(st.sampled_from(choices))
    return new, defs


# ---- the same game --------------------------------------------------------------------------------

RULESETS = shipped_names()
PER_RULESET = max(2, settings.default.max_examples // 15)  # ci: 2, long: 33


@lru_cache(maxsize=None)
def reference(name: str) -> tuple:
    """The options, a perft depth that runs fast, and what the shipped ruleset gives there."""
    options = small_options(name)
    game = ziggurat.load(name, options)
    depth, counts = 0, []
    while depth < 4:
        depth += 1
        t = time.perf_counter()
        counts.append(ziggurat.perft(game.new(), depth))
        if time.perf_counter() - t > 0.02:
            break
    state = game.new()
    return options, depth, tuple(counts), tuple(state.move_text(m) for m in state.moves())


def load_renamed(texts: list, tmp: Path):
    """Write the renamed chain (a variant extends the renamed base, by path), check it, load it."""
    path = None
    for i, (name, text) in enumerate(texts):
        if i:
            text = re.sub(r"^extends\s+\S+\s*$", f'extends "{path.name}"', text, count=1, flags=re.M)
        path = tmp / f"renamed-{name}.rules"
        path.write_text(text, encoding="utf-8")
    errors = [d for d in check(str(path)) if d.severity == "error"]
    assert not errors, "\n".join(d.render() for d in errors) + "\n\n" + texts[-1][1]
    return path


@pytest.mark.parametrize("name", RULESETS)
def test_renamed_binders_give_the_same_game(name, tmp_path_factory):
    a = analysis(name)
    options, depth, counts, texts = reference(name)

    @settings(max_examples=PER_RULESET, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(renamings(a))
    def same_game(renaming):
        new, defs = renaming
        path = load_renamed(a.rewrite(new, defs), tmp_path_factory.mktemp("renamed"))
        game = ziggurat.load(str(path), options)
        state = game.new()
        assert tuple(state.move_text(m) for m in state.moves()) == texts
        assert tuple(ziggurat.perft(game.new(), d) for d in range(1, depth + 1)) == counts

    same_game()


def test_the_renamer_renames_every_binder():
    """An honest renamer: stacktics' binders and defs all change, and the text still checks."""
    a = analysis("stacktics")
    new = {g: f"zz{i}" for i, g in enumerate(a.groups)}
    defs = {d: f"dd{i}" for i, d in enumerate(a.defs)}
    (_, text), = a.rewrite(new, defs)
    for old in ("from", "level", "base", "load", "reach", "to", "pips", "tree", "attacker"):
        assert not re.search(rf"(?<![\w.]){old}(?!\w)", re.sub(r'"[^"\n]*"|#[^\n]*', "", text)), old
    assert '"{zz' in text  # the notation's fields follow their choices
    assert [d.render() for d in check("stacktics.rules", text=text) if d.severity == "error"] == []
