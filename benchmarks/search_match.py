"""A match at equal time per move: Ziggurat's native MCTS against OpenSpiel's C++ `MCTSBot`, on
Breakthrough, through the OpenSpiel bridge, colours alternating; the score with a Wilson 95% interval.

    python benchmarks/search_match.py --games 100 --time 0.1     # the issue's match (10-15 minutes)
    python benchmarks/search_match.py --games 20 --time 0.1      # a first look

The game is refereed by the bridge (`ziggurat.bridges.openspiel.load_game("breakthrough")`: the
ruleset as a pyspiel game), whose Ziggurat state the `mcts` agent (`rollouts=native`: the whole
search in the native kernel) reads; `MCTSBot` searches OpenSpiel's own C++ `breakthrough` (so that
its search runs at its own speed, not through the bridge's Python states), and each move is carried
from one to the other by its notation (the two agree move for move: tests/bridges/test_openspiel.py). At
the end the two engines must agree on the result.

Both are plain UCT with random rollouts to the end of the game and the same exploration: the agent
scores results 0 to 1 with `c`, OpenSpiel -1 to 1, so its constant is 2c (the same search). No
solver (`--solve` gives `MCTSBot` its MCTS-Solver). Each side gets `--time` seconds of wall clock a
move (`MCTSBot`'s `max_wall_clock_time`; the agent's `time`). Game g gives Ziggurat the first
player (black) when g is even, OpenSpiel when it is odd; seeds are the game's number.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import pyspiel

from ziggurat.agents import make_agent
from ziggurat.bridges.openspiel import load_game


def wilson(score: float, n: int, z: float = 1.96) -> tuple:
    """The Wilson score interval of a proportion (draws count a half)."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def play(g: int, seconds: float, c: float, solve: bool) -> float:
    """Game g; Ziggurat's score (1 win, 0.5 draw, 0 loss)."""
    bridge = load_game("breakthrough")
    referee = bridge.new_initial_state()
    space = bridge.space
    og = pyspiel.load_game("breakthrough")
    spiel = og.new_initial_state()
    bot = pyspiel.MCTSBot(og, pyspiel.RandomRolloutEvaluator(1, g), 2 * c, 10 ** 9, 2000, solve, g, False,
                          pyspiel.ChildSelectionPolicy.UCT, seconds)
    agent = make_agent(f"mcts:time={seconds}:c={c}:rollout=1000:rollouts=native", g)
    ours = g % 2  # the player Ziggurat plays: 0 (black, first) in even games
    while not spiel.is_terminal():
        player = spiel.current_player()
        state = referee.progress.state
        by_text = {spiel.action_to_string(player, a): a for a in spiel.legal_actions()}
        if player == ours:
            move = agent.choose(state)
            action = by_text[state.move_text(move)]
        else:
            action = bot.step(spiel)
            move = state.parse_move(spiel.action_to_string(player, action))
        spiel.apply_action(action)
        for i in space.encode(move):
            referee.apply_action(i)
    assert referee.is_terminal(), "the two engines disagree on the end"
    theirs, mine = spiel.returns(), referee.returns()
    assert [round(x) for x in theirs] == [round(x) for x in mine], (theirs, mine)
    return (mine[ours] + 1) / 2


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--time", type=float, default=0.1, help="seconds of wall clock a move, each side")
    parser.add_argument("--c", type=float, default=1.4, help="the agent's UCT constant (OpenSpiel gets 2c)")
    parser.add_argument("--solve", action="store_true", help="MCTSBot with its solver")
    args = parser.parse_args(argv)
    make_agent("mcts:iterations=2:rollouts=native", 0).choose(load_game("breakthrough").new_initial_state()
                                                               .progress.state)  # compiled before the clock
    score, began = 0.0, time.perf_counter()
    for g in range(args.games):
        s = play(g, args.time, args.c, args.solve)
        score += s
        low, high = wilson(score, g + 1)
        print(f"game {g + 1:3d} ({'black' if g % 2 == 0 else 'white'}): {s:g}   score {score:g}/{g + 1} = "
              f"{score / (g + 1):.0%}  (95% interval {low:.0%} to {high:.0%})  {time.perf_counter() - began:.0f} s",
              flush=True)
    low, high = wilson(score, args.games)
    print(f"native MCTS against OpenSpiel's C++ MCTSBot, {args.time:g} s a move: {score:g} of {args.games} "
          f"({score / args.games:.0%}; Wilson 95% interval {low:.0%} to {high:.0%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
