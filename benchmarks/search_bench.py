"""Search speed: MCTS iterations per CPU second, native against OpenSpiel's C++ `MCTSBot`, and
alpha-beta nodes per CPU second, native against Python, side by side in one run.

    python benchmarks/search_bench.py [--quick] [--json] [--split] [--game NAME ...]

MCTS: from Breakthrough's start (`--game` for Clobber or Othello, OpenSpiel's game of the same
size), one move's search of the same number of iterations with the same
exploration constant (c = 1.4) and random rollouts to the end, by
- the `mcts` agent with `rollouts=native` (the whole search in the native kernel, through
  `choose`: what a game pays, the Python around it included),
- OpenSpiel's C++ `MCTSBot` with a `RandomRolloutEvaluator` (one rollout, no solver),
- the `mcts` agent with its Python tree and Python rollouts (fewer iterations: it is slow),
interleaved, best of several repetitions (CPU seconds: `time.process_time`, so that a loaded
machine slows each alike), and the ratio native / OpenSpiel (above 1.0: native is faster).

Where an iteration goes (`--split`; not in benchmarks/run.py): the native tree from Breakthrough's
start run directly (`NativeSearch.mcts`, no agent) with playouts to the end, and again with playouts
cut at once (`rollout=0`: the walk down, the new node, the one listing and end test a cut playout
makes, the scoring and the backing up), beside the kernel's random playouts from the start
(`playouts`), in CPU microseconds; the tree's share is the second over the first.

Alpha-beta: the `alphabeta` agent's search of Breakthrough's start to a fixed depth, native
(`backend=native`) and Python, nodes per CPU second and the ratio.

`rows(quick)` gives the rows for benchmarks/run.py; without Numba it gives none, and without
`pyspiel` the OpenSpiel columns are empty.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import ziggurat
from ziggurat.agents import make_agent

try:
    import pyspiel
except ImportError:  # the test extra is not installed
    pyspiel = None

C = 1.4


def cpu(fn) -> float:
    t = time.process_time()
    fn()
    return time.process_time() - t


def openspiel_params(name: str) -> dict:
    """OpenSpiel's parameters for its game of the size of the shipped ruleset (as search_match)."""
    if name == "othello":
        return {}
    world = ziggurat.load(name).world
    return {"rows": world.ranks, "columns": world.files}


def openspiel_mcts(iterations: int, seed: int, name: str = "breakthrough"):
    game = pyspiel.load_game(name, openspiel_params(name))
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    bot = pyspiel.MCTSBot(game, evaluator, C, iterations, 4000, False, seed, False)
    state = game.new_initial_state()
    return lambda: bot.step(state)


def ziggurat_mcts(game, iterations: int, seed: int, rollouts: str):
    agent = make_agent(f"mcts:iterations={iterations}:c={C}:rollout=1000:rollouts={rollouts}", seed)
    state = game.new()
    return lambda: agent.choose(state)


def mcts_row(quick: bool, name: str = "breakthrough") -> dict:
    game = ziggurat.load(name)
    iterations = 2000 if quick else 20000
    python_iterations = 100 if quick else 400
    repeats = 2 if quick else 4
    make_agent("mcts:iterations=2:rollouts=native", 0).choose(game.new())  # compiled (or loaded) first
    native, spiel, python = [], [], []
    for r in range(repeats):  # interleaved, so that all three see the same machine
        native.append(cpu(ziggurat_mcts(game, iterations, r, "native")))
        if pyspiel is not None:
            spiel.append(cpu(openspiel_mcts(iterations, r, name)))
        python.append(cpu(ziggurat_mcts(game, python_iterations, r, "python")))
    row = {"what": f"MCTS iterations / CPU s ({name} start)", "iterations": iterations,
           "native": iterations / min(native), "python": python_iterations / min(python)}
    if spiel:
        row["openspiel"] = iterations / min(spiel)
        row["ratio"] = row["native"] / row["openspiel"]
    return row


def split_row(quick: bool) -> dict:
    """CPU microseconds per native MCTS iteration, with playouts to the end and cut at once, and per
    random playout from the start (see the module's text); best of interleaved repetitions."""
    from ziggurat.interpreter.native import NativeSearch, native

    game = ziggurat.load("breakthrough")
    state = game.new()
    ng = native(game, ("playout", "playouts"))
    search = NativeSearch(ng)
    iterations = 2000 if quick else 20000

    def tree(rollout: int, seed: int):
        return lambda: search.mcts(state, C, rollout, seed, iterations).run(iterations)

    tree(1000, 0)()  # compiled (or loaded) first
    ng.playouts(state, 2, 0)
    full, cut, playout = [], [], []
    for r in range(2 if quick else 4):
        full.append(cpu(tree(1000, r)))
        cut.append(cpu(tree(0, r)))
        playout.append(cpu(lambda seed=r: ng.playouts(state, iterations, seed)))
    us = 1e6 / iterations
    return {"iterations": iterations, "iteration_us": min(full) * us, "tree_us": min(cut) * us,
            "playout_us": min(playout) * us}


def split_table(row: dict):
    from rich.table import Table

    t = Table(title=f"Where a native MCTS iteration goes (breakthrough start, {row['iterations']} iterations; "
                    "CPU microseconds, best of interleaved runs)")
    for c in ("iteration (playout to the end)", "tree alone (playout cut at once)", "tree's share",
              "random playout from the start"):
        t.add_column(c, justify="right")
    t.add_row(f"{row['iteration_us']:.2f}", f"{row['tree_us']:.2f}", f"{row['tree_us'] / row['iteration_us']:.1%}",
              f"{row['playout_us']:.2f}")
    return t


def alphabeta_row(quick: bool) -> dict:
    game = ziggurat.load("breakthrough")
    depth = 3 if quick else 4
    state = game.new()
    native = make_agent(f"alphabeta:depth={depth}:backend=native", 1)
    python = make_agent(f"alphabeta:depth={depth}", 1)
    native.choose(state)  # compiled, or loaded from the cache
    rates = {"native": 0.0, "python": 0.0}
    for _ in range(2 if quick else 3):
        for name, agent in (("native", native), ("python", python)):
            agent.nodes = 0
            seconds = cpu(lambda a=agent: a.choose(state))
            rates[name] = max(rates[name], agent.nodes / seconds)
    return {"what": f"alpha-beta nodes / CPU s (breakthrough start, depth {depth})", "iterations": None,
            **rates, "ratio_python": rates["native"] / rates["python"]}


def rows(quick: bool = False, games: tuple = ("breakthrough",)) -> list:
    try:
        import numba  # noqa: F401
    except ImportError:
        return []
    return [mcts_row(quick, name) for name in games] + [alphabeta_row(quick)]


def table(rows: list):
    from rich.table import Table

    t = Table(title="Search in native code (CPU seconds; best of interleaved runs)")
    for c in ("search", "iterations", "native", "OpenSpiel C++", "native / OpenSpiel", "Python",
              "native / Python"):
        t.add_column(c, justify="left" if c == "search" else "right")
    for r in rows:
        t.add_row(r["what"], str(r["iterations"] or "-"), f"{r['native']:,.0f}",
                  f"{r['openspiel']:,.0f}" if "openspiel" in r else "-",
                  f"{r['ratio']:.2f}" if "ratio" in r else "-", f"{r['python']:,.0f}",
                  f"{r['native'] / r['python']:.1f}")
    return t


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer iterations and repeats (a smoke test)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--split", action="store_true", help="also where a native MCTS iteration goes")
    parser.add_argument("--game", action="append", choices=("breakthrough", "clobber", "othello"),
                        help="MCTS from this game's start (repeat for several; default breakthrough)")
    args = parser.parse_args(argv)
    out = rows(args.quick, tuple(args.game or ("breakthrough",)))
    split = split_row(args.quick) if out and args.split else None
    if not out:
        print("Search benchmark skipped: Numba is not installed (pip install -e '.[native]')")
    elif args.json:
        print(json.dumps(out + ([split] if split else []), indent=2))
    else:
        from rich.console import Console

        console = Console(width=140)
        console.print(table(out))
        if split:
            console.print(split_table(split))
    return 0


if __name__ == "__main__":
    sys.exit(main())
