"""What a ruleset is made of: `rulesets` (the shipped games and their options) and `compile --show`."""

from __future__ import annotations

import sys

import click
from rich.console import Console
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

import ziggurat

from ..dsl.loader import shipped_names
from .options import echo_json, json_option, load_game, ruleset_argument, set_option


def option_rows(game) -> list:
    """[{name, type, default, doc}] for each option, the type and default as written in the file."""
    rows = []
    for name, opt in game.option_specs.items():
        kind = opt.type_text or opt.kind
        written = opt.default_text
        value = game.options.get(name)
        shown = _value_text(value)
        default = shown if written in ("", shown) else f"{shown} ({written})"
        rows.append({"name": name, "type": kind, "default": default, "value": value, "doc": opt.doc})
    return rows


def _value_text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@click.command()
@json_option
def rulesets(as_json):
    """List the shipped rulesets, with their titles and options."""
    found = []
    for name in shipped_names():
        try:
            game = ziggurat.load(name)
        except ziggurat.ZigguratError as e:
            found.append({"name": name, "title": None, "error": str(e), "options": []})
            continue
        found.append({"name": name, "title": game.title, "players": list(game.players),
                      "options": option_rows(game)})
    if as_json:
        echo_json(found)
        return
    console = Console()
    for entry in found:
        head = Text.assemble((entry["name"], "bold"), ": ")
        if entry.get("error"):
            console.print(head + Text("does not load", style="red"))
            console.print(Text(entry["error"]))
            continue
        console.print(head + Text(f"{entry['title']} ({', '.join(entry['players'])})"))
        if entry["options"]:
            table = Table(box=None, padding=(0, 2, 0, 0), show_edge=False)
            for col in ("option", "type", "default", "meaning"):
                table.add_column(col, overflow="fold")
            for row in entry["options"]:
                table.add_row(*(Text(row[k]) for k in ("name", "type", "default", "doc")))
            console.print(table)
        console.print()


@click.command("compile")
@ruleset_argument
@click.option("--show", is_flag=True, help="Print the generated Python module.")
@set_option
def compile_(ruleset, show, options):
    """Compile a ruleset to Python (at the given options); --show prints the code.

    The module is a file in the cache of compiled games (its path is printed), unless the cache
    is off (ZIGGURAT_CACHE_DIR=off)."""
    game = load_game(ruleset, options)
    where = game.filename if not game.filename.startswith("<") else "memory (the cache is off)"
    if not show:
        lines = game.source.count("\n") + 1
        click.echo(f"{game.name}: compiled to {lines} lines of Python in {where} (use --show to see them)")
        return
    if sys.stdout.isatty():
        Console().print(Syntax(game.source, "python", line_numbers=True, word_wrap=True), Text(f"({where})"))
    else:
        click.echo(game.source)
