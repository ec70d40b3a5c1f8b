"""A match at equal time per move: Ziggurat's native MCTS against OpenSpiel's C++ `MCTSBot`, on
Breakthrough, Clobber or Othello, through the OpenSpiel bridge, colours alternating; the score with a
Wilson 95% interval.

    python benchmarks/search_match.py --games 100 --time 0.1     # the issue's match (10-15 minutes)
    python benchmarks/search_match.py --games 20 --time 0.1      # a first look
    python benchmarks/search_match.py --game clobber --games 100 --time 0.1   # a second game

The game is refereed by the bridge (`ziggurat.bridges.openspiel.load_game(GAME)`: the shipped
ruleset at its default options as a pyspiel game), whose Ziggurat state the `mcts` agent
(`rollouts=native`: the whole search in the native kernel) reads; `MCTSBot` searches OpenSpiel's own
C++ game of the same size (so that its search runs at its own speed, not through the bridge's Python
states), and each move is carried from one to the other by its notation (the two agree move for
move: tests/bridges/test_openspiel.py; Othello's ranks are numbered from the other side there). At
the end the two engines must agree on the result.

Both are plain UCT with random rollouts to the end of the game and the same exploration: the agent
scores results 0 to 1 with `c`, OpenSpiel -1 to 1, so its constant is 2c (the same search). No
solver (`--solve` gives `MCTSBot` its MCTS-Solver). Each side gets `--time` seconds of wall clock a
move (`MCTSBot`'s `max_wall_clock_time`; the agent's `time`). Game g gives Ziggurat the first
player when g is even, OpenSpiel when it is odd; seeds are the game's number.

Each game is played in a child process (forked, the native search compiled before): `MCTSBot` in
the OpenSpiel wheel this was written with (2.0.2) dies of a segmentation fault when its clock runs
out before its first simulation is done (on a loaded machine a move's 0.1 s can pass before one
rollout; `max_wall_clock_time=1e-9` shows it every time). A game whose process dies is played again
from its start with the same seeds (a crash depends on the load, not on the position), and the
summary says how many were.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import re
import sys
import time

import pyspiel

import ziggurat
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


def _othello_text(text: str) -> str:
    """Othello's square in the other engine's numbering (OpenSpiel's row 1 is Ziggurat's rank 8)."""
    m = re.fullmatch(r"([a-h])([1-8])", text)
    return f"{m.group(1)}{9 - int(m.group(2))}" if m else text


def _same(text: str) -> str:
    return text


def _board_size(zg) -> dict:
    return {"rows": zg.world.ranks, "columns": zg.world.files}


# game: (OpenSpiel's parameters from the Ziggurat game, a move's text in the other engine's notation:
# the same function both ways)
GAMES = {
    "breakthrough": (_board_size, _same),
    "clobber": (_board_size, _same),
    "othello": (lambda zg: {}, _othello_text),
}


def play(game: str, g: int, seconds: float, c: float, solve: bool) -> float:
    """Game g; Ziggurat's score (1 win, 0.5 draw, 0 loss)."""
    params, translate = GAMES[game]
    bridge = load_game(game)
    referee = bridge.new_initial_state()
    space = bridge.space
    og = pyspiel.load_game(game, params(ziggurat.load(game)))
    spiel = og.new_initial_state()
    bot = pyspiel.MCTSBot(og, pyspiel.RandomRolloutEvaluator(1, g), 2 * c, 10 ** 9, 2000, solve, g, False,
                          pyspiel.ChildSelectionPolicy.UCT, seconds)
    agent = make_agent(f"mcts:time={seconds}:c={c}:rollout=1000:rollouts=native", g)
    ours = g % 2  # the player Ziggurat plays: 0 (the first) in even games
    while not spiel.is_terminal():
        player = spiel.current_player()
        state = referee.progress.state
        by_text = {spiel.action_to_string(player, a): a for a in spiel.legal_actions()}
        if player == ours:
            move = agent.choose(state)
            action = by_text[translate(state.move_text(move))]
        else:
            action = bot.step(spiel)
            move = state.parse_move(translate(spiel.action_to_string(player, action)))
        spiel.apply_action(action)
        for i in space.encode(move):
            referee.apply_action(i)
    assert referee.is_terminal(), "the two engines disagree on the end"
    theirs, mine = spiel.returns(), referee.returns()
    assert [round(x) for x in theirs] == [round(x) for x in mine], (theirs, mine)
    return (mine[ours] + 1) / 2


def play_apart(game: str, g: int, seconds: float, c: float, solve: bool, tries: int = 5) -> tuple:
    """Game g played in a forked child process (see the module's text): (Ziggurat's score, how
    many times it was played again after its process died)."""
    ctx = multiprocessing.get_context("fork")
    for again in range(tries):
        receive, send = ctx.Pipe(duplex=False)
        child = ctx.Process(target=_play_into, args=(send, game, g, seconds, c, solve))
        child.start()
        send.close()
        try:
            score = receive.recv()
        except EOFError:  # it died before it sent a score
            score = None
        child.join()
        if score is not None and child.exitcode == 0:
            return score, again
        print(f"game {g + 1}: its process ended with code {child.exitcode}; played again", flush=True)
    raise SystemExit(f"game {g + 1}: its process died {tries} times")


def _play_into(send, game: str, g: int, seconds: float, c: float, solve: bool) -> None:
    send.send(play(game, g, seconds, c, solve))
    send.close()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), default="breakthrough",
                        help="the shipped ruleset at its default options, and OpenSpiel's game of the same size")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--time", type=float, default=0.1, help="seconds of wall clock a move, each side")
    parser.add_argument("--c", type=float, default=1.4, help="the agent's UCT constant (OpenSpiel gets 2c)")
    parser.add_argument("--solve", action="store_true", help="MCTSBot with its solver")
    args = parser.parse_args(argv)
    make_agent("mcts:iterations=2:rollouts=native", 0).choose(load_game(args.game).new_initial_state()
                                                               .progress.state)  # compiled before the clock
    score, replayed, began = 0.0, 0, time.perf_counter()
    for g in range(args.games):
        s, again = play_apart(args.game, g, args.time, args.c, args.solve)
        score += s
        replayed += again
        low, high = wilson(score, g + 1)
        print(f"game {g + 1:3d} ({'first' if g % 2 == 0 else 'second'}): {s:g}   score {score:g}/{g + 1} = "
              f"{score / (g + 1):.0%}  (95% interval {low:.0%} to {high:.0%})  {time.perf_counter() - began:.0f} s",
              flush=True)
    low, high = wilson(score, args.games)
    print(f"{args.game}: native MCTS against OpenSpiel's C++ MCTSBot, {args.time:g} s a move: "
          f"{score:g} of {args.games} ({score / args.games:.0%}; Wilson 95% interval {low:.0%} to {high:.0%}); "
          f"{replayed} game(s) played again after MCTSBot's process died")
    return 0


if __name__ == "__main__":
    sys.exit(main())
