"""The front end's costs, this tree beside another (say main's), measured in one run.

    python benchmarks/front_end_bench.py OTHER_SRC [--games breakthrough,checkers] [--repeats 5]

OTHER_SRC is the `src` folder of another checkout (`git worktree add /tmp/base main`, then
`/tmp/base/src`). Every figure is CPU seconds (user + system) of a fresh process, or of one call
inside it, the median of `--repeats` runs (the two trees' runs interleaved), each tree with a
cache folder of its own that is warmed first (the games compiled, their native modules compiled
into Numba's cache):

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
if what == "direct":
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


def once(src: str, cache: str, games: list) -> dict:
    """One run of every measurement in one tree."""
    env = env_for(src, cache)
    rows = {"--help": process_cpu([sys.executable, "-m", "ziggurat", "--help"], env)}
    for game in games:
        for what in ("direct", "native", "auto"):
            rows.update({f"{game}: {k}": v for k, v in child(src, cache, game, what).items()
                         if k != "import" and (k != "load" or what == "direct")})
        simulate = [sys.executable, "-m", "ziggurat", "simulate", game, "-n", "1000", "-w", "1", "--backend", "native",
                    "--json"]
        rows[f"{game}: simulate 1000 native"] = process_cpu(simulate, env)
    return rows


def measure(trees: dict, games: list, repeats: int) -> dict:
    """{tree: {row: median}}: the trees' runs interleaved, so that a machine growing busier or
    quieter meanwhile weighs on both alike."""
    for src, cache in trees.items():
        for game in games:
            child(src, cache, game, "direct")  # warm: compiled, native module in Numba's cache
    runs: dict = {src: [] for src in trees}
    for _ in range(repeats):
        for src, cache in trees.items():
            runs[src].append(once(src, cache, games))
    return {src: {k: statistics.median(r[k] for r in rs) for k in rs[0]} for src, rs in runs.items()}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("other_src")
    ap.add_argument("--games", default="breakthrough,checkers")
    ap.add_argument("--repeats", type=int, default=5)
    a = ap.parse_args()
    games = a.games.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        medians = measure({a.other_src: os.path.join(tmp, "other"), HERE_SRC: os.path.join(tmp, "this")},
                          games, a.repeats)
    other, this = medians[a.other_src], medians[HERE_SRC]
    print(f"{'CPU seconds (median of ' + str(a.repeats) + ')':<44} {'other':>10} {'this':>10} {'other/this':>11}")
    for key in this:
        o, t = other.get(key), this[key]
        ratio = f"{o / t:.1f}x" if o is not None and t > 0 else "-"
        print(f"{key:<44} {o if o is not None else float('nan'):>10.4f} {t:>10.4f} {ratio:>11}")


if __name__ == "__main__":
    main()
