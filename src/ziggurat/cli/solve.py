"""Exact answers and fair matches: `solve` (puzzles and small games), `census` (how many setups of
a puzzle are solvable) and `match` (one setup played once per seat rotation)."""

from __future__ import annotations

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from ..errors import GameError
from ..lab.solve import DEFAULT_MAX_NODES, MAX_NODES_LIMIT, MEMORY, SearchLimitExceeded
from .options import echo_json, json_option, load_game, load_state, position_option, ruleset_argument, set_option


def _search_status(console: Console, what: str):
    """A live status line for a search, and the progress callback that updates it."""
    status = console.status(f"{what}...")

    def update(nodes: int, seconds: float) -> None:
        rate = nodes / seconds if seconds > 0 else 0.0
        status.update(f"{what}: {nodes:,} positions, {rate:,.0f}/s")

    return status, update


@click.command()
@ruleset_argument
@position_option
@set_option
@click.option("--max-nodes", type=click.IntRange(1, MAX_NODES_LIMIT), default=DEFAULT_MAX_NODES, metavar="N",
              help=f"The search's budget: stop after searching N positions (default {DEFAULT_MAX_NODES:,}: "
                   f"about a minute and half a gigabyte at most; at most {MAX_NODES_LIMIT:,}).")
@click.option("--with-ply", is_flag=True,
              help="Tell positions apart by their ply too (for rules that look at the ply).")
@json_option
def solve(ruleset, position, options, max_nodes, with_ply, as_json):
    """Solve a position exactly: a winning line (or its absence) for a one-player puzzle, the
    value and a principal variation for a game of two or more players (with several opponents:
    the best result the side to move can make sure of when all of them play against it).

    The search keeps every position it has searched, so it has a budget: it stops after
    --max-nodes positions (300,000 unless given) with a message saying so; a larger budget lets it
    go further, at about 0.4 to 1.4 KB of memory and 0.1 to 0.2 ms a position."""
    from ..lab.solve import solve_game, solve_puzzle  # a command loads what it needs

    state = load_state(ruleset, options, position)
    game = state.game
    puzzle = len(game.players) == 1
    status, update = _search_status(Console(stderr=True), f"solving {game.name}")
    try:
        with status:  # shown only on a terminal
            if puzzle:
                result = solve_puzzle(state, update, max_nodes=max_nodes, ignore_ply=not with_ply)
            else:
                result = solve_game(state, update, max_nodes, ignore_ply=not with_ply)
    except SearchLimitExceeded as e:
        raise GameError(_budget_message(e, max_nodes)) from None
    rate = result.nodes / result.seconds if result.seconds > 0 else 0.0
    if as_json:
        echo_json({"kind": "puzzle" if puzzle else "game", "position": state.text(), **result.as_dict()})
        return
    searched = f"{result.nodes:,} positions searched in {result.seconds:.2f} s ({rate:,.0f}/s)"
    if puzzle and not result.solvable:
        click.echo(f"no solution ({result.nodes:,} positions searched)")
        return
    if puzzle:
        click.echo(f"solution in {len(result.solution)} move{'s' * (len(result.solution) != 1)}:")
        for i, text in enumerate(result.solution, 1):
            click.echo(f"{i:4}. {text}")
        click.echo(f"({searched})")
        return
    who = result.player_name
    against = "" if len(game.players) == 2 else ", with every other player against it"
    click.echo(f"value: {result.verdict} for {who} (the side to move{against})")
    click.echo(f"principal variation: {' '.join(result.pv) if result.pv else '(the game is over)'}")
    click.echo(f"({searched})")


def _budget_message(e, max_nodes: int, later: str = ", or solve a later position") -> str:
    """One line: the search stopped at its budget (or memory), and how to change it."""
    if e.why != MEMORY:
        return (f"the search reached its budget of {max_nodes:,} positions without an answer; raise it with "
                f"--max-nodes N (at most {MAX_NODES_LIMIT:,}; default {DEFAULT_MAX_NODES:,}){later}")
    return f"memory ran out after {e.limit:,} positions; give a smaller budget with --max-nodes N{later}"


@click.command()
@ruleset_argument
@set_option
@click.option("--seeds", type=click.IntRange(1), default=None, metavar="N",
              help="Draw the setups of seeds 0 to N-1 and solve the distinct ones.")
@click.option("--exhaustive", is_flag=True,
              help="Solve every arrangement of the start position's stacks over the board.")
@click.option("--symmetric", is_flag=True,
              help="Solve one setup per group of mirror and turn images (the rules must not care).")
@click.option("--workers", type=click.IntRange(1), default=None, metavar="N",
              help="Processes to use (default: every core).")
@click.option("--max-nodes", type=click.IntRange(1, MAX_NODES_LIMIT), default=DEFAULT_MAX_NODES, metavar="N",
              help=f"Give up on a setup after searching N positions (default {DEFAULT_MAX_NODES:,}; "
                   f"at most {MAX_NODES_LIMIT:,}).")
@click.option("--cluster", default=None, metavar="ADDRESS", help="Solve on a Dask cluster (scheduler address).")
@click.option("--scheduler-file", default=None, metavar="FILE", help="Solve on the Dask cluster of this file.")
@click.option("--details", is_flag=True, help="With --json: every setup solved, with its answer.")
@json_option
def census(ruleset, options, seeds, exhaustive, symmetric, workers, max_nodes, cluster, scheduler_file,
           details, as_json):
    """Solve every distinct setup of a one-player puzzle and count the solvable ones."""
    from ..lab.census import census as run_census
    from ..lab.runner import connect

    client = connect(cluster, scheduler_file) if (cluster or scheduler_file) else None

    if (seeds is None) == (not exhaustive):
        raise click.UsageError("choose the setups: --seeds N or --exhaustive (one of the two)")
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("solving setups", total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        try:
            report = run_census(ruleset, options, seeds=None if exhaustive else range(seeds), exhaustive=exhaustive,
                                workers=workers, symmetric=symmetric, max_nodes=max_nodes, client=client,
                                progress=update)
        except SearchLimitExceeded as e:
            raise GameError("a setup: " + _budget_message(e, max_nodes, later="")) from None
    if as_json:
        echo_json(report.as_dict(details))
        return
    source = "every arrangement" if exhaustive else f"{report.draws:,} seeds"
    table = Table(title=Text(f"census of {ruleset} ({source})"))
    for name in ("setups", "solvable", "unsolvable", "share solvable"):
        table.add_column(name, justify="right")
    share = report.solvable / report.setups if report.setups else 0.0
    table.add_row(f"{report.setups:,}", f"{report.solvable:,}", f"{report.setups - report.solvable:,}",
                  f"{share:.1%}")
    console = Console()
    console.print(table)
    if symmetric:
        click.echo(f"{report.classes:,} groups under the board's symmetries, "
                   f"{report.solvable_classes:,} of them solvable")
    click.echo(f"{report.nodes:,} positions searched in {report.seconds:.2f} s")
    if report.unsolvable:
        click.echo("unsolvable, for example:")
        for text in report.unsolvable[:5]:
            click.echo(f"  {text}")


def _make_agents(specs: list, seed: int) -> list:
    """Agents from their specifications, seeded `seed + participant`."""
    try:
        from ..agents import make_agent
    except ModuleNotFoundError as e:  # only the random agent without the agents package
        if e.name != "ziggurat.agents":
            raise
        make_agent = None
    from ..lab.matches import random_agent

    out = []
    for p, spec in enumerate(specs):
        if make_agent is not None:
            out.append(make_agent(spec, seed + p))
        elif spec.strip().lower() == "random":
            out.append(random_agent(seed + p))
        else:
            raise GameError(f"unknown agent {spec!r}; the agents are: random")
    return out


@click.command()
@ruleset_argument
@click.option("--agents", "-a", default=None, metavar="A,B,...",
              help="One agent per player, comma-separated (default: random for every player).")
@click.option("--seed", type=int, default=None,
              help="The setup's seed (default: the ruleset's own), also seeding the agents.")
@position_option
@set_option
@click.option("--max-plies", type=click.IntRange(1), default=None, metavar="N",
              help="Stop a game after N plies (it scores nothing).")
@json_option
def match(ruleset, agents, seed, position, options, max_plies, as_json):
    """Play a rotation match: the same setup once per seat rotation, points summed per agent."""
    from ..lab.matches import play_rotation

    game = load_game(ruleset, options)
    n = len(game.players)
    specs = [s.strip() for s in agents.split(",")] if agents else ["random"] * n
    if len(specs) != n or not all(specs):
        raise click.BadParameter(f"{game.name} has {n} players ({', '.join(game.players)}): "
                                 f"give {n} agents, like --agents {','.join(['random'] * n)}",
                                 param_hint="--agents")
    players = _make_agents(specs, seed or 0)
    names = [f"{p + 1}:{spec}" for p, spec in enumerate(specs)]
    start = None if position.strip() in ("", "start") else position
    with Console(stderr=True).status(f"playing {n} games"):
        result = play_rotation(game, players, seed, position=start, names=names, max_plies=max_plies)
    if as_json:
        echo_json(result.as_dict())
        return
    click.echo("participants: " + ", ".join(f"{p + 1} = {spec}" for p, spec in enumerate(specs)))
    table = Table(title=Text(f"rotation match of {game.name} (points: {result.scoring})"))
    table.add_column("game", justify="right")
    for side in game.players:
        table.add_column(side, justify="center")
    table.add_column("plies", justify="right")
    for p in range(n):
        table.add_column(f"points {p + 1}", justify="right")
    for g in result.games:
        plies = str(len(g.moves)) + (" (stopped)" if g.outcome is None else "")
        table.add_row(str(g.rotation + 1), *[str(p + 1) for p in g.seating], plies,
                      *[f"{x:g}" for x in g.points])
    table.add_row("total", *[""] * n, "", *[f"{x:g}" for x in result.totals], style="bold")
    Console().print(table)
    click.echo("winner: " + ", ".join(names[p] for p in result.winners))
