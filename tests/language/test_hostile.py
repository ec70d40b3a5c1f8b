"""Hostile rulesets: no raw ruleset text ever becomes executable Python.

A ruleset is compiled to Python source, so its names and strings must never be pasted into the
code as they are. These tests write games whose names are Python builtins and the compiler's own
locals (`st`, `cells`, `log`, ...) and whose strings are code-injection payloads, and check that
each is either refused by `check` or compiled into a game that runs without executing anything:
every DSL name appears only as a `v_`/`T_` identifier (an action's, in its functions' names:
`do_X`, `explain_X`), and every string only inside a string literal of the generated source.
"""

import ast
import io
import os
import re
import subprocess
import tokenize
from string import Template

import pytest

import ziggurat
from ziggurat.dsl.checks import check

# A small game using every place a designer's name can go: option, flag, zone, counter, table,
# def and its parameter, a loop variable, an action, two choices and a let.
GAME = Template('''\
game $TITLE $DESC
option $OPT: 1..3 = 2 $DOC
option $FLAG: bool = true
players south, north
board:
    files: 3
    ranks: 3
piece:
    owner: players
    size: small = 1, large = 2
zone $ZONE per player
counter $COUNTER = 0
table $TABLE:
    small: 1
    large: 2
def $DEF($PARAM): $TABLE[$PARAM.size] + $OPT
setup:
    for $LOOP in cells where $LOOP.rank == 1:
        place(piece(south, large), $LOOP)
    for $LOOP in cells where $LOOP.rank == 3:
        place(piece(north, small), $LOOP)
action $ACTION "{$CHOICE}$SEP{$CHOICE2}":
    when $FLAG
    $CHOICE: cells where mine($CHOICE)
    let $LET = $DEF(top($CHOICE))
    $CHOICE2: neighbours($CHOICE, adjacent) where empty($CHOICE2) or theirs($CHOICE2) else $MSG
    require $LET >= 3 or not theirs($CHOICE2) else $MSG2
    do:
        if theirs($CHOICE2):
            take($CHOICE2, $ZONE[mover])
        move($CHOICE, 1, $CHOICE2)
        $COUNTER += 1
end:
    for $LOOP in players:
        if count($ZONE[$LOOP]) >= 2:
            win $LOOP $REASON
    if no_moves:
        lose mover $REASON2
invariant $INV:
    $COUNTER >= 0
''')

NAME_SLOTS = ["OPT", "FLAG", "ZONE", "COUNTER", "TABLE", "DEF", "PARAM", "LOOP", "ACTION", "CHOICE",
              "CHOICE2", "LET"]
STRING_SLOTS = ["TITLE", "DESC", "DOC", "MSG", "MSG2", "REASON", "REASON2", "INV"]
NEUTRAL_NAMES = {slot: f"q{i}" for i, slot in enumerate(NAME_SLOTS)}
NEUTRAL_STRINGS = {slot: f'"text {i}"' for i, slot in enumerate(STRING_SLOTS)}

# Names a ruleset may legally use that are Python builtins or the generated module's own locals.
HOSTILE_NAMES = {
    "python builtins": dict(OPT="__import__", FLAG="exec", ZONE="sys", COUNTER="__builtins__",
                            TABLE="os", DEF="eval", PARAM="__class__", LOOP="open", ACTION="compile",
                            CHOICE="getattr", CHOICE2="globals", LET="__dict__"),
    "generated locals": dict(OPT="zones", FLAG="counters", ZONE="nxt", COUNTER="seen", TABLE="h",
                             DEF="log", PARAM="st", LOOP="add", ACTION="legal", CHOICE="cells",
                             CHOICE2="out", LET="m"),
    "more locals": dict(OPT="seats", FLAG="rng", ZONE="bad", COUNTER="moves", TABLE="lst",
                        DEF="apply", PARAM="i", LOOP="mover", ACTION="undo", CHOICE="st",
                        CHOICE2="log", LET="h"),
    "engine globals": dict(OPT="NCELLS", FLAG="ALLCELLS", ZONE="CTRL", COUNTER="RANK", TABLE="_ray",
                           DEF="DO", PARAM="A_size", LOOP="NEXT", ACTION="EXPLAIN", CHOICE="RAYS",
                           CHOICE2="SIDEKEY", LET="v_q9"),
}


def dsl_string(text: str) -> str:
    """A rules-language string literal whose value is text."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def ruleset(names=None, strings=None, sep="-") -> str:
    return GAME.substitute({**NEUTRAL_NAMES, **(names or {}), **NEUTRAL_STRINGS, **(strings or {}), "SEP": sep})


@pytest.fixture
def no_shell(monkeypatch):
    """Fail the test if anything runs a shell command while the game is compiled or played."""
    def refuse(*args, **kwargs):
        raise AssertionError(f"a ruleset ran a command: {args!r}")
    monkeypatch.setattr(os, "system", refuse)
    monkeypatch.setattr(os, "popen", refuse)
    monkeypatch.setattr(subprocess, "Popen", refuse)


def load_and_play(text: str, path: str = "hostile.rules"):
    """Load the ruleset, count perft 2, and check the notation of the first moves round-trips."""
    game = ziggurat.load(path, text=text)
    state = game.new()
    assert ziggurat.perft(state, 2) > 0
    for move in state.moves():
        assert state.parse_move(state.move_text(move)) == move
    return game


# How the compiler derives Python identifiers from a DSL name X: v_X, T_X (a table), and locals
# built on them such as _sv_X (X's stack) or v_X__size (an attribute of X, cached); an action's
# functions are do_X, explain_X (weight_X, seen_X).
def derived_from(identifier: str, names) -> bool:
    """Whether identifier is one the compiler derives from one of the DSL names."""
    return any(re.fullmatch(r"(?:(?:_[a-z]*)?(?:v|T)_" + re.escape(n) + r"(?:__[a-z][a-z0-9_]*)?"
                            r"|(?:do|explain|weight|seen)_" + re.escape(n) + ")", identifier)
               for n in names)


# Geometry tables the compiler emits when the code seems to need them (so a game may have
# some the neutral game lacks): engine names, not the designer's.
WORLD_CONSTANTS = {"RANK", "FILE", "CORNER", "EDGE", "RAYS", "RAYSTO", "NEIGH", "LINES", "STEP", "DIST"}


def identifiers(tree) -> set:
    out = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Name):
            out.add(n.id)
        elif isinstance(n, ast.arg):
            out.add(n.arg)
        elif isinstance(n, (ast.FunctionDef, ast.ClassDef)):
            out.add(n.name)
        elif isinstance(n, ast.Attribute):
            out.add(n.attr)
    return out


class TestHostileNames:
    def test_neutral_game_runs(self, no_shell):
        """The template itself (plain names, plain strings) is a clean, playable game."""
        text = ruleset()
        assert [d.render() for d in check("neutral.rules", text=text) if d.severity == "error"] == []
        load_and_play(text, "neutral.rules")

    @pytest.mark.parametrize("kind", list(HOSTILE_NAMES))
    def test_hostile_names_play_like_plain_names(self, kind, no_shell):
        """Builtins and generated locals as DSL names give the same game as plain names."""
        names = HOSTILE_NAMES[kind]
        text = ruleset(names)
        assert [d.render() for d in check("hostile.rules", text=text) if d.severity == "error"] == []
        hostile = load_and_play(text).new()
        neutral = ziggurat.load("neutral.rules", text=ruleset()).new()
        assert ziggurat.perft(hostile, 3) == ziggurat.perft(neutral, 3)
        for _ in range(6):
            assert hostile.moves() == neutral.moves()
            assert (hostile.cells, hostile.zones, hostile.side) == (neutral.cells, neutral.zones, neutral.side)
            if not hostile.moves():
                break
            hostile.push(hostile.moves()[-1])
            neutral.push(neutral.moves()[-1])
        assert hostile.counters == neutral.counters

    @pytest.mark.parametrize("kind", list(HOSTILE_NAMES))
    def test_hostile_names_appear_only_prefixed(self, kind, no_shell):
        """A DSL name shows up in the generated code only as v_NAME or T_NAME (an action's as
        do_NAME, explain_NAME), never bare."""
        names = HOSTILE_NAMES[kind]
        hostile = ziggurat.load("hostile.rules", text=ruleset(names))
        neutral = ziggurat.load("hostile.rules", text=ruleset())
        engine = identifiers(ast.parse(neutral.source)) | WORLD_CONSTANTS
        for name in names.values():
            bare = name in identifiers(ast.parse(hostile.source))
            assert not bare or name in engine, f"{name!r} is used bare in the generated code"
        found = identifiers(ast.parse(hostile.source)) - engine
        assert [x for x in found if not derived_from(x, names.values())] == []

    def test_choice_named_cells_shadows_only_inside_its_action(self, no_shell):
        """A choice named 'cells' is the chosen cell in its action, and 'cells' is still every cell elsewhere."""
        game = load_and_play(ruleset({"CHOICE": "cells", "LOOP": "c"}))
        state = game.new()
        froms = {game.world.cell_name(m[1]) for m in state.moves()}
        assert froms == {"a1", "b1", "c1"}


# Payloads that would run code if pasted into Python as they are; each touches the marker file.
def payloads(marker: str) -> list:
    return [
        f'"); import os; os.system("touch {marker}") #',
        f"'); import os; os.system('touch {marker}') #",
        f"{{__import__('os').system('touch {marker}')}}",
        f'""" + __import__("os").system("touch {marker}") + """',
        f"''' + __import__('os').system('touch {marker}') + '''",
        f"\\\" + exec('open({marker!r}, \"w\")') + \\\"",
        f"line one\nimport os; os.system('touch {marker}')",
        f"{marker} ends in a backslash \\",
        f"%(x)s %s {{0}} {{from!r}} {marker}",
    ]


class TestHostileStrings:
    @pytest.mark.parametrize("index", range(9))
    def test_payload_strings_stay_strings(self, tmp_path, no_shell, index):
        """Injection payloads in every string slot compile to string literals and never run."""
        marker = str(tmp_path / "PWNED")
        payload = payloads(marker)[index]
        strings = {slot: dsl_string(payload + f" [{slot}]") for slot in STRING_SLOTS}
        text = ruleset(strings=strings)
        errors = [d for d in check("hostile.rules", text=text) if d.severity == "error"]
        assert errors == [], errors[0].render() if errors else ""
        game = load_and_play(text)
        assert not os.path.exists(marker)
        # The marker text is inside string tokens only: never in code or comments.
        for tok in tokenize.generate_tokens(io.StringIO(game.source).readline):
            if marker in tok.string:
                assert tok.type == tokenize.STRING, (tok, game.source)
        constants = {n.value for n in ast.walk(ast.parse(game.source))
                     if isinstance(n, ast.Constant) and isinstance(n.value, str)}
        for slot in ("MSG", "MSG2", "REASON", "REASON2"):
            assert payload + f" [{slot}]" in constants
        assert not any(isinstance(n, (ast.Import, ast.ImportFrom)) for n in ast.walk(ast.parse(game.source)))
        assert game.title == payload + " [TITLE]"
        assert game.invariant_texts == [payload + " [INV]"]

    @pytest.mark.parametrize("index", range(9))
    def test_payload_in_a_file_name(self, tmp_path, no_shell, index):
        """A ruleset file whose name is a payload compiles without running it (the name is repr'd)."""
        marker = str(tmp_path / "PWNED")
        name = re.sub(r"[/\x00]", "_", payloads(marker)[index].replace(marker, "MARK"))[:80]
        path = tmp_path / (name + ".rules")
        try:
            path.write_text(ruleset())
        except OSError:
            pytest.skip("the file system refuses this name")
        game = load_and_play(path.read_text(), str(path))
        assert not os.path.exists(marker)
        for tok in tokenize.generate_tokens(io.StringIO(game.source).readline):
            assert "MARK" not in tok.string or tok.type in (tokenize.STRING, tokenize.COMMENT)
        ast.parse(game.source)


class TestHostileNotation:
    @pytest.mark.parametrize("sep", [
        "{__import__('os')}", "{from.__class__}", "{0}", "{}", "{q9!r}", "{q9:>9}", "{q9.__class__}",
        "{q9[0]}", "{q9:{q9}}", "}", "{",
    ])
    def test_fields_that_are_not_plain_choices_are_refused(self, sep, no_shell):
        """Notation fields with code, conversions, format specs or stray braces are check errors."""
        text = ruleset(sep=sep)
        errors = [d for d in check("hostile.rules", text=text) if d.severity == "error"]
        assert errors, f"notation {sep!r} was accepted"
        assert all("notation of action" in d.message for d in errors)
        assert errors[0].line == text.splitlines().index(next(l for l in text.splitlines() if l.startswith("action"))) + 1
        with pytest.raises(ziggurat.RulesetError):
            ziggurat.load("hostile.rules", text=text)

    @pytest.mark.parametrize("sep", ["{{x}}", '\\"', "\\\\", "'", " to ", "%s", "{{q9!r}}", "#"])
    def test_odd_literal_text_round_trips(self, sep, no_shell):
        """Quotes, backslashes, escaped braces and '#' between fields print and read back exactly."""
        load_and_play(ruleset(sep=sep))


class TestNamesLikeCompilerTemporaries:
    def test_let_named_like_an_attribute_cache(self, no_shell):
        """A let named 'base__size' next to a let 'base' leaves Stacktics' moves unchanged."""
        from ziggurat.dsl.loader import find

        text = find("stacktics").read_text(encoding="utf-8").replace(
            "    let load = pips(above(from, level))\n",
            "    let load = pips(above(from, level))\n    let base__size = height(from)\n")
        edited = ziggurat.load("edited.rules", text=text).new()
        original = ziggurat.load("stacktics").new()
        assert ziggurat.perft(edited, 3) == ziggurat.perft(original, 3)
