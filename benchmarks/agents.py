"""Agent and simulator speed: games per second and decisions per second, per ruleset and agent.

    python benchmarks/agents.py [--quick] [--json]

Each row plays whole games of one agent against a copy of itself through the study runner
(`ziggurat.lab.study.play_game`, one process, so the number is per core), for at least a few games
and a fraction of a second or so, and reports games/s, agent decisions per second, and the mean
game length. `measure()` returns the rows for benchmarks/run.py to merge into its table.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from rich.console import Console
from rich.table import Table

import ziggurat
from ziggurat.dsl.loader import shipped_names
from ziggurat.interpreter.games import small_options
from ziggurat.lab.study import play_game

AGENTS = ["random", "greedy", "mcts:iterations=100", "alphabeta:depth=2"]


def configs() -> list:
    """(label, ruleset, options): every shipped ruleset, on its small board (small_options)."""
    out = []
    for name in shipped_names():
        opts = small_options(name)
        label = name + "".join(f" {k}={v}" for k, v in opts.items())
        out.append((label, name, opts))
    return out


def widest(game, plies: int = 30) -> int:
    """The most moves met in a seeded random game of `plies` plies (the branching to search)."""
    state, rng, most = game.new(), random.Random(0), 0
    for _ in range(plies):
        moves = state.moves()
        if not moves:
            break
        most = max(most, len(moves))
        state.push(rng.choice(moves))
    return most


def bench(game, agent: str, min_games: int, min_seconds: float, max_plies: int) -> dict:
    players = len(game.players)
    agents = (agent,) * players
    games = plies = 0
    t0 = time.perf_counter()
    while games < min_games or time.perf_counter() - t0 < min_seconds:
        record = play_game(game, agents, games, 12345, max_plies)
        games += 1
        plies += record.plies
        if time.perf_counter() - t0 > 20 * min_seconds:  # a slow agent: enough for a rate
            break
    dt = time.perf_counter() - t0
    return {"games": games, "games_per_s": games / dt, "moves_per_s": plies / dt, "mean_length": plies / games}


def measure(quick: bool = False) -> list:
    play_game(ziggurat.load("stacktics"), ("random", "random"), 0, 0, 10)  # warm up: imports, caches
    rows = []
    for label, ruleset, opts in configs():
        game = ziggurat.load(ruleset, opts or None)
        for agent in AGENTS:
            if agent.startswith("alphabeta") and (len(game.players) > 2 or widest(game) > 60):
                continue  # alpha-beta: two players, and a branching it can search in a benchmark
            r = bench(game, agent, min_games=1 if quick else 3, min_seconds=0.2 if quick else 1.0,
                      max_plies=30 if quick else 100)
            rows.append({"ruleset": label, "agent": agent, **r})
    return rows


def table(rows: list) -> Table:
    t = Table(title="Agents and simulator (one core, agent vs itself)")
    for c in ("ruleset", "agent", "games", "games/s", "moves/s", "mean length"):
        t.add_column(c, justify="left" if c in ("ruleset", "agent") else "right")
    for r in rows:
        t.add_row(r["ruleset"], r["agent"], str(r["games"]), f"{r['games_per_s']:.2f}", f"{r['moves_per_s']:.0f}",
                  f"{r['mean_length']:.1f}")
    return t


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer and shorter games (a smoke test)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args(argv)
    rows = measure(args.quick)
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        Console().print(table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
