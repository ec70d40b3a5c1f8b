"""`ziggurat simulate`: many games between agents, with balance statistics, files and plots.

    ziggurat simulate mygame -n 200 --agents mcts,random
    ziggurat simulate mygame -n 100 --agents mcts,mcts --variant size=2,pie=false --variant size=2
    ziggurat simulate mygame -n 100 --vs mygame-variant.rules --set size=2 --json

Runs on every local core by default (`--workers`), or on a Dask cluster (`--cluster ADDRESS` or
`--scheduler-file FILE`); the same seed gives the same numbers either way.

Faults: every output path is tried before the first game; files are written whole or not at all
(`ziggurat.outputs`); finished games go to a journal as they finish, so Ctrl-C or SIGTERM stops at
once, writes the games done (marked partial) and exits 130 or 143, and `--resume` goes on from the
journal with exactly the games an uninterrupted run would have played.
"""

from __future__ import annotations

import csv
import json
import shlex
from pathlib import Path

import attrs
import click
from rich.console import Console
from rich.markup import escape
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn,
                           TimeElapsedColumn, TimeRemainingColumn)
from rich.table import Table
from rich.text import Text

import ziggurat

from ..lab import report, runner, stats, study
from ..lab.journal import Journal, JournalWriteError
from ..lab.table import Finished
from ..agents import AGENTS
from ..outputs import atomic_open, check_writable, write_text
from .backend import GAME_SECONDS, backend_option, choose, only_random
from .interrupts import EXIT_CODES, Interrupts
from .options import parse_sets, ruleset_argument, set_option


class RateColumn(ProgressColumn):
    """Games per second."""

    def render(self, task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("-- games/s" if speed is None else f"{speed:.2f} games/s", style="cyan")


def _parse_variants(ctx, param, values) -> list:
    """`--variant "size=2,pie=false"` -> [{'size': '2', 'pie': 'false'}, ...]."""
    out = []
    for v in values:
        parts = [p for p in v.split(",") if p.strip()]
        if not parts:
            raise click.BadParameter(f"{v!r} sets no option (write --variant size=2,pie=false)")
        out.append(parse_sets(ctx, param, parts))
    return out


def _parse_agents(ctx, param, value) -> tuple | None:
    if value is None:
        return None
    agents = tuple(a.strip() for a in value.split(",") if a.strip())
    if not agents:
        raise click.BadParameter(f"no agent in {value!r} (the agents are {', '.join(AGENTS)})")
    return agents




@click.command()
@ruleset_argument
@click.option("-n", "--games", type=click.IntRange(1), default=100, show_default=True,
              help="Games per study (per variant).")
@click.option("--agents", callback=_parse_agents, metavar="A,B[,...]",
              help="One agent per seat: random, greedy, mcts[:iterations=N|:time=S], "
                   "alphabeta[:depth=D|:time=S]. Default: random in every seat.")
@set_option
@click.option("--variant", "variants", multiple=True, callback=_parse_variants, metavar="NAME=V,...",
              help="A variant to compare (repeatable): options on top of --set, e.g. 'size=2,pie=false'.")
@click.option("--vs", "others", multiple=True, metavar="RULESET",
              help="Another ruleset to compare with, played with the same agents and --set options (repeatable).")
@click.option("--seed", type=int, default=0, show_default=True, help="Study seed: the same seed, the same games.")
@click.option("--workers", "-w", type=click.IntRange(1), default=None,
              help="Local worker processes [default: every core].")
@click.option("--cluster", metavar="ADDRESS", default=None,
              help="Run on the Dask scheduler at ADDRESS (tcp://host:8786); needs the cluster extra.")
@click.option("--scheduler-file", type=click.Path(dir_okay=False), default=None,
              help="Run on the Dask cluster described by this scheduler file.")
@click.option("--worker-timeout", type=click.FloatRange(0, min_open=True), default=runner.WORKER_TIMEOUT,
              show_default=True, metavar="SECONDS",
              help="With --cluster or --scheduler-file: fail when the cluster has had no worker this long.")
@click.option("--max-plies", type=click.IntRange(1), default=study.DEFAULT_MAX_PLIES, show_default=True,
              help=f"Stop a game after this many plies (scored a draw, reason 'max plies (simulator)'); "
                   f"at most {study.MAX_PLIES_LIMIT:,}.")
@backend_option
@click.option("--rollout", type=click.Choice(["whole", "parts"]), default="whole", show_default=True,
              help="How --backend native draws random agents' moves: uniform over whole turns, or a turn part "
                   "by part (each choice uniform among the values that lead to a move: another random process).")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@click.option("--csv", "csv_file", type=click.Path(dir_okay=False), default=None,
              help="Write one row per game to this CSV file.")
@click.option("--plot", "plot_dir", type=click.Path(file_okay=False), default=None,
              help="Write PNG and SVG plots (game lengths, result rates with CIs) to this folder.")
@click.option("--report", "report_file", type=click.Path(dir_okay=False), default=None,
              help="Write a markdown study page (with the command that made it) to this file.")
@click.option("--title", default="", help="The title of the --report page.")
@click.option("--journal", "journal_file", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Keep finished games in FILE as they finish (JSON Lines), for --resume. Default: "
                   "beside the first of --csv, --report, --plot (CSV.journal, REPORT.journal, PLOT/simulate.journal), "
                   "removed when the study completes.")
@click.option("--resume", is_flag=True,
              help="Go on with an interrupted study: the games in its journal are kept, the others played.")
@click.pass_context
def simulate(ctx, ruleset, games, agents, options, variants, others, seed, workers, cluster, scheduler_file,
             worker_timeout, max_plies, backend, rollout, as_json, csv_file, plot_dir, report_file, title, journal_file,
             resume):
    """Play many games between agents and show balance statistics with 95% confidence intervals.

    Ctrl-C (or SIGTERM) stops at once: the games finished are written to the outputs, marked
    partial, and the exit code is 130 (143 for SIGTERM); --resume goes on from the journal.
    """
    if cluster and scheduler_file:
        raise click.UsageError("give --cluster or --scheduler-file, not both")
    if rollout != "whole" and backend != "native":
        raise click.UsageError(f"--rollout {rollout} is a policy of the native backend's random games: "
                               "add --backend native")
    if max_plies > study.MAX_PLIES_LIMIT:  # a game's moves stay in memory until it ends
        raise ziggurat.GameError(f"--max-plies {max_plies:,} is over the limit of {study.MAX_PLIES_LIMIT:,} plies "
                                 "(a game's moves are kept in memory until it ends)")
    if cluster or scheduler_file:
        runner.require_dask()  # before any file is made or game played
    journal_path, implicit = _journal_path(journal_file, csv_file, report_file, plot_dir)
    if resume and journal_path is None:
        raise click.UsageError("--resume needs a journal: give --journal FILE, or the --csv, --report or "
                               "--plot of the interrupted run (its journal is beside it)")
    # Every output is tried before any game is played: a long study does not fail at its end.
    for what, path, folder in (("--csv", csv_file, False), ("--report", report_file, False),
                               ("--plot", plot_dir, True), ("--journal", journal_path, False)):
        if path is not None:
            check_writable(path, what, folder=folder)
    studies = []
    for variant in variants or [{}]:
        studies.append((ruleset, {**options, **variant}))
    for other in others:
        studies.append((other, dict(options)))
    specs = []
    for rs, opts in studies:
        game = ziggurat.load(rs, opts or None)  # a bad ruleset or option stops here, with its message
        if rollout != "whole" and game.whole_turns is not None:  # native/turns.py draws whole turns only
            raise click.UsageError(f"--rollout {rollout} draws a move's choices one at a time; {rs} is played in "
                                   "whole turns, each drawn among those listed (--rollout whole)")
        spec_agents = agents or ("random",) * len(game.players)
        only_random(spec_agents, backend)
        spec = study.StudySpec(rs, tuple(spec_agents), games, opts, seed=seed, max_plies=max_plies)
        study.check_spec(spec)
        # A random game's moves are each backend's own: `auto` chooses by the study's size alone, so
        # that a page's command gives its games again whatever the machine's cache holds.
        if all(a == "random" for a in spec_agents) and choose(game, backend, games * GAME_SECONDS, quiet=as_json,
                                                                 loop="study_chunk", by_size=True) is not None:
            spec = attrs.evolve(spec, backend="native", rollout=rollout)
        specs.append((spec, game))
    notes = {spec.name: study.search_notes(spec, game) for spec, game in specs}  # before the clock starts
    for text in dict.fromkeys(t for ts in notes.values() for t in ts):
        click.echo(f"note: {text}", err=True)

    journal = Journal(journal_path, [spec for spec, _ in specs]) if journal_path is not None else None
    if journal is not None:
        ctx.call_on_close(journal.release)  # held to the end: the outputs are written from its games
    if resume and not journal.path.exists():
        click.echo(f"no journal at {journal.path}: the study starts from its first game", err=True)
    resumed = journal.start(resume) if journal is not None else [{} for _ in specs]
    done = [Finished(len(game.players), got) for (_, game), got in zip(specs, resumed)]
    client = runner.connect(cluster, scheduler_file) if (cluster or scheduler_file) else None
    console = Console(stderr=True)
    interrupted = None
    with Interrupts() as signals:
        try:
            with Progress(TextColumn("{task.description}", markup=False), BarColumn(), MofNCompleteColumn(),
                          RateColumn(), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                          console=console) as bar:
                tasks = [bar.add_task(spec.name, total=spec.games, completed=len(done[k]), start=False)
                         for k, (spec, _) in enumerate(specs)]
                for k, ((spec, _), task) in enumerate(zip(specs, tasks)):
                    bar.start_task(task)  # elapsed time and rate count from when this study starts

                    def keep(records, k=k, task=task):
                        done[k].add(records)
                        if journal is not None:
                            journal.add(k, records)
                        bar.advance(task, len(records))

                    study.run_study(spec, workers=workers, client=client, skip=done[k], on_records=keep,
                                  worker_timeout=worker_timeout,
                                  notice=lambda text: bar.console.print(f"note: {text}", markup=False,
                                                                        highlight=False, soft_wrap=True))
        except KeyboardInterrupt:
            interrupted = signals.received or "Ctrl-C"
            if journal is not None:
                journal.rewrite([d.by_index() for d in done])  # an append cut short by the signal is made whole
        except JournalWriteError:  # it says what the journal keeps; writing it again would fail again
            raise
        except ziggurat.GameError as e:  # e.g. a cluster with no worker left: say what is kept
            kept = sum(len(d) for d in done)
            if journal is None or not kept:
                raise
            journal.rewrite([d.by_index() for d in done])
            raise ziggurat.GameError(f"{e}; the {kept} finished game{'s' if kept != 1 else ''} are kept in "
                                     f"{str(journal.path)!r}: the same command with --resume goes on") from None
        finally:
            if journal is not None:
                journal.close()
            if client is not None:
                client.close()

    kept = [(spec, game, done[k].table()) for k, (spec, game) in enumerate(specs)]
    kept = [(spec, game, records) for spec, game, records in kept if records]
    finished, planned = sum(len(r) for _, _, r in kept), sum(spec.games for spec, _ in specs)
    if not kept:
        click.echo(f"interrupted ({interrupted}) before any game finished: nothing written", err=True)
        ctx.exit(EXIT_CODES[interrupted])
    summaries = [stats.summarize(spec, records, game) for spec, game, records in kept]
    for summary, (spec, _, _) in zip(summaries, kept):
        if notes[spec.name]:
            summary["study"]["notes"] = notes[spec.name]
    all_records = [records for _, _, records in kept]

    if csv_file:
        with atomic_open(csv_file, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=report.CSV_FIELDS)
            writer.writeheader()
            for spec, _, records in kept:
                writer.writerows(report.csv_rows(spec, records))
    plots = report.plot(summaries, all_records, Path(plot_dir)) if plot_dir else []
    if report_file:
        path = Path(report_file)
        rel = [_relative(p, path.parent) for p in plots]
        unplayed = [(spec.name, spec.games) for k, (spec, _) in enumerate(specs) if not done[k]]
        write_text(path, report.report_markdown(summaries, _command(locals()), rel, title, unplayed))
    if journal is not None and implicit and interrupted is None:
        journal.remove()  # its games are in the outputs now

    if as_json:
        out = {"studies": summaries}
        if interrupted:
            out["partial"] = stats.partial_text(finished, planned)
        click.echo(json.dumps(out, indent=2))
    else:
        out = Console()
        if len(summaries) == 1:
            _show_one(out, summaries[0])
        else:
            _show_comparison(out, summaries)
        for p in ([csv_file] if csv_file else []) + [str(p) for p in plots] + ([report_file] if report_file else []):
            out.print(f"wrote {p}", markup=False, highlight=False)
    for summary in summaries:
        cut, count = summary["max_plies_cutoffs"], summary["study"]["games"]
        if cut:
            click.echo(f"note: {cut:,} of {count:,} games of {summary['study']['label']} were cut at --max-plies "
                       f"{max_plies:,} before their rules ended them (scored as draws): raise --max-plies "
                       f"to let them finish", err=True)
    if interrupted:
        resume_hint = (f"; go on with the same command and --resume (journal {journal.path})"
                       if journal is not None else "; give --journal FILE (or --csv) to be able to resume")
        click.echo(f"interrupted ({interrupted}): {stats.partial_text(finished, planned)} written{resume_hint}",
                   err=True)
        ctx.exit(EXIT_CODES[interrupted])


def _journal_path(journal_file, csv_file, report_file, plot_dir) -> tuple:
    """(the journal's path or None, whether it is the default one beside an output)."""
    if journal_file is not None:
        return Path(journal_file), False
    for f in (csv_file, report_file):
        if f is not None:
            return Path(f + ".journal"), True
    if plot_dir is not None:
        return Path(plot_dir) / "simulate.journal", True
    return None, False


def _relative(p: Path, folder: Path) -> str:
    try:
        return str(Path(p).resolve().relative_to(folder.resolve()))
    except ValueError:
        return str(p)


def _command(a: dict) -> str:
    """The command line that regenerates a study (for --report pages)."""
    words = ["ziggurat", "simulate", a["ruleset"], "-n", str(a["games"])]
    if a["agents"]:
        words += ["--agents", ",".join(a["agents"])]
    for k, v in a["options"].items():
        words += ["--set", f"{k}={v}"]
    for v in a["variants"]:
        words += ["--variant", ",".join(f"{k}={x}" for k, x in v.items())]
    for o in a["others"]:
        words += ["--vs", o]
    words += ["--seed", str(a["seed"]), "--max-plies", str(a["max_plies"])]
    if any(spec.backend == "native" for spec, _ in a["specs"]):  # the native backend's games are its own
        words += ["--backend", "native"]
    if a["rollout"] != "whole":
        words += ["--rollout", a["rollout"]]
    if a["plot_dir"]:
        words += ["--plot", a["plot_dir"]]
    words += ["--report", a["report_file"]]
    if a["title"]:
        words += ["--title", a["title"]]
    return shlex.join(words)


def _rate_cells(t: dict) -> list:
    return [str(t["games"]), str(t["wins"]), str(t["draws"]), str(t["losses"]),
            f"{t['score']:.3f}" if t["score"] is not None else "-", report.pct(t["win_rate"])]


def _show_one(out: Console, s: dict) -> None:
    st = s["study"]
    options = escape(", ".join(f"{k}={v}" for k, v in st["options"].items()))
    partial = f" [bold red]({escape(st['partial'])})[/bold red]" if st.get("partial") else ""
    out.print(f"[bold]{escape(st['title'])}[/bold] ({options}): {st['games']} games, seed {st['seed']}{partial}")
    cols = ["games", "wins", "draws", "losses", "score", "win rate [95% CI]"]
    points = "points" in s["agents"][0] if s["agents"] else False  # results in points: their mean too
    cols += ["points [95% CI]"] if points else []
    for heading, key, rows in (("Agents", "agent", s["agents"]), ("Seats (seat 0 moves first)", "seat", s["seats"]),
                               ("Sides (armies)", "side", s["sides"])):
        table = Table(title=heading, title_justify="left")
        table.add_column(key)
        for c in cols:
            table.add_column(c, justify="right")
        for r in rows:
            table.add_row(Text(str(r[key])), *_rate_cells(r), *([report.mean_text(r["points"])] if points else []))
        out.print(table)
    fp = s["first_player"]
    table = Table(title="Balance and shape", title_justify="left")
    table.add_column("statistic")
    table.add_column("value", justify="right")
    table.add_row("first player win rate", report.pct(fp["win_rate"]))
    table.add_row("first player, decisive games only", report.pct(fp["decisive_share"]))
    table.add_row("draws", report.pct(s["draws"]))
    table.add_row("cut at --max-plies", str(s["max_plies_cutoffs"]))
    ln = s["length"]
    table.add_row("length mean / median", f"{ln['mean']:.1f} / {ln['median']:g}")
    table.add_row("length std / min / max", f"{ln['std']:.1f} / {ln['min']} / {ln['max']}")
    table.add_row("branching (legal moves per position)", f"{s['branching']:.1f}" if s["branching"] else "-")
    table.add_row("passes (total, per game)", f"{s['passes']['total']}, {s['passes']['per_game']:.2f}")
    out.print(table)
    table = Table(title="Endings", title_justify="left")
    for c in ("kind", "reason", "games", "share"):
        table.add_column(c, justify="right" if c in ("games", "share") else "left")
    for e in s["endings"]:
        table.add_row(Text(e["kind"]), Text(e["reason"]), str(e["games"]), f"{100 * e['rate']:.1f}%")
    out.print(table)
    table = Table(title="Moves by action (nature's marked *)", title_justify="left")
    for c in ("action", "per game [95% CI]", "games using it [95% CI]"):
        table.add_column(c, justify="left" if c == "action" else "right")
    for a in s["actions"]:
        if a["games"]["k"]:
            table.add_row(Text(a["action"] + (" *" if a["chance"] else "")), report.mean_text(a["per_game"]),
                          report.pct(a["games"]))
    never = [a["action"] for a in s["actions"] if not a["games"]["k"]]
    if never:
        table.caption = Text("never made: " + ", ".join(never))
    out.print(table)
    if s["statistics"]:
        table = Table(title="The ruleset's statistics, on the last position (mean [95% CI])", title_justify="left")
        table.add_column("statistic")
        table.add_column("mean [95% CI]", justify="right")
        for st in s["statistics"]:
            table.add_row(Text(st["statistic"]), report.mean_text(st))
        out.print(table)


def _show_comparison(out: Console, summaries: list) -> None:
    table = Table(title="Comparison (rates with 95% Wilson intervals)", title_justify="left")
    table.add_column("")
    for s in summaries:
        table.add_column(Text(s["study"]["label"]), justify="right")
    for metric, cells in report.comparison_rows(summaries):
        table.add_row(Text(metric), *(Text(c) for c in cells))
    notes = [f"{s['study']['label']}: {s['study']['partial']}" for s in summaries if s["study"].get("partial")]
    if notes:
        table.caption = Text("; ".join(notes), style="bold red")
    out.print(table)
