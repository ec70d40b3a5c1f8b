"""A native study beside its own kernel: does `simulate` get the kernel's speed?

    python benchmarks/study_bench.py [--quick]

`rows(quick)` gives, per game and in one run: random games per CPU second of the kernel alone
(`NativeGame.playouts`: one call, nothing but the games) and of a study as `simulate` runs it
(`run_study`, one worker, in this process, then `stats.summarize` of its games; start-up
excluded: the module compiled or loaded and the game loaded before the clock starts), their
ratio (the goal is 0.9 or more), the mean game length of each (they play other seeds, so other
games of the same length on average), and the CPU a game costs to write to a study's journal
(`Journal.add`: JSON, one line a game, from the study's table). The kernel and the study are
timed alternately, best of several repetitions. CPU seconds are the process's (`time.process_time`).

`scaling_rows(quick)` runs the same study in fresh processes with `-w 1` and `-w 2` (through
`run_study(workers=...)`), alternately: wall seconds and CPU seconds (the process and its workers,
start-up included), and their ratios; and the start-up alone (a study of 10 games in a fresh
process: imports, the game and its native module loaded), and the wall ratio past it (0.5 where
the two workers share the games perfectly). The parent loads the module once before it forks its
workers, which inherit it. On a machine other programs share, the wall time of `-w 2` says more
about them than about the study: the table prints the load average.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time

# (label, ruleset, options, games a repetition)
GAMES = [
    ("breakthrough", "breakthrough", {}, 20_000),
    ("clobber", "clobber", {}, 20_000),
]
MAX_PLIES = 1000

SCALING = """
import json, sys
from ziggurat.lab.study import StudySpec, run_study
ruleset, options, games, workers = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
spec = StudySpec(ruleset, ("random", "random"), games, options, seed=1, max_plies=%d, backend="native")
print(len(run_study(spec, workers=workers)))
""" % MAX_PLIES


def available() -> bool:
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


def cpu(fn) -> tuple:
    """(CPU seconds of this process, what fn returned)."""
    t = time.process_time()
    out = fn()
    return time.process_time() - t, out


def rows(quick: bool = False) -> list:
    if not available():
        return []
    import ziggurat
    from ziggurat.lab.journal import Journal
    from ziggurat.interpreter.native import native
    from ziggurat.lab.stats import summarize
    from ziggurat.lab.study import StudySpec, run_study

    repeats = 2 if quick else 5  # best of five: a shared machine's load moves either side by 5-10%
    out = []
    for label, ruleset, options, games in GAMES:
        games = games // 10 if quick else games
        game = ziggurat.load(ruleset, options or None)
        fast = native(game)
        start = game.new()
        spec = StudySpec(ruleset, ("random",) * len(game.players), games, options, seed=1, max_plies=MAX_PLIES,
                         backend="native")
        run_study(StudySpec(ruleset, spec.agents, 10, options, backend="native"), workers=1)  # start-up, untimed
        kernel, study = [], []
        for _ in range(repeats):
            kernel.append(cpu(lambda: fast.playouts(start, games, 1, MAX_PLIES)))
            study.append(cpu(lambda: _summarized(run_study(spec, workers=1), spec, game, summarize)))
        k_seconds, (_, k_plies, _) = min(kernel, key=lambda x: x[0])
        s_seconds, records = min(study, key=lambda x: x[0])
        with tempfile.TemporaryDirectory() as folder:
            journal = Journal(os.path.join(folder, "study.journal"), [spec])
            journal.start(resume=False)
            j_seconds, _ = cpu(lambda: journal.add(0, records))
            journal.close()
        row = {"game": label, "games": games,
               "kernel_games_per_cpu_s": games / k_seconds, "study_games_per_cpu_s": games / s_seconds,
               "kernel_mean_plies": float(k_plies.mean()),
               "study_mean_plies": float(records.plies.mean()),
               "journal_us_per_game": j_seconds / games * 1e6}
        row["ratio"] = row["study_games_per_cpu_s"] / row["kernel_games_per_cpu_s"]
        out.append(row)
    return out


def _summarized(records, spec, game, summarize):
    summarize(spec, records, game)
    return records


def _run_fresh(ruleset: str, options: dict, games: int, workers: int) -> tuple:
    """(wall seconds, CPU seconds of the process and its workers) of a study in a fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", SCALING, ruleset, json.dumps(options), str(games), str(workers)],
                   check=True, capture_output=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def scaling_rows(quick: bool = False) -> list:
    if not available():
        return []
    out = []
    for label, ruleset, options, games in GAMES[:1]:
        games = 20_000 if quick else 100_000
        _run_fresh(ruleset, options, 10, 1)  # the module compiled into the cache, if it was not
        one, two = [], []
        for _ in range(1 if quick else 2):  # back to back, alternating: the same load for both
            one.append(_run_fresh(ruleset, options, games, 1))
            two.append(_run_fresh(ruleset, options, games, 2))
        w0, c0 = _run_fresh(ruleset, options, 10, 1)  # start-up: a study of 10 games
        w1, c1 = min(one)
        w2, c2 = min(two)
        out.append({"game": label, "games": games, "wall_w1": w1, "cpu_w1": c1, "wall_w2": w2, "cpu_w2": c2,
                    "wall_ratio": w2 / w1, "cpu_ratio": c2 / c1, "cores": os.cpu_count(),
                    "wall_start": w0, "cpu_start": c0,
                    # -w 2 against -w 1 past the start-up (imports, the game and its module loaded):
                    # 0.5 when the games are shared perfectly by the two workers
                    "games_wall_ratio": (w2 - w0) / max(w1 - w0, 1e-9),
                    "load": os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")})
    return out


def table(rows: list, scaling: list):
    from rich.table import Table

    t = Table(title="A native study against its own kernel (games per CPU second, one worker, start-up excluded; "
                    "best of alternating runs)")
    for col in ("game", "games", "kernel games/CPU s", "study games/CPU s", "study / kernel", "mean plies kernel",
                "mean plies study", "journal CPU us/game"):
        t.add_column(col, justify="left" if col == "game" else "right")
    for r in rows:
        t.add_row(r["game"], f"{r['games']:,}", f"{r['kernel_games_per_cpu_s']:,.0f}",
                  f"{r['study_games_per_cpu_s']:,.0f}", f"{r['ratio']:.2f}", f"{r['kernel_mean_plies']:.1f}",
                  f"{r['study_mean_plies']:.1f}", f"{r['journal_us_per_game']:.1f}")
    s = Table(title="A native study on -w 2 against -w 1 (fresh processes, start-up included; wall time depends on "
                    "what else the machine runs)")
    for col in ("game", "games", "cores", "load", "wall -w 1", "wall -w 2", "wall w2/w1", "CPU -w 1", "CPU -w 2",
                "CPU w2/w1", "start-up wall / CPU", "past start-up: wall w2/w1"):
        s.add_column(col, justify="left" if col == "game" else "right")
    for r in scaling:
        s.add_row(r["game"], f"{r['games']:,}", str(r["cores"]), f"{r['load']:.1f}", f"{r['wall_w1']:.2f} s",
                  f"{r['wall_w2']:.2f} s", f"{r['wall_ratio']:.2f}", f"{r['cpu_w1']:.2f} s", f"{r['cpu_w2']:.2f} s",
                  f"{r['cpu_ratio']:.2f}", f"{r['wall_start']:.2f} s / {r['cpu_start']:.2f} s",
                  f"{r['games_wall_ratio']:.2f}")
    return t, s


def main(argv=None) -> int:
    import argparse

    from rich.console import Console

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and repetitions (a smoke test)")
    args = parser.parse_args(argv)
    if not available():
        print("skipped: Numba is not installed (pip install -e '.[native]')")
        return 0
    console = Console(width=max(140, Console().width))
    for t in table(rows(args.quick), scaling_rows(args.quick)):
        console.print(t)
    return 0


if __name__ == "__main__":
    sys.exit(main())
