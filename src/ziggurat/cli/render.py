"""`ziggurat render`: a position as a picture (SVG or PNG, by the output file's name)."""

from __future__ import annotations

import click

from .. import render as pictures
from ..errors import GameError
from ..outputs import check_writable, write_bytes
from .options import load_state, position_option, ruleset_argument, set_option


@click.command()
@ruleset_argument
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), metavar="FILE",
              help="The picture to write: FILE.svg or FILE.png.")
@click.option("--style", type=click.Choice(pictures.STYLES), default="pyramids", show_default=True,
              help="Stacks as pyramids seen from the side, or as layered squares.")
@click.option("--seed", type=int, default=None, help="Seed for a random setup.")
@position_option
@set_option
def render(ruleset, output, style, seed, position, options):
    """Draw a position: the board, the stacks, the off-board zones and who moves."""
    fmt = pictures.format_of(output)  # a bad file name or an unwritable place fails before any work
    check_writable(output, "--output")
    state = load_state(ruleset, options, position, seed)
    data = pictures.svg(state, style).encode("utf-8") if fmt == "svg" else pictures.png(state, style)
    try:
        write_bytes(output, data)  # whole or not at all
    except OSError as e:
        raise GameError(f"cannot write {str(output)!r}: {e.strerror or e}") from None
    click.echo(f"wrote {output} ({state.game.title}, {pictures.caption(state)})")
