"""Quick starts: `ziggurat --help` loads no engine, and a game from the cache loads no compiler.

Import times are measured in the benchmark, not here (a timed test would fail on a busy machine);
these tests check what is imported, which is what makes the start quick.
"""

from __future__ import annotations

import subprocess
import sys

import click

from ziggurat.cli import main as cli_main


def modules_after(code: str) -> set:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys\nprint(' '.join(sorted(sys.modules)))"],
                         capture_output=True, text=True, check=True)
    return set(out.stdout.split())


class TestHelp:
    def test_help_imports_no_engine(self):
        """The command list comes from the commands' sources: no compiler, runtime, lark or rich."""
        code = ("from ziggurat.cli.main import cli\n"
                "try:\n    cli.main(['--help'], standalone_mode=False)\nexcept SystemExit:\n    pass")
        loaded = modules_after(code)
        for heavy in ("ziggurat.interpreter.runtime", "ziggurat.dsl.parser", "lark", "rich", "matplotlib"):
            assert heavy not in loaded, heavy

    def test_help_lines_are_the_commands_own(self):
        """Each line of the lazy listing is what the loaded command says of itself."""
        ctx = click.Context(cli_main.cli)
        for name, (module, function) in cli_main.COMMANDS.items():
            command = cli_main.cli.get_command(ctx, name)
            assert command is not None and command.name == name
            stand_in = click.Command(name, help=cli_main.command_help(module, function))
            assert stand_in.get_short_help_str(200) == command.get_short_help_str(200)

    def test_an_unknown_command_is_named(self):
        out = subprocess.run([sys.executable, "-m", "ziggurat", "plya"], capture_output=True, text=True)
        assert out.returncode == 2 and "No such command 'plya'" in out.stderr


class TestLoading:
    def test_a_cached_game_loads_without_the_compiler(self):
        """Once a game is in the cache, loading it in a new process imports neither the compiler
        nor the parser."""
        import ziggurat

        ziggurat.load("tic-tac-toe")  # in the cache now
        loaded = modules_after("import ziggurat\nziggurat.load('tic-tac-toe').new()")
        for heavy in ("ziggurat.interpreter.compile", "ziggurat.dsl.parser", "ziggurat.dsl.fold", "lark"):
            assert heavy not in loaded, heavy

    def test_import_ziggurat_is_light(self):
        loaded = modules_after("import ziggurat")
        assert "ziggurat.interpreter.runtime" not in loaded and "ziggurat.interpreter.games" not in loaded
