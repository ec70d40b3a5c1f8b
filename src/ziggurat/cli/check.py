"""`ziggurat check`: every mistake in one or more rulesets, shown for people or as JSON."""

from __future__ import annotations

import click

from ..dsl.checks import check as check_ruleset
from .options import echo_json, json_option, set_option


@click.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@set_option
@json_option
@click.pass_context
def check(ctx, files, options, as_json):
    """Check rulesets; exit 1 if any has an error (warnings alone pass)."""
    found = [(f, check_ruleset(f, options=options or None)) for f in files]
    errors = sum(d.severity == "error" for _, diags in found for d in diags)
    if as_json:
        echo_json([d.as_dict() for _, diags in found for d in diags])
    else:
        for name, diags in found:
            for d in diags:
                click.echo(d.render())
                click.echo()
            n_err = sum(d.severity == "error" for d in diags)
            n_warn = len(diags) - n_err
            if n_err:
                click.echo(f"{name}: {n_err} error{'s' * (n_err != 1)}, {n_warn} warning{'s' * (n_warn != 1)}")
            else:
                click.echo(f"{name}: ok" + (f" ({n_warn} warning{'s' * (n_warn != 1)})" if n_warn else ""))
    ctx.exit(1 if errors else 0)
