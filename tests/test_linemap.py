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
