"""`ziggurat check` on common mistakes: each one found at its exact line and column, and named.

Every case is a small edit of the real Stacktics ruleset (or a tiny variant file); the expected
line and column are computed from the edited text, by finding the mistake in it.
"""

import pytest

from ziggurat.dsl.checks import check
from ziggurat.dsl.loader import find, shipped_names
from ziggurat.errors import Diagnostic

BASE = find("stacktics").read_text(encoding="utf-8")


def edit(old: str, new: str) -> str:
    """The Stacktics text with one exact, unique piece replaced."""
    assert BASE.count(old) == 1, f"{old!r} must occur once in stacktics.rules"
    return BASE.replace(old, new)


def at(text: str, needle: str, offset: int = 0) -> tuple:
    """(line, col), both 1-based, of the first occurrence of needle in text, plus offset chars."""
    i = text.index(needle) + offset
    line = text.count("\n", 0, i) + 1
    col = i - (text.rfind("\n", 0, i) + 1) + 1
    return line, col


def errors(text: str, path: str = "edited.rules") -> list:
    return [d for d in check(path, text=text) if d.severity == "error"]


def the_error(text: str, path: str = "edited.rules"):
    """The one error check reports for text (a mistake should not cascade into many)."""
    errs = errors(text, path)
    assert len(errs) == 1, "\n\n".join(d.render() for d in errs) or "no error reported"
    return errs[0]


def where(d) -> tuple:
    return d.line, d.col


class TestShipped:
    @pytest.mark.parametrize("name", shipped_names())
    def test_shipped_ruleset_has_no_errors(self, name):
        """Every shipped ruleset checks without a single error."""
        found = [d.render() for d in check(name) if d.severity == "error"]
        assert found == []

    def test_unedited_text_has_no_errors(self):
        """The helper's baseline: Stacktics passed as text checks clean, so each edit below is the cause."""
        assert errors(BASE) == []


class TestSyntax:
    def test_missing_colon_after_block_header(self):
        """'board' without ':' is reported just after the word, expecting ':' with a hint."""
        text = edit("board:\n", "board\n")
        d = the_error(text)
        assert where(d) == at(text, "board\n", len("board"))
        assert "end of line" in d.message
        assert "':'" in d.expected
        assert "block header needs ':'" in d.hint

    def test_single_quotes(self):
        """A string in single quotes is an unexpected character, with a hint to use double quotes."""
        text = edit('"the 3 x 5 board is for the size-2 game"', "'the 3 x 5 board is for the size-2 game'")
        d = the_error(text)
        assert where(d) == at(text, "'the 3 x 5")
        assert "unexpected character" in d.message and "'" in d.message
        assert "double quotes" in d.hint

    def test_option_without_default(self):
        """An option with a type but no '= default' points at what follows and says a default is needed."""
        text = edit("option size: 2..5 = 3 ", "option size: 2..5 ")
        d = the_error(text)
        assert where(d) == at(text, '"game size')
        assert d.expected == "'='"
        assert "needs a default value" in d.hint

    def test_single_equals_in_a_condition(self):
        """'=' where '==' is meant is pointed at, with a hint to write '=='."""
        text = edit("size == 2:", "size = 2:")
        d = the_error(text)
        assert where(d) == at(text, "size = 2:", len("size "))
        assert d.message == "unexpected '='"
        assert "'=='" in d.hint

    def test_dedent_to_no_block(self):
        """A line indented to no enclosing level is an error at that line, not a traceback."""
        text = edit("        move(from, level, to)", "      move(from, level, to)")
        d = the_error(text)
        assert where(d) == at(text, "move(from, level, to)")
        assert "indented by 6" in d.message
        assert "by 4" in d.hint

    def test_misspelt_keyword(self):
        """A misspelt declaration keyword gets a did-you-mean for the keyword."""
        text = edit("invariant \"pips are conserved\"", "invarient \"pips are conserved\"")
        d = the_error(text)
        assert where(d) == at(text, "invarient")
        assert d.message == "unexpected 'invarient'"
        assert d.hint == "did you mean 'invariant'?"


class TestNames:
    def test_unknown_name_with_suggestion(self):
        """A misspelt attribute value is an unknown name, with 'did you mean' the right one."""
        text = edit("piece(p, small)]", "piece(p, smal)]")
        d = the_error(text)
        assert where(d) == at(text, "smal)")
        assert d.message == "unknown name 'smal'"
        assert d.hint == "did you mean 'small'?"

    def test_unknown_piece_attribute(self):
        """A piece attribute that is not declared is named, and the closest one suggested."""
        text = edit("base.size <= top(to).size", "base.sise <= top(to).size")
        d = the_error(text)
        assert where(d) == at(text, "base.sise")
        assert "no attribute 'sise'" in d.message
        assert d.hint == "did you mean 'size'?"

    def test_unknown_function(self):
        """A misspelt builtin is an unknown function, with the builtin suggested."""
        text = edit("level: 1..height(from)", "level: 1..hieght(from)")
        d = the_error(text)
        assert where(d) == at(text, "hieght(")
        assert d.message == "unknown function 'hieght'"
        assert d.hint == "did you mean 'height'?"

    def test_unknown_board_setting(self):
        """A board setting other than files and ranks is reported at its line."""
        text = edit("    ranks: 5 if narrow else min(size + 2, 6)\n",
                    "    ranks: 5 if narrow else min(size + 2, 6)\n    wrap: true\n")
        d = the_error(text)
        assert where(d) == at(text, "wrap: true")
        assert d.message == "unknown board setting 'wrap'"
        assert "files and ranks" in d.hint

    def test_unknown_direction_in_table(self):
        """An undeclared direction in a table entry is an unknown name at that word."""
        text = edit("    small: diagonal ", "    small: diagonal + up ")
        d = the_error(text)
        assert where(d) == at(text, "up ")
        assert "unknown name 'up'" in d.message

    def test_control_with_unknown_attribute(self):
        """'control: top.colour' names the missing attribute and lists the declared ones."""
        text = edit("control: top.owner", "control: top.colour")
        d = the_error(text)
        assert where(d) == at(text, "top.colour")
        assert "no attribute 'colour'" in d.message
        assert "owner" in d.hint and "size" in d.hint


class TestArguments:
    def test_def_called_with_too_many_arguments(self):
        """Calling a def with the wrong count says how many it takes and where it is declared."""
        text = edit("if pips(prisoners[p]) >= 3", "if pips(prisoners[p], 1) >= 3")
        d = the_error(text)
        assert where(d) == at(text, "pips(prisoners[p], 1)")
        assert d.message == "pips() takes 1 argument, not 2"
        assert d.hint == f"def pips(pieces) is on line {at(text, 'def pips')[0]}"

    def test_builtin_called_with_too_many_arguments(self):
        """A builtin with the wrong argument count says how many it takes."""
        text = edit("level: 1..height(from)", "level: 1..height(from, 2)")
        d = the_error(text)
        assert where(d) == at(text, "height(from, 2)")
        assert d.message == "height() takes 1 argument, not 2"

    def test_repeated_with_two_arguments(self):
        """repeated() with two arguments is reported at the call."""
        text = edit("repetition and repeated(3)", "repetition and repeated(3, 4)")
        d = the_error(text)
        assert where(d) == at(text, "repeated(3, 4)")
        assert "repeated() takes one argument" in d.message

    def test_duplicate_parameter(self):
        """A def naming one parameter twice is reported at the def."""
        text = edit("def tree(p):", "def tree(p, p):")
        errs = errors(text)
        assert where(errs[0]) == at(text, "def tree")
        assert errs[0].message == "def 'tree' names the parameter 'p' twice"


class TestTypes:
    def test_range_end_is_a_piece(self):
        """'1..top(from)' is a type mismatch: the end of a range must be a number, not a piece."""
        text = edit("level: 1..height(from)", "level: 1..top(from)")
        d = the_error(text)
        assert where(d) == at(text, "top(from)")
        assert d.message == "the end of a range must be a number, not a piece"

    def test_comparing_player_with_size(self):
        """Comparing a player with a size value is always false, and check says so."""
        text = edit("mine(to) and base.size", "mine(to) and north == base.size and base.size")
        d = the_error(text)
        assert where(d) == at(text, "north == base.size")
        assert "comparing a player with a size value" in d.message
        assert "attribute" in d.hint

    def test_comparing_player_with_number(self):
        """Comparing the mover with an option's number is a type error at the comparison."""
        text = edit("when pie and ply == 1", "when pie and mover == size")
        d = the_error(text)
        assert where(d) == at(text, "mover == size")
        assert d.message == "comparing a player with a number is always false"

    def test_and_of_a_piece(self):
        """'and' over a piece is an error on that side."""
        text = edit("let base = from[level]", "let base = from[level] and true")
        d = the_error(text)
        assert where(d) == at(text, "from[level] and")
        assert d.message == "each side of 'and' must be a bool, not a piece"

    def test_table_with_mixed_key_types(self):
        """A table keyed by players with one number key reports the odd key."""
        text = edit("    north: ranks", "    3: ranks")
        d = the_error(text)
        assert where(d) == at(text, "3: ranks")
        assert "keys of a table are one kind of thing" in d.message
        assert "number" in d.message and "player" in d.message

    def test_level_zero(self):
        """'from[0]' is refused: levels count from 1 (in Python it would silently be the top)."""
        text = edit("let base = from[level]", "let base = from[0]")
        d = the_error(text)
        assert where(d) == at(text, "0]")
        assert "count from 1" in d.message
        assert "[1]" in d.hint

    def test_table_missing_an_entry(self):
        """A table indexed by a piece's size but without a 'small' entry is an error at the lookup."""
        text = edit("    small: diagonal                # like a bishop\n", "")
        d = the_error(text)
        assert where(d) == at(text, "base.size], reach")
        assert d.message == "table 'shape' has no entry for 'small', which base.size can be"
        assert "small:" in d.hint

    def test_control_must_name_a_player(self):
        """'control: top.size' says control must name a player, with an example."""
        text = edit("control: top.owner", "control: top.size")
        d = the_error(text)
        assert where(d) == at(text, "top.size")
        assert "must name a player" in d.message and "size value" in d.message
        assert "top.owner" in d.hint


class TestOptions:
    def test_default_out_of_range(self):
        """A default outside the option's range is reported at the default, naming the range."""
        text = edit("option ply_cap: 0..10000 = 300", "option ply_cap: 0..10000 = 20000")
        d = the_error(text)
        assert where(d) == at(text, "20000")
        assert "between 0 and 10000" in d.message and "20000" in d.message

    def test_empty_range(self):
        """'5..2' is an empty range, with a hint to write the low end first."""
        text = edit("option size: 2..5 = 3", "option size: 5..2 = 3")
        d = the_error(text)
        assert where(d) == at(text, "5..2")
        assert d.message == "the range 5..2 is empty"
        assert "low end first" in d.hint

    def test_defaults_contradict_a_check(self):
        """Defaults that break a 'check' are reported at the check, quoting its message."""
        text = edit("option narrow: bool = false", "option narrow: bool = true")
        d = the_error(text)
        assert where(d) == at(text, "check not narrow")
        assert "contradict a check" in d.message
        assert "the 3 x 5 board is for the size-2 game" in d.message

    def test_option_used_before_declared(self):
        """A default using an option declared below it is reported at that name."""
        text = edit("option size: 2..5 = 3 ", "option size: 2..5 = ply_cap // 100 ")
        d = the_error(text)
        assert where(d) == at(text, "ply_cap //")
        assert "used before its value is known" in d.message

    def test_duplicate_option(self):
        """An option declared twice points at the second, naming the line of the first."""
        text = edit("option repetition: bool = true", "option repetition: bool = true\noption size: 1..3 = 2")
        d = the_error(text)
        assert where(d) == at(text, "option size: 1..3")
        assert d.message == "option 'size' is declared twice"
        assert d.hint == f"the first is on line {at(text, 'option size')[0]}"


class TestDeclarations:
    def test_duplicate_def(self):
        """A def declared twice points at the second and names where the first is."""
        text = edit("def pips(pieces): sum(x.size for x in pieces)\n",
                    "def pips(pieces): sum(x.size for x in pieces)\ndef pips(x): 1\n")
        d = the_error(text)
        assert where(d) == at(text, "def pips(x)")
        assert f"def 'pips' is already declared (edited.rules:{at(text, 'def pips')[0]})" == d.message

    def test_name_used_for_two_kinds(self):
        """A counter with a zone's name is 'both a zone and a counter'."""
        text = edit("zone prisoners per player ", "zone prisoners per player\ncounter prisoners = 0 ")
        d = the_error(text)
        assert where(d) == at(text, "counter prisoners")
        assert d.message == "'prisoners' is both a zone and a counter"

    def test_player_named_twice(self):
        """Naming a player twice is reported at the players line."""
        text = edit("players south, north", "players south, north, south")
        d = the_error(text)
        assert where(d) == at(text, "players south")
        assert d.message == "player 'south' is named twice"

    def test_override_without_base(self):
        """'override' in a file with nothing to replace is reported at the override."""
        text = edit('action swap "swap":', 'override action swap "swap":')
        d = the_error(text)
        assert where(d) == at(text, "override action")
        assert d.message == "'override' needs an action 'swap' in the base to replace"

    def test_variant_extending_missing_ruleset(self, tmp_path):
        """A variant extending a misspelt shipped ruleset points at 'extends' and suggests the name."""
        variant = tmp_path / "variant.rules"
        text = "# a variant\nextends stacktic\noption size = 4\n"
        variant.write_text(text)
        d = the_error(text, str(variant))
        assert where(d) == at(text, "extends")
        assert d.message == "cannot find the ruleset 'stacktic' to extend"
        assert d.hint.startswith("did you mean 'stacktics'")

    def test_variant_overriding_a_missing_def(self, tmp_path):
        """A variant's override of a def the base lacks suggests the base's def."""
        (tmp_path / "base.rules").write_text(BASE)
        text = "extends base\noverride def pipz(pieces): 0\n"
        d = the_error(text, str(tmp_path / "v.rules"))
        assert where(d) == at(text, "override def")
        assert d.message == "'override' needs a def 'pipz' in the base to replace"
        assert d.hint == "did you mean 'pips'?"

    def test_variant_changing_an_undeclared_option(self, tmp_path):
        """A variant setting the default of an option nobody declares suggests the real one."""
        (tmp_path / "base.rules").write_text(BASE)
        text = "extends base\n\noption siz = 4\n"
        d = the_error(text, str(tmp_path / "v.rules"))
        assert where(d) == at(text, "option siz")
        assert "no base declares it" in d.message
        assert d.hint == "did you mean 'size'?"

    def test_choice_made_twice(self):
        """An action making the same choice twice is reported at the second."""
        line = '    level: 1..height(from) else "the stack is not that tall"\n'
        text = edit(line, line + "    level: 1..3\n")
        d = the_error(text)
        assert where(d) == at(text, "level: 1..3")
        assert d.message == "move: choice 'level' is made twice"


class TestNotation:
    def test_format_leaves_out_a_choice(self):
        """A notation without one of the choices says which one and how to add it."""
        text = edit('action move "{from}:{level}-{to}"', 'action move "{from}-{to}"')
        d = the_error(text)
        assert where(d) == at(text, "action move")
        assert "leaves out the choice 'level'" in d.message
        assert "{level}" in d.hint

    def test_format_names_a_non_choice(self):
        """A notation naming a let (not a choice) says so and lists the choices."""
        text = edit('action move "{from}:{level}-{to}"', 'action move "{from}:{level}-{to}{base}"')
        d = the_error(text)
        assert where(d) == at(text, "action move")
        assert "names 'base', which is not one of its choices" in d.message
        assert d.hint == "its choices are: from, level, to"

    def test_format_with_conversion(self):
        """A notation field with a conversion ('{to!r}') is refused: a field is just a choice's name."""
        text = edit('action move "{from}:{level}-{to}"', 'action move "{from}:{level}-{to!r}"')
        d = the_error(text)
        assert where(d) == at(text, "action move")
        assert "writes '{to!r}'" in d.message
        assert d.hint == "write {to}"

    def test_format_with_unclosed_brace(self):
        """A notation with an unclosed brace is malformed, not a traceback."""
        text = edit('action move "{from}:{level}-{to}"', 'action move "{from}:{level}-{to"')
        d = the_error(text)
        assert where(d) == at(text, "action move")
        assert "malformed" in d.message


class TestPlacement:
    def test_effect_outside_do_block(self):
        """An effect used as a value in a let is reported: effects belong in 'do:'."""
        text = edit("let load = pips(above(from, level))", "let load = extra_turn()")
        d = the_error(text)
        assert where(d) == at(text, "extra_turn()")
        assert "extra_turn() is an effect" in d.message and "'do:'" in d.message

    def test_no_moves_outside_end(self):
        """'no_moves' in an action is reported: it can only be tested in the end block."""
        text = edit("let load = pips(above(from, level))",
                    "let load = pips(above(from, level)) + (1 if no_moves else 0)")
        d = the_error(text)
        assert where(d) == at(text, "no_moves else")
        assert d.message == "'no_moves' can only be tested in the end block"

    def test_repeated_outside_end(self):
        """repeated() in a 'when' is reported: it belongs in the end block."""
        text = edit("when pie and ply == 1", "when repeated(2)")
        d = the_error(text)
        assert where(d) == at(text, "repeated(2)")
        assert d.message == "repeated() can only be tested in the end block"

    def test_outcome_inside_do_block(self):
        """'win' inside a move's effects is reported: outcomes belong in the end block."""
        text = edit("            take(to, prisoners[mover])\n",
                    "            take(to, prisoners[mover])\n            win mover\n")
        d = the_error(text)
        assert where(d) == at(text, "win mover")
        assert d.message == "'win' ends the game, so it belongs in the end block"

    def test_misspelt_effect(self):
        """A misspelt effect in setup is named as an unknown effect, with the close one suggested."""
        text = edit("place(tree(p), c)", "plaice(tree(p), c)")
        d = the_error(text)
        assert where(d) == at(text, "plaice(")
        assert "unknown effect 'plaice'" in d.message
        assert "place" in d.hint

    def test_def_calling_itself(self):
        """A def that calls itself is reported at the recursive call."""
        text = edit("level == height(c) and height(c) >= 2", "level == height(c) and attacker(c, level)")
        d = the_error(text)
        assert where(d) == at(text, "attacker(c, level)\n")
        assert d.message == "attacker() calls itself; defs are expanded in place and cannot recurse"

    def test_mistake_after_false_when_is_found(self):
        """A type error after 'when pie' is found even though pie is off by default."""
        text = edit("    when pie and ply == 1\n", "    when pie and ply == 1\n    require 1 == true\n")
        d = the_error(text)
        assert where(d) == at(text, "1 == true")
        assert d.message == "comparing a number with a bool is always false"


class TestUnusedDefs:
    def test_an_unknown_name_in_a_def_nobody_calls_is_an_error(self):
        """A def that no rule calls is still checked for its names (its parameters stand for anything)."""
        text = edit("def attacker(c, level):", "def three(p): count(x for x in lines where x == p) == 3\n"
                                                 "def attacker(c, level):")
        d = the_error(text)
        assert where(d) == at(text, "lines where")
        assert d.message == "unknown name 'lines'"

    def test_an_unused_def_with_known_names_is_only_a_warning(self):
        """An unused def whose names all exist gives the usual warning, no error."""
        text = edit("def attacker(c, level):", "def three(p): count(x for x in cells where x == p) == 3\n"
                                                 "def attacker(c, level):")
        found = check("edited.rules", text=text)
        assert [d.severity for d in found] == ["warning"]
        assert "never used" in found[0].message


def test_a_long_line_is_shown_cut_around_the_caret():
    """A line of thousands of characters is shown as about a hundred around the mistake, the cuts
    marked, the caret still under the mistake."""
    line = "    c: cells where " + "empty(c) and " * 300 + "bogus(c) and " + "empty(c) and " * 300 + "empty(c)"
    d = Diagnostic("x.rules", 6, line.index("bogus") + 1, "unknown function 'bogus'", line, 5)
    shown, carets = d.render().splitlines()[1:3]
    assert len(shown) < 130 and shown.count("...") == 2
    at = carets.index("^")
    assert shown[at:at + 5] == "bogus" and carets.count("^") == 5
    short = Diagnostic("x.rules", 1, 5, "m", "abc defgh", 5).render().splitlines()
    assert short[1].endswith("abc defgh") and "..." not in short[1]


KEYWORD_NAMES = """players x, o
board:
    files: 3
    ranks: 3
piece:
    owner: players
def for(in): 1
action mark "{if}":
    if: cells where empty(if)
    let where = count(empty(c) for c in cells)
    do:
        for while in [1]:
            place(piece(mover), if)
"""


def test_a_keyword_cannot_name_what_a_rule_binds():
    """The parser takes `for`, `in` or `if` as a name where no keyword can stand; check names
    each such binder at its word."""
    found = [(e.line, e.col, e.message.split(",")[0]) for e in errors(KEYWORD_NAMES, "kw.rules")]
    assert found == [(7, 5, "'for' is a keyword of the rules language"),
                     (7, 9, "'in' is a keyword of the rules language"),
                     (9, 5, "'if' is a keyword of the rules language"),
                     (10, 9, "'where' is a keyword of the rules language"),
                     (12, 13, "'while' is a keyword of the rules language")]
    renamed = (KEYWORD_NAMES.replace("def for(in)", "def f(n)").replace("if", "at")
               .replace("let where", "let w").replace("for while", "for k"))
    assert errors(renamed, "ok.rules") == []
