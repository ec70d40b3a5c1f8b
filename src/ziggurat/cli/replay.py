"""`ziggurat replay`: check a game record move by move and show it in the terminal.

Without options it replays the whole record (every move must be legal, the result and the final
position must be the recorded ones) and shows the final board. `--all` prints the board after
every move; `--step` waits for Enter between moves (`b` goes back a move, `q` stops), reading
lines, so piped input works as well as a keyboard. `--as SIDE` shows the game as that side saw it:
other players' hidden zones as counts, moves it did not see as `<action>`.
"""

from __future__ import annotations

import sys

import click
from rich.console import Console

from ..records import check_end_matches, load_record, play_move, steps
from .board import draw
from .options import side_index


def last_move_seen(state, viewer, text: str) -> str:
    """The move just played, as `viewer` saw it (read at the position before it)."""
    if viewer is None:
        return text
    move = state.pop()
    seen = state.move_view(move, viewer)
    state.push(move)
    return seen


def _header(record) -> None:
    click.echo(f"{record.ruleset}: {len(record.moves)} moves, recorded result {record.result}"
               + (f" ({record.reason})" if record.reason else ""))
    if record.agents:
        click.echo("players: " + ", ".join(f"{side}={who}" for side, who in record.agents.items()))
    if record.date:
        click.echo(f"date: {record.date}")


def _done(record, state) -> None:
    check_end_matches(record, state)
    click.echo(f"replayed {len(record.moves)} moves: every move legal, "
               f"result {record.result} as recorded")


@click.command()
@click.argument("file", metavar="FILE")
@click.option("--step", is_flag=True, help="Wait for Enter between moves (b: back, q: stop).")
@click.option("--all", "show_all", is_flag=True, help="Print the board after every move.")
@click.option("--as", "viewer", default=None, metavar="SIDE", help="Show the game as SIDE saw it.")
def replay(file, step, show_all, viewer):
    """Replay a game record: check every move and show the boards."""
    if step and show_all:
        raise click.UsageError("use --step or --all, not both")
    record = load_record(file)
    console = Console()
    side_of = None if viewer is None else side_index(record.start_state().game, viewer)
    _header(record)
    if step:
        _step(record, console, side_of)
        return
    state = None
    for number, side, move, state in steps(record):
        if show_all:
            if number:
                click.echo(f"{number}. {side} {last_move_seen(state, side_of, move)}")
            console.print(draw(state, side_of))
    if not show_all:
        console.print(draw(state, side_of))
    _done(record, state)


def _step(record, console: Console, viewer=None) -> None:
    """Forward with Enter, back with b, stop with q; the end is checked when it is reached."""
    state = record.start_state()
    console.print(draw(state, viewer))
    done = 0  # moves played
    stdin = sys.stdin
    while True:
        if done == len(record.moves):
            _done(record, state)
            return
        click.echo(f"[{done}/{len(record.moves)}] Enter: next, b: back, q: quit> ", nl=False)
        line = stdin.readline()
        if not line:
            click.echo(f"\nend of input: stopped after move {done}")
            return
        text = line.strip().lower()
        if not stdin.isatty():
            click.echo(text)
        if text in ("q", "quit"):
            click.echo(f"stopped after move {done}")
            return
        if text in ("b", "back"):
            if done == 0:
                click.echo("at the start already")
                continue
            state.pop()
            done -= 1
            click.echo(f"back to move {done}")
            console.print(draw(state, viewer))
            continue
        play_move(record, state, done)
        done += 1
        click.echo(f"{done}. {record.sides[done - 1]} {last_move_seen(state, viewer, record.moves[done - 1])}")
        console.print(draw(state, viewer))
