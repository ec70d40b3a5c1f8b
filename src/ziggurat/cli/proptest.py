"""`ziggurat test`: property-test a ruleset (engine invariants and the file's own) with Hypothesis."""

from __future__ import annotations

import click
from rich.console import Console
from rich.markup import escape

from .interrupts import EXIT_CODES, Interrupts
from .options import ruleset_argument, set_option
from .test_mutants import mutant_options, run_mutants_report
from .test_reports import report_options, run_report


@click.command()
@ruleset_argument
@click.option("--examples", "-n", type=click.IntRange(1), default=50, show_default=True,
              help="Random games to try.")
@click.option("--max-plies", type=click.IntRange(1), default=60, show_default=True,
              help="Longest game to try.")
@click.option("--seed", type=int, default=None, help="Seed for a repeatable run.")
@set_option
@report_options
@mutant_options
@click.pass_context
def test(ctx, ruleset, examples, max_plies, seed, options, coverage, design, as_json, budget, depth, agent,
         mutants, mutants_limit, mutants_seed, mutants_depth, mutants_journal, resume, workers):
    """Property-test a ruleset: its examples and symmetries, and every invariant on reachable positions;
    exit 1 on a failure."""
    if mutants:  # mutation testing (cli/test_mutants.py)
        return run_mutants_report(ctx, ruleset, examples, max_plies, seed, options, as_json=as_json, budget=budget,
                                  limit=mutants_limit, mutants_seed=mutants_seed, depth=mutants_depth,
                                  journal=mutants_journal, resume=resume, workers=workers)
    if coverage or design:  # reports instead of the property tests (cli/test_reports.py)
        return run_report(ctx, ruleset, examples, max_plies, seed, options, coverage=coverage, design=design,
                          as_json=as_json, budget=budget, depth=depth, agent=agent)
    seen = {"positions": 0}
    report = None
    with Interrupts() as interrupts:  # from the start: Hypothesis takes a while to import
        try:
            try:
                from ..proptest import run_properties  # Hypothesis is slow to import: only when asked
            except ModuleNotFoundError as e:
                if e.name != "ziggurat.proptest":
                    raise
                raise click.ClickException("property testing (ziggurat.proptest) is not installed") from None
            with Console(stderr=True).status(f"testing {escape(ruleset)}") as status:
                def progress(n):
                    seen["positions"] = n
                    interrupts.check()  # a Ctrl-C that Hypothesis's own callbacks swallowed is raised here
                    status.update(f"testing {escape(ruleset)}: {n} positions")

                report = run_properties(ruleset, options=options or None, examples=examples,
                                        max_plies=max_plies, seed=seed, progress=progress)
        except KeyboardInterrupt:
            report = None
    if report is None:
        click.echo(f"interrupted ({interrupts.received or 'Ctrl-C'}): {seen['positions']} positions checked, "
                   "no property failed so far", err=True)
        ctx.exit(EXIT_CODES[interrupts.received or "Ctrl-C"])
    declared = _declared(report)
    if report.ok:
        click.echo(f"ok: {report.examples} examples, {report.positions} positions, no property failed"
                   + (f"; the rules' {declared} hold{'s' * (sum(report.declared) == 1)}" if declared else ""))
        ctx.exit(0)
    rules_failures = getattr(report, "rules_failures", [])
    for failure in rules_failures + report.failures:
        click.echo(failure.render())
        click.echo()
    n = len(report.failures)
    failed = [f"{n} propert{'ies' if n != 1 else 'y'}"] * bool(n or not rules_failures)
    if rules_failures:
        failed.append(f"{len(rules_failures)} line{'s' * (len(rules_failures) != 1)} of the rules' {declared}")
    click.echo(f"FAILED: {' and '.join(failed)} failed ({report.examples} examples, {report.positions} positions)")
    ctx.exit(1)


def _declared(report) -> str:
    """'3 examples and 1 symmetry' that the ruleset declares ('' for none)."""
    n_ex, n_sym = getattr(report, "declared", (0, 0))
    parts = [f"{n_ex} example{'s' * (n_ex != 1)}"] * bool(n_ex) + \
        [f"{n_sym} symmetr{'ies' if n_sym != 1 else 'y'}"] * bool(n_sym)
    return " and ".join(parts)
