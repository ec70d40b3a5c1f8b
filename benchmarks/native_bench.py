"""The native backend (Numba) beside the Python backend, and what compiling it costs.

    python benchmarks/native_bench.py [--quick]
    python benchmarks/native_bench.py --profile RULESET
    python benchmarks/native_bench.py --startup [--loops LOOP,...] [--against SRC] [--repeat K] [RULESET ...]

`--profile RULESET`: where the ruleset's cold compile spends its CPU (`compile_profile`; the
listener it installs adds to the total, so compare profiles with profiles, not with `--startup`).
`--startup`: the start-up table alone (`startup_rows`), of the rulesets named (all shipped ones
when none is); `--loops`: the loops `native(game, loops)` makes ready (default: those of
`native(game)`, perft and the study loop; a command asks for one: `perft` for perft,
`study_chunk` for simulate and studies, `playout` for MCTS's rollouts); `--against SRC`: each
ruleset measured twice in turn, with the package at SRC (another checkout's `src`, say main's)
and with this one, and the ratios printed (`compare_rows`): a before and after in one batch;
`--repeat K`: each side K times, alternated, the medians printed (single runs differ by 10-40% on
a shared machine).

`rows(quick)` gives one row per game the native backend compiles: perft leaves/s and random
playouts/s of both backends in the same run, their ratios, and the native start-up: compiled cold
(a fresh process with an empty cache folder) and loaded from Numba's cache (a second fresh process
with the same folder), each timed inside the process from `native(game)` until every loop is
ready. `native_rates(game, depth, playouts)` is what the OpenSpiel table uses for its native
columns. Without Numba, `rows` is empty.

`startup_rows(quick)` gives the start-up of every shipped ruleset (and Stacktics at size 2; in
--quick a few): CPU seconds of `native(game)` (perft, playouts and playout made ready; or the
`loops` asked for) cold and
warm, the whole process's CPU seconds warm (Python, imports, loading the game), and the peak
resident memory of each process (`ru_maxrss`), beside the goals of issue 25 (cold <= 10 CPU s,
warm <= 1 CPU s). CPU seconds, not wall time: on a loaded machine a compile waits for the CPU.
"""

from __future__ import annotations

import json
import statistics
import os
import random
import subprocess
import sys
import tempfile
import time

import ziggurat

# (label, ruleset, options, perft depth, playouts)
GAMES = [
    ("stacktics size 3", "stacktics", {"size": 3}, 4, 200),
    ("breakthrough 8x8", "breakthrough", {}, 3, 200),
    ("clobber 6x5", "clobber", {}, 4, 400),
    ("othello", "othello", {}, 5, 100),
    ("tic-tac-toe", "tic-tac-toe", {}, 6, 2000),
]

STARTUP = """
import json, resource, sys, time
import ziggurat
from ziggurat.errors import Unsupported
from ziggurat.interpreter.native import native
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
game = ziggurat.load(sys.argv[1], json.loads(sys.argv[2]) or None)
t, c = time.perf_counter(), cpu()
try:
    native(game, *json.loads(sys.argv[3]))
except Unsupported as why:
    print(json.dumps({"unsupported": why.what}))
    sys.exit(0)
print(json.dumps({"seconds": time.perf_counter() - t, "native_cpu": cpu() - c, "process_cpu": cpu(),
                  "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""
COLD_GOAL, WARM_GOAL = 10.0, 1.0  # CPU seconds (issue 25, item 4)
QUICK_STARTUP = [("tic-tac-toe", {}), ("breakthrough", {}), ("stacktics", {"size": 2})]


def available() -> bool:
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


def native_of(game):
    """The game's native functions, or None when the native backend cannot compile it."""
    from ziggurat.errors import Unsupported
    from ziggurat.interpreter.native import native

    try:
        return native(game)
    except Unsupported:
        return None


def best(fn, repeats: int) -> float:
    out = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        out = min(out, time.perf_counter() - t)
    return out


def native_rates(game, depth: int, playouts: int, repeats: int = 3):
    """(perft leaves/s, random playouts/s) of the native backend, or None if it cannot compile."""
    fast = native_of(game)
    if fast is None:
        return None
    start = game.new()
    leaves = fast.perft(start, depth)
    perft_s = best(lambda: fast.perft(start, depth), repeats)
    n = max(playouts, 100)
    play_s = best(lambda: fast.playouts(start, n, 1, 10_000), repeats)
    return leaves / perft_s, n / play_s


def startup_measures(ruleset: str, options: dict, folder: str, loops=None, src=None) -> dict:
    """What making a game's native functions ready costs a fresh process using cache `folder`:
    seconds, native_cpu (CPU s of `native(game)`, or of `native(game, loops)`), process_cpu,
    maxrss_mb; or {"unsupported": why}. `src`: the package's folder to import it from (another
    checkout's `src`), else this process's."""
    env = dict(os.environ, ZIGGURAT_CACHE_DIR=folder)
    if src is not None:
        env["PYTHONPATH"] = src
    args = [] if loops is None else [list(loops)]
    out = subprocess.run([sys.executable, "-c", STARTUP, ruleset, json.dumps(options), json.dumps(args)], env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def startup(ruleset: str, options: dict, folder: str) -> float:
    """Seconds to make a game's native functions ready in a fresh process using cache `folder`."""
    return startup_measures(ruleset, options, folder)["seconds"]


def shipped() -> list:
    """(ruleset, options) of every shipped ruleset, Stacktics at size 2 too."""
    from importlib import resources

    names = sorted(p.name[:-len(".rules")] for p in resources.files("ziggurat").joinpath("rulesets").iterdir()
                   if p.name.endswith(".rules"))
    out = [(n, {}) for n in names]
    if "stacktics" in names:
        out.insert(names.index("stacktics") + 1, ("stacktics", {"size": 2}))
    return out


def startup_rows(quick: bool = False, loops=None, names=(), against=None, repeat: int = 1) -> list:
    """Cold and warm start-up of each shipped ruleset (see the module's text), of those `names`
    (a ruleset's name, or its label: "stacktics size 2") when given; `loops`: what
    `native(game, loops)` makes ready (None: `native(game)`). [] without Numba. `against`:
    another checkout's `src`, measured first for each ruleset (its row's "before"). `repeat`: each
    side measured that many times, the sides alternated, and each figure the median of its runs
    (single cold compiles on a shared machine differ by 10-40% with nothing changed)."""
    if not available():
        return []
    out = []
    for ruleset, options in QUICK_STARTUP if quick else shipped():
        label = ruleset + "".join(f" {k} {v}" for k, v in options.items())
        if names and label not in names and not (ruleset in names and not options):
            continue
        row: dict = {"game": label}
        runs: dict = {}
        for _ in range(repeat):
            for key, src in (("before", against), ("", None)) if against else (("", None),):
                with tempfile.TemporaryDirectory(prefix="ziggurat-bench-cache-") as folder:
                    cold = startup_measures(ruleset, options, folder, loops, src)
                    if "unsupported" in cold:
                        row["unsupported"] = cold["unsupported"]
                        break
                    warm = startup_measures(ruleset, options, folder, loops, src)
                measured = {"cold_cpu_s": cold["native_cpu"], "cold_maxrss_mb": cold["maxrss_mb"],
                            "warm_cpu_s": warm["native_cpu"], "warm_process_cpu_s": warm["process_cpu"],
                            "warm_maxrss_mb": warm["maxrss_mb"]}
                for k, v in measured.items():
                    runs.setdefault(f"{key}_{k}" if key else k, []).append(v)
            if "unsupported" in row:
                break
        row.update({k: statistics.median(v) for k, v in runs.items()})
        row["runs"] = len(runs.get("cold_cpu_s", ()))
        out.append(row)
    return out


def compare_table(rows: list, against: str):
    """The rows of `startup_rows(..., against=SRC)`: before (SRC) and now, with ratios now / before."""
    from rich.table import Table

    t = Table(title=f"Native start-up, CPU s of native(game) in a fresh process, {against} (before) and this "
                    "checkout (now), each ruleset's four processes in turn; peak memory (MB) cold")
    for col in ("game", "cold before", "cold now", "now / before", "goal", "warm before", "warm now",
                "now / before", "peak MB cold before", "now"):
        t.add_column(col, justify="left" if col == "game" else "right")
    for r in rows:
        if "unsupported" in r:
            t.add_row(r["game"], "Python only: " + r["unsupported"], *[""] * 8)
            continue
        t.add_row(r["game"], f"{r['before_cold_cpu_s']:.1f}", f"{r['cold_cpu_s']:.1f}",
                  f"{r['cold_cpu_s'] / r['before_cold_cpu_s']:.2f}", "met" if r["cold_cpu_s"] <= COLD_GOAL else "over",
                  f"{r['before_warm_cpu_s']:.2f}", f"{r['warm_cpu_s']:.2f}",
                  f"{r['warm_cpu_s'] / r['before_warm_cpu_s']:.2f}", f"{r['before_cold_maxrss_mb']:.0f}",
                  f"{r['cold_maxrss_mb']:.0f}")
    return t


def startup_table(rows: list, loops=None):
    from rich.table import Table

    what = "native(game)" if loops is None else f"native(game, {tuple(loops)!r})"
    runs = max((r.get("runs", 1) for r in rows), default=1)
    what += f", the median of {runs} runs" if runs > 1 else ""
    t = Table(title=f"Native start-up per shipped ruleset: CPU s of {what} in a fresh process, cold (empty "
                    f"cache) and warm (goals: cold <= {COLD_GOAL:g}, warm <= {WARM_GOAL:g}); peak memory (MB)")
    for col in ("game", "cold CPU s", "goal", "warm CPU s", "goal", "warm process CPU s", "peak MB cold",
                "peak MB warm"):
        t.add_column(col, justify="left" if col == "game" else "right")
    for r in rows:
        if "unsupported" in r:
            t.add_row(r["game"], "Python only: " + r["unsupported"], "", "", "", "", "", "")
            continue
        t.add_row(r["game"], f"{r['cold_cpu_s']:.1f}", "met" if r["cold_cpu_s"] <= COLD_GOAL else "over",
                  f"{r['warm_cpu_s']:.2f}", "met" if r["warm_cpu_s"] <= WARM_GOAL else "over",
                  f"{r['warm_process_cpu_s']:.2f}", f"{r['cold_maxrss_mb']:.0f}", f"{r['warm_maxrss_mb']:.0f}")
    return t


PROFILE = """
import collections, json, resource, sys
from numba.core import codegen, event
import ziggurat
from ziggurat.interpreter.native import native
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
stack, own, llvm = [], collections.Counter(), collections.Counter()
class Passes(event.Listener):  # a pass's own CPU s (the passes of the callees it compiles left out)
    def on_start(self, e):
        stack.append([cpu(), 0.0])
    def on_end(self, e):
        began, inner = stack.pop()
        spent = cpu() - began
        own[(e.data["qualname"], e.data["name"].split(" [")[0])] += spent - inner
        if stack:
            stack[-1][1] += spent
for method, what in (("_optimize_functions", "LLVM: function passes"), ("_optimize_final_module", "LLVM: module "
                     "passes (the linked callees again)"), ("_finalize_final_module", "LLVM: machine code")):
    def timed(self, *a, _f=getattr(codegen.CPUCodeLibrary, method), _what=what, **k):
        began = cpu()
        try:
            return _f(self, *a, **k)
        finally:
            llvm[_what] += cpu() - began
    setattr(codegen.CPUCodeLibrary, method, timed)
game = ziggurat.load(sys.argv[1], json.loads(sys.argv[2]) or None)
began = cpu()
with event.install_listener("numba:run_pass", Passes()):
    native(game)
total = cpu() - began
by_pass, by_function = collections.Counter(), collections.Counter()
for (fn, name), t in own.items():
    by_pass[name] += t
    by_function[fn] += t
print(json.dumps({"native_cpu": total, "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "passes": by_pass.most_common(10), "functions": by_function.most_common(12),
                  "llvm": llvm.most_common(), "pairs": [(f"{f}: {name}", t) for (f, name), t in own.most_common(12)]}))
"""


def compile_profile(ruleset: str, options: dict, folder: str) -> dict:
    """Where a cold `native(game)` spends its CPU, in a fresh process with cache `folder` (empty):
    each Numba pass's own CPU s (numba.core.event's "numba:run_pass", nested passes of callees
    left out) by pass and by compiled function, and the LLVM work inside lowering."""
    env = dict(os.environ, ZIGGURAT_CACHE_DIR=folder)
    out = subprocess.run([sys.executable, "-c", PROFILE, ruleset, json.dumps(options)], env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def print_profile(ruleset: str) -> None:
    with tempfile.TemporaryDirectory(prefix="ziggurat-bench-cache-") as folder:
        p = compile_profile(ruleset, {}, folder)
    print(f"{ruleset}: cold native(game) {p['native_cpu']:.1f} CPU s, peak {p['maxrss_mb']:.0f} MB")
    for key, title in (("passes", "Numba pass"), ("functions", "compiled function"), ("llvm", "inside lowering"),
                       ("pairs", "function and pass")):
        print(f"  by {title}: " + ", ".join(f"{name} {t:.1f}" for name, t in p[key]))


def python_playouts(game, n: int) -> None:
    for seed in range(n):
        ziggurat.random_playout(game.new(), random.Random(seed))


def rows(quick: bool = False) -> list:
    if not available():
        return []
    repeats = 1 if quick else 3
    out = []
    for label, ruleset, options, depth, playouts in GAMES[:3] if quick else GAMES:
        game = ziggurat.load(ruleset, options or None)
        if native_of(game) is None:
            continue
        with tempfile.TemporaryDirectory(prefix="ziggurat-bench-cache-") as folder:
            cold = startup(ruleset, options, folder)
            cached = startup(ruleset, options, folder)
        if quick:
            depth -= 1
        n_perft, n_play = native_rates(game, depth, playouts, repeats)
        py_n = max(2, playouts // 20)
        leaves = ziggurat.perft(game.new(), depth)
        p_perft = leaves / best(lambda: ziggurat.perft(game.new(), depth), repeats)
        p_play = py_n / best(lambda: python_playouts(game, py_n), repeats)
        out.append({"game": label, "depth": depth, "leaves": leaves, "python_perft_per_s": p_perft,
                    "native_perft_per_s": n_perft, "perft_ratio": n_perft / p_perft,
                    "python_playouts_per_s": p_play, "native_playouts_per_s": n_play,
                    "playout_ratio": n_play / p_play, "compile_cold_s": cold, "compile_cached_s": cached})
    return out


def table(rows: list):
    from rich.table import Table

    t = Table(title="Native (Numba) and Python backends, same run (ratio: native / Python); "
                    "native start-up in a fresh process")
    for col in ("game", "depth", "python leaves/s", "native leaves/s", "ratio", "python playouts/s",
                "native playouts/s", "ratio", "compile cold (s)", "from cache (s)"):
        t.add_column(col, justify="left" if col == "game" else "right")
    for r in rows:
        t.add_row(r["game"], str(r["depth"]), f"{r['python_perft_per_s']:,.0f}", f"{r['native_perft_per_s']:,.0f}",
                  f"{r['perft_ratio']:.1f}", f"{r['python_playouts_per_s']:,.1f}",
                  f"{r['native_playouts_per_s']:,.1f}", f"{r['playout_ratio']:.1f}",
                  f"{r['compile_cold_s']:.1f}", f"{r['compile_cached_s']:.2f}")
    return t


if __name__ == "__main__":
    from rich.console import Console

    if "--help" in sys.argv or "-h" in sys.argv:
        print(__doc__)
        sys.exit(0)
    if not available():
        print("Numba is not installed (pip install -e '.[native]'): no native backend to measure")
    else:
        if "--profile" in sys.argv:  # python benchmarks/native_bench.py --profile RULESET
            print_profile(sys.argv[sys.argv.index("--profile") + 1])
            sys.exit(0)
        quick = "--quick" in sys.argv
        if "--startup" in sys.argv:  # python benchmarks/native_bench.py --startup [--loops perft,...] [RULESET ...]
            args = [a for a in sys.argv[1:] if a not in ("--startup", "--quick")]
            loops = against = None
            if "--loops" in args:
                at = args.index("--loops")
                loops = tuple(x for x in args[at + 1].split(",") if x)
                del args[at:at + 2]
            repeat = 1
            if "--repeat" in args:
                at = args.index("--repeat")
                repeat = int(args[at + 1]) if args[at + 1:] and args[at + 1].isdigit() else 0
                if repeat < 1:
                    sys.exit("--repeat takes a whole number of runs, 1 or more")
                del args[at:at + 2]
            if "--against" in args:
                at = args.index("--against")
                against = args[at + 1] if args[at + 1:] else ""
                if not os.path.isfile(os.path.join(against, "ziggurat", "__init__.py")):
                    sys.exit(f"--against {against!r}: not a checkout's src folder (no ziggurat/__init__.py in it); "
                             "without it the installed package would be measured on both sides")
                del args[at:at + 2]
            measured = startup_rows(quick, loops, tuple(args), against, repeat)
            Console().print(compare_table(measured, against) if against else startup_table(measured, loops))
            sys.exit(0)
        Console().print(table(rows(quick)))
        Console().print(startup_table(startup_rows(quick)))
