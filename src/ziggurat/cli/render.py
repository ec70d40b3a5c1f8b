"""`ziggurat render`: a position as a picture (SVG or PNG, by the output file's name).

The position is a ruleset's start or `--position` text, or a game record's position after
`--ply N` of its moves (`--record FILE`; the end without `--ply`), its last move marked.
"""

from __future__ import annotations

import click

from .. import render as pictures
from ..errors import GameError
from ..outputs import check_writable, write_bytes
from ..records import load_record, steps
from .options import load_state, position_option, set_option


def record_state(path, ply: int | None):
    """The position of the record at `path` after `ply` of its moves (all of them when None),
    every move checked as it is replayed; GameError for a ply the record does not reach."""
    record = load_record(path)
    target = len(record.moves) if ply is None else ply
    if target > len(record.moves):
        raise GameError(f"--ply {ply}: the record {str(path)!r} has {len(record.moves)} moves "
                        f"(plies 0 to {len(record.moves)})")
    state = None
    for number, _, _, state in steps(record):  # noqa: B007 (the state at the ply asked for is the answer)
        if number == target:
            break
    return state


@click.command()
@click.argument("ruleset", metavar="[RULESET]", required=False)
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), metavar="FILE",
              help="The picture to write: FILE.svg or FILE.png.")
@click.option("--style", type=click.Choice(pictures.STYLES), default="pyramids", show_default=True,
              help="Stacks as pyramids seen from the side, or as layered squares.")
@click.option("--seed", type=int, default=None, help="Seed for a random setup.")
@position_option
@set_option
@click.option("--record", "record", default=None, metavar="FILE",
              help="Draw a position of this game record instead of RULESET (its ruleset and options).")
@click.option("--ply", type=click.IntRange(min=0), default=None, metavar="N",
              help="With --record: the position after N moves (default: the end).")
def render(ruleset, output, style, seed, position, options, record, ply):
    """Draw a position: the board, the stacks, the off-board zones, who moves and the last move."""
    if record is None and ply is not None:
        raise click.UsageError("--ply needs --record FILE")
    if record is None and ruleset is None:
        raise click.UsageError("give a RULESET, or --record FILE")
    if record is not None:
        given = [name for name, used in (("RULESET", ruleset is not None), ("--seed", seed is not None),
                                         ("--position", position.strip() not in ("", "start")),
                                         ("--set", bool(options))) if used]
        if given:
            raise click.UsageError(f"--record gives the game and its position: leave out {', '.join(given)}")
    fmt = pictures.format_of(output)  # a bad file name or an unwritable place fails before any work
    check_writable(output, "--output")
    if record is not None:
        state = record_state(record, ply)
    else:
        state = load_state(ruleset, options, position, seed)
    data = pictures.svg(state, style).encode("utf-8") if fmt == "svg" else pictures.png(state, style)
    try:
        write_bytes(output, data)  # whole or not at all
    except OSError as e:
        raise GameError(f"cannot write {str(output)!r}: {e.strerror or e}") from None
    click.echo(f"wrote {output} ({state.game.title}, {pictures.caption(state)})")
