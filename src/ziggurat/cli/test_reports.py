"""`ziggurat test --coverage` and `ziggurat test --design`: the reports, as rich tables or JSON.

The work is in ziggurat.proptest.coverage (`rule_coverage`) and ziggurat.proptest.design
(`design_lints`); this module draws what they return. Both reports exit 0: a dead rule or a
forced win is a design smell to look at, not a broken ruleset.
"""

from __future__ import annotations

import json

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

# Games played for a report when --max-plies is not given: long enough for most games to end,
# since an ending reached only late is not "never reached".
REPORT_MAX_PLIES = 500


def report_options(f):
    """The options of the two reports, added to `ziggurat test`."""
    for option in reversed([
        click.option("--coverage", is_flag=True,
                     help="Report rule coverage instead: what each rules line did over -n random games "
                          "(actions listed and played, conditions held and refused, endings), and what never fired."),
        click.option("--design", is_flag=True,
                     help="Run the design lints instead: a forced win from the start, a first move that wins "
                          "most games, a rule without effect, a game that cannot end."),
        click.option("--json", "as_json", is_flag=True, help="With --coverage, --design or --mutants: print JSON."),
        click.option("--budget", type=click.FloatRange(min=0.1), default=60.0, show_default=True,
                     help="With --design: seconds for all the lints together. With --mutants: seconds after which "
                          "no mutant starts (default there: no limit)."),
        click.option("--depth", type=click.IntRange(1, 40), default=6, show_default=True,
                     help="With --design: the longest forced win looked for, in plies."),
        click.option("--agent", default="mcts:iterations=200", show_default=True, metavar="SPEC",
                     help="With --design: the strong agent whose first moves are counted."),
    ]):
        f = option(f)
    return f


def run_report(ctx, ruleset: str, games: int, max_plies: int, seed, options: dict, *, coverage: bool,
               design: bool, as_json: bool, budget: float, depth: int, agent: str) -> None:
    """Print the coverage report and/or the design lints of a ruleset; exit 0."""
    if ctx.get_parameter_source("max_plies") == click.core.ParameterSource.DEFAULT:
        max_plies = REPORT_MAX_PLIES
    out: dict = {}
    console = Console(stderr=True)
    if coverage:
        from ..proptest.coverage import rule_coverage

        with console.status(f"coverage of {escape(ruleset)}: {games} games"):
            out["coverage"] = rule_coverage(ruleset, games=games, max_plies=max_plies, seed=seed, options=options)
    if design:
        from ..agents import parse_spec
        from ..proptest.design import design_lints

        parse_spec(agent)  # a mistake in the agent is said before the lints start
        with console.status(f"design lints of {escape(ruleset)} (up to {budget:g} s)"):
            out["design"] = design_lints(ruleset, options=options, plies=depth, budget=budget, agent=agent,
                                         games=min(games, 50), random_games_n=games, max_plies=max_plies, seed=seed)
    if as_json:
        click.echo(json.dumps({k: v.to_json() for k, v in out.items()}, indent=2))
        ctx.exit(0)
    stdout = Console(highlight=False)
    if "coverage" in out:
        print_coverage(stdout, out["coverage"])
    if "design" in out:
        print_design(stdout, out["design"])
    ctx.exit(0)


def print_coverage(console: Console, report) -> None:
    table = Table(title=Text(f"rule coverage of {report.ruleset}: {report.games} random games, "
                             f"{report.positions:,} positions"
                             + (f", {report.unfinished} cut at the ply limit" if report.unfinished else "")))
    table.add_column("rules line", no_wrap=True)
    table.add_column("construct")
    table.add_column("fired", justify="right")
    table.add_column("rule")
    for row in report.rows:
        counts = ", ".join(f"{k} {v:,}" for k, v in row.counts.items())
        style = "bold red" if row.never else ""
        table.add_row(row.where, row.construct, Text(counts, style=style), Text(row.text[:60]))
    console.print(table)
    never = report.never()
    if not never:
        console.print("every rule fired: nothing never fired")
        return
    console.print(Text(f"never fired ({sum(len(r.never) for r in never)}):", style="bold"))
    for row in never:
        for note in row.never:
            console.print(Text.assemble((row.where, "bold"), f" {row.construct} `{row.text[:50]}`: {note}"))


def print_design(console: Console, report) -> None:
    console.print(Text(f"design lints of {report.ruleset}", style="bold"))
    if not report.findings:
        console.print("no design lint found anything")
    for f in report.findings:
        console.print(Text.assemble(("! ", "bold red"), (f.lint, "bold"), f": {f.title}"))
        for line in f.evidence:
            console.print(Text(f"    {line}"))
    for lint, what in report.checked.items():
        console.print(Text(f"  checked {lint}: {what}", style="dim"))
