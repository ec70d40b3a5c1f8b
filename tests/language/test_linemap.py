"""A rule that fails while the game runs is reported at its rules line, not as a traceback."""

import pytest
from click.testing import CliRunner

import ziggurat
from ziggurat.cli.main import cli
from ziggurat.interpreter.linemap import rules_diagnostic

RULES = """\
players a, b
board:
    files: 3
    ranks: 1
piece:
    owner: players
setup:
    place(piece(a), cells[1])
action jump "{to}":
    to: cells where top(to).owner == mover
    do:
        move(to, 1, to)
"""


class TestLineMap:
    def test_failure_in_generated_code_points_at_the_rule(self, tmp_path):
        """top() of an empty cell fails at run time; the API raises a RulesetError at line 10."""
        path = tmp_path / "bad.rules"
        path.write_text(RULES)
        state = ziggurat.load(str(path)).new()
        with pytest.raises(ziggurat.RulesetError) as e:
            state.moves()
        d = e.value.diagnostics[0]
        assert (d.path, d.line, d.col) == (str(path), 10, 5)
        assert "IndexError" in d.message and "to: cells where top(to)" in d.render()

    def test_perft_reports_it_too(self, tmp_path):
        """perft, which calls the generated functions directly, reports the same rule."""
        path = tmp_path / "bad.rules"
        path.write_text(RULES)
        with pytest.raises(ziggurat.RulesetError, match="failed while the game ran"):
            ziggurat.perft(ziggurat.load(str(path)).new(), 2)

    def test_cli_reports_the_rule_and_no_traceback(self, tmp_path):
        """`ziggurat moves` on the broken rule exits 1 with file:line and no traceback."""
        path = tmp_path / "bad.rules"
        path.write_text(RULES)
        result = CliRunner().invoke(cli, ["moves", str(path)])
        assert result.exit_code == 1
        assert f"{path}:10:5" in result.output and "Traceback" not in result.output

    def test_exceptions_outside_generated_code_are_not_claimed(self):
        """An error raised elsewhere gets no rules diagnostic."""
        try:
            raise ValueError("elsewhere")
        except ValueError as e:
            assert rules_diagnostic(e) is None


class TestVariants:
    def test_a_failure_in_the_base_is_shown_from_the_base_file(self, tmp_path):
        """A rule of a base ruleset that fails while a variant is played is reported at the base
        file's line, with the base file's text (the variant's own lines are elsewhere)."""
        (tmp_path / "bad.rules").write_text(RULES)
        variant = tmp_path / "variant.rules"
        variant.write_text('# A variant: its line 10 is a comment, not the broken rule.\n' * 12
                           + 'extends "bad.rules"\ngame "Variant"\n')
        state = ziggurat.load(str(variant)).new()
        with pytest.raises(ziggurat.RulesetError) as e:
            state.moves()
        d = e.value.diagnostics[0]
        assert (d.path, d.line, d.col) == (str(tmp_path / "bad.rules"), 10, 5)
        assert d.source_line.strip() == "to: cells where top(to).owner == mover"

    def test_a_failure_in_the_variant_is_shown_from_the_variant(self, tmp_path):
        """A rule the variant itself adds is reported in the variant file."""
        (tmp_path / "base.rules").write_text(RULES.replace("top(to).owner == mover", "empty(to)"))
        variant = tmp_path / "variant.rules"
        variant.write_text('extends "base.rules"\n\noverride action jump "{to}":\n'
                           '    to: cells where top(to).owner == mover\n    do:\n        move(to, 1, to)\n')
        with pytest.raises(ziggurat.RulesetError) as e:
            ziggurat.load(str(variant)).new().moves()
        d = e.value.diagnostics[0]
        assert (d.path, d.line) == (str(variant), 4)
