"""Ctrl-C anywhere in the command line: exit 130 and one line, never click's `Aborted!` (exit 1)
nor a traceback, and no file half-written.

Python's Ctrl-C is a KeyboardInterrupt raised wherever the program is; here it is raised at chosen
points of a run (while the arguments are read, while the command is loaded, while it works), so
each point is reached for sure, with no timing. A real SIGINT, delivered while `ziggurat test`
imports Hypothesis and while it searches, is sent in tests/lab/test_study_faults.py.
"""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

import ziggurat
from ziggurat import outputs
from ziggurat.cli import main as cli_main
from ziggurat.cli.main import COMMANDS, cli


def ctrl_c(*args, **kwargs):
    raise KeyboardInterrupt


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def assert_interrupted(result):
    assert result.exit_code == 130, result.output
    assert "Aborted" not in result.output and "Traceback" not in result.output
    assert [line for line in result.output.splitlines() if line.strip()] == ["interrupted (Ctrl-C)"], result.output


def test_while_the_arguments_are_read(monkeypatch):
    monkeypatch.setattr(click.Command, "parse_args", ctrl_c)
    assert_interrupted(run("check", "stacktics"))


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_while_any_command_is_loaded(monkeypatch, name):
    monkeypatch.setattr(cli_main.importlib, "import_module", ctrl_c)
    assert_interrupted(run(name, "--help"))


@pytest.mark.parametrize("args", [
    ("compile", "stacktics"), ("moves", "stacktics"), ("show", "stacktics"), ("perft", "stacktics", "--depth", "2"),
    ("play", "stacktics"), ("simulate", "stacktics", "-n", "2"), ("solve", "tic-tac-toe"),
    ("census", "tic-tac-toe", "--seeds", "1"),
])
def test_while_a_command_works(monkeypatch, args):
    """Ctrl-C as the command loads its game (the first thing each does after reading its arguments)."""
    monkeypatch.setattr(ziggurat, "load", ctrl_c)
    monkeypatch.setattr("ziggurat.interpreter.games.load", ctrl_c)
    assert_interrupted(run(*args))


def test_while_a_ruleset_is_checked(monkeypatch):
    monkeypatch.setattr("ziggurat.cli.check.check_ruleset", ctrl_c)
    assert_interrupted(run("check", "stacktics"))


def test_nothing_is_half_written(monkeypatch, tmp_path):
    """Ctrl-C while a picture is being written: no picture, no temporary file, exit 130."""
    monkeypatch.setattr(outputs.os, "fsync", ctrl_c)
    assert_interrupted(run("render", "stacktics", "-o", tmp_path / "start.svg"))
    assert list(tmp_path.iterdir()) == []
