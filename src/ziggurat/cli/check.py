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
                click.echo(f"{name}: ok" + (f" ({n_warn} warning{'s' * (n_warn != 1)})" if n_warn else "")
                           + _declared(name, options))
    ctx.exit(1 if errors else 0)


def _declared(name: str, options) -> str:
    """', 3 examples and 1 symmetry for ziggurat test' ('' when the ruleset declares none)."""
    from ..dsl.examples import declared
    from ..dsl.loader import load_model
    from ..errors import GameError, RulesetError

    try:
        n_ex, n_sym = map(len, declared(load_model(name)))
    except (GameError, RulesetError):  # only after a clean check: cannot happen, but never a traceback
        return ""
    parts = [f"{n_ex} example{'s' * (n_ex != 1)}"] * bool(n_ex) + \
        [f"{n_sym} symmetr{'ies' if n_sym != 1 else 'y'}"] * bool(n_sym)
    return f"; {' and '.join(parts)} for ziggurat test" if parts else ""
