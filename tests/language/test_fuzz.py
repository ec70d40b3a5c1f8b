"""Fuzzing `ziggurat check` and `ziggurat.load`: bad rules text never gives a traceback.

Two sources of input: programs generated from our own Lark grammar (`hypothesis.extra.lark`),
and the real Stacktics ruleset with random edits (lines deleted, duplicated or swapped,
characters deleted or inserted, names swapped for other names, numbers changed). Whatever the
input, `check` returns a list of diagnostics that render, and `load` returns a Game or raises
ZigguratError. Inputs that once crashed are kept as explicit examples.
"""

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark.lexer import PatternStr

import ziggurat
from ziggurat.dsl.checks import check
from ziggurat.errors import Diagnostic
from ziggurat.dsl.loader import find
from ziggurat.dsl.parser import grammar

BASE = find("stacktics").read_text(encoding="utf-8")
CHECKERS = find("checkers").read_text(encoding="utf-8")  # jump chains: the `repeat` construct
CHAOS = find("chaos").read_text(encoding="utf-8")  # the open table: the `surface:` block
NAMES = sorted(set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", BASE)))

# The loaded settings profile (ci, dev, long) scales every test here.
CI_EXAMPLES = settings.default.max_examples

# Sentinels for indentation: the generated token stream is laid out into indented lines after.
INDENT, DEDENT = "\x01", "\x02"


def assert_checks_cleanly(text: str, path: str = "fuzz.rules") -> list:
    """check() returns diagnostics that all render; returns the errors."""
    diags = check(path, text=text)
    assert isinstance(diags, list)
    for d in diags:
        assert isinstance(d, Diagnostic)
        assert d.line >= 0 and d.col >= 0
        assert isinstance(d.render(), str) and d.message
        assert d.severity in ("error", "warning")
    return [d for d in diags if d.severity == "error"]


def assert_loads_or_refuses(text: str, errors: list) -> None:
    """load() gives a Game or a ZigguratError; a text check passes without errors loads."""
    try:
        game = ziggurat.load("fuzz.rules", text=text)
    except ziggurat.ZigguratError:
        assert errors, "check found no error, but load refused the ruleset"
        return
    assert isinstance(game, ziggurat.Game)
    assert not errors, "load accepted a ruleset that check rejects:\n" + errors[0].render()


# ---- programs from the grammar ------------------------------------------------------------------


def _layout(raw: str) -> str:
    """Turn the token stream (newlines plus indent/dedent sentinels) into indented lines."""
    depth, out = 0, []
    for line in raw.split("\n"):
        content = []
        line_depth = None
        for ch in line:
            if ch == INDENT:
                depth += 1
            elif ch == DEDENT:
                depth = max(depth - 1, 0)
            else:
                if line_depth is None and not ch.isspace():
                    line_depth = depth
                content.append(ch)
        text = "".join(content).strip()
        out.append("    " * (line_depth or 0) + text if text else "")
    return "\n".join(out)


def generating_grammar():
    """The grammar built afresh, with its rules: one read back from the cache folder has none, and
    hypothesis.extra.lark needs them (the fuzz failed whenever another process had cached it)."""
    return grammar(cached=False)


_VOCAB = sorted(set(NAMES) - {t.pattern.value for t in generating_grammar().terminals
                              if isinstance(t.pattern, PatternStr)})


def _grammar_programs(tidy: bool):
    """Strings from the grammar; tidy ones have spaced tokens, real names and real indentation."""
    if not tidy:
        return from_lark(generating_grammar(), explicit={"_INDENT": st.just(""), "_DEDENT": st.just("")})
    explicit = {
        "_INDENT": st.just(INDENT),
        "_DEDENT": st.just(DEDENT),
        "_NL": st.sampled_from(["\n", "  # note\n", "\n\n"]),
        "COMMENT": st.just(" "),  # an ignored comment mid-line would swallow the rest of the line
        "WS_INLINE": st.just(" "),
        "NAME": (st.sampled_from(_VOCAB) | st.from_regex(r"[a-z_][a-z0-9_]{0,6}", fullmatch=True)).map(" {} ".format),
        "INT": st.integers(0, 30).map(" {} ".format),
        "STRING": st.sampled_from(['"x"', '"{from}-{to}"', '"{c}"', '""', '"\\n"', '"{"']).map(" {} ".format),
    }
    for t in generating_grammar().terminals:
        if isinstance(t.pattern, PatternStr) and t.name not in explicit:
            explicit[t.name] = st.just(" " + t.pattern.value + " ")
    operators = {"COMP_OP": [" == ", " != ", " <= ", " < "], "ADD_OP": [" + ", " - "],
                 "MUL_OP": [" * ", " // ", " % "], "AUG_OP": [" += ", " -= "]}
    for name, texts in operators.items():
        explicit[name] = st.sampled_from(texts)
    return from_lark(generating_grammar(), explicit=explicit).map(_layout)


# A small valid game: generated declarations appended to it reach the type checker, not just
# "the ruleset declares no players".
SKELETON = """players south, north
board:
    files: 3
    ranks: 3
piece:
    owner: players
    size: small = 1, large = 2
action go "{c}":
    c: cells where empty(c)
    do:
        extra_turn()
"""


class TestGrammarFuzz:
    @settings(max_examples=2 * CI_EXAMPLES)
    @given(_grammar_programs(tidy=False))
    def test_check_never_raises_on_raw_grammar_strings(self, text):
        """Raw strings from the grammar (no spaces, no indentation) never make check raise."""
        assert_checks_cleanly(text)

    @settings(max_examples=2 * CI_EXAMPLES)
    @given(_grammar_programs(tidy=True))
    @example("players a\nboard:\n    files: 3\n    ranks: 3\naction go:\n    c: cells\n")
    # Once crashed: a window's `answer` in the after block of a ruleset with no action.
    @example("after  :\n    answer\n")
    def test_check_and_load_agree_on_grammar_programs(self, text):
        """Laid-out programs from the grammar: check never raises, and load agrees with check."""
        errors = assert_checks_cleanly(text)
        assert_loads_or_refuses(text, errors)

    @settings(max_examples=3 * CI_EXAMPLES)
    @given(_grammar_programs(tidy=True))
    # Once crashed: an empty name to extend (pathlib refuses Path('').with_name).
    @example('# note\nextends ""\n\n#')
    @example('extends "."\n')
    @example('extends "a\x00b"\n')
    def test_check_and_load_agree_on_grammar_programs_after_a_game(self, text):
        """Grammar programs appended to a small valid game: check never raises, load agrees with it."""
        text = SKELETON + text
        errors = assert_checks_cleanly(text)
        assert_loads_or_refuses(text, errors)


# ---- the real ruleset, mutated ------------------------------------------------------------------

_INSERTED = list("\t\n '\"{}()[]:=.,#\\-+0aZ_é\x00\r")
_NUMBERS = ["0", "1", "2", "7", "26", "27", "64", "99999", "10000000000000000000000"]


@st.composite
def mutated(draw, base=BASE):
    """A real ruleset (Stacktics unless told) with one to four random edits."""
    text = base
    for _ in range(draw(st.integers(1, 4))):
        lines = text.splitlines(keepends=True) or [""]
        kind = draw(st.sampled_from(["del_line", "dup_line", "swap_lines", "del_char", "ins_char",
                                     "rename", "number"]))
        if kind in ("del_line", "dup_line", "swap_lines"):
            i = draw(st.integers(0, len(lines) - 1))
            if kind == "del_line":
                del lines[i]
            elif kind == "dup_line":
                lines.insert(i, lines[i])
            else:
                j = draw(st.integers(0, len(lines) - 1))
                lines[i], lines[j] = lines[j], lines[i]
            text = "".join(lines)
        elif kind == "del_char" and text:
            p = draw(st.integers(0, len(text) - 1))
            text = text[:p] + text[p + 1:]
        elif kind == "ins_char":
            p = draw(st.integers(0, len(text)))
            text = text[:p] + draw(st.sampled_from(_INSERTED)) + text[p:]
        elif kind == "rename":
            spans = [m.span() for m in re.finditer(r"[A-Za-z_][A-Za-z_0-9]*", text)]
            if spans:
                a, b = draw(st.sampled_from(spans))
                text = text[:a] + draw(st.sampled_from(NAMES)) + text[b:]
        elif kind == "number":
            spans = [m.span() for m in re.finditer(r"[0-9]+", text)]
            if spans:
                a, b = draw(st.sampled_from(spans))
                text = text[:a] + draw(st.sampled_from(_NUMBERS)) + text[b:]
    return text


def _surface_lines(text: str) -> range:
    """The line numbers (from 0) of the settings of a ruleset's `surface:` block."""
    lines = text.splitlines()
    start = lines.index("surface:") + 1
    end = next(i for i in range(start, len(lines)) if not lines[i].startswith(" "))
    return range(start, end)


_SURFACE_WORDS = ["lattice", "width", "length", "x", "pitch", "foot", "size", "in", "height", "files"]


@st.composite
def surface_mutated(draw, base=CHAOS):
    """A table game (Chaos unless told) whose `surface:` block has one to three wrong names: a
    setting renamed, a name in a setting's value replaced by another (a known one or a made-up
    one), a measure's piece parameter added, dropped or renamed."""
    lines = base.splitlines(keepends=True)
    where = _surface_lines(base)
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.sampled_from(where))
        spans = [m.span() for m in re.finditer(r"[A-Za-z_][A-Za-z_0-9]*", lines[i])]
        a, b = draw(st.sampled_from(spans))
        word = draw(st.sampled_from(_SURFACE_WORDS + NAMES) | st.from_regex(r"[a-z_][a-z0-9_]{0,6}", fullmatch=True))
        kind = draw(st.sampled_from(["rename", "param", "drop_param"]))
        if kind == "rename":
            lines[i] = lines[i][:a] + word + lines[i][b:]
        elif kind == "param":
            lines[i] = re.sub(r"^(\s+\w+)(\(\w*\))?:", lambda m: f"{m.group(1)}({word}):", lines[i])
        else:
            lines[i] = re.sub(r"^(\s+\w+)\(\w*\):", r"\1:", lines[i])
    return "".join(lines)


class TestMutationFuzz:
    @settings(max_examples=5 * CI_EXAMPLES)
    @given(mutated())
    # Once crashed: a line dedented to a column no block starts at (lark's DedentError).
    @example(BASE.replace("        move(from, level, to)", "      move(from, level, to)"))
    # A huge board and a huge number must be refused, not overflow.
    @example(BASE.replace("ranks: 5 if narrow", "ranks: 10000000000000000000000 if narrow"))
    @example(BASE.replace("option ply_cap: 0..10000 = 300", "option ply_cap: 0..10000 = 0"))
    def test_check_and_load_never_raise_on_mutated_stacktics(self, text):
        """Randomly edited Stacktics: check returns renderable diagnostics, load a Game or ZigguratError."""
        errors = assert_checks_cleanly(text)
        assert_loads_or_refuses(text, errors)

    @settings(max_examples=2 * CI_EXAMPLES)
    @given(mutated(CHECKERS), st.randoms(use_true_random=False))
    # A chain whose jumped piece stays: a man can never bounce back (men go forward), but the
    # ruleset must still load and play.
    @example(CHECKERS.replace("            take(between(at, to)[1], captured[mover])\n", ""), None)
    # Once crashed: a repeat left with no choice (the error was reported, then compiling went on).
    @example(CHECKERS.replace("        to: jumps(at)\n", ""), None)
    def test_mutated_checkers_loads_and_plays_or_refuses(self, text, rng):
        """Randomly edited Checkers: check and load agree, and a few random plies never raise
        anything but a ZigguratError (a rule that fails at run time names its line)."""
        errors = assert_checks_cleanly(text)
        assert_loads_or_refuses(text, errors)
        if errors:
            return
        try:
            state = ziggurat.load("fuzz.rules", text=text).new()
            for _ in range(6):
                moves = state.moves()
                if not moves:
                    break
                state.push(moves[0] if rng is None else rng.choice(moves))
        except ziggurat.ZigguratError:
            pass

    @settings(max_examples=2 * CI_EXAMPLES)
    @given(surface_mutated())
    # Once crashed (KeyError: 'width', 'lattice'): a surface setting naming what does not exist.
    @example(CHAOS.replace("    width(x): foot[x.size].width", "    width(x): feet[x.size].width"))
    @example(CHAOS.replace("    lattice: pitch * 0.125in", "    lattice(x): pitch * 0.125in"))
    def test_check_and_load_never_raise_on_wrong_names_in_a_surface(self, text):
        """Chaos with wrong names in its `surface:` block: check reports them at their lines (no
        traceback), and load agrees with check."""
        errors = assert_checks_cleanly(text)
        assert_loads_or_refuses(text, errors)

    @given(st.text(max_size=200))
    @example("\t\tplayers a\n")
    @example("players a\n)\n")
    @example('game "\\')
    @example("\ufeffplayers a\n")
    # Once crashed: a string with an unknown escape (decoded with 'unicode_escape').
    @example('game "\\x"\n')
    @example('game "\\N"\n')
    def test_check_never_raises_on_any_text(self, text):
        """Arbitrary text (control characters, stray brackets, bad escapes) never makes check raise."""
        assert_checks_cleanly(text)
