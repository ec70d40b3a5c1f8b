"""A journal that cannot be written (a full disk) stops `simulate` with a one-line error naming
the journal and `--resume`, the exit code of a user error and no traceback; the games written
before stay in the journal and `--resume` finishes the study. The full disk is an injected
OSError (ENOSPC) from the journal file's writes, not a filled disk."""

import csv
import errno

import pytest
from click.testing import CliRunner

import ziggurat.lab.journal as journal_module
from ziggurat.cli.main import cli

ARGS = ["simulate", "stacktics", "--set", "size=2", "-n", "12", "--max-plies", "60", "--seed", "3", "-w", "1"]


class FullAfter:
    """A text file that takes `room` writes, then fails each one as a full disk does."""

    def __init__(self, file, room: int):
        self.file, self.room = file, room

    def write(self, text):
        if self.room <= 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        self.room -= 1
        return self.file.write(text)

    def __getattr__(self, name):
        return getattr(self.file, name)


@pytest.fixture
def full_disk(monkeypatch):
    """The journal's appends fail after the first batch (one game: on one worker a study's first
    batch is one game, the next ones cut by the games' pace)."""
    real_open = open

    def opened(path, mode="r", *args, **kwargs):
        f = real_open(path, mode, *args, **kwargs)
        return FullAfter(f, 1) if "a" in mode else f

    monkeypatch.setattr(journal_module, "open", opened, raising=False)


def test_a_full_disk_is_a_clean_error_and_resume_finishes(tmp_path, monkeypatch, full_disk):
    out = tmp_path / "games.csv"
    journal = tmp_path / "games.csv.journal"
    result = CliRunner().invoke(cli, ARGS + ["--csv", str(out)])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and "please report" not in result.output
    error = result.output.strip().splitlines()[-1]
    assert error.startswith("error: cannot write the journal")
    assert str(journal) in error and "No space left on device" in error
    assert "free some space" in error and "--resume" in error
    monkeypatch.undo()  # the disk has room again
    result = CliRunner().invoke(cli, ARGS + ["--csv", str(out), "--resume"])
    assert result.exit_code == 0, result.output
    with open(out, newline="") as f:
        assert sorted(int(row["index"]) for row in csv.DictReader(f)) == list(range(12))


def test_the_error_counts_the_games_the_journal_keeps(tmp_path, full_disk):
    """The message says how many finished games the journal holds (the first batch's one game)."""
    result = CliRunner().invoke(cli, ARGS + ["--csv", str(tmp_path / "g.csv")])
    lines = (tmp_path / "g.csv.journal").read_text().splitlines()
    games = len(lines) - 1
    assert games >= 1
    assert f"the {games} finished game{'s' if games != 1 else ''} in it are kept" in result.output
