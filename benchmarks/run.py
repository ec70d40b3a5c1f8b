"""Ziggurat benchmarks: one command, one table.

    python benchmarks/run.py [--quick] [--json] [--no-agents] [--rbg [PATH]] [--startup-repeat K]

For every shipped ruleset (and every Stacktics size and board) it measures perft leaves per second
and random playouts per second of the compiled engine. Where a hand-written plain-Python generator
exists for the same game (benchmarks/handwritten_stacktics.py), it is measured in the same run,
interleaved with the engine, and the table gives the ratio compiled / hand-written (above 1.0: the
specialised code is faster). Each number is the best of several repetitions, which keeps out most of
the noise of a shared machine. A second table (benchmarks/agents.py) gives the speed of the AI
agents and the simulator: games and decisions per second; a third (benchmarks/openspiel_bench.py)
sets the classic games beside OpenSpiel's, when pyspiel is there, with the native backend's numbers
beside both; a fourth (benchmarks/native_bench.py) sets the native backend beside the Python one,
with its compile time cold and from the cache, when Numba is there (`--startup-repeat K`: each
ruleset's cold and warm start K times, the medians; single cold compiles on a shared machine differ
by 10-40%); a fifth (benchmarks/table_geometry.py) the open table's geometry against plain scans; a
sixth (benchmarks/study_bench.py) a native study's games per CPU second beside its kernel's, and the
study on two workers beside one, when Numba is there; a seventh (benchmarks/search_bench.py) the
native search's MCTS iterations per CPU second beside OpenSpiel's C++ MCTSBot and alpha-beta's nodes
per CPU second beside Python's, when Numba is there. With `--rbg`, an eighth
(benchmarks/rbg_bench.py) sets native random playouts beside RBG's compiled C++ (rbg2cpp, built from
the checkout at PATH, else $ZIGGURAT_RBG, else the cache folder's) and OpenSpiel's C++.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import agents as agent_bench  # noqa: E402
import native_bench  # noqa: E402
import openspiel_bench  # noqa: E402
import rbg_bench  # noqa: E402
import study_bench  # noqa: E402
import search_bench  # noqa: E402
import table_geometry  # noqa: E402
import handwritten_stacktics as handwritten  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

import ziggurat  # noqa: E402
from ziggurat.dsl.loader import shipped_names  # noqa: E402

# (label, ruleset, options, perft depth, playouts, hand-written config or None)
STACKTICS = [
    ("stacktics size 2", "stacktics", {"size": 2}, 4, 40, dict(size=2)),
    ("stacktics size 2, 3x5", "stacktics", {"size": 2, "narrow": True}, 4, 40, dict(size=2, narrow=True)),
    ("stacktics size 3", "stacktics", {"size": 3}, 4, 20, dict(size=3)),
    ("stacktics size 4", "stacktics", {"size": 4}, 3, 10, dict(size=4)),
    ("stacktics size 5", "stacktics", {"size": 5}, 3, 10, dict(size=5)),
]


def configs() -> list:
    out = list(STACKTICS)
    for name in shipped_names():
        if name != "stacktics":
            out.append((name, name, {}, None, 10, None))  # depth: chosen by pick_depth
    return out


def pick_depth(game, budget: float = 0.3, deepest: int = 6) -> int:
    """The deepest perft (up to `deepest`) that runs within `budget` seconds (at least depth 1).
    Each step costs about the branching factor times the one before, so it stops early."""
    depth, elapsed = 1, 0.0
    while depth < deepest:
        t = time.perf_counter()
        ziggurat.perft(game.new(), depth)
        elapsed = time.perf_counter() - t
        moves = max(1, len(game.new().moves()))
        if elapsed * moves > budget:  # the next depth would take about this long
            break
        depth += 1
    return depth


def timed(fn) -> tuple:
    """(seconds, what fn returned)."""
    t = time.perf_counter()
    result = fn()
    return time.perf_counter() - t, result


def engine_perft(game, depth):
    state = game.new()
    return lambda: ziggurat.perft(state, depth)


def engine_playouts(game, n):
    def run():
        plies = 0
        for seed in range(n):
            plies += ziggurat.random_playout(game.new(), random.Random(seed))
        return plies
    return run


def hand_perft(cfg, depth):
    game = handwritten.Stacktics(**cfg)
    return lambda: game.perft(depth)


def hand_playouts(cfg, n):
    game = handwritten.Stacktics(**cfg)

    def run():
        plies = 0
        for seed in range(n):
            game.reset()
            plies += game.playout(seed)
        return plies
    return run


def measure(quick: bool) -> list:
    repeats = 2 if quick else 5
    rows = []
    for label, ruleset, options, depth, playouts, hand in configs():
        if quick:
            depth, playouts = (max(2, depth - 1) if depth else None), max(2, playouts // 4)
        game = ziggurat.load(ruleset, options)
        if depth is None:
            depth = pick_depth(game, 0.05 if quick else 0.3)
        leaves = ziggurat.perft(game.new(), depth)
        row = {"game": label, "depth": depth, "leaves": leaves, "playouts": playouts}
        z_perft, z_play, h_perft, h_play = [], [], [], []
        for _ in range(repeats):  # interleaved, so both see the same machine
            z_perft.append(timed(engine_perft(game, depth))[0])
            z_play.append(timed(engine_playouts(game, playouts)))
            if hand is not None:
                h_perft.append(timed(hand_perft(hand, depth))[0])
                h_play.append(timed(hand_playouts(hand, playouts)))
        row["perft_leaves_per_s"] = leaves / min(z_perft)
        seconds, plies = min(z_play)
        row["playouts_per_s"] = playouts / seconds
        row["plies_per_s"] = plies / seconds
        if hand is not None:
            row["hand_perft_leaves_per_s"] = leaves / min(h_perft)
            seconds, plies = min(h_play)
            row["hand_playouts_per_s"] = playouts / seconds
            row["hand_plies_per_s"] = plies / seconds
            row["perft_ratio"] = row["perft_leaves_per_s"] / row["hand_perft_leaves_per_s"]
            # Random games differ in length between the two (their move orders differ), so the
            # fair playout comparison is moves played per second.
            row["playout_ratio"] = row["plies_per_s"] / row["hand_plies_per_s"]
        rows.append(row)
    return rows


def table(rows: list) -> Table:
    t = Table(title="Ziggurat benchmarks (best of interleaved runs; ratio = compiled / hand-written)")
    for col in ("game", "depth", "perft leaves/s", "hand-written", "ratio",
                "playouts/s", "random-play plies/s", "hand-written", "ratio"):
        t.add_column(col, justify="left" if col == "game" else "right")
    for r in rows:
        hand = "perft_ratio" in r
        t.add_row(
            r["game"], str(r["depth"]), f"{r['perft_leaves_per_s']:,.0f}",
            f"{r['hand_perft_leaves_per_s']:,.0f}" if hand else "-",
            f"{r['perft_ratio']:.2f}" if hand else "-",
            f"{r['playouts_per_s']:,.1f}", f"{r['plies_per_s']:,.0f}",
            f"{r['hand_plies_per_s']:,.0f}" if hand else "-",
            f"{r['playout_ratio']:.2f}" if hand else "-",
        )
    return t


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller depths and fewer repeats (a smoke test)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--no-agents", action="store_true", help="skip the agent and simulator table")
    parser.add_argument("--rbg", nargs="?", const="", metavar="PATH",
                        help="also native random playouts beside RBG's C++ (rbg2cpp checkout at PATH, else "
                             "$ZIGGURAT_RBG, else the cache folder's; built once)")
    parser.add_argument("--startup-repeat", type=int, default=1, metavar="K",
                        help="measure each ruleset's native start-up K times and give the medians (default 1)")
    args = parser.parse_args(argv)
    if args.startup_repeat < 1:
        parser.error("--startup-repeat must be 1 or more")
    rows = measure(args.quick)
    agent_rows = [] if args.no_agents else agent_bench.measure(args.quick)
    os_rows = openspiel_bench.rows(args.quick)  # empty without pyspiel (the test extra)
    native_rows = native_bench.rows(args.quick)  # empty without numba (the native extra)
    startup_rows = native_bench.startup_rows(args.quick, repeat=args.startup_repeat)  # empty without numba
    table_rows = table_geometry.rows(args.quick)
    study_rows, scaling_rows = study_bench.rows(args.quick), study_bench.scaling_rows(args.quick)  # empty without numba
    search_rows = search_bench.rows(args.quick)  # empty without numba
    rbg_rows, rbg_why = rbg_bench.rows(args.quick, args.rbg or None) if args.rbg is not None else ([], None)
    if args.json:
        print(json.dumps({"engine": rows, "agents": agent_rows, "openspiel": os_rows, "native": native_rows,
                          "native_startup": startup_rows,
                          "table": table_rows, "study": study_rows, "study_workers": scaling_rows,
                          "search": search_rows, "rbg": rbg_rows, "rbg_not_built": rbg_why}, indent=2))
    else:
        console = Console(width=max(140, Console().width))
        console.print(table(rows))
        if agent_rows:
            console.print(agent_bench.table(agent_rows))
        if os_rows:
            console.print(openspiel_bench.table(os_rows))
        else:
            console.print("OpenSpiel comparison skipped: pyspiel is not installed (pip install -e '.[test]')")
        if native_rows:
            console.print(native_bench.table(native_rows))
            console.print(native_bench.startup_table(startup_rows))
        else:
            console.print("Native backend skipped: Numba is not installed (pip install -e '.[native]')")
        console.print(table_geometry.table(table_rows))
        if study_rows:
            for t in study_bench.table(study_rows, scaling_rows):
                console.print(t)
        if search_rows:
            console.print(search_bench.table(search_rows))
        if rbg_rows:
            console.print(rbg_bench.table(rbg_rows, rbg_why))
        elif args.rbg is not None:
            console.print("RBG comparison skipped: Numba is not installed (pip install -e '.[native]')")
    return 0


if __name__ == "__main__":
    sys.exit(main())
