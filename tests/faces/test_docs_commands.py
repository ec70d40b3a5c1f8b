"""Every `ziggurat ...` command shown in the docs and the README parses: its subcommand exists and
its arguments and options are ones that subcommand takes. (The commands are parsed, not run, so
the check is fast; what they print is tested elsewhere.)"""

import re
import shlex
from pathlib import Path

import click
import pytest

from ziggurat.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent.parent
PAGES = sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)


def commands():
    """(page, line) for every line of a code block that starts with `ziggurat ` (or `$ ziggurat `)."""
    out = []
    for page in PAGES:
        for lang, block in FENCE.findall(page.read_text(encoding="utf-8")):
            if lang not in ("", "sh", "bash", "console", "shell"):
                continue
            for line in block.splitlines():
                line = line.strip().removeprefix("$ ").strip()
                if line.startswith("ziggurat ") and "<" not in line and "..." not in line:
                    out.append((page.relative_to(ROOT).as_posix(), line))
    return out


def parse(line: str) -> None:
    """Parse one command line as the CLI would, raising click.UsageError when it does not fit."""
    words = shlex.split(line, comments=True)[1:]
    words = words[:words.index("|")] if "|" in words else words
    if not words or words[0].startswith("-"):  # the group's own options: --help, --version
        cli.make_context("ziggurat", list(words))
        return
    ctx = click.Context(cli, info_name="ziggurat")
    name, sub, rest = cli.resolve_command(ctx, words)
    sub.make_context(name, rest, parent=ctx)


@pytest.mark.parametrize("page,line", commands(), ids=lambda x: x if "/" in x or x.endswith(".md") else None)
def test_documented_command_parses(page, line):
    """The documented command names a real subcommand with arguments it accepts."""
    try:
        parse(line)
    except click.exceptions.Exit:
        pass  # --help and --version parse, then exit
    except click.UsageError as e:
        pytest.fail(f"{page}: {line!r}: {e.format_message()}")


def test_the_check_catches_a_wrong_command():
    """A depth given as a bare number (perft takes --depth) is refused by the parse."""
    with pytest.raises(click.UsageError):
        parse("ziggurat perft othello 5")


def test_the_docs_show_commands():
    """The docs hold enough commands for this check to mean something."""
    assert len(commands()) > 30
