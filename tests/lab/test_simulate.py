"""The study runner and `ziggurat simulate`: fair seats, correct intervals, the same numbers
whatever runs the games (one process, several, or a Dask cluster), and a CLI without tracebacks.

Studies here are tiny (a few games of random agents with few plies) to keep the suite quick.
"""

import csv
import json
import math
import statistics
import subprocess
import sys

import pytest
from click.testing import CliRunner

import ziggurat
from ziggurat.cli.main import cli
from ziggurat.lab.runner import connect
from ziggurat.lab.stats import mean_interval, proportion, summarize
from ziggurat.lab.study import SIM_CAP_REASON, StudySpec, run_study, seat_of

SMALL = {"size": "2"}


def spec(n=6, agents=("random", "random"), **kw):
    return StudySpec("stacktics", tuple(agents), n, dict(SMALL), seed=kw.pop("seed", 7),
                     max_plies=kw.pop("max_plies", 60), **kw)


def run(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result


class TestSeats:
    def test_rotation_is_fair(self):
        """Over a multiple of the number of players, each agent plays each seat equally often."""
        records = run_study(spec(n=6, agents=("random", "greedy")), workers=1)
        for agent in (0, 1):
            counts = [sum(1 for r in records if r.seat_agents[s] == agent) for s in (0, 1)]
            assert counts == [3, 3]

    def test_rotation_formula(self):
        """Game i gives agent j seat (i + j) mod players: a permutation in every game."""
        for players in (1, 2, 3, 5):
            for i in range(7):
                assert sorted(seat_of(i, j, players) for j in range(players)) == list(range(players))

    def test_agent_results_follow_their_seat(self):
        """Each agent's tally is the results of the seats it sat in."""
        records = run_study(spec(n=8, agents=("greedy", "random")), workers=1)
        summary = summarize(spec(n=8, agents=("greedy", "random")), records)
        for j, row in enumerate(summary["agents"]):
            mine = [r.results_by_seat[r.seat_agents.index(j)] for r in records]
            assert row["wins"] == mine.count(1) and row["losses"] == mine.count(0)


class TestStatistics:
    @pytest.mark.parametrize("k, n", [(7, 10), (0, 25), (150, 200), (33, 33)])
    def test_wilson_interval_matches_scipy(self, k, n):
        """A proportion's 95% interval is scipy's Wilson interval for the same counts."""
        from scipy.stats import binomtest  # here, not when every xdist worker collects: a second

        ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
        p = proportion(k, n)
        assert p["rate"] == k / n
        assert p["lo"] == pytest.approx(ci.low) and p["hi"] == pytest.approx(ci.high)

    def test_wilson_interval_holds_its_rate(self):
        """lo <= rate <= hi for every count, with no successes exactly 0 below and all of them
        exactly 1 above (rounding put lo 5.6e-17 above a rate of 0, and the results plot failed)."""
        for n in (1, 2, 3, 7, 30, 100, 199):
            for k in range(n + 1):
                p = proportion(k, n)
                assert p["lo"] <= p["rate"] <= p["hi"], (k, n, p)
            assert proportion(0, n)["lo"] == 0.0 and proportion(n, n)["hi"] == 1.0

    def test_mean_interval_is_students_t_interval(self):
        """A mean's 95% interval is mean ± t(0.975, n-1)·s/√n, with t from scipy.stats."""
        from scipy.stats import t

        values = [3, 9, 4, 12, 7, 5, 8]
        m = mean_interval(values)
        mean, sd = sum(values) / 7, statistics.stdev(values)
        half = t.ppf(0.975, 6) * sd / math.sqrt(7)
        assert m["lo"] == pytest.approx(mean - half) and m["hi"] == pytest.approx(mean + half)

    def test_a_summary_does_not_import_scipy_stats(self):
        """scipy.stats takes a second to import; the intervals need only scipy.special."""
        code = ("import sys\nfrom ziggurat.lab.stats import proportion, mean_interval\n"
                "proportion(3, 10); mean_interval([1, 2, 4])\nprint('scipy.stats' in sys.modules)")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
        assert out.stdout.strip() == "False", out.stderr

    def test_wilson_interval_known_value(self):
        """7 of 10 gives the textbook Wilson interval (0.397, 0.892)."""
        p = proportion(7, 10)
        assert (round(p["lo"], 3), round(p["hi"], 3)) == (0.397, 0.892)

    def test_summary_counts_the_records(self):
        """Lengths, first-player wins and cut-off games in the summary agree with the games."""
        s = spec(n=6, max_plies=12)
        records = run_study(s, workers=1)
        summary = summarize(s, records)
        plies = [r.plies for r in records]
        assert summary["length"]["max"] == max(plies) and summary["length"]["min"] == min(plies)
        assert summary["length"]["mean"] == pytest.approx(sum(plies) / len(plies))
        first_wins = sum(1 for r in records if r.results_by_seat[r.first_seat] == 1)
        assert summary["first_player"]["win_rate"]["k"] == first_wins
        assert summary["max_plies_cutoffs"] == sum(1 for r in records if r.reason == SIM_CAP_REASON)
        assert all(p <= 12 for p in plies)


class TestParallel:
    def test_workers_do_not_change_the_numbers(self):
        """One worker and two workers play exactly the same games."""
        s = spec(n=8)
        assert run_study(s, workers=1) == run_study(s, workers=2)

    def test_seed_changes_the_games(self):
        """Another study seed gives other games."""
        assert run_study(spec(seed=1), workers=1) != run_study(spec(seed=2), workers=1)


class TestDask:
    def test_local_cluster_gives_the_same_numbers(self, dask_cluster):
        """A study on a Dask LocalCluster returns the same games as the local run."""
        from distributed import Client

        s = spec(n=6)
        with Client(dask_cluster) as client:
            assert run_study(s, client=client) == run_study(s, workers=1)

    def test_cli_cluster_option(self, dask_cluster):
        """`simulate --cluster ADDRESS --json` prints the same statistics as a local run."""
        args = ["simulate", "stacktics", "-n", 4, "--set", "size=2", "--max-plies", 40, "--json"]
        remote = run(*args, "--cluster", dask_cluster.scheduler_address)
        local = run(*args, "--workers", 1)
        assert remote.exit_code == 0 and local.exit_code == 0
        assert json.loads(remote.stdout) == json.loads(local.stdout)


class TestCLI:
    def test_statistics_table(self):
        """`simulate -n 6` prints the statistics tables and exits 0."""
        result = run("simulate", "stacktics", "-n", 6, "--set", "size=2", "--max-plies", 60, "--workers", 1)
        assert result.exit_code == 0, result.output
        for words in ("Agents", "win rate [95% CI]", "first player win rate", "branching", "Endings"):
            assert words in result.stdout

    def test_games_cut_at_max_plies_are_counted_in_a_note(self):
        """A game the simulator cuts before its rules end it is named on stderr, with the flag to raise;
        a study whose games all end by their rules prints no such note."""
        cut = run("simulate", "tic-tac-toe", "-n", 4, "--max-plies", 3, "--workers", 1, "--seed", 1)
        assert cut.exit_code == 0, cut.output
        assert "note: 4 of 4 games of tic-tac-toe were cut at --max-plies 3 before their rules ended them" in cut.stderr
        whole = run("simulate", "tic-tac-toe", "-n", 4, "--workers", 1, "--seed", 1)
        assert whole.exit_code == 0 and "were cut" not in whole.stderr

    def test_default_max_plies_lets_a_long_card_game_end_by_its_rules(self):
        """The default --max-plies is above the length of a random three-player card game (about
        1,400 plies, the longest of the shipped games): none is cut."""
        from ziggurat.lab.study import DEFAULT_MAX_PLIES
        from ziggurat.cli.simulate import simulate as command
        assert next(p.default for p in command.params if p.name == "max_plies") == DEFAULT_MAX_PLIES
        result = run("simulate", "ryb", "-n", 1, "--set", "players=3", "--workers", 1, "--seed", 2, "--json")
        assert result.exit_code == 0, result.output
        study = json.loads(result.stdout)["studies"][0]
        assert study["max_plies_cutoffs"] == 0 and study["length"]["max"] > 1000

    def test_json_parses(self):
        """`--json` prints one study with a result for every game."""
        result = run("simulate", "stacktics", "-n", 6, "--set", "size=2", "--max-plies", 60, "--workers", 1,
                     "--json")
        assert result.exit_code == 0
        study = json.loads(result.stdout)["studies"][0]
        assert study["study"]["games"] == 6 and sum(a["games"] for a in study["agents"]) == 12

    def test_csv_and_plots(self, tmp_path):
        """`--csv` writes a row per game and `--plot` writes PNG and SVG files."""
        out = tmp_path / "games.csv"
        result = run("simulate", "stacktics", "-n", 5, "--set", "size=2", "--max-plies", 30, "--workers", 1,
                     "--csv", out, "--plot", tmp_path / "plots")
        assert result.exit_code == 0, result.output
        assert len(list(csv.DictReader(out.open()))) == 5
        names = {p.name for p in (tmp_path / "plots").iterdir()}
        assert {"lengths.png", "lengths.svg", "results.png", "results.svg"} <= names

    def test_variants_side_by_side(self, tmp_path):
        """Two `--variant`s and a `--vs` ruleset appear as columns of one comparison table and report."""
        report = tmp_path / "study.md"
        result = run("simulate", "stacktics", "-n", 3, "--max-plies", 20, "--workers", 1,
                     "--variant", "size=2,pie=false", "--variant", "size=2", "--vs", "stacktics-3x5",
                     "--report", report)
        assert result.exit_code == 0, result.output
        header = report.read_text().splitlines()
        table = next(line for line in header if line.startswith("|  |"))
        assert "pie=false" in table and "stacktics-3x5" in table and "Comparison" in result.stdout
        assert any("ziggurat simulate stacktics" in line for line in header)

    @pytest.mark.parametrize("args, words", [
        (["--agents", "random"], "give 2 agents"),
        (["--agents", "random,wizard"], "unknown agent 'wizard'"),
        (["--set", "size=9"], "size"),
        (["--variant", "pie"], "NAME=VALUE"),
    ])
    def test_bad_input_is_an_error_message(self, args, words):
        """Bad agents or options give an error naming the mistake, no traceback."""
        result = run("simulate", "stacktics", "-n", 2, "--workers", 1, *args)
        assert result.exit_code in (1, 2)
        assert words in result.output

    def test_unreachable_cluster_is_an_error_message(self):
        """A cluster address nobody answers at raises a GameError naming the address."""
        with pytest.raises(ziggurat.GameError, match="cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'"):
            connect("tcp://127.0.0.1:9", timeout="1s")


def test_games_are_played_to_an_outcome():
    """Without a ply limit reached, every game ends by one of the ruleset's own endings."""
    records = run_study(spec(n=4, max_plies=1000), workers=1)
    game = ziggurat.load("stacktics", SMALL)
    assert all(r.reason != SIM_CAP_REASON for r in records)
    assert all(sum(r.results_by_side) == pytest.approx(len(game.players) / 2 if r.kind == "draw" else 1)
               for r in records)


@pytest.mark.parametrize("cached", [False, True])
def test_auto_chooses_a_studys_backend_by_its_size_not_by_the_cache(monkeypatch, cached):
    # A random study's games are each backend's own: were a warm cache to tip `auto` to native,
    # the same command would give other games on another machine (a resumed study's reference
    # in tests/lab/test_study_faults.py differed so). 1,200 pig games weigh 3.6 s in Python: less
    # than a cold compile repays, more than a cached one does.
    pytest.importorskip("numba")
    from ziggurat.interpreter.native import game as native_game

    monkeypatch.setattr(native_game, "is_cached", lambda game: cached)
    monkeypatch.setattr(native_game, "native", lambda *a, **k: pytest.fail("the native game was made"))
    result = CliRunner().invoke(cli, ["simulate", "pig", "-n", "1200", "-w", "1", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["studies"][0]["study"]["backend"] == "python"
