"""Shared by the Backgammon tests: the ruleset's positions read as the reference's
(tests/reference/backgammon_ref.py) and as OpenSpiel's `backgammon`, and the two games' moves.

Cells: south's point k (1..24) is l1..a1 for 1..12 (right to left along the bottom) and a2..l2
for 13..24 (left to right along the top); north's point k is south's 25 - k. OpenSpiel's player
0 (X) moves from its index 0 to 23 and bears off past 23: it is south, and south's point n is
OpenSpiel's index 24 - n for both players' checkers; player 1 (O) is north.
"""

from __future__ import annotations

from functools import lru_cache

import ziggurat
from reference import backgammon_ref as ref

FILES = "abcdefghijkl"
REST = "started=1 die1=0 die2=0 uses1=0 uses2=0 played=0"


@lru_cache(maxsize=None)
def game():
    return ziggurat.load("backgammon")


def south_number(cell: str) -> int:
    f, r = FILES.index(cell[0]) + 1, int(cell[1:])
    return 13 - f if r == 1 else f + 12


def cell(n: int) -> str:
    """The cell of south's point n."""
    return f"{FILES[13 - n - 1]}1" if n <= 12 else f"{FILES[n - 12 - 1]}2"


def board_of(st) -> tuple:
    """The engine's position as the reference's (points, bar, off)."""
    _, cells, rest = st.text().split(" | ")
    points = [0] * 24
    for item in cells.split():
        c, stack = item.split("=")
        points[south_number(c) - 1] = stack.count("S") - stack.count("N")
    fields = dict(x.split("=") for x in rest.split())
    bar = (len(fields["bar.south"]), len(fields["bar.north"]))
    off = (len(fields["off.south"]), len(fields["off.north"]))
    return tuple(points), bar, off


def position(points: dict, side: str = "south", bar=(0, 0), off=(0, 0), dice=(0, 0), rest=None):
    """An engine position: `points` maps south's point numbers to counts (+ south, - north)."""
    cells = " ".join(f"{cell(n)}={'S' * v if v > 0 else 'N' * -v}"
                     for n, v in sorted(points.items(), key=lambda x: -x[0]) if v)
    a, b = max(dice), min(dice)
    uses = 2 if a == b else 1
    zones = (f"bar.south={'S' * bar[0]} bar.north={'N' * bar[1]} off.south={'S' * off[0]} off.north={'N' * off[1]}")
    counters = rest or f"started=1 die1={a} die2={b} uses1={uses if a else 0} uses2={uses if a else 0} played=0"
    return game().position(f"{side} 5 | {cells} | {zones} {counters}")


def ends(st) -> set:
    """The reference positions the legal whole turns reach."""
    out = set()
    for m in st.moves():
        st.push(m)
        out.add(board_of(st))
        st.pop()
    return out


# ---- OpenSpiel ----------------------------------------------------------------------------------

OUTCOMES = [(1, 2), (2, 1), (1, 3), (3, 1), (1, 4), (4, 1), (1, 5), (5, 1), (1, 6), (6, 1), (2, 3), (3, 2),
            (2, 4), (4, 2), (2, 5), (5, 2), (2, 6), (6, 2), (3, 4), (4, 3), (3, 5), (5, 3), (3, 6), (6, 3),
            (4, 5), (5, 4), (4, 6), (6, 4), (5, 6), (6, 5), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6)]


def open_spiel_game():
    import pyspiel
    return pyspiel.load_game("backgammon(scoring_type=full_scoring)")


def os_board(s) -> tuple:
    """An OpenSpiel state as the reference's (points, bar, off)."""
    points = tuple(s.board(0, 24 - n) - s.board(1, 24 - n) for n in range(1, 25))
    bar = (s.board(0, 100), s.board(1, 100))
    off = tuple(15 - bar[p] - sum(s.board(p, i) for i in range(24)) for p in (0, 1))
    return points, bar, off


def os_roll(s, outcome: int) -> str:
    """The ruleset's chance move for OpenSpiel's outcome at state s (its first roll or a later one)."""
    a, b = OUTCOMES[outcome]
    if not s.history():  # the first roll: even outcomes X (south) starts, odd O (north)
        hi, lo = max(a, b), min(a, b)
        return f"open {hi}-{lo}" if outcome % 2 == 0 else f"open {lo}-{hi}"
    return f"roll {a}-{b}"


def os_turns(s) -> dict:
    """{reference position: the OpenSpiel actions (one, or two for doubles) that reach it}."""
    out: dict = {}
    player = s.current_player()
    for a in s.legal_actions():
        c = s.child(a)
        if not c.is_terminal() and c.current_player() == player:  # the second half of doubles
            for b in c.legal_actions():
                out.setdefault(os_board(c.child(b)), (a, b))
        else:
            out.setdefault(os_board(c), (a,))
    return out


def result_of(st):
    """(winner side, points) of a finished engine game."""
    o = st.outcome()
    scores = list(o.scores)
    w = max(range(2), key=lambda i: scores[i])
    return w, scores[w]


_ = ref  # the reference module is the tests' common import
