"""Reference implementation of Martian Chess (Andrew Looney, Looney Labs), plain Python.

Written from the rules text (Looney Labs' rules, as on docs/games/martian-chess.md), apart from
the engine and from rulesets/martian-chess.rules: it shares only the position text and the move
notation. It is the oracle for tests/perft/martian-chess.perft and tests/games/test_martian_chess.py.

The rules, as read here:
- 2 players on half a chessboard (4 files x 8 ranks), or 4 on a whole one (8 x 8). Canals cut the
  board into 4 x 4 zones, one per player: with 2, ranks 1-4 and 5-8; with 4, the quadrants, in
  turn order (play passes to the left, clockwise): a1-d4, a5-d8, e5-h8, e1-h4.
- Each player has 3 queens (3 points), 3 drones (2) and 3 pawns (1) in the outer corner of its
  zone: the corner and its two neighbours queens, the next diagonal drones, the rest of the 3 x 3
  block pawns. With 2 players the blocks are in opposite corners (a1 and d8).
- Colour means nothing: a player controls exactly the pieces in its zone, and moves one of them.
  Pawns: one step diagonally, any way. Drones: one or two steps orthogonally. Queens: any
  distance along a line. No jumping. Landing on a piece in another zone captures it (its points
  to the capturer); on a piece of one's own zone, only as a field promotion.
- Field promotion (an option, default on): with no queen in your zone, a pawn and a drone of it
  may merge (either moves onto the other, by its own move) into a queen; with no drone, two
  pawns into a drone.
- No undo: a piece that crossed a canal on the last move may not go straight back to the cell it
  came from on the next move (even if that move was a capture).
- Call the clock: with any move, a player may call the clock (once a game). From then on, after
  seven moves in a row without a capture (a capture restarts the count), the game ends.
- The game ends when a zone is empty (always the zone of the player who just moved: only a
  player's own moves take pieces out of its zone), or by the clock, or when the player to move has
  no move (not in the source: the project's reading). The most points win; with a tie for the
  most and a zone empty, the player who emptied it wins (a point more, in Ziggurat's scores).

Positions are Pos; a move is its text (`c1-d1`, `a3xa6`, `b3+c2`, each optionally ` call`).

    python tests/reference/martian_chess_ref.py [players=2|4] [promotions=0|1] DEPTH [divide]
    python tests/reference/martian_chess_ref.py "<position>" [promotions=0|1] DEPTH [divide]
"""

from __future__ import annotations

import sys

NAMES = ("one", "two", "three", "four")
FILES = "abcdefgh"
DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))
ORTH = ((1, 0), (-1, 0), (0, 1), (0, -1))
MOVES = {1: (DIAG, 1), 2: (ORTH, 2), 3: (DIAG + ORTH, 8)}  # size -> (directions, most steps)


class Pos:
    def __init__(self, n, promotions=True):
        self.n, self.promotions = n, promotions
        self.width = 4 if n == 2 else 8
        self.board = {}  # (file, rank) from 0 -> size 1, 2 or 3
        self.turn = 0
        self.ply = 0
        self.taken = [[] for _ in range(n)]  # sizes captured, in order
        self.box = []  # pieces merged away
        self.back = None  # (from, to): the move that would undo the last crossing
        self.called = False
        self.quiet = 0

    def copy(self):
        q = Pos(self.n, self.promotions)
        q.board, q.turn, q.ply = dict(self.board), self.turn, self.ply
        q.taken, q.box = [list(t) for t in self.taken], list(self.box)
        q.back, q.called, q.quiet = self.back, self.called, self.quiet
        return q


def name(c):
    return FILES[c[0]] + str(c[1] + 1)


def cell(text):
    return FILES.index(text[0]), int(text[1:]) - 1


def zone(p, c):
    """The player whose zone cell c is in."""
    f, r = c
    if p.n == 2:
        return 0 if r < 4 else 1
    if f < 4:
        return 0 if r < 4 else 1
    return 2 if r >= 4 else 3


def start(n=2, promotions=True):
    p = Pos(n, promotions)
    corners = [(0, 0), (3, 7)] if n == 2 else [(0, 0), (0, 7), (7, 7), (7, 0)]
    for cf, cr in corners:
        sf, sr = (1 if cf == 0 else -1), (1 if cr == 0 else -1)
        for i in range(3):
            for j in range(3):
                k = i + j
                p.board[(cf + sf * i, cr + sr * j)] = 3 if k <= 1 else 2 if k == 2 else 1
    return p


def parse(text, promotions=True):
    """A Pos from the engine's position text (`one 0 | a1=3 ... | captured.one=21 ... quiet=0`);
    the number of players is the number of `captured.` zones."""
    head, board, rest = (part.split() for part in text.split("|"))
    fields = dict(item.split("=", 1) for item in rest)
    n = sum(1 for k in fields if k.startswith("captured."))
    p = Pos(n, promotions)
    p.turn, p.ply = NAMES.index(head[0]), int(head[1])
    for item in board:
        c, size = item.split("=")
        p.board[cell(c)] = int(size)
    p.taken = [[int(x) for x in fields[f"captured.{NAMES[i]}"]] for i in range(n)]
    p.box = [int(x) for x in fields["box"]]
    if fields["back_from"] != "-":
        p.back = (cell(fields["back_from"]), cell(fields["back_to"]))
    p.called, p.quiet = fields["called"] == "1", int(fields["quiet"])
    return p


def text(p):
    """The position in the engine's text format, for comparing ply by ply."""
    board = " ".join(f"{name(c)}={s}" for c, s in sorted(p.board.items(), key=lambda cs: (cs[0][1], cs[0][0])))
    zones = " ".join(f"captured.{NAMES[i]}=" + "".join(map(str, p.taken[i])) for i in range(p.n))
    back = (name(p.back[0]), name(p.back[1])) if p.back else ("-", "-")
    return (f"{NAMES[p.turn]} {p.ply} | {board} | {zones} box={''.join(map(str, p.box))} "
            f"back_from={back[0]} back_to={back[1]} called={int(p.called)} quiet={p.quiet}")


def points(p, who):
    return sum(p.taken[who])


def has(p, who, size):
    return any(s == size and zone(p, c) == who for c, s in p.board.items())


def plain_moves(p):
    """The moves of the side to move, without the clock call."""
    me, out = p.turn, []
    for c, size in sorted(p.board.items()):
        if zone(p, c) != me:
            continue
        dirs, most = MOVES[size]
        for df, dr in dirs:
            f, r = c
            for _ in range(most):
                f, r = f + df, r + dr
                if not (0 <= f < p.width and 0 <= r < 8):
                    break
                t = (f, r)
                if t not in p.board:
                    if p.back != (c, t):
                        out.append(f"{name(c)}-{name(t)}")
                    continue
                if zone(p, t) != me:
                    out.append(f"{name(c)}x{name(t)}")
                elif p.promotions:
                    made = size + p.board[t]
                    if made == 3 and not has(p, me, 3) or made == 2 and not has(p, me, 2):
                        out.append(f"{name(c)}+{name(t)}")
                break
    return out


def result(p):
    """None while the game goes on; else (reason, each player's points)."""
    pts = [points(p, i) for i in range(p.n)]
    for who in range(p.n):
        if not any(zone(p, c) == who for c in p.board):
            if pts[who] == max(pts):
                pts[who] += 1  # tied for the most: the player who ended the game wins
            return "a zone is empty", tuple(pts)
    if p.called and p.quiet >= 7:
        return "the clock", tuple(pts)
    if not plain_moves(p):
        return "no legal move", tuple(pts)
    return None


def moves(p):
    if result(p) is not None:
        return []
    out = plain_moves(p)
    return out + [m + " call" for m in out] if not p.called else out


def play(p, move):
    q = p.copy()
    call = move.endswith(" call")
    text = move[:-5] if call else move
    kind = "x" if "x" in text else "+" if "+" in text else "-"
    a, b = (cell(s) for s in text.split(kind))
    size = q.board.pop(a)
    took = kind == "x"
    if took:
        q.taken[q.turn].append(q.board[b])
        q.board[b] = size
    elif kind == "+":
        q.box.append(size)
        q.board[b] = 3 if size + q.board[b] == 3 else 2
    else:
        q.board[b] = size
    q.back = (b, a) if zone(q, a) != zone(q, b) else None
    if q.called:
        q.quiet = 0 if took else q.quiet + 1
    if call:
        q.called = True
    q.turn = (q.turn + 1) % q.n
    q.ply += 1
    return q


def perft(p, depth):
    if depth == 0:
        return 1
    ms = moves(p)
    if depth == 1:
        return len(ms)
    return sum(perft(play(p, m), depth - 1) for m in ms)


def main(argv):
    opts = dict(a.split("=") for a in argv if "=" in a and "|" not in a)
    rest = [a for a in argv if "=" not in a or "|" in a]
    promotions = opts.get("promotions", "1") not in ("0", "false")
    p = parse(rest.pop(0), promotions) if "|" in rest[0] else start(int(opts.get("players", 2)), promotions)
    depth = int(rest[0])
    if rest[1:] == ["divide"]:
        for m in moves(p):
            print(m, perft(play(p, m), depth - 1))
    for d in range(1, depth + 1):
        print(f"perft {d} {perft(p, d)}")


if __name__ == "__main__":
    main(sys.argv[1:])
