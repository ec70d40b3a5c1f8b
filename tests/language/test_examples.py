"""`example` and `symmetry` declarations: parsing, the checks `ziggurat check` makes (each error at
its line:col), each expectation kind passing and failing with what differed, symmetries that hold
and one declared wrongly, `check` counting them, every shipped ruleset's own passing, and that
they are not part of the game (the generated module is the same with or without them).

Expected numbers are reasoned here from the rules (Stacktics at size 2: two trees on b1 and c1 of
a 4 x 4 board, 10 moves each: the large 4 single steps, the medium 3, the small 3 diagonal slides).
"""

from __future__ import annotations

from importlib import resources

import pytest
from click.testing import CliRunner

from ziggurat.cli.main import cli
from ziggurat.dsl import example_syntax as syntax
from ziggurat.dsl.checks import check
from ziggurat.dsl.loader import shipped_names
from ziggurat.dsl.parser import parse
from ziggurat.interpreter.games import load
from ziggurat.proptest.examples import count, declarations, run_examples, run_symmetries
from ziggurat.proptest.symmetry import SymmetryMap

STACKTICS = (resources.files("ziggurat") / "rulesets" / "stacktics.rules").read_text()
BREAKTHROUGH = (resources.files("ziggurat") / "rulesets" / "breakthrough.rules").read_text()


def _strip(text: str) -> str:
    """A shipped ruleset without its examples and symmetries (they start at this comment)."""
    return text.split("# ---- examples and symmetries")[0]


BASE = _strip(STACKTICS)
BASE_LINES = BASE.count("\n")


def with_examples(extra: str, base: str = BASE) -> str:
    return base + "\n" + extra


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def errors(text: str, path: str = "t.rules") -> list:
    return [d for d in check(path, text) if d.severity == "error"]


def game_of(text: str, name: str = "t.rules"):
    return load(name, text=text)


class TestParsing:
    def test_an_example_parses_into_its_lines(self):
        """Every kind of line of an example becomes one item, with what it gives, at its line."""
        text = with_examples('example "all kinds":\n'
                             '    options: size = 2, pie = false\n'
                             '    position: "start"\n'
                             '    after: "b1:3-d3"\n'
                             '    legal: "c4:3-d3", "swap"\n'
                             '    illegal: "c4:1-d3"\n'
                             '    moves: 19\n'
                             '    outcome: none\n'
                             '    outcome after "c4:3-d3": draw "why"\n'
                             '    perft 2: 400\n')
        ex = parse(text).decls[-1]
        assert isinstance(ex, syntax.Example) and ex.name == "all kinds"
        kinds = [(i.kind, i.values) for i in ex.items]
        assert kinds == [("options", (("size", 2), ("pie", "false"))), ("position", ("start",)),
                         ("after", ("b1:3-d3",)), ("legal", ("c4:3-d3", "swap")), ("illegal", ("c4:1-d3",)),
                         ("moves", (19,)), ("outcome", (None, "none", None, None)),
                         ("outcome", ("c4:3-d3", "draw", None, "why")), ("perft", (2, 400))]
        assert ex.items[0].pos.line == line_of(text, "options: size = 2")

    def test_a_symmetry_parses_into_its_parts(self):
        sym = parse(with_examples('symmetry "turned": rotate 180, swap south north\n')).decls[-1]
        assert isinstance(sym, syntax.Symmetry)
        assert [p.words for p in sym.parts] == [("rotate", "180"), ("swap", "south", "north")]

    def test_a_syntax_error_in_an_example_points_at_it(self):
        """A line without its ':' is a syntax error at its line and column."""
        text = with_examples('example "x":\n    legal "b1:1-c2"\n')
        [d] = errors(text)
        assert (d.line, d.col) == (line_of(text, 'legal "b1'), 11)
        assert "':'" in d.render()

    def test_words_of_examples_still_name_things_in_rules(self):
        """`moves`, `legal`, `position` stay ordinary names inside rules (a def may be called so)."""
        text = BASE + "def moves(c): height(c)\ndef legal(c): moves(c) > 0\n"
        assert not errors(text)


class TestStaticChecks:
    @pytest.mark.parametrize("lines, needle, message", [
        ('    options: sise = 2\n    moves: 1\n', "options: sise", "no option 'sise'"),
        ('    options: size = 2, size = 3\n    moves: 1\n', "options: size", "sets option 'size' twice"),
        ('    position: "start"\n    position: "south 0 |"\n    moves: 1\n', 'position: "south',
         "gives 'position' twice"),
        ('    outcome: win east\n', "win east", "'east' is not a player"),
        ('    outcome: win\n', "outcome: win", "'win' names the player"),
        ('    outcome: draw south\n', "draw south", "'draw' names no player"),
        ('    outcome: tie\n', "outcome: tie", "'tie' is not an outcome"),
        ('    perft 9: 1\n', "perft 9", "perft depth 9 is out of range"),
        ('    after: "b1:3-d3"\n', 'example "x"', "expects nothing"),
    ])
    def test_an_example_mistake_is_an_error_at_its_line(self, lines, needle, message):
        text = with_examples('example "x":\n' + lines)
        found = errors(text)
        assert any(d.line == line_of(text, needle) and message in d.message for d in found), found
        # the line found is the one named, and the column the line's start (an item) or the header's
        d = next(d for d in found if message in d.message)
        assert d.col in (1, 5)

    def test_an_example_named_twice(self):
        text = with_examples('example "x":\n    moves: 1\n\nexample "x":\n    moves: 2\n')
        [d] = errors(text)
        second = [i for i, line in enumerate(text.splitlines(), 1) if line == 'example "x":'][1]
        assert d.line == second and "declared twice" in d.message

    @pytest.mark.parametrize("parts, col, message", [
        ("mirror file", 15, "'mirror file' is not a map of the board"),
        ("flip files", 15, "'flip' is not a part of a symmetry"),
        ("swap south large", 15, "exchanges two players or two values of one attribute"),
        ("swap south moon", 15, "'moon' is neither a player nor a value"),
        ("mirror files, rotate 180", 29, "maps the board twice"),
        ("swap south north, swap north south", 33, "swaps 'north' twice"),
    ])
    def test_a_symmetry_mistake_is_an_error_at_its_part(self, parts, col, message):
        text = with_examples(f'symmetry "s": {parts}\n')
        found = errors(text)
        assert any((d.line, d.col) == (line_of(text, 'symmetry "s"'), col) and message in d.message
                   for d in found), found

    def test_a_variant_has_its_own_examples_not_its_bases(self):
        """stacktics-3x5 extends Stacktics at other options: none of the base's examples is its,
        only the two its own file declares."""
        assert count(load("stacktics-3x5")) == (2, 0)
        assert count(load("stacktics"))[0] > 2


class TestExpectations:
    def examples(self, lines: str):
        text = with_examples('example "x":\n    options: size = 2\n' + lines)
        return text, run_examples(game_of(text))

    @pytest.mark.parametrize("line", [
        'legal: "b1:1-c2", "c1:3-a3"',
        'illegal: "b1:1-c1", "swap"',
        "moves: 20",
        "perft 1: 20",
        "outcome: none",
    ])
    def test_a_true_expectation_passes(self, line):
        _, failures = self.examples(f"    {line}\n")
        assert failures == []

    @pytest.mark.parametrize("line, shown", [
        ('legal: "b1:1-c1"', "'b1:1-c1' is not legal"),
        ('illegal: "b1:3-d3"', "'b1:3-d3' is legal"),
        ('illegal: "zz"', "'zz' is not a move of this game"),
        ("moves: 19", "expected 19 legal moves, found 20: b1:1-a1, "),
        ("perft 1: 21", "expected perft 1 = 21, found 20"),
        ("outcome: win south", "expected win south, found none (the game goes on)"),
        ('outcome after "b1:1-b2": draw', "expected draw, found none"),
    ])
    def test_a_false_expectation_fails_at_its_line_showing_what_differed(self, line, shown):
        text, failures = self.examples(f"    {line}\n")
        [f] = failures
        assert (f.line, f.col) == (line_of(text, line), 5)
        assert shown in f.message and f.what == "example 'x'"
        assert f"t.rules:{f.line}:5: example 'x' does not hold" in f.render()
        assert f.position.startswith("south 0 | b1=S3S2S1 c1=S3S2S1")

    def test_an_outcome_after_moves_compares_each_sides_result_and_the_reason(self):
        """South captures north's last small for 9 pips (3 x size at size 3): it wins."""
        base = ('    position: "south 20 | a1=S3S1 b2=N1 e5=N3N2N1 | prisoners.south=N3N3N2"\n'
                '    outcome after "a1:2-b2": win south "captured half the enemy force"\n')
        text = with_examples('example "x":\n' + base)
        assert run_examples(game_of(text)) == []
        wrong = base.replace("win south", "lose south")
        [f] = run_examples(game_of(with_examples('example "x":\n' + wrong)))
        assert "expected lose south" in f.message and "found win south=1" in f.message
        wrong = base.replace("half the enemy force", "everything")
        [f] = run_examples(game_of(with_examples('example "x":\n' + wrong)))
        assert "(captured half the enemy force)" in f.message

    def test_a_position_or_a_move_that_cannot_be_read_stops_the_example_at_its_line(self):
        text = with_examples('example "x":\n    after: "b1:3-d3 q"\n    moves: 3\n')
        [f] = run_examples(game_of(text))
        assert f.line == line_of(text, "after:") and "move 2 of 2 ('q') cannot be played" in f.message
        text = with_examples('example "x":\n    position: "south 0 | z9=S1"\n    moves: 3\n')
        [f] = run_examples(game_of(text))
        assert f.line == line_of(text, "position:") and "the position cannot be read" in f.message

    def test_a_rule_that_fails_as_the_game_is_played_is_a_failure_not_an_exception(self):
        """A broken rule (a piece read above the top of its stack) fails the example's line: a
        mutation run calls run_examples on such rulesets."""
        rules = BASE.replace("let base = from[level]", "let base = from[level + 3]")
        text = with_examples('example "x":\n    moves: 31\n', rules)
        [f] = run_examples(game_of(text))
        assert f.line == line_of(text, "moves: 31") and f.message.startswith("the rules failed")

    def test_options_out_of_range_fail_at_the_options_line(self):
        text = with_examples('example "x":\n    options: size = 9\n    moves: 3\n')
        [f] = run_examples(game_of(text))
        assert f.line == line_of(text, "options:") and "the options do not load" in f.message

    def test_a_move_of_six_words_is_read_whole_in_an_after_line(self):
        """RYB's 'offer rd to bruce for yd' is one move: an after: line plays it, and the trade
        offer it makes waits for bruce's answer."""
        ryb = (resources.files("ziggurat") / "rulesets" / "ryb.rules").read_text().split("# ---- examples")[0]
        example = ('example "x":\n    options: variable_card = trade\n'
                   '    position: "al 0 | | hand.al=VaR1 hand.bruce=G1 pool.al=rd pool.bruce=yd step=2"\n'
                   '    after: "variable: trade offer rd to bruce for yd"\n'
                   '    moves: 2\n    legal: "accept", "decline"\n')
        assert run_examples(game_of(ryb + "\n" + example, "ryb-t.rules")) == []

    def test_examples_run_at_their_own_options_whatever_the_game_was_loaded_at(self):
        text = with_examples('example "x":\n    moves: 20\n    options: size = 2\n')
        assert run_examples(load("t.rules", {"size": 4}, text=text)) == []


class TestSymmetries:
    def test_symmetries_that_hold_pass(self):
        text = with_examples('symmetry "mirror": mirror files\n'
                             'symmetry "turned": rotate 180, swap black white\n', _strip(BREAKTHROUGH))
        assert run_symmetries(game_of(text, "b.rules"), games=3, max_plies=30) == []

    def test_a_wrong_symmetry_is_caught_with_the_moves_that_differ(self):
        """Breakthrough's pieces move forward: the board turned over without the sides exchanged
        leaves every piece moving towards its own side, so the mapped position's moves differ."""
        text = with_examples('symmetry "upside down": mirror ranks\n', _strip(BREAKTHROUGH))
        [f] = run_symmetries(game_of(text, "b.rules"), games=3, max_plies=30)
        assert (f.line, f.col) == (line_of(text, 'symmetry "upside down"'), 1)
        assert f.what == "symmetry 'upside down'" and "moves mapped from the position but not legal" in f.message
        assert "mapped:" in f.message and f.position

    def test_a_quarter_turn_is_checked_only_on_a_square_board(self):
        """Breakthrough's pieces move forward: a quarter turn is no symmetry. On a square board that
        is caught; on a board that is not square the quarter turn does not apply (nothing to check)."""
        text = with_examples('symmetry "q": rotate 90\n', _strip(BREAKTHROUGH))
        assert run_symmetries(load("b.rules", {"width": 6, "height": 6}, text=text), games=1, max_plies=2)
        assert run_symmetries(load("b.rules", {"width": 6, "height": 7}, text=text), games=1, max_plies=2) == []

    def test_an_outcome_that_does_not_correspond_is_caught(self):
        """Stacktics with the capture win always given to south: a position north has won maps,
        armies swapped, to one south has won, whose result is south's, not north's."""
        rules = BASE.replace('win p "captured half', 'win south "captured half')
        text = with_examples('symmetry "armies": swap south north\n', rules)
        game = game_of(text)
        [decl] = declarations(game)[1]
        won = game.position("south 20 | a1=S3S1 b2=N1 e5=N3N2N1 | prisoners.north=S3S3S2S1")
        why = SymmetryMap(game, decl).differs(won)
        assert why is not None and why.startswith("the outcome is win south=1, north=0")
        assert SymmetryMap(game, decl).differs(game.new()) is None


class TestCheckCounts:
    def test_check_counts_examples_and_symmetries(self, tmp_path):
        path = tmp_path / "t.rules"
        path.write_text(with_examples('example "a":\n    moves: 31\n\nexample "b":\n    moves: 31\n\n'
                                      'symmetry "m": mirror files\n'))
        result = CliRunner().invoke(cli, ["check", str(path)])
        assert result.exit_code == 0
        assert f"{path}: ok; 2 examples and 1 symmetry for ziggurat test" in result.output


class TestNotPartOfTheGame:
    def test_the_generated_module_is_the_same_with_or_without_examples(self):
        plain = game_of(BASE, "same.rules")
        declared = game_of(STACKTICS, "same.rules")
        assert plain.source == declared.source


# By name, the rulesets without examples skipped in the test: loading and reading every shipped
# ruleset when the tests are collected cost each worker of pytest-xdist seconds.
@pytest.mark.parametrize("name", shipped_names())
def test_every_shipped_rulesets_examples_and_symmetries_hold(name):
    game = load(name)
    if count(game) == (0, 0):
        pytest.skip(f"{name} declares no examples or symmetries")
    assert [f.render() for f in run_examples(game)] == []
    assert [f.render() for f in run_symmetries(game, games=2, max_plies=40)] == []
