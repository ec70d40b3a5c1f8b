"""Reference implementation of RGB move generation (plain Python, clarity over speed).

Written from the source text (shared/seeds/000_1524b6c2433bb841.txt) and the project's rulings
(shared/games/rgb.md), apart from the engine and from rulesets/rgb.rules: it shares only the
position text format. It is the oracle for the mixed positions of tests/perft/rgb.perft.

A stack is (owner, colours, size) with colours a string in "rgb" order ("y" for the Golden Child's
yellow layers); the bank is a Counter of (colour, size); a reserve is a Counter of sizes (whole
stacks still to be placed). A move is one whole turn: the action and its choices, then the
sustenance choice. Every state is copied, never changed in place.

    python tests/reference/rgb_ref.py "<position>" DEPTH [each=true] [sustainers=any]
"""

from __future__ import annotations

import sys
from collections import Counter
from itertools import product

SIDES = ("south", "north")
FILES = "abcdefgh"
ORTH = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def name(f, r):
    return FILES[f] + str(r + 1)


class Pos:
    def __init__(self, side, board, bank, reserves, ply=0):
        self.side = side  # 0 south, 1 north
        self.board = board  # (f, r) -> (owner, colours, size)
        self.bank = bank
        self.reserves = reserves  # [Counter, Counter]
        self.ply = ply

    def copy(self):
        return Pos(self.side, dict(self.board), Counter(self.bank), [Counter(r) for r in self.reserves], self.ply)


def parse(text: str) -> Pos:
    head, cells, *rest = [f.strip() for f in text.split("|")]
    side, ply = head.split()
    board = {}
    for item in cells.split():
        sq, stack = item.split("=")
        pieces = [stack[i:i + 3] for i in range(0, len(stack), 3)]
        owner = "SN".index(pieces[0][0])
        size = int(pieces[0][2])
        assert all(p[0] == pieces[0][0] and int(p[2]) == size for p in pieces)
        board[(FILES.index(sq[0]), int(sq[1:]) - 1)] = (owner, "".join(p[1] for p in pieces), size)
    bank, reserves = Counter(), [Counter(), Counter()]
    for item in (rest[0].split() if rest else []):
        key, value = item.split("=")
        pieces = [value[i:i + 3] for i in range(0, len(value), 3)]
        if key == "bank":
            bank.update((p[1], int(p[2])) for p in pieces)
        elif key.startswith("reserve."):
            who = SIDES.index(key.split(".")[1])
            reds = [p for p in pieces if p[1] == "r"]
            reserves[who].update(int(p[2]) for p in reds)
    return Pos(SIDES.index(side), board, bank, reserves, int(ply))


def on(f, r):
    return 0 <= f < 8 and 0 <= r < 8


def is_child(stack):
    return stack[2] == 1 and "y" not in stack[1]


def children(p: Pos, who):
    return sum(1 for s in p.board.values() if s[0] == who and is_child(s))


def discard(p: Pos, sq, colour):
    """The stack on sq loses its layer of that colour to the bank; an empty stack dies."""
    owner, cols, size = p.board[sq]
    i = cols.index(colour)
    p.bank[(colour, size)] += 1
    cols = cols[:i] + cols[i + 1:]
    if cols:
        p.board[sq] = (owner, cols, size)
    else:
        del p.board[sq]


def actions(p: Pos, me):
    """Every action of the side `me`, as (label, position after it), before sustenance."""
    out = []
    if sum(p.reserves[me].values()):
        half = range(0, 4) if me == 0 else range(4, 8)
        for size in sorted(p.reserves[me]):
            if p.reserves[me][size] == 0:
                continue
            for f in range(8):
                for r in half:
                    if (f, r) not in p.board:
                        q = p.copy()
                        q.reserves[me][size] -= 1
                        q.board[(f, r)] = (me, "rgb", size)
                        out.append((f"place {size} {name(f, r)}", q))
        return out
    mine = [sq for sq, s in p.board.items() if s[0] == me]
    # Moves: rook slides and one diagonal step, onto empty squares.
    for (f, r) in mine:
        targets = []
        for df, dr in ORTH:
            x, y = f + df, r + dr
            while on(x, y) and (x, y) not in p.board:
                targets.append((x, y))
                x, y = x + df, y + dr
        for df, dr in DIAG:
            if on(f + df, r + dr) and (f + df, r + dr) not in p.board:
                targets.append((f + df, r + dr))
        for t in targets:
            q = p.copy()
            q.board[t] = q.board.pop((f, r))
            out.append((f"move {name(f, r)} {name(*t)}", q))
    # Creation: an empty square next to a Man or Woman (with Blue) that has a partner (with Blue).
    def fertile(sq, size):
        s = p.board.get(sq)
        return s is not None and s[0] == me and s[2] == size and "b" in s[1]

    def parent(sq):
        f, r = sq
        for size, partner in ((3, 2), (2, 3)):
            if fertile(sq, size) and any(fertile((f + df, r + dr), partner) for df, dr in ORTH):
                return True
        return False

    if all(p.bank[(c, 1)] > 0 for c in "rgb"):
        for f in range(8):
            for r in range(8):
                if (f, r) in p.board:
                    continue
                if any(parent((f + df, r + dr)) for df, dr in ORTH):
                    q = p.copy()
                    for c in "rgb":
                        q.bank[(c, 1)] -= 1
                    q.board[(f, r)] = (me, "rgb", 1)
                    out.append((f"create {name(f, r)}", q))
    # Attacks: the first stack along each rank/file direction, if it is an enemy's.
    for a in mine:
        owner, cols, size = p.board[a]
        for df, dr in ORTH:
            x, y = a[0] + df, a[1] + dr
            while on(x, y) and (x, y) not in p.board:
                x, y = x + df, y + dr
            if not on(x, y) or p.board[(x, y)][0] == me:
                continue
            v = (x, y)
            vcols = p.board[v][1]
            alone = "r" in cols and size >= p.board[v][2]
            helpers = [None] if alone else [
                s for s in mine if s != a and (s[0] == a[0] or s[1] == a[1])]
            for colour in sorted(set(vcols)):
                for h in helpers:
                    q = p.copy()
                    discard(q, v, colour)
                    if h is not None:
                        discard(q, h, q.board[h][1][-1])
                    out.append((f"attack {name(*a)} {name(*v)} {colour} {h and name(*h)}", q))
    # Heal: an own stack next to the own Golden Child gets a missing layer back from the bank.
    gold = [sq for sq in mine if "y" in p.board[sq][1]]
    for g in gold:
        for df, dr in ORTH:
            t = (g[0] + df, g[1] + dr)
            s = p.board.get(t)
            if s is None or s[0] != me or "y" in s[1]:
                continue
            for colour in "rgb":
                if colour not in s[1] and p.bank[(colour, s[2])] > 0:
                    q = p.copy()
                    q.bank[(colour, s[2])] -= 1
                    q.board[t] = (me, "".join(c for c in "rgb" if c in s[1] or c == colour), s[2])
                    out.append((f"heal {name(*t)} {colour}", q))
    if not out:
        out.append(("pass", p.copy()))
    return out


def sustenance(p: Pos, me, each=False, any_sustainer=False):
    """The positions after the end-of-turn sustenance of side `me` (one when nothing starves)."""
    def sustained(sq):
        f, r = sq
        for df, dr in ORTH:
            s = p.board.get((f + df, r + dr))
            if s is not None and "g" in s[1] and (any_sustainer or s[0] == me):
                return True
        return False

    hungry = sorted(sq for sq, s in p.board.items() if s[0] == me and is_child(s) and not sustained(sq))
    if not hungry:
        return [p]
    out = []
    if each:
        for cuts in product(*(p.board[sq][1] for sq in hungry)):
            q = p.copy()
            for sq, colour in zip(hungry, cuts):
                discard(q, sq, colour)
            out.append(q)
    else:
        for sq in hungry:
            for colour in p.board[sq][1]:
                q = p.copy()
                discard(q, sq, colour)
                out.append(q)
    return out


def over(p: Pos) -> bool:
    return children(p, 0) == 0 or children(p, 1) == 0


def turns(p: Pos, each=False, any_sustainer=False):
    """Every whole turn from p: the positions after it (one per move), none if the game is over."""
    if over(p):
        return []
    me = p.side
    out = []
    for _, q in actions(p, me):
        for z in sustenance(q, me, each, any_sustainer):
            z.side, z.ply = 1 - me, p.ply + 1
            out.append(z)
    return out


def perft(p: Pos, depth: int, **opts) -> int:
    if depth == 0:
        return 1
    nxt = turns(p, **opts)
    if depth == 1:
        return len(nxt)
    return sum(perft(q, depth - 1, **opts) for q in nxt)


def options(args) -> dict:
    kv = dict(a.split("=") for a in args)
    return {"each": kv.get("each") == "true", "any_sustainer": kv.get("sustainers") == "any"}


if __name__ == "__main__":
    pos, depth, *rest = sys.argv[1:]
    print(perft(parse(pos), int(depth), **options(rest)))
