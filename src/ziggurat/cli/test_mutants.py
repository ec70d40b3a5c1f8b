"""`ziggurat test --mutants`: mutation testing of a ruleset, run and drawn (a rich table or JSON).

The work is in ziggurat.proptest.mutants (the mutants) and ziggurat.proptest.mutants_run (the
tests on each, the workers, the journal). The report exits 0 (surviving mutants are gaps in the
ruleset's tests to look at, not a broken ruleset); Ctrl-C or SIGTERM stops at once, prints what was
done and exits 130 or 143, and `--resume` goes on from the journal.
"""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from .interrupts import EXIT_CODES, Interrupts

# With --mutants, what -n and --max-plies mean when not given: the seeded random games on which
# each mutant's invariants are checked, kept few and short so that a mutant costs little.
MUTANT_GAMES = 4
MUTANT_PLIES = 40


def mutant_options(f):
    """The options of `--mutants`, added to `ziggurat test`."""
    for option in reversed([
        click.option("--mutants", is_flag=True,
                     help="Mutation testing instead: make one-place changes to the rules (comparisons, arithmetic, "
                          "constants, conditions, effects, players, directions, piece values), run the ruleset's "
                          "examples, invariants (on -n seeded games, 4 by default), symmetries and pinned perft on "
                          "each, and report the score and the mutants that survive."),
        click.option("--mutants-limit", type=click.IntRange(1), default=None, metavar="N",
                     help="With --mutants: a seeded sample of N mutants (default: all)."),
        click.option("--mutants-seed", type=int, default=0, show_default=True,
                     help="With --mutants: the seed of the --mutants-limit sample."),
        click.option("--mutants-depth", type=click.IntRange(1, 8), default=3, show_default=True,
                     help="With --mutants: a surviving mutant whose perft (and outcomes) to this depth from the "
                          "start and every example's position equal the original's is shown as equivalent."),
        click.option("--mutants-journal", type=click.Path(dir_okay=False), default=None, metavar="FILE",
                     help="With --mutants: keep the results in FILE as they come, for --resume "
                          "(default: a file in the cache folder named for the ruleset and the settings)."),
        click.option("--resume", is_flag=True,
                     help="With --mutants: keep the results in the journal, run only the mutants not done."),
        click.option("--workers", "-w", type=click.IntRange(1), default=None,
                     help="With --mutants: worker processes (default: one per core)."),
    ]):
        f = option(f)
    return f


def run_mutants_report(ctx, ruleset: str, games: int, max_plies: int, seed, options: dict, *, as_json: bool,
                       budget, limit, mutants_seed: int, depth: int, journal, resume: bool, workers) -> None:
    """Run the mutants of a ruleset and print the report; exit 0 (130 or 143 when interrupted)."""
    from ..interpreter.games import load
    from ..lab.runner import run_batches
    from ..proptest.mutants_run import Settings, default_journal, run_mutants

    source = click.core.ParameterSource.DEFAULT
    if ctx.get_parameter_source("examples") == source:
        games = MUTANT_GAMES
    if ctx.get_parameter_source("max_plies") == source:
        max_plies = MUTANT_PLIES
    if ctx.get_parameter_source("budget") == source:
        budget = None
    settings = Settings(games=games, max_plies=max_plies, seed=seed or 0, depth=depth, limit=limit,
                        mutants_seed=mutants_seed)
    path, text = load(ruleset, options).rules[-1]
    journal = journal or default_journal(path, options, settings, text)
    if resume and journal is None:
        raise click.UsageError("--resume needs a journal: give --mutants-journal FILE (the cache folder is off)")
    console = Console(stderr=True)
    with Interrupts() as interrupts:
        with console.status(f"mutants of {escape(ruleset)}") as status:
            def progress(done: int, total: int) -> None:
                status.update(f"mutants of {escape(ruleset)}: {done} of {total} done")

            report = run_mutants(ruleset, options=options, settings=settings, workers=workers, budget=budget,
                                 journal=journal, resume=resume, progress=progress, spread=run_batches)
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2))
    else:
        print_mutants(Console(highlight=False), report)
    if report.interrupted:
        click.echo(f"interrupted ({interrupts.received or 'Ctrl-C'}): {len(report.rows)} mutants done; "
                   "--resume goes on from the journal", err=True)
        ctx.exit(EXIT_CODES[interrupts.received or "Ctrl-C"])
    ctx.exit(0)


def print_mutants(console: Console, report) -> None:
    name = Path(report.path).name
    killed, survived = report.count("killed"), report.count("survived")
    equivalent, stillborn = report.count("equivalent"), report.count("stillborn")
    score = "n/a" if report.score is None else f"{report.score:.0%}"
    console.print(Text(f"mutation score of {name}: {score} ({killed} killed of {killed + survived} that count)",
                       style="bold"))
    sample = f" (a sample of {report.settings.limit}, seed {report.settings.mutants_seed})" \
        if report.settings.limit and report.settings.limit < report.total else ""
    console.print(f"{report.total} mutants{sample}; {len(report.rows)} run ({report.resumed} from the journal): "
                  f"{killed} killed, {survived} survived, {equivalent} equivalent, {stillborn} stillborn "
                  "(do not load or check)" + (f"; {report.undone} not run (the budget or an interrupt)"
                                              if report.undone else ""))
    by = report.killed_by()
    if by:
        table = Table(title="killed by")
        table.add_column("test")
        table.add_column("mutants", justify="right")
        for kind, n in sorted(by.items(), key=lambda kv: -kv[1]):
            table.add_row(kind, str(n))
        console.print(table)
    for title, rows in (("survivors", report.survivors()), ("equivalent (same perft to depth D)",
                                                             report.equivalents())):
        if not rows:
            continue
        table = Table(title=f"{title} ({len(rows)})")
        table.add_column("where", no_wrap=True)
        table.add_column("operator")
        table.add_column("original")
        table.add_column("changed to")
        if title != "survivors":
            table.add_column("why")
        for m, r in rows:
            original, changed = m.shown()
            cells = [f"{name}:{m.line}:{m.col}", m.operator, Text(original[:60]), Text(changed[:40])]
            table.add_row(*cells, *([r["detail"]] if title != "survivors" else []))
        console.print(table)
    if not report.survivors():
        console.print("no mutant survived" if report.rows else "no mutant was run")
    if report.journal:
        console.print(Text(f"journal: {report.journal}", style="dim"))
