"""A rule that fails while the game runs is reported at its rules line, not as a traceback."""

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
        """top() of an empty cell fails at run time; the diagnostic names line 10 of the file."""
        path = tmp_path / "bad.rules"
        path.write_text(RULES)
        game = ziggurat.load(str(path))
        state = game.new()
        try:
            state.moves()
        except IndexError as e:
            d = rules_diagnostic(e)
        else:
            raise AssertionError("the broken rule did not fail")
        assert (d.path, d.line, d.col) == (str(path), 10, 5)
        assert "IndexError" in d.message and "to: cells where top(to)" in d.render()

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
