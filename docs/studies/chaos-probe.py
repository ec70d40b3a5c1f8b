"""Where Chaos's captures go: how often a capture is on offer, and to whom, as a game fills.

Plays games of chaos.rules (Python backend) between two agents and, at the start of every turn,
asks: for each roll the dice could show, which placements would capture a colour the player to
move does not hold yet? It prints, by tenth of the game, the share of turns that offer any capture
under some roll, the mean number of colours on offer, the defenders on the table and the pieces
left in supply; and, per player and game, how many colours were ever on offer to it,
and the share of the defenders' sides that a piece touches, against the
four (or six, or ten) a win needs. Used by chaos-strength.md; run from the repository root:

    python docs/studies/chaos-probe.py --games 20 --colours four --agent greedy --seed 1
"""

from __future__ import annotations

import argparse
import random
import statistics as stats

import ziggurat
from ziggurat.agents import make_agent


def captured_total(st) -> int:
    return st.statistics()["pieces captured"]


def victims_on_offer(st) -> set:
    """Colours the player about to roll could capture this turn with one of its two placements,
    over every roll the dice could show (the first placement only: a lower bound for a turn)."""
    offered = set()
    for roll in st.moves():
        st.push(roll)
        before = captured_total(st)
        for m in st.moves():
            text = st.move_text(m)
            if not text.startswith(tuple(f"{k}@" for k in COLOURS)):
                continue
            st.push(m)
            if captured_total(st) > before:
                offered.add(text.split("@")[0])
            st.pop()
        st.pop()
    return offered


def covered_sides(st) -> tuple:
    """(defenders on the table, the share of their four sides that another piece touches): a side
    with a piece laid flush against it can no longer be pointed at from that side."""
    game = st.game
    rects = [game.footprint(p, spot) for p, spot in st.on_table()]
    defenders = [r for r in rects if r[2] == r[3]]  # standing: a square foot; lying: longer than wide
    touched = 0
    for x, y, hx, hy in defenders:
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            for ox, oy, ohx, ohy in rects:
                if dx and abs((ox - dx * ohx) - (x + dx * hx)) <= 2 and abs(oy - y) < hy + ohy:
                    touched += 1
                    break
                if dy and abs((oy - dy * ohy) - (y + dy * hy)) <= 2 and abs(ox - x) < hx + ohx:
                    touched += 1
                    break
    return len(defenders), touched / (4 * len(defenders)) if defenders else 0.0


COLOURS = ("white", "clear", "red", "orange", "yellow", "green", "cyan", "blue", "purple", "black")


def play(game, agents, seed: int):
    rng = random.Random(seed)
    st = game.new(seed)
    turns = []  # (ply, mover, colours an attacker could capture with, pieces on the table)
    offered_to = [set() for _ in range(len(agents))]
    while not st.is_terminal():
        if st.is_chance:
            roll_options = st.moves()
            st.push(roll_options[0])
            mover = st.mover
            st.pop()
            offer = victims_on_offer(st)
            turns.append((st.ply, mover, len(offer), st.statistics()["pieces on the table"], *covered_sides(st)))
            offered_to[mover] |= {"any"} if offer else set()
            offered_to[mover] |= offer
            st.push(game.sample_chance(st, rng))
        else:
            st.push(agents[st.mover].choose(st))
    return st, turns, offered_to


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--colours", default="four")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--agent", default="greedy")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    game = ziggurat.load("chaos", {"colours": a.colours, "players": a.players})
    ncolours = {"four": 4, "six": 6, "ten": 10}[a.colours]
    buckets = [[] for _ in range(10)]
    ever, held, lengths = [], [], []
    for i in range(a.games):
        agents = [make_agent(a.agent, seed=a.seed * 1000 + 10 * i + p) for p in range(a.players)]
        st, turns, offered_to = play(game, agents, a.seed * 1000 + i)
        lengths.append(st.ply)
        for ply, _mover, n, on_table, ndef, covered in turns:
            buckets[min(9, 10 * ply // st.ply)].append((n, on_table, ndef, covered))
        for p in range(a.players):
            ever.append(len(offered_to[p] - {"any"}))
        held.append(st.statistics()["colours the best collection holds"])
        print(f"game {i}: {st.ply} plies, {st.outcome().reason if st.outcome() else '-'}; colours ever on offer "
              f"by player: {[len(o - {'any'}) for o in offered_to]}; best collection {held[-1]}", flush=True)
    print(f"\n{a.games} games, chaos colours={a.colours} players={a.players}, agents {a.agent}; "
          f"mean length {stats.mean(lengths):.1f} plies")
    print("| part of the game | turns | turns offering a capture | colours on offer (mean) "
          "| pieces on the table (mean) | defenders (mean) | defenders' sides touched by a piece |")
    print("|---|---|---|---|---|---|---|")
    for b, rows in enumerate(buckets):
        if rows:
            share = sum(1 for r in rows if r[0]) / len(rows)
            print(f"| {10 * b}-{10 * b + 10}% | {len(rows)} | {100 * share:.0f}% "
                  f"| {stats.mean(r[0] for r in rows):.2f} | {stats.mean(r[1] for r in rows):.1f} "
                  f"| {stats.mean(r[2] for r in rows):.1f} "
                  f"| {100 * stats.mean(r[3] for r in rows):.0f}% |")
    print(f"colours ever on offer to a player, over a game: mean {stats.mean(ever):.2f} of {ncolours}, "
          f"max {max(ever)}; players offered all {ncolours}: {sum(e == ncolours for e in ever)} of {len(ever)}")
    print(f"colours the best collection held at the end: mean {stats.mean(held):.2f}")


if __name__ == "__main__":
    main()
