"""Studies survive faults: outputs tried before the work and written whole, Ctrl-C and SIGTERM stop
at once with the finished games written (marked partial) and --resume goes on with identical
results, a dead worker is replaced, workers die with their parent, a cluster without workers is an
error, and `ziggurat test` stops on Ctrl-C.

Signals and kills are sent to real processes (`ziggurat` run by this interpreter), each with a
bounded wait; the studies are small ones of Pig (fast games) on two workers.
"""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import ziggurat
from ziggurat import GameError
from ziggurat import outputs
from ziggurat.lab import study as study_module
from ziggurat.cli.main import cli
from ziggurat.interpreter import cache
from ziggurat.lab.study import StudySpec, run_study

ZIGGURAT = [sys.executable, "-m", "ziggurat"]
LINUX = sys.platform.startswith("linux")
REF_GAMES = 1200  # the reference study (pig, seed 0) that the fault runs must reproduce


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def start(*args, cwd=None) -> subprocess.Popen:
    return subprocess.Popen(ZIGGURAT + [str(a) for a in args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=cwd)


def wait_for(condition, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def journal_games(path: Path) -> int:
    try:
        return max(0, path.read_text().count("\n") - 1)
    except OSError:
        return 0


def children(pid: int) -> list:
    """The live child processes of `pid` (Linux /proc)."""
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(c) for c in text.split() if alive(int(c))]


def alive(pid: int) -> bool:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[0] != "Z"  # a zombie has ended; only its exit status is left


def csv_rows(path: Path) -> list:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The uninterrupted study, in this process on one core: its CSV text and its JSON."""
    folder = tmp_path_factory.mktemp("reference")
    # The backend named, here and in the runs compared with it: a random study's games are each
    # backend's own, and `auto` chooses native for a long study when that pays (a warm cache).
    result = invoke("simulate", "pig", "-n", REF_GAMES, "-w", 1, "--backend", "python", "--csv", folder / "ref.csv", "--json")
    assert result.exit_code == 0, result.output
    return (folder / "ref.csv").read_text(), json.loads(result.stdout)


# ---- outputs: one atomic writer, tried before the work ------------------------------------------


class TestAtomicFiles:
    def test_a_write_that_fails_half_way_leaves_the_old_file_and_no_temporary(self, tmp_path):
        target = tmp_path / "out.csv"
        target.write_text("old\n")
        with pytest.raises(RuntimeError):
            with outputs.atomic_open(target) as f:
                f.write("new, half written")
                raise RuntimeError("killed")
        assert target.read_text() == "old\n"
        assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]

    def test_a_finished_write_replaces_the_file_and_keeps_its_mode(self, tmp_path):
        target = tmp_path / "out.txt"
        target.write_text("old")
        target.chmod(0o640)
        outputs.write_text(target, "new")
        assert target.read_text() == "new" and (target.stat().st_mode & 0o777) == 0o640
        assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]

    def test_the_compiled_game_cache_writes_only_through_the_checked_folders_helper(self, tmp_path, monkeypatch):
        # The cache writes whole files through ziggurat.cachedir (a private temporary file, renamed;
        # no link followed), not a writer of its own.
        from ziggurat import cachedir

        written, real = [], cachedir.write_file
        monkeypatch.setattr(cachedir, "write_file", lambda path, data: written.append(Path(path).suffix) or real(path, data))
        monkeypatch.setenv("ZIGGURAT_CACHE_DIR", str(tmp_path / "cache"))
        ziggurat.load("tic-tac-toe", text=(Path(ziggurat.__file__).parent / "rulesets/tic-tac-toe.rules").read_text())
        assert ".py" in written and ".json" in written
        assert sorted(p.suffix for p in (tmp_path / "cache").iterdir() if p.suffix in (".py", ".json")) == [".json", ".py"]
        assert not hasattr(cache, "_write") and not hasattr(cache, "write_text")

    def test_check_writable_names_the_option_when_a_file_is_in_the_way(self, tmp_path):
        (tmp_path / "file").write_text("x")
        with pytest.raises(GameError, match=r"--csv .*file.*is not a folder"):
            outputs.check_writable(tmp_path / "file" / "out.csv", "--csv")
        with pytest.raises(GameError, match=r"--report .*it is a folder"):
            outputs.check_writable(tmp_path, "--report")
        outputs.check_writable(tmp_path / "new" / "deeper" / "out.csv", "--csv")  # folders made later
        assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]  # the probe left nothing


class TestOutputsCheckedFirst:
    @pytest.mark.parametrize("option", ["--csv", "--report", "--plot", "--journal"])
    def test_an_unwritable_output_fails_before_any_game(self, tmp_path, option, monkeypatch):
        (tmp_path / "file").write_text("x")
        monkeypatch.setattr(study_module, "run_study", lambda *a, **k: pytest.fail("a study was started"))
        result = invoke("simulate", "pig", "-n", 1_000_000, "-w", 1, option, tmp_path / "file" / "out")
        assert result.exit_code == 1
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"error: cannot write {option} ") and "internal" not in lines[0]

    def test_rich_markup_in_a_title_label_and_path_is_shown_as_written(self, tmp_path):
        source = Path(__file__).resolve().parent.parent.parent / "src/ziggurat/rulesets/tic-tac-toe.rules"
        rules = tmp_path / "[bold]mark.rules"
        rules.write_text(source.read_text().replace('game "Tic-tac-toe"', 'game "Tic [/bold] toe [red"'))
        out = tmp_path / "[bold]out.csv"  # as markup, it would be shown as a bold out.csv
        result = invoke("simulate", rules, "-n", 4, "-w", 1, "--csv", out, "--report", tmp_path / "r.md",
                        "--title", "[/bold] study")
        assert result.exit_code == 0, result.output
        shown = result.output.replace("\n", "")  # rich wraps a long path (a test worker's tmp_path is long)
        assert "Tic [/bold] toe [red" in shown and "[bold]out.csv" in shown
        assert (tmp_path / "r.md").read_text().startswith("# [/bold] study")

    def test_max_plies_beyond_its_limit_is_one_line(self):
        result = invoke("simulate", "pig", "-n", 2, "--max-plies", 10_000_000)
        assert result.exit_code == 1
        assert result.output.strip().splitlines() == [
            "error: --max-plies 10,000,000 is over the limit of 100,000 plies "
            "(a game's moves are kept in memory until it ends)"]

    @pytest.mark.parametrize("text, why", [(None, "does not exist"), ("{ not json", "is not JSON"),
                                           ('{"id": 1}', "names no scheduler address")])
    def test_a_bad_scheduler_file_is_one_line_naming_it(self, tmp_path, text, why):
        path = tmp_path / "scheduler.json"
        if text is not None:
            path.write_text(text)
        result = invoke("simulate", "pig", "-n", 2, "--scheduler-file", path)  # (Dask itself waits for a missing file)
        assert result.exit_code == 1
        assert result.output.strip().splitlines() == [f"error: scheduler file {str(path)!r} {why}"
                                                      + (" (a Dask scheduler writes it when started with "
                                                         "--scheduler-file)" if text is None else
                                                         " (a Dask scheduler file is)" if "JSON" in why else
                                                         ' (no "address" in it)')]


# ---- the journal --------------------------------------------------------------------------------


class TestJournal:
    def test_a_journal_holding_games_is_not_overwritten_without_resume(self, tmp_path):
        journal = tmp_path / "j"
        assert invoke("simulate", "pig", "-n", 3, "-w", 1, "--journal", journal).exit_code == 0
        assert journal_games(journal) == 3  # an explicit journal is kept
        result = invoke("simulate", "pig", "-n", 3, "-w", 1, "--journal", journal)
        assert result.exit_code == 1 and "holds 3 finished games" in result.output and "--resume" in result.output
        assert journal_games(journal) == 3

    def test_a_file_that_is_not_a_journal_is_never_overwritten(self, tmp_path):
        notes = tmp_path / "notes.txt"
        notes.write_text("my notes\n")
        result = invoke("simulate", "pig", "-n", 3, "-w", 1, "--journal", notes)
        assert result.exit_code == 1 and "is not a ziggurat simulate journal" in result.output
        assert notes.read_text() == "my notes\n"

    def test_resume_refuses_the_journal_of_another_study(self, tmp_path):
        journal = tmp_path / "j"
        assert invoke("simulate", "pig", "-n", 3, "-w", 1, "--journal", journal).exit_code == 0
        result = invoke("simulate", "pig", "-n", 3, "-w", 1, "--journal", journal, "--resume", "--seed", 5)
        assert result.exit_code == 1
        assert result.output.strip().splitlines() == [
            f"error: journal {str(journal)!r} was written for another study (seed 0 there, 5 here): "
            "remove it or give another --journal to start over"]

    def test_the_default_journal_is_removed_when_the_study_completes(self, tmp_path):
        assert invoke("simulate", "pig", "-n", 3, "-w", 1, "--csv", tmp_path / "a.csv").exit_code == 0
        assert sorted(p.name for p in tmp_path.iterdir()) == ["a.csv"]

    def test_a_torn_last_line_is_played_again_and_the_results_are_those_of_an_uninterrupted_run(self, tmp_path):
        journal = tmp_path / "j"
        full = invoke("simulate", "pig", "-n", 20, "-w", 1, "--journal", journal, "--json")
        lines = journal.read_text().splitlines(keepends=True)
        journal.write_text("".join(lines[:8]) + lines[8][:30])  # 7 games, then a line cut by a kill
        resumed = invoke("simulate", "pig", "-n", 20, "-w", 1, "--journal", journal, "--json", "--resume")
        assert resumed.exit_code == 0, resumed.output
        assert json.loads(resumed.stdout) == json.loads(full.stdout)
        assert journal_games(journal) == 20

    def test_resume_without_a_journal_is_a_usage_error(self):
        result = invoke("simulate", "pig", "-n", 3, "--resume")
        assert result.exit_code == 2 and "--resume needs a journal" in result.output


# ---- signals and kills ----------------------------------------------------------------------------


def interrupt_study(tmp_path, sig) -> tuple:
    """A long study stopped by `sig` once some games are in its journal: (process, stdout, stderr,
    the workers it had). That it stops at once is seen in its games, not timed: far fewer than the
    100,000 asked for are written (and fewer than REF_GAMES, for --resume to have work left)."""
    csv_file = tmp_path / "a.csv"
    p = start("simulate", "pig", "-n", 100_000, "-w", 2, "--backend", "python", "--csv", csv_file, "--report",
              tmp_path / "r.md", "--json")
    try:
        wait_for(lambda: journal_games(tmp_path / "a.csv.journal") >= 1, 30, "the first finished games")
        workers = children(p.pid)
        p.send_signal(sig)
        out, err = p.communicate(timeout=60)
        return p, out, err, workers
    finally:
        p.kill()


@pytest.mark.skipif(not LINUX, reason="signals and /proc")
class TestInterrupt:
    def test_ctrl_c_stops_at_once_writes_partial_outputs_and_resume_gives_the_uninterrupted_results(
            self, tmp_path, reference):
        p, out, err, workers = interrupt_study(tmp_path, signal.SIGINT)
        assert p.returncode == 130, err
        assert workers and not [w for w in workers if alive(w)]
        done = journal_games(tmp_path / "a.csv.journal")
        assert 0 < done < 100_000
        partial = f"partial: {done} of 100000 games"
        assert json.loads(out)["partial"] == partial
        assert len(csv_rows(tmp_path / "a.csv")) == done
        assert partial in (tmp_path / "r.md").read_text()
        assert "interrupted (Ctrl-C)" in err and "--resume" in err and "Aborted" not in err
        assert done < REF_GAMES, "the study ran too far before the signal to test --resume"
        # go on, as a study of REF_GAMES games: the journal's games count, the rest are played
        result = invoke("simulate", "pig", "-n", REF_GAMES, "-w", 2, "--backend", "python", "--csv", tmp_path / "a.csv",
                        "--report", tmp_path / "r.md", "--json", "--resume")
        assert result.exit_code == 0, result.output
        ref_csv, ref_json = reference
        assert (tmp_path / "a.csv").read_text() == ref_csv
        assert json.loads(result.stdout) == ref_json
        assert not (tmp_path / "a.csv.journal").exists()  # complete: the default journal is gone

    def test_sigterm_is_handled_as_ctrl_c(self, tmp_path):
        p, out, err, workers = interrupt_study(tmp_path, signal.SIGTERM)
        assert p.returncode == 143, err
        assert journal_games(tmp_path / "a.csv.journal") < REF_GAMES  # stopped, not played out
        assert workers and not [w for w in workers if alive(w)]
        done = journal_games(tmp_path / "a.csv.journal")
        assert json.loads(out)["partial"] == f"partial: {done} of 100000 games"
        assert len(csv_rows(tmp_path / "a.csv")) == done

    def test_a_killed_worker_is_replaced_and_its_games_played_again(self, tmp_path, reference):
        p = start("simulate", "pig", "-n", REF_GAMES, "-w", 2, "--backend", "python", "--csv", tmp_path / "a.csv")
        try:
            wait_for(lambda: journal_games(tmp_path / "a.csv.journal") >= 1, 30, "the first finished games")
            workers = wait_for(lambda: children(p.pid), 5, "the workers")
            os.kill(workers[0], signal.SIGKILL)
            out, err = p.communicate(timeout=60)
        finally:
            p.kill()
        assert p.returncode == 0, err
        assert "a worker process died" in err
        assert (tmp_path / "a.csv").read_text() == reference[0]

    def test_workers_die_with_a_killed_parent(self, tmp_path):
        p = start("simulate", "pig", "-n", 100_000, "-w", 2, "--csv", tmp_path / "a.csv")
        try:
            wait_for(lambda: journal_games(tmp_path / "a.csv.journal") >= 1, 30, "the first finished games")
            workers = wait_for(lambda: children(p.pid), 5, "the workers")
        finally:
            p.kill()
            p.communicate()
        wait_for(lambda: not [w for w in workers if alive(w)], 5, "the orphaned workers to exit")


class TestDask:
    def test_a_cluster_without_workers_is_an_error_after_the_timeout(self):
        distributed = pytest.importorskip("distributed")
        with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=":0") as cluster, \
                distributed.Client(cluster) as client:
            with pytest.raises(GameError, match=r"^the Dask cluster has had no worker for 1 s; 2 of 2 batches not done$"):
                run_study(StudySpec("pig", ("random", "random"), 2), client=client, worker_timeout=1)


# Runs `ziggurat ARGS...` as the console script does, first arranging that the process sends itself
# SIGINT (a real signal, through the handlers in place) at one point of its run, named in argv[1]:
# "cli" as the command line starts to be imported (click: before any handler of main.py exists,
# where Ctrl-C gave a traceback), "import" as Hypothesis starts to be imported (before the search,
# where Ctrl-C used to give click's "Aborted!" and exit 1), "search" once 20 positions have been
# checked. The point is
# reached by the code, not by waiting: no timing.
SIGINT_AT = """
import os, signal, sys

# SIGINT handled as a shell starts a command (a test runner's worker process may ignore SIGINT,
# and a child inherits that: Python then installs no handler of its own).
signal.signal(signal.SIGINT, signal.default_int_handler)

def ctrl_c():
    os.kill(os.getpid(), signal.SIGINT)

point = sys.argv[1]
if point in ("cli", "import"):
    class Finder:
        def find_spec(self, name, path=None, target=None):
            if name == {"cli": "click", "import": "hypothesis"}[point]:
                sys.meta_path.remove(self)
                ctrl_c()
            return None
    sys.meta_path.insert(0, Finder())
elif point == "search":
    import ziggurat.proptest as proptest
    run = proptest.run_properties
    def run_properties(*args, progress, **kwargs):
        def reached(n):
            if n >= 20:
                ctrl_c()
            progress(n)
        return run(*args, progress=reached, **kwargs)
    proptest.run_properties = run_properties
from ziggurat.cli.entry import main  # what the console script runs
main(sys.argv[2:])
"""


@pytest.mark.skipif(not LINUX, reason="signals")
class TestPropertyTestInterrupt:
    @pytest.mark.parametrize("point", ["import", "search"])
    def test_ctrl_c_stops_ziggurat_test(self, point):
        """Ctrl-C stops `ziggurat test` with 130 and one line, whenever it comes."""
        p = subprocess.run([sys.executable, "-c", SIGINT_AT, point, "test", "stacktics", "-n", "100000"],
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 130, p.stderr
        assert p.stderr.startswith("interrupted (Ctrl-C): ") and "no property failed so far" in p.stderr
        assert p.stderr.count("\n") == 1, p.stderr
        assert "Exception ignored" not in p.stderr and "Traceback" not in p.stderr and "Aborted" not in p.stderr

    def test_ctrl_c_while_the_command_line_is_imported(self):
        """Ctrl-C before the command line's own handlers exist is one line and 130 too."""
        p = subprocess.run([sys.executable, "-c", SIGINT_AT, "cli", "check", "stacktics"],
                           capture_output=True, text=True, timeout=120)
        assert (p.returncode, p.stderr) == (130, "interrupted (Ctrl-C)\n")
