"""An independent Backgammon, written from the standard rules text (not from backgammon.rules):
the plays of a roll, and the result of a finished game.

A position is `(points, bar, off)`: `points` a tuple of 24 numbers, index i for south's point
i + 1 (its home board is points 1 to 6; north's point k is south's 25 - k), positive for south's
checkers and negative for north's; `bar` and `off` are (south, north) counts. Sides are 0 (south)
and 1 (north).

The rules, as the standard text gives them:
- a checker moves forward the number of pips of one die, to a point not held by two or more of
  the other's checkers; landing on a lone checker of the other's (a blot) hits it onto the bar;
- a checker on the bar must enter first, on the other's home board, at the point of the die's
  number (point 25 - die of the mover's own numbering), before any other checker moves;
- once all fifteen of a player's checkers are in its home board it bears off: a die takes off a
  checker from the point of its number, or, when no checker stands on a higher point, one from
  the highest point holding a checker;
- both dice must be played if they can be (four times on doubles: as many as can be); if only one
  can be played, it must be; if either but not both, the larger;
- the first to bear off all fifteen wins 1 point, 2 (a gammon) if the other has borne off none, 3
  (a backgammon) if moreover the other still has a checker on the bar or in the winner's home board.
"""

from __future__ import annotations

START = (24, 24, 13, 13, 13, 13, 13, 8, 8, 8, 6, 6, 6, 6, 6)  # each player's checkers, by its own points


def start() -> tuple:
    points = [0] * 24
    for k in START:
        points[k - 1] += 1        # south's point k
        points[24 - k] -= 1       # north's point k is south's 25 - k
    return tuple(points), (0, 0), (0, 0)


def index(side: int, k: int) -> int:
    """The index in `points` of the side's own point k (1..24)."""
    return k - 1 if side == 0 else 24 - k


def mine(points, side: int, i: int) -> int:
    """The side's checkers on index i."""
    v = points[i]
    return max(v, 0) if side == 0 else max(-v, 0)


def theirs(points, side: int, i: int) -> int:
    return mine(points, 1 - side, i)


def all_home(pos, side: int) -> bool:
    points, bar, _ = pos
    return bar[side] == 0 and all(mine(points, side, index(side, k)) == 0 for k in range(7, 25))


def single_moves(pos, side: int, die: int) -> list:
    """The positions one checker's move of `die` pips reaches."""
    points, bar, off = pos
    sign = 1 if side == 0 else -1
    out = []

    def land(pts: list, bar2: list, i: int) -> bool:
        if theirs(pts, side, i) >= 2:
            return False
        if theirs(pts, side, i) == 1:  # a blot is hit
            pts[i] = 0
            bar2[1 - side] += 1
        pts[i] += sign
        return True

    if bar[side] > 0:
        pts, bar2 = list(points), list(bar)
        bar2[side] -= 1
        if land(pts, bar2, index(side, 25 - die)):
            out.append((tuple(pts), tuple(bar2), off))
        return out
    home = all_home(pos, side)
    for k in range(1, 25):
        i = index(side, k)
        if mine(points, side, i) == 0:
            continue
        if k - die >= 1:
            pts, bar2 = list(points), list(bar)
            pts[i] -= sign
            if land(pts, bar2, index(side, k - die)):
                out.append((tuple(pts), tuple(bar2), off))
        elif home and (k == die or all(mine(points, side, index(side, h)) == 0 for h in range(k + 1, 7))):
            pts, off2 = list(points), list(off)
            pts[i] -= sign
            off2[side] += 1
            out.append((tuple(pts), bar, tuple(off2)))
    return out


def plays(pos, side: int, dice: tuple) -> set:
    """The positions the side may reach with the roll `dice` (two numbers), every rule applied."""
    a, b = dice
    dice_left = [a] * 4 if a == b else [a, b]
    found: dict = {}  # position -> the best (dice played, the larger die played) that reaches it

    def go(p, left: list, used: list) -> None:
        moved = False
        if p[2][side] < 15:
            for d in sorted(set(left)):
                for q in single_moves(p, side, d):
                    moved = True
                    rest = list(left)
                    rest.remove(d)
                    go(q, rest, used + [d])
        if not moved:
            score = (len(used), max(used, default=0))
            found[p] = max(found.get(p, score), score)

    go(pos, dice_left, [])
    most = max(s[0] for s in found.values())
    kept = {p: s for p, s in found.items() if s[0] == most}
    if most == 1 and a != b:  # either die but not both: the larger, where it can be played
        larger = max(s[1] for s in kept.values())
        kept = {p: s for p, s in kept.items() if s[1] == larger}
    return set(kept)


def result(pos):
    """(winner, points) once a side has borne off fifteen, else None."""
    points, bar, off = pos
    for side in (0, 1):
        if off[side] == 15:
            loser = 1 - side
            if off[loser] > 0:
                return side, 1
            caught = bar[loser] > 0 or any(mine(points, loser, index(side, k)) for k in range(1, 7))
            return side, 3 if caught else 2
    return None


# ---- perft over chance nodes ------------------------------------------------------------------------
# A node is ("open",) before the opening roll, ("roll", side, pos) before the side's roll, or
# ("turn", side, pos, dice) when the side plays. Each outcome of nature is a move (30 opening
# throws: a die each, never equal, the higher starting with both; then 36 ordered rolls), and each
# distinct play is a move; a roll no die of which can be played passes the turn at once (to the
# other's roll); a finished game has no moves.


def can_play(pos, side: int, dice: tuple) -> bool:
    return any(single_moves(pos, side, d) for d in set(dice))


def children(node) -> list:
    if node[0] == "open":
        return [("turn", 0 if a > b else 1, start(), (a, b)) for a in range(1, 7) for b in range(1, 7) if a != b]
    if node[0] == "roll":
        _, side, pos = node
        return [("turn", side, pos, (a, b)) if can_play(pos, side, (a, b)) else ("roll", 1 - side, pos)
                for a in range(1, 7) for b in range(1, 7)]
    _, side, pos, dice = node
    return [("roll", 1 - side, p) if result(p) is None else ("over", p) for p in plays(pos, side, dice)]


def perft(node, depth: int) -> int:
    if depth == 0:
        return 1
    if node[0] == "over":
        return 0
    return sum(perft(c, depth - 1) for c in children(node))


if __name__ == "__main__":  # python tests/reference/backgammon_ref.py DEPTH: perft from the start
    import sys
    print(perft(("open",), int(sys.argv[1])))
