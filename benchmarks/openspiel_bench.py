"""The classic rulesets side by side with OpenSpiel, on the same machine in the same run.

    python benchmarks/openspiel_bench.py [--quick]

`rows(quick)` gives one row per game: Ziggurat's perft leaves/s and random playouts/s, OpenSpiel's
perft leaves/s driven from Python (`state.child(action)` per node), its random playouts/s driven
from Python (`legal_actions` / `apply_action` per ply) and played whole inside C++
(`pyspiel.evaluate_bots` with two uniform random bots), and the ratios Ziggurat / OpenSpiel;
beside them the native backend's perft and playouts (`native_bench.native_rates`), where it
compiles the game, and its ratio to OpenSpiel's all-C++ playouts; and for games whose turns have
several parts, its playouts with turns drawn part by part (`parts=True`, the rollout policy that
OpenSpiel's own Amazons follows: a different random process from uniform over whole turns).
Perft is counted in whole turns in both engines (an Amazons turn is three OpenSpiel actions, a Checkers jump chain one a jump), so
both count the same leaves; the row says so when they differ. Without `pyspiel` installed,
`rows` returns no rows and `available()` is false.
"""

from __future__ import annotations

import random
import sys
import time

import ziggurat

import native_bench

try:
    import pyspiel
except ImportError:  # the test extra is not installed
    pyspiel = None

# (label, ruleset, options, OpenSpiel game, its parameters, perft depth, playouts, whole turns)
GAMES = [
    ("breakthrough 8x8", "breakthrough", {}, "breakthrough", {}, 3, 20, False),
    ("clobber 6x5", "clobber", {}, "clobber", {}, 3, 40, False),
    ("othello", "othello", {}, "othello", {}, 5, 20, False),
    ("amazons 6x6", "amazons", {"board_size": 6}, "amazons", {"board_size": 6}, 2, 20, True),
    ("amazons 10x10", "amazons", {}, "amazons", {}, 1, 4, True),
    ("lines of action", "lines-of-action", {}, "lines_of_action", {}, 2, 4, False),
    ("checkers", "checkers", {}, "checkers", {}, 7, 20, True),  # a jump chain: several OpenSpiel actions
]


def available() -> bool:
    return pyspiel is not None


def best_rate(fn, work_of, repeats: int) -> tuple:
    """(best work per second over `repeats` runs, the work of one run)."""
    best, work = 0.0, 0
    for _ in range(repeats):
        t = time.perf_counter()
        work = work_of(fn())
        dt = time.perf_counter() - t
        best = max(best, work / dt if dt > 0 else 0.0)
    return best, work


def os_perft(state, depth: int, whole_turns: bool) -> int:
    """OpenSpiel's perft, by whole turns when `whole_turns` (one player's actions in a row)."""
    if state.is_terminal():
        return 0
    if depth == 0:
        return 1
    player = state.current_player()
    n = 0
    for a in state.legal_actions():
        child = state.child(a)
        if whole_turns and not child.is_terminal() and child.current_player() == player:
            n += os_perft(child, depth, whole_turns)
        else:
            n += os_perft(child, depth - 1, whole_turns)
    return n


def os_playouts_python(game, n: int) -> int:
    plies = 0
    for seed in range(n):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            plies += 1
    return plies


def os_playouts_cpp(game, n: int) -> int:
    for seed in range(n):
        bots = [pyspiel.make_uniform_random_bot(p, seed * 2 + p) for p in range(game.num_players())]
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
    return n


def zg_playouts(game, n: int) -> int:
    plies = 0
    for seed in range(n):
        plies += ziggurat.random_playout(game.new(), random.Random(seed))
    return plies


def compound(game) -> bool:
    """Whether some action of the game has more than one choice (a turn of several parts)."""
    return any(len(a.choices) > 1 for a in game.actions)


def native_parts_rate(game, playouts: int, repeats: int):
    """Native random playouts/s with each turn drawn part by part (`parts=True`)."""
    fast = native_bench.native_of(game)
    start = game.new()
    n = max(playouts, 100)
    return n / native_bench.best(lambda: fast.playouts(start, n, 1, 10_000, parts=True), repeats)


def rows(quick: bool = False) -> list:
    """One dict per game (see the module's doc); empty without pyspiel."""
    if pyspiel is None:
        return []
    repeats = 1 if quick else 3
    out = []
    for label, ruleset, options, os_name, params, depth, playouts, whole in GAMES:
        if quick:
            depth, playouts = max(1, depth - 1), max(2, playouts // 4)
        zg = ziggurat.load(ruleset, options)
        og = pyspiel.load_game(os_name, params)
        zs = zg.new()
        z_perft, z_leaves = best_rate(lambda: ziggurat.perft(zs, depth), int, repeats)
        o_perft, o_leaves = best_rate(lambda: os_perft(og.new_initial_state(), depth, whole), int, repeats)
        z_play, _ = best_rate(lambda: zg_playouts(zg, playouts), lambda plies: playouts, repeats)
        o_play_py, _ = best_rate(lambda: os_playouts_python(og, playouts), lambda plies: playouts, repeats)
        o_play_cpp, _ = best_rate(lambda: os_playouts_cpp(og, playouts), int, repeats)
        native = native_bench.native_rates(zg, depth, playouts * 10, repeats) if native_bench.available() else None
        parts = native_parts_rate(zg, playouts * 10, repeats) if native and compound(zg) else None
        out.append({
            "game": label,
            "perft_depth": depth,
            "leaves": z_leaves,
            "same_leaves": z_leaves == o_leaves,
            "zig_perft_per_s": z_perft,
            "os_py_perft_per_s": o_perft,
            "perft_ratio": z_perft / o_perft if o_perft else None,
            "zig_playouts_per_s": z_play,
            "os_py_playouts_per_s": o_play_py,
            "os_cpp_playouts_per_s": o_play_cpp,
            "playout_ratio_py": z_play / o_play_py if o_play_py else None,
            "playout_ratio_cpp": z_play / o_play_cpp if o_play_cpp else None,
            "native_perft_per_s": native[0] if native else None,
            "native_playouts_per_s": native[1] if native else None,
            "native_ratio_cpp": native[1] / o_play_cpp if native and o_play_cpp else None,
            "native_parts_playouts_per_s": parts,
            "native_parts_ratio_cpp": parts / o_play_cpp if parts and o_play_cpp else None,
        })
    return out


def main(argv: list) -> None:
    from rich.console import Console

    if not available():
        print("pyspiel is not installed (pip install open-spiel): no comparison to make")
        return
    Console().print(table(rows(quick="--quick" in argv)))


def table(rows: list):
    from rich.table import Table

    table = Table(title="Ziggurat and OpenSpiel, same machine, same run (ratio: Ziggurat / OpenSpiel)")
    for col in ("game", "perft d", "leaves", "zig leaves/s", "OS(py) leaves/s", "ratio",
                "zig playouts/s", "OS(py) playouts/s", "OS(C++) playouts/s", "ratio py", "ratio C++",
                "native leaves/s", "native playouts/s", "native / C++", "parts playouts/s", "parts / C++"):
        table.add_column(col, justify="left" if col == "game" else "right")
    for r in rows:
        table.add_row(r["game"], str(r["perft_depth"]),
                      f"{r['leaves']:,}" + ("" if r["same_leaves"] else " (differ!)"),
                      f"{r['zig_perft_per_s']:,.0f}", f"{r['os_py_perft_per_s']:,.0f}", f"{r['perft_ratio']:.2f}",
                      f"{r['zig_playouts_per_s']:,.1f}", f"{r['os_py_playouts_per_s']:,.1f}",
                      f"{r['os_cpp_playouts_per_s']:,.1f}", f"{r['playout_ratio_py']:.2f}",
                      f"{r['playout_ratio_cpp']:.3f}",
                      _number(r["native_perft_per_s"], ",.0f"), _number(r["native_playouts_per_s"], ",.1f"),
                      _number(r["native_ratio_cpp"], ".2f"), _number(r["native_parts_playouts_per_s"], ",.1f"),
                      _number(r["native_parts_ratio_cpp"], ".2f"))
    return table


def _number(value, fmt: str) -> str:
    return "-" if value is None else format(value, fmt)


if __name__ == "__main__":
    main(sys.argv[1:])
