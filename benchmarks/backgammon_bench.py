"""Backgammon's random playouts per CPU second, side by side in one run: the Python backend, the
native backend (whole turns listed natively: interpreter/native/turns.py) and OpenSpiel's C++
`backgammon` (two uniform random bots inside `pyspiel.evaluate_bots`, no Python between moves).

    python benchmarks/backgammon_bench.py [--games N]

Each engine plays whole games to their end (no cap), from the start, seeded, the best of three runs
kept. A ply is counted as each engine counts its moves, so the plies per game differ: here a move is nature's throw or a
player's whole turn (one move per distinct position it reaches, only the turns playing the most
dice); OpenSpiel's is a chance outcome or a decision, a double being two decisions of two checker
moves each and a roll that cannot be played one pass action. The random processes differ too:
uniform over the listed whole turns here, uniform over OpenSpiel's actions there. The games a CPU
second is the comparable number; the moves a game say how differently each counts.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

import ziggurat
from ziggurat.interpreter.runtime import random_playout

try:
    import pyspiel
except ImportError:  # the test extra is not installed
    pyspiel = None


REPEATS = 3  # each engine's best of three runs (the machine is shared)


def cpu(fn) -> tuple:
    """(what fn returns, its least CPU seconds over REPEATS runs)."""
    best, out = float("inf"), None
    for _ in range(REPEATS):
        t = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t)
    return out, best


def python_rate(game, games: int) -> tuple:
    def run():
        rng = random.Random(1)
        return [random_playout(game.new(), rng) for _ in range(games)]

    plies, dt = cpu(run)
    return games / dt, sum(plies) / games


def native_rate(game, games: int) -> tuple:
    from ziggurat.interpreter.native import native

    fast = native(game, ("playouts",))
    fast.playouts(game.new(), 2, 0, 100_000)  # compiled or loaded before the clock
    (results, plies, codes), dt = cpu(lambda: fast.playouts(game.new(), games, 7, 100_000))
    assert (np.asarray(codes) > 0).all(), "a game did not finish"
    return games / dt, float(np.mean(plies))


def openspiel_rate(games: int) -> tuple:
    game = pyspiel.load_game("backgammon")
    bots = [pyspiel.make_uniform_random_bot(p, 11 + p) for p in range(2)]
    lengths = []

    def run():
        for _ in range(games):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, 5)

    _, dt = cpu(run)
    rng = random.Random(3)  # the moves a game, counted apart (from Python, off the clock)
    for _ in range(20):
        st, n = game.new_initial_state(), 0
        while not st.is_terminal():
            if st.is_chance_node():
                outcomes, probs = zip(*st.chance_outcomes())
                st.apply_action(rng.choices(outcomes, probs)[0])
            else:
                st.apply_action(rng.choice(st.legal_actions()))
            n += 1
        lengths.append(n)
    return games / dt, sum(lengths) / len(lengths)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200, help="native and OpenSpiel games (Python plays a tenth)")
    a = ap.parse_args()
    game = ziggurat.load("backgammon")
    rows = [("Ziggurat, Python backend", *python_rate(game, max(5, a.games // 10))),
            ("Ziggurat, native backend", *native_rate(game, a.games))]
    if pyspiel is not None:
        rows.append(("OpenSpiel C++ (evaluate_bots)", *openspiel_rate(a.games)))
    native_games = rows[1][1]
    print("| engine | games / CPU s | moves a game (its own count) | native / this |")
    print("|---|---|---|---|")
    for name, rate, moves in rows:
        print(f"| {name} | {rate:,.1f} | {moves:.0f} | {native_games / rate:.2f}x |")


if __name__ == "__main__":
    main()
