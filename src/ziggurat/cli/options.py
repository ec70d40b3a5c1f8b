"""Options shared by the commands: `--set NAME=VALUE`, `--position`, `--json`, and loading a game."""

from __future__ import annotations

import json

import click

import ziggurat
from ..errors import did_you_mean


def parse_sets(ctx, param, values) -> dict:
    """`--set size=3 --set pie=true` -> {'size': '3', 'pie': 'true'}; the game checks the values."""
    out: dict = {}
    for item in values:
        name, eq, value = item.partition("=")
        name, value = name.strip(), value.strip()
        if not eq or not name:
            raise click.BadParameter(f"{item!r} is not NAME=VALUE (for example --set size=3)")
        if not value:
            raise click.BadParameter(f"option {name!r} has no value (write --set {name}=VALUE)")
        if name in out:
            raise click.BadParameter(f"option {name!r} is set twice")
        out[name] = value
    return out


set_option = click.option(
    "--set", "options", multiple=True, metavar="NAME=VALUE", callback=parse_sets,
    help="Set a ruleset option (repeatable), e.g. --set size=3.")
position_option = click.option(
    "--position", "-p", default="start", show_default=True, metavar="TEXT",
    help="The position: 'start' or a position text.")
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
ruleset_argument = click.argument("ruleset", metavar="RULESET")
viewer_option = click.option(
    "--as", "viewer", default=None, metavar="SIDE",
    help="Show only what SIDE sees (other players' hands and face-down zones hidden).")


def side_index(game: ziggurat.Game, name: str, flag: str = "--as") -> int:
    """The side called `name`; a GameError naming the sides otherwise."""
    if name in game.players:
        return game.players.index(name)
    hint = did_you_mean(name, game.players)
    raise ziggurat.GameError(f"{flag} {name!r}: not a side of {game.title} (sides: {', '.join(game.players)})"
                             + (f"; {hint}" if hint else ""))


def load_game(ruleset: str, options: dict) -> ziggurat.Game:
    """The game of a ruleset (shipped name or path) at the given options; errors are ZigguratErrors."""
    return ziggurat.load(ruleset, options or None)


def load_state(ruleset: str, options: dict, position: str, seed: int | None = None) -> ziggurat.State:
    """A state of the ruleset: the start (with `seed`) or a position text."""
    game = load_game(ruleset, options)
    if position.strip() in ("", "start"):
        return game.new(seed)
    try:
        return game.position(position)
    except ziggurat.GameError as e:
        raise ziggurat.GameError(f"bad --position: {e}") from None


def echo_json(data) -> None:
    click.echo(json.dumps(data, indent=2))
