"""The front end's costs, this tree beside another (say main's), measured in one run.

    python benchmarks/front_end_bench.py OTHER_SRC [--games breakthrough,checkers] [--repeats 5]

OTHER_SRC is the `src` folder of another checkout (`git worktree add /tmp/base main`, then
`/tmp/base/src`). Every figure is CPU seconds (user + system) of a fresh process, or of one call
inside it, the median of `--repeats` runs, each tree with a cache folder of its own that is
warmed first (the games compiled, their native modules compiled into Numba's cache):

- `--help`: the whole process of `python -m ziggurat --help`;
- `load`: `ziggurat.load(game)` from the warm disk cache (after `import ziggurat`);
- `native 1st`: the first `native(game)` of a process (Numba loads the machine code);
- `native 2nd`: the same call again;
- `choose native`, `choose auto`: `cli.backend.choose` as a command calls it, first thing after
  loading (so it includes the first `native`), and again in the same process;
- `simulate`: the whole process of `ziggurat simulate GAME -n 1000 -w 1 --backend native`
  (twenty chunks of 50 games).

The table gives both trees' figures and their ratio (other / this: above 1, this tree is faster).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE_SRC = str(Path(__file__).resolve().parent.parent / "src")

CHILD = r"""
import json, sys, time
def cpu():
    return time.process_time()
game_name, what = sys.argv[1], sys.argv[2]
out = {}
c = cpu(); import ziggurat; out["import"] = cpu() - c
c = cpu(); game = ziggurat.load(game_name); out["load"] = cpu() - c
if what == "native":
    try:
        from ziggurat.interpreter.native import native
    except ImportError:  # a tree from before the package was the backend's public face
        from importlib import import_module
        native = import_module("ziggurat.interpreter.native.game").native
    c = cpu(); native(game); out["native 1st"] = cpu() - c
    c = cpu(); native(game); out["native 2nd"] = cpu() - c
else:
    from ziggurat.cli.backend import choose
    c = cpu(); choose(game, what, 1e9, quiet=True); out[f"choose {what}"] = cpu() - c
    c = cpu(); choose(game, what, 1e9, quiet=True); out[f"choose {what} again"] = cpu() - c
print(json.dumps(out))
"""


def env_for(src: str, cache: str) -> dict:
    env = dict(os.environ, PYTHONPATH=src, ZIGGURAT_CACHE_DIR=cache)
    return env


def process_cpu(args: list, env: dict) -> float:
    """CPU seconds of a child process (it and its own children)."""
    before = os.times()
    subprocess.run(args, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = os.times()
    return (after.children_user - before.children_user) + (after.children_system - before.children_system)


def child(src: str, cache: str, game: str, what: str) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, game, what], env=env_for(src, cache), check=True,
                         capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure(src: str, cache: str, games: list, repeats: int) -> dict:
    env = env_for(src, cache)
    rows: dict = {}
    rows["--help"] = statistics.median(process_cpu([sys.executable, "-m", "ziggurat", "--help"], env)
                                       for _ in range(repeats))
    for game in games:
        child(src, cache, game, "native")  # warm: compiled, native module in Numba's cache
        runs = [child(src, cache, game, what) for what in ("native", "native", "auto") for _ in range(repeats)]
        for key in ("load", "native 1st", "native 2nd", "choose native", "choose native again", "choose auto",
                    "choose auto again"):
            values = [r[key] for r in runs if key in r]
            if values:
                rows[f"{game}: {key}"] = statistics.median(values)
        simulate = [sys.executable, "-m", "ziggurat", "simulate", game, "-n", "1000", "-w", "1", "--backend", "native",
                    "--json"]
        rows[f"{game}: simulate 1000 native"] = statistics.median(process_cpu(simulate, env)
                                                                   for _ in range(max(1, repeats // 2)))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("other_src")
    ap.add_argument("--games", default="breakthrough,checkers")
    ap.add_argument("--repeats", type=int, default=5)
    a = ap.parse_args()
    games = a.games.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        other = measure(a.other_src, os.path.join(tmp, "other"), games, a.repeats)
        this = measure(HERE_SRC, os.path.join(tmp, "this"), games, a.repeats)
    print(f"{'CPU seconds (median of ' + str(a.repeats) + ')':<44} {'other':>10} {'this':>10} {'other/this':>11}")
    for key in this:
        o, t = other.get(key), this[key]
        ratio = f"{o / t:.1f}x" if o is not None and t > 0 else "-"
        print(f"{key:<44} {o if o is not None else float('nan'):>10.4f} {t:>10.4f} {ratio:>11}")


if __name__ == "__main__":
    main()
