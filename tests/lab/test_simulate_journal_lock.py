"""A study's journal is locked while a run uses it (a file JOURNAL.lock beside it): a second run on
the same journal stops at once with a one-line error naming the journal, and leaves it as it
was; a run that ends, however it ends, lets go of the lock and removes the lock file."""

from click.testing import CliRunner
from filelock import FileLock

from ziggurat.cli.main import cli

ARGS = ["simulate", "pig", "-n", "6", "--max-plies", "60", "--seed", "3", "-w", "1"]


def test_a_journal_in_use_is_not_touched_by_a_second_run(tmp_path):
    journal = tmp_path / "pig.journal"
    assert CliRunner().invoke(cli, ARGS + ["--journal", str(journal)]).exit_code == 0
    before = journal.read_bytes()
    held = FileLock(tmp_path / "pig.journal.lock", timeout=0)  # the other run
    held.acquire()
    try:
        result = CliRunner().invoke(cli, ARGS + ["-n", "12", "--journal", str(journal), "--resume"])
    finally:
        held.release()
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    error = result.output.strip().splitlines()[-1]
    assert error.startswith("error: journal") and str(journal) in error and "in use by another run" in error
    assert "--resume" in error
    assert journal.read_bytes() == before  # neither rewritten nor appended to


def test_a_run_lets_go_of_its_journal_when_it_ends(tmp_path):
    journal = tmp_path / "pig.journal"
    first = CliRunner().invoke(cli, ARGS + ["--journal", str(journal)])
    assert first.exit_code == 0, first.output
    assert journal.exists() and not (tmp_path / "pig.journal.lock").exists()
    again = CliRunner().invoke(cli, ARGS + ["-n", "9", "--journal", str(journal), "--resume"])
    assert again.exit_code == 0, again.output
    assert len(journal.read_text().splitlines()) == 1 + 9
    assert not (tmp_path / "pig.journal.lock").exists()


def test_a_run_that_fails_lets_go_of_its_journal(tmp_path):
    """A journal of another study is an error; the lock is let go all the same."""
    journal = tmp_path / "pig.journal"
    assert CliRunner().invoke(cli, ARGS + ["--journal", str(journal)]).exit_code == 0
    other = CliRunner().invoke(cli, ARGS + ["--seed", "4", "--journal", str(journal), "--resume"])
    assert other.exit_code == 1 and "another study" in other.output
    assert not (tmp_path / "pig.journal.lock").exists()
    assert FileLock(tmp_path / "pig.journal.lock", timeout=0).acquire() is not None
