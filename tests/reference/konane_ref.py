"""Reference implementation of Konane (Hawaiian checkers), plain Python, clarity over speed.

Written from the rules alone, apart from the engine and from rulesets/konane.rules: it shares only
the position text format. It is the oracle for tests/perft/konane.perft and tests/games/test_konane_rules.py.

The rules:
- A board of `width` files x `height` ranks (default 8 x 8). Every cell starts with a stone: black
  where file + rank (both counted from 1) is even, so a1 is black; white elsewhere. Black moves first.
- Ply 0: the mover removes one of its own stones from the middle of the board (the central 2 x 2 on
  even sizes, the centre cell on odd ones) or from a corner: `xd4`.
- Ply 1: the mover removes one of its own stones orthogonally next to an empty cell: `xe4`.
- From ply 2 on: a stone jumps orthogonally over an adjacent enemy stone onto the empty cell just
  beyond, taking the enemy stone. It may go on jumping in the same direction only, and may stop
  after any jump; each stopping point is a different move: `d4-d6`, `d4-d6-d8`.
- A player with no legal move loses. There are no draws.

A position is a Pos (board as a dict from (file, rank), both from 0, to "B" or "W"); a move is its
text; play() returns a new Pos, the old one is never changed.

    python tests/reference/konane_ref.py [width=W] [height=H] DEPTH [divide]
    python tests/reference/konane_ref.py "<position>" [width=W] [height=H] DEPTH [divide]
"""

from __future__ import annotations

import sys

SIDES = ("black", "white")
STONES = ("B", "W")
FILES = "abcdefghijklmnopqrstuvwxyz"
ORTH = ((0, 1), (1, 0), (0, -1), (-1, 0))


def name(f, r):
    """The cell name of (file, rank), both from 0: (0, 0) is a1."""
    return FILES[f] + str(r + 1)


def cell(text):
    """(file, rank), both from 0, of a cell name such as 'c10'."""
    return FILES.index(text[0]), int(text[1:]) - 1


class Pos:
    def __init__(self, width, height, side, ply, board, removed=(), captured=((), ())):
        self.width, self.height = width, height
        self.side = side  # 0 black, 1 white: the side to move
        self.ply = ply
        self.board = board  # (f, r) -> "B" / "W"; empty cells are absent
        self.removed = list(removed)  # stones taken off at plies 0 and 1
        self.captured = [list(captured[0]), list(captured[1])]  # stones jumped by black, by white

    def copy(self):
        return Pos(self.width, self.height, self.side, self.ply, dict(self.board),
                   self.removed, self.captured)

    def on(self, f, r):
        return 0 <= f < self.width and 0 <= r < self.height

    def text(self):
        """The position text: side, ply, cells rank by rank (a1 b1 .. a2 ..), then the zones."""
        cells = " ".join(f"{name(f, r)}={self.board[(f, r)]}"
                         for r in range(self.height) for f in range(self.width)
                         if (f, r) in self.board)
        return (f"{SIDES[self.side]} {self.ply} | {cells} | removed={''.join(self.removed)} "
                f"captured.black={''.join(self.captured[0])} "
                f"captured.white={''.join(self.captured[1])}")


def start(width=8, height=8) -> Pos:
    """The start: every cell holds a stone, black where file + rank (from 1) is even."""
    board = {(f, r): ("B" if (f + 1 + r + 1) % 2 == 0 else "W")
             for f in range(width) for r in range(height)}
    return Pos(width, height, 0, 0, board)


def parse(text: str, width=8, height=8) -> Pos:
    """A Pos from a position text (the board size is not in the text: it is given apart)."""
    head, cells, *rest = [part.strip() for part in text.split("|")]
    side, ply = head.split()
    board = {cell(c): stone for c, stone in (item.split("=") for item in cells.split())}
    removed, captured = "", ["", ""]
    for item in (rest[0].split() if rest else []):
        key, value = item.split("=")
        if key == "removed":
            removed = value
        elif key.startswith("captured."):
            captured[SIDES.index(key.split(".")[1])] = value
    return Pos(width, height, SIDES.index(side), int(ply), board, removed, captured)


def in_middle(p: Pos, f, r):
    """Is (f, r) in the middle: the central 2 x 2 on even sizes, the centre cell on odd ones."""
    return abs(2 * (f + 1) - p.width - 1) <= 1 and abs(2 * (r + 1) - p.height - 1) <= 1


def on_corner(p: Pos, f, r):
    return f in (0, p.width - 1) and r in (0, p.height - 1)


def moves(p: Pos) -> list:
    """Every legal move of the side to move, as texts (sorted)."""
    me = STONES[p.side]
    out = []
    if p.ply == 0:
        for (f, r), stone in p.board.items():
            if stone == me and (in_middle(p, f, r) or on_corner(p, f, r)):
                out.append("x" + name(f, r))
    elif p.ply == 1:
        for (f, r), stone in p.board.items():
            if stone == me and any(p.on(f + df, r + dr) and (f + df, r + dr) not in p.board
                                   for df, dr in ORTH):
                out.append("x" + name(f, r))
    else:
        for (f, r), stone in p.board.items():
            if stone != me:
                continue
            for df, dr in ORTH:
                path = name(f, r)
                x, y = f, r
                # One more jump: an enemy next to (x, y) in this direction, an empty cell beyond.
                while True:
                    over, land = (x + df, y + dr), (x + 2 * df, y + 2 * dr)
                    if not p.on(*land) or land in p.board:
                        break
                    if p.board.get(over) not in STONES or p.board[over] == me:
                        break
                    x, y = land
                    path += "-" + name(x, y)
                    out.append(path)
    return sorted(out)


def play(p: Pos, move: str) -> Pos:
    """The position after a legal move (checked: a move not in moves(p) raises ValueError)."""
    if move not in moves(p):
        raise ValueError(f"{move!r} is not legal in {p.text()}")
    q = p.copy()
    if move.startswith("x"):
        q.removed.append(q.board.pop(cell(move[1:])))
    else:
        cells = [cell(c) for c in move.split("-")]
        stone = q.board.pop(cells[0])
        for (f0, r0), (f1, r1) in zip(cells, cells[1:]):
            q.captured[p.side].append(q.board.pop(((f0 + f1) // 2, (r0 + r1) // 2)))
        q.board[cells[-1]] = stone
    q.side, q.ply = 1 - p.side, p.ply + 1
    return q


def winner(p: Pos):
    """None while the side to move has a move; else the other side's name (it won)."""
    return None if moves(p) else SIDES[1 - p.side]


def perft(p: Pos, depth: int) -> int:
    """The leaves of the move tree to depth; a finished game has none below it."""
    if depth == 0:
        return 1
    ms = moves(p)
    if depth == 1:
        return len(ms)
    return sum(perft(play(p, m), depth - 1) for m in ms)


def divide(p: Pos, depth: int) -> list:
    """[(move, perft(depth - 1) after it)] for each legal move."""
    return [(m, perft(play(p, m), depth - 1)) for m in moves(p)]


def main(args):
    opts = {k: int(v) for k, v in (a.split("=") for a in args if "=" in a and "|" not in a)}
    rest = [a for a in args if "=" not in a or "|" in a]
    width, height = opts.get("width", 8), opts.get("height", 8)
    pos = parse(rest.pop(0), width, height) if "|" in rest[0] else start(width, height)
    depth = int(rest.pop(0))
    if rest and rest[0] == "divide":
        rows = divide(pos, depth)
        for m, n in rows:
            print(m, n)
        print("total", sum(n for _, n in rows))
    else:
        print(perft(pos, depth))


if __name__ == "__main__":
    main(sys.argv[1:])
