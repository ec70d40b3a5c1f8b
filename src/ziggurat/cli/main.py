"""The `ziggurat` entry point: the command group and the error policy.

Errors never show a traceback: a ZigguratError prints `error: ...` (every diagnostic, for a broken
ruleset) and exits 1; click's usage errors exit 2; anything unexpected prints `internal error: ...`
and exits 3. Ctrl-C, whenever it comes (while the arguments are read, the command is loaded or it
works), exits 130 with one line, `interrupted (Ctrl-C)`, unless the command says more itself
(`simulate` and `test` do); click's own `Aborted!` and exit 1 are never reached.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import os
import sys

import click

import ziggurat

EXIT_ERROR, EXIT_INTERNAL, EXIT_INTERRUPTED = 1, 3, 130

# The commands: name -> (module of this package, function). A command's module is imported when
# the command runs, so `ziggurat --help` loads no engine; the help lists each command's first line
# read from its module's source.
COMMANDS = {
    "census": ("solve", "census"), "check": ("check", "check"), "compile": ("info", "compile_"),
    "lsp": ("lsp", "lsp"), "match": ("solve", "match"), "moves": ("explore", "moves"),
    "perft": ("explore", "perft"), "play": ("play", "play"), "render": ("render", "render"),
    "replay": ("replay", "replay"), "rulesets": ("info", "rulesets"), "serve": ("serve", "serve"),
    "show": ("explore", "show"), "simulate": ("simulate", "simulate"), "solve": ("solve", "solve"),
    "test": ("proptest", "test"),
}


def command_help(module: str, function: str) -> str:
    """The help text of a command function, read from its module's source without importing it."""
    spec = importlib.util.find_spec(f"{__package__}.{module}")
    with open(spec.origin, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    node = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == function)
    return (ast.get_docstring(node) or "").split("\f")[0]


class ZigguratGroup(click.Group):
    """A click group that loads each command when it is used, and turns exceptions into messages
    and exit codes."""

    def list_commands(self, ctx):
        return sorted(set(COMMANDS) | set(self.commands))

    def get_command(self, ctx, name):
        if name in self.commands:
            return self.commands[name]
        if name not in COMMANDS:
            return None
        module, function = COMMANDS[name]
        return getattr(importlib.import_module(f".{module}", __package__), function)

    def format_commands(self, ctx, formatter):
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = []
        for name in names:
            if name in self.commands:
                rows.append((name, self.commands[name].get_short_help_str(limit)))
            else:
                # An unloaded command's help, shortened by click's own rule (a stand-in command).
                rows.append((name, click.Command(name, help=command_help(*COMMANDS[name])).get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def main(self, *args, **kwargs):
        try:
            return super().main(*args, **kwargs)
        except KeyboardInterrupt:  # before click reads the arguments or after the command ended
            click.echo("interrupted (Ctrl-C)", err=True)
            sys.exit(EXIT_INTERRUPTED)

    def make_context(self, *args, **kwargs):
        try:
            return super().make_context(*args, **kwargs)
        except KeyboardInterrupt:  # while the group's own arguments are read
            interrupted()

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except KeyboardInterrupt:  # while the command is loaded, reads its arguments or works
            interrupted()
        except BrokenPipeError:  # `ziggurat moves ... | head`: the reader left, so stop quietly
            _silence_stdout()
            ctx.exit(EXIT_ERROR)
        except ziggurat.RulesetError as e:
            for d in e.diagnostics:
                click.echo(d.render(), err=True)
            n = len(e.diagnostics)
            click.echo(f"error: the ruleset has {n} problem{'s' if n != 1 else ''}", err=True)
            ctx.exit(EXIT_ERROR)
        except ziggurat.ZigguratError as e:
            click.echo(f"error: {e}", err=True)
            ctx.exit(EXIT_ERROR)
        except Exception as e:  # the policy: never a traceback, even for our own bugs
            from ..interpreter.linemap import native_fault, rules_diagnostic

            diagnostic = rules_diagnostic(e)
            if diagnostic is not None:  # a rule that fails at run time: point at the rule
                click.echo(diagnostic.render(), err=True)
                ctx.exit(EXIT_ERROR)
            fault = native_fault(e)
            if fault is not None:  # the same in native code, which cannot point at the rule
                click.echo(f"error: {fault}", err=True)
                ctx.exit(EXIT_ERROR)
            click.echo(f"internal error: {type(e).__name__}: {e} (please report this)", err=True)
            ctx.exit(EXIT_INTERNAL)


def interrupted():
    """Ctrl-C's end: one line, then exit 130 through click's Exit (a command's `finally` and `with`
    blocks have run by then: what it writes is written whole or not at all, see outputs.py)."""
    click.echo("interrupted (Ctrl-C)", err=True)
    raise click.exceptions.Exit(EXIT_INTERRUPTED)


def _silence_stdout() -> None:
    """Point stdout at devnull so Python's final flush does not complain about the closed pipe."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


@click.group(cls=ZigguratGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(ziggurat.__version__, prog_name="ziggurat")
def cli():
    """Ziggurat: write a game as a .rules file, check it, explore it, test it and play it.

    Every command takes a ruleset by shipped name (see `ziggurat rulesets`) or by path.
    """



def main(argv=None):
    """The console script."""
    return cli.main(args=argv, prog_name="ziggurat")
