"""Looking at a game without playing it: `moves`, `perft` and `show`."""

from __future__ import annotations

import time

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

import ziggurat

from ..records import reason_text, result_text
from .backend import PERFT_LEAF_SECONDS, backend_option, choose
from .board import draw
from .options import (echo_json, json_option, load_state, position_option, ruleset_argument, set_option, side_index,
                      viewer_option)


@click.command()
@ruleset_argument
@position_option
@set_option
@json_option
def moves(ruleset, position, options, as_json):
    """List the legal moves of a position, in notation."""
    state = load_state(ruleset, options, position)
    texts = [state.move_text(m) for m in state.moves()]
    if as_json:
        echo_json(texts)
        return
    for t in texts:
        click.echo(t)
    outcome = state.outcome()
    why = f", {reason_text(state)}" if outcome is not None and reason_text(state) else ""
    over = f" (game over: {result_text(state)}{why})" if outcome is not None else ""
    click.echo(f"{len(texts)} move{'s' * (len(texts) != 1)}{over}")


@click.command()
@ruleset_argument
@click.option("--depth", "-d", type=click.IntRange(0, 64), required=True, help="Plies to look ahead.")
@click.option("--divide", is_flag=True, help="Split the count by first move.")
@position_option
@set_option
@backend_option
@json_option
def perft(ruleset, depth, divide, position, options, backend, as_json):
    """Count the leaves of the move tree to a depth, with the time taken."""
    state = load_state(ruleset, options, position)
    fast = choose(state.game, backend, max(1, len(state.moves())) ** depth * PERFT_LEAF_SECONDS, quiet=as_json)
    start = time.perf_counter()
    split, ran_native = None, fast is not None
    if fast is not None:
        split, leaves = _native_perft(fast, state, depth, divide)
        if leaves is None:
            ran_native = False
            start = time.perf_counter()
    if fast is None or leaves is None:
        split = ziggurat.divide(state, depth) if divide and depth > 0 else None
        leaves = sum(n for _, n in split) if split is not None else ziggurat.perft(state, depth)
    seconds = time.perf_counter() - start
    rate = leaves / seconds if seconds > 0 else 0.0
    if as_json:
        data = {"depth": depth, "leaves": leaves, "seconds": seconds, "leaves_per_second": rate,
                "backend": "native" if ran_native else "python"}
        if split is not None:
            data["divide"] = [{"move": text, "leaves": n} for text, n in split]
        echo_json(data)
        return
    console = Console()
    if split is not None:
        table = Table(title=f"perft {depth} by first move")
        table.add_column("move")
        table.add_column("leaves", justify="right")
        for text, n in split:
            table.add_row(Text(text), str(n))
        console.print(table)
    table = Table(title=Text(f"perft {state.game.name}"))
    for name in ("depth", "leaves", "time (s)", "leaves/s"):
        table.add_column(name, justify="right")
    table.add_row(str(depth), str(leaves), f"{seconds:.4f}", f"{rate:,.0f}")
    console.print(table)


def _native_perft(fast, state, depth: int, divide: bool) -> tuple:
    """(split or None, leaves) counted by the native backend; (None, None) after saying why the
    Python backend counts instead (a position it cannot start from)."""
    from ..errors import Unsupported

    try:
        if not (divide and depth > 0):
            return None, fast.perft(state, depth)
        split = [(state.move_text(m), n) for m, n in fast.divide(state, depth)]
        return split, sum(n for _, n in split)
    except Unsupported as why:
        click.echo(why.line(), err=True)
        return None, None


@click.command()
@ruleset_argument
@position_option
@viewer_option
@set_option
def show(ruleset, position, viewer, options):
    """Draw a position (with --as SIDE, only what that side sees)."""
    state = load_state(ruleset, options, position)
    Console().print(draw(state, None if viewer is None else side_index(state.game, viewer)))
