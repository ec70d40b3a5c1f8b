"""The native backend (Numba) beside the Python backend, and what compiling it costs.

    python benchmarks/native_bench.py [--quick]

`rows(quick)` gives one row per game the native backend compiles: perft leaves/s and random
playouts/s of both backends in the same run, their ratios, and the native start-up: compiled cold
(a fresh process with an empty cache folder) and loaded from Numba's cache (a second fresh process
with the same folder), each timed inside the process from `native(game)` until every loop is
ready. `native_rates(game, depth, playouts)` is what the OpenSpiel table uses for its native
columns. Without Numba, `rows` is empty.
"""

from __future__ import annotations

import json
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
import json, sys, time
import ziggurat
from ziggurat.interpreter.native import native
game = ziggurat.load(sys.argv[1], json.loads(sys.argv[2]) or None)
t = time.perf_counter()
native(game)
print(time.perf_counter() - t)
"""


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


def startup(ruleset: str, options: dict, folder: str) -> float:
    """Seconds to make a game's native functions ready in a fresh process using cache `folder`."""
    env = dict(os.environ, ZIGGURAT_CACHE_DIR=folder)
    out = subprocess.run([sys.executable, "-c", STARTUP, ruleset, json.dumps(options)], env=env,
                         capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


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

    if not available():
        print("Numba is not installed (pip install -e '.[native]'): no native backend to measure")
    else:
        Console().print(table(rows(quick="--quick" in sys.argv)))
