"""Volcano, a plain-Python reference written from the rules text (Kristin Looney's standard rules;
captures, scoring and the end as the Boardspace rules page gives them), apart from the ruleset.

The board is 5 x 5, files a-e, ranks 1-5. A square holds a stack, bottom first; a piece is
(size, colour) with size 1 small, 2 medium, 3 large and colour one of r y g b w, a cap (1, 'k').
Set-up: a nest on every square (small, then medium, then large on top), the colour of the
square at file f, rank r (from 1) being "rygbw"[(f + 2r) % 5]; a cap on a1, b2, c3, d4, e5.

A turn: the mover steps one cap one square any of the eight ways, never off the board, onto a cap,
or onto a square a cap has left this turn. If the square the cap left still holds pieces, they
erupt the way the cap went, top first: the k-th lands k + 1 squares from it, until the square is
empty, the next landing square is off the board or holds a cap. Nothing erupted: the same player
steps a cap again. Something erupted: each erupted piece that lands on a piece of its own size
(the top one) is captured by the mover instead, and the turn passes. A player with no cap step
left passes. The game ends when a player holds a piece of every one of the five colours; each
player scores their best arrangement: a nest of three of one colour (one of each size) 7, a nest
of one of each size 5, any other piece 1.
"""

from __future__ import annotations

from functools import lru_cache

COLOURS = "rygbw"
DIRS = {(0, 1): "n", (1, 1): "ne", (1, 0): "e", (1, -1): "se", (0, -1): "s", (-1, -1): "sw", (-1, 0): "w", (-1, 1): "nw"}
NAMES = ("one", "two", "three", "four", "five", "six")
CAP = (1, "k")


def name(c):
    return "abcde"[c[0]] + str(c[1] + 1)


def cell(text):
    return ("abcde".index(text[0]), int(text[1:]) - 1)


class Volcano:
    def __init__(self, players=2):
        self.n = players
        self.board = {}
        for f in range(5):
            for r in range(5):
                k = COLOURS[((f + 1) + 2 * (r + 1)) % 5]
                self.board[(f, r)] = [(1, k), (2, k), (3, k)]
                if f == r:
                    self.board[(f, r)].append(CAP)
        self.captured = [[] for _ in range(players)]
        self.left = set()
        self.side = 0

    def copy(self):
        v = Volcano.__new__(Volcano)
        v.n, v.side, v.left = self.n, self.side, set(self.left)
        v.board = {c: list(s) for c, s in self.board.items()}
        v.captured = [list(z) for z in self.captured]
        return v

    def capped(self, c):
        s = self.board.get(c)
        return bool(s) and s[-1] == CAP

    def parts(self):
        """The legal cap steps as 'from-to' texts (or ['pass']); [] when the game is over."""
        if self.over():
            return []
        out = []
        for c in sorted(self.board, key=lambda c: (c[1], c[0])):
            if not self.capped(c):
                continue
            for (df, dr) in DIRS:
                t = (c[0] + df, c[1] + dr)
                if t in self.board and not self.capped(t) and t not in self.left:
                    out.append(f"{name(c)}-{name(t)}")
        return out or ["pass"]

    def play(self, text):
        assert text in self.parts(), (text, self.parts())
        if text == "pass":
            self.pass_turn()
            return
        a, b = (cell(x) for x in text.split("-"))
        d = (b[0] - a[0], b[1] - a[1])
        self.left.add(a)
        self.board[a].pop()
        self.board[b].append(CAP)
        k, erupted = 1, False
        while self.board[a]:
            t = (a[0] + d[0] * (k + 1), a[1] + d[1] * (k + 1))
            if t not in self.board or self.capped(t):
                break
            piece = self.board[a].pop()
            if self.board[t] and self.board[t][-1][0] == piece[0]:
                self.captured[self.side].append(piece)
            else:
                self.board[t].append(piece)
            erupted, k = True, k + 1
        if erupted:
            self.pass_turn()

    def pass_turn(self):
        self.left = set()
        self.side = (self.side + 1) % self.n

    def over(self):
        return any(len({p[1] for p in z}) == 5 for z in self.captured)

    def scores(self):
        return [best(tuple(sorted(z))) for z in self.captured]

    def text(self):
        cells = " ".join(f"{name(c)}={''.join(f'{s}{k}' for s, k in self.board[c])}"
                         for c in sorted(self.board, key=lambda c: (c[1], c[0])) if self.board[c])
        zones = " ".join(f"captured.{NAMES[i]}={''.join(f'{s}{k}' for s, k in z)}" for i, z in enumerate(self.captured))
        left = ",".join(name(c) for c in sorted(self.left, key=lambda c: (c[1], c[0]))) or "-"
        return f"{cells} | {zones} left={left}"


@lru_cache(maxsize=None)
def best(pieces: tuple) -> int:
    """The best score of a collection, by trying every nest that can be taken out of it."""
    value = len(pieces)  # every piece alone: 1 each
    smalls = {p for p in pieces if p[0] == 1}
    mediums = {p for p in pieces if p[0] == 2}
    larges = {p for p in pieces if p[0] == 3}
    for s in smalls:
        for m in mediums:
            for g in larges:
                rest = list(pieces)
                for p in (s, m, g):
                    rest.remove(p)
                bonus = 7 if s[1] == m[1] == g[1] else 5
                value = max(value, bonus + best(tuple(sorted(rest))))
    return value


def parse(text: str, players=2) -> Volcano:
    """A position from the engine's position text ('SIDE PLY | cells | zones and left')."""
    head, cells, rest = text.split(" | ")
    v = Volcano(players)
    v.side = NAMES.index(head.split()[0])
    v.board = {c: [] for c in v.board}
    for item in cells.split():
        at, stack = item.split("=")
        v.board[cell(at)] = [(int(stack[i]), stack[i + 1]) for i in range(0, len(stack), 2)]
    for item in rest.split():
        key, value = item.split("=")
        if key.startswith("captured."):
            v.captured[NAMES.index(key.split(".")[1])] = [(int(value[i]), value[i + 1]) for i in range(0, len(value), 2)]
        elif key == "left":
            v.left = set() if value == "-" else {cell(x) for x in value.split(",")}
    return v


def perft(v: Volcano, depth: int) -> int:
    """Leaves of the tree of parts (each cap step, or a pass, is a move) to `depth`."""
    if depth == 0:
        return 1
    moves = v.parts()
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        w = v.copy()
        w.play(m)
        total += perft(w, depth - 1)
    return total


if __name__ == "__main__":
    import sys

    args = sys.argv[1:]
    players = int(args.pop(0).split("=")[1]) if args and args[0].startswith("players=") else 2
    start = parse(args.pop(0), players) if args and "|" in args[0] else Volcano(players)
    for d in range(int(args[0]) + 1):
        print(d, perft(start, d))
