"""The `ziggurat` entry point: the command group and the error policy.

Errors never show a traceback: a ZigguratError prints `error: ...` (every diagnostic, for a broken
ruleset) and exits 1; click's usage errors exit 2; anything unexpected prints `internal error: ...`
and exits 3.
"""

from __future__ import annotations

import os
import sys

import click

import ziggurat

from . import check, explore, info, lsp, play, proptest, render, replay, solve, simulate
from . import serve

EXIT_ERROR, EXIT_INTERNAL = 1, 3


class ZigguratGroup(click.Group):
    """A click group that turns exceptions into messages and exit codes."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
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
            from ..interpreter.linemap import rules_diagnostic

            diagnostic = rules_diagnostic(e)
            if diagnostic is not None:  # a rule that fails at run time: point at the rule
                click.echo(diagnostic.render(), err=True)
                ctx.exit(EXIT_ERROR)
            click.echo(f"internal error: {type(e).__name__}: {e} (please report this)", err=True)
            ctx.exit(EXIT_INTERNAL)


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


for command in (check.check, explore.moves, explore.perft, explore.show, info.compile_, info.rulesets,
                proptest.test, play.play, solve.solve, solve.census, solve.match, simulate.simulate,
                render.render, replay.replay, lsp.lsp):
    cli.add_command(command)
cli.add_command(serve.serve)


def main(argv=None):
    """The console script."""
    return cli.main(args=argv, prog_name="ziggurat")
