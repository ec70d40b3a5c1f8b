"""Reference implementation of Lasca (Emanuel Lasker's column checkers), plain Python, clarity over
speed.

Written from the published rules alone, apart from the engine and from rulesets/lasca.rules: it
shares only the position and move text formats. It is the oracle for tests/perft/lasca.perft
and for tests/games/test_lasca_rules.py.

Sources (quotes are from these pages; where they disagree the official lasca.org rules win):
  [L1] lasca.org, "The Equipment" / "The pieces":     http://www.lasca.org/show?2RU
  [L2] lasca.org, moves and captures:                 http://www.lasca.org/show?2M1
  [L3] lasca.org, "Forcing Capture":                  http://www.lasca.org/show?6V6
  [L4] lasca.org, officers, promotion, captures:      http://www.lasca.org/show?6UW
  [L5] lasca.org, "The End of the Game":              http://www.lasca.org/show?2KP
  [K]  Lasker's 1911 rules sheet, as transcribed at
       http://peterbillam.fastmail.com.user.fm/laska/laskers_rules.html
  [W]  Wikipedia, "Lasca" (English); [G] the German article (via memim.com/lasca.html)
  [J]  J. P. Neto, World of Abstract Games: https://jpneto.github.io/world_abstract_games/lasca.htm
  [I]  igGameCenter: http://iggamecenter.com/info/en/lasca.html
  [D]  https://draughts.github.io/lasca.html

The rules as read here:

 1. Board. A 7 x 7 chequered board; only the squares of the corner colour are used: "There should
    be a white square at each corner" and the pieces stand "on the white squares" [L1]; "only 25 of
    the 49 squares are actually used" [W]. With a1 at white's lower left, the playable cells are
    those whose file + rank (both counted from 1) is even: a1 c1 e1 g1 / b2 d2 f2 / a3 .. g3 / b4 d4
    f4 / a5 .. g5 / b6 d6 f6 / a7 c7 e7 g7 -- the four corners a1 g1 a7 g7 are playable.
 2. Start. "Eleven counters of each colour", laid out "plain side uppermost [= soldiers], in three
    rows ... at each end of the board" [L1]: white soldiers on a1 c1 e1 g1 b2 d2 f2 a3 c3 e3 g3,
    black soldiers on a5 c5 e5 g5 b6 d6 f6 a7 c7 e7 g7; b4 d4 f4 are empty. White, at the bottom,
    moves first: "WHITE always begins the Game" [K]; "According to Emanuel Lasker, White always
    starts the game" [I]. Then the players alternate.
 3. Columns. Every occupied cell holds a column of one or more pieces. "The top counter, the
    commander, determines who owns and moves the column", which is "moved as a single piece" [L1].
 4. Steps. A column commanded by a soldier moves one cell diagonally forward (towards the opponent)
    onto an empty cell; one commanded by an officer one cell diagonally forward or backward: "Only
    if it is an officer may the column move in either direction" [L1]; "one square at a time"
    [L2] (officers do not fly).
 5. Capture. A column jumps diagonally over an adjacent column commanded by the enemy onto the
    empty cell just beyond, in a direction its commander may move in (soldier: forward only;
    officer: all four): "They capture by leaping an enemy piece into a vacant square beyond" [L2];
    "he must be on the spot immediately in front of you, and have a vacant space immediately
    behind" and "Officers capture prisoners in the same manner as Privates, but have the privilege
    of moving either backwards or forwards" [K]. Only the TOP piece of the jumped column is taken,
    and it goes to the BOTTOM of the jumping column: "A captured counter is not removed from the
    board, but is picked up under the attacker as a prisoner as he leaps over it", "when a column
    is attacked, only the top man or commander is captured" [L2]. The rest of the jumped column
    stays where it is, commanded by its new top piece, which may be of the capturer's colour: "This
    has the result of both capturing a white soldier and releasing the black prisoner" [L2]. A
    piece keeps its rank in prison: "If captured, an officer retains its rank for use if later
    released" [L4]. (So a column is always at most two blocks, prisoners below, "it is not possible
    to have an alternation of colours such as white-black-white in a column" [L2].)
 6. Compulsory capture, free choice. "Pieces must capture if in a position to do so, and if further
    captures are then possible, these must be performed too" [L3]. So when any capture exists the
    mover must play one, and a capture move is a whole sequence: after each jump the same column
    goes on jumping from where it landed as long as it can (stopping early is not a move). The
    player is free to choose among the capturing columns and sequences; there is no
    maximum-capture rule. lasca.org states none; Lasker only advises "If two or more openings occur
    to take Prisoners, select the one giving the longest Run or best Advantage" [K]; "it is not
    mandatory to maximize the number of capturing pieces" [J]; a multiple capture "does not
    necessarily have to be the one where most of the opponent's stones are jumped" [G].
 7. No column is jumped twice in one move. "Also, a piece may not attack the same piece twice in
    the course of a single move. Thus in this position the black officer may only jump over the
    three-man column once, not three times." [L4]; "you may not take more than one Prisoner from
    each available space, so if opponent has a Column on one or more, you may only capture his top
    Men" [K]; "A piece may not attack the same stack twice in the same move" [J]. So a cell jumped
    once in a move may not be jumped again in that move, from any direction. In particular a
    180-degree turn, jumping straight back over the column just jumped, is never possible (that
    column has been jumped already; what is left of it is either gone or still there), so no
    separate rule for it is needed. (Ludii's Lasca.lud does not have this restriction; it is not
    followed here, as the official rules state it.)
 8. Within a sequence the prisoner is taken at once ("as he leaps over it" [L2]): a cell emptied by
    an earlier jump of the move is empty for the later jumps, and the cell the moving column
    started on is empty once it has left (it may come back to it, closing a loop). The moving
    column's commander does not change during the move (prisoners go underneath).
 9. Promotion. A soldier-commanded column that ends its move on the far rank (rank 7 for white,
    rank 1 for black) has its commander promoted to officer, and only its commander: "When a column
    reaches the opposite end of the board, the opponent's front line, its commander is promoted to
    the rank of officer ... A single soldier is likewise promoted" [L4]; "If a column whose
    commander is a soldier reaches the end line, only the commander is promoted" [D]. If this
    happens during a capture the move ends there, even if the new officer could jump on backwards:
    "promotion only comes at the end of a move. The black officer may not therefore go on to
    capture the white soldier on B4 until the following move" [L4]; "A Run finishes for the Move
    when a Column, being led by a Private, arrives in Opponent's last line, but is continued if
    being led by an Officer" [K]. (As a soldier it has no forward jump left on the far rank anyway,
    so the two wordings agree. Ludii's Lasca.lud lets the new officer go on; not followed.) Only
    the moving column is promoted: a soldier released on its far rank (the top of its column taken
    there) did not "reach" or "arrive in" it and stays a soldier -- the sources speak only of a
    piece arriving; this is the reading here.
10. End. The side to move that has no legal move (no column it commands, or all of them blocked)
    loses: "The game ends when one player cannot make a legal move ... Either when the other player
    has command of all the pieces, or when his opponent has blocked him in" [L5]; "The loser is the
    player who cannot move, or who has all his Men taken Prisoners" [K]. There is no draw rule:
    the 7 x 7 board was chosen so that "it is virtually impossible for the game to end in a draw"
    [L5]. This reference has no ply cap either.

Texts shared with the project's rules file:
- players `white` then `black`; cells `a1`..`g7` (file letter, rank from 1; a1 at white's lower
  left). A piece is its owner code then its rank code: `Ws` `Wo` `Bs` `Bo`; a column is written
  bottom-up as the concatenation: `WsBs` is a white soldier under a black soldier (black commands).
- position: `<side> <ply> | <cell>=<column> ... | ` with the occupied cells rank by rank (a1 b1 ..
  g1 a2 ..); the third field is empty (accepted with or without the trailing ` | `).
- move: a step `a3-b4`; a capture `c3xe5xc7`: the start, then every landing, one `x` per jump.
- perft(pos, depth) counts leaves; a finished game (side to move has no move) has none below it.

A position is a Pos (board as a dict from (file, rank), both from 0, to a tuple of piece codes,
bottom first); play() returns a new Pos, the old one is never changed.

    python tests/reference/lasca_ref.py [POSITION] DEPTH [divide]
    python tests/reference/lasca_ref.py selfcheck
    python tests/reference/lasca_ref.py verify [FILE] [MAX_LEAVES]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

SIDES = ("white", "black")
OWNERS = ("W", "B")  # owner code of each side, same order as SIDES
SIZE = 7
FILES = "abcdefg"
FORWARD = (1, -1)  # the rank direction a side's soldiers move in: white up, black down
FAR_RANK = (SIZE - 1, 0)  # the rank (from 0) where a side's soldiers are promoted
PIECES = ("Ws", "Wo", "Bs", "Bo")


def name(f, r):
    """The cell name of (file, rank), both from 0: (0, 0) is a1."""
    return FILES[f] + str(r + 1)


def cell(text):
    """(file, rank), both from 0, of a cell name such as 'c3'."""
    return FILES.index(text[0]), int(text[1:]) - 1


def on_board(f, r):
    return 0 <= f < SIZE and 0 <= r < SIZE


def playable(f, r):
    """The cells of the corner colour: file + rank (from 1, or equally from 0) even. a1 is one."""
    return on_board(f, r) and (f + r) % 2 == 0


def column_text(column):
    return "".join(column)


def parse_column(text):
    """('Ws', 'Bs') from 'WsBs' (bottom first)."""
    if not text or len(text) % 2:
        raise ValueError(f"bad column {text!r}")
    column = tuple(text[i:i + 2] for i in range(0, len(text), 2))
    for piece in column:
        if piece not in PIECES:
            raise ValueError(f"bad piece {piece!r} in column {text!r}")
    return column


class Pos:
    def __init__(self, side, ply, board):
        self.side = side  # 0 white, 1 black: the side to move
        self.ply = ply
        self.board = board  # (f, r) -> tuple of piece codes, bottom first; empty cells are absent

    def copy(self):
        return Pos(self.side, self.ply, dict(self.board))

    def text(self):
        """The position text: side, ply, occupied cells rank by rank (a1 b1 .. a2 ..), empty zones."""
        cells = " ".join(f"{name(f, r)}={column_text(self.board[(f, r)])}"
                         for r in range(SIZE) for f in range(SIZE) if (f, r) in self.board)
        return f"{SIDES[self.side]} {self.ply} | {cells} | "

    def __repr__(self):
        return f"Pos({self.text()!r})"


def start() -> Pos:
    """White soldiers on the playable cells of ranks 1-3, black ones on ranks 5-7; white to move."""
    board = {}
    for r in range(SIZE):
        for f in range(SIZE):
            if playable(f, r) and r <= 2:
                board[(f, r)] = ("Ws",)
            elif playable(f, r) and r >= SIZE - 3:
                board[(f, r)] = ("Bs",)
    return Pos(0, 0, board)


def parse(text: str) -> Pos:
    """A Pos from a position text; the third field must be empty (it may be left out)."""
    parts = [part.strip() for part in text.split("|")]
    if len(parts) > 3 or (len(parts) == 3 and parts[2]):
        raise ValueError(f"Lasca positions have no zones or counters: {text!r}")
    side, ply = parts[0].split()
    board = {}
    for item in (parts[1].split() if len(parts) > 1 else []):
        where, column = item.split("=")
        f, r = cell(where)
        if not playable(f, r):
            raise ValueError(f"{where} is not a playable cell")
        if (f, r) in board:
            raise ValueError(f"{where} given twice")
        board[(f, r)] = parse_column(column)
    return Pos(SIDES.index(side), int(ply), board)


def owner(column):
    """0 or 1: the side commanding the column (the owner of its top piece)."""
    return OWNERS.index(column[-1][0])


def directions(commander):
    """The diagonal (file, rank) steps open to a column with this commander."""
    side = OWNERS.index(commander[0])
    if commander[1] == "o":
        return ((1, 1), (-1, 1), (1, -1), (-1, -1))
    return ((1, FORWARD[side]), (-1, FORWARD[side]))


def capture_sequences(p: Pos, start_cell):
    """Every complete capture sequence of the column on start_cell, as lists of cells (the start,
    then each landing). Empty when it cannot capture."""
    me = owner(p.board[start_cell])
    board = dict(p.board)
    column = board.pop(start_cell)  # the column has left its cell: that cell is empty now
    found = []

    def extend(at, column, board, jumped, path):
        commander = column[-1]
        if len(path) > 1 and commander[1] == "s" and at[1] == FAR_RANK[me]:
            found.append(path)  # rule 9: it is promoted, and the move ends here
            return
        went_on = False
        for df, dr in directions(commander):
            over = (at[0] + df, at[1] + dr)
            land = (at[0] + 2 * df, at[1] + 2 * dr)
            if not on_board(*land) or land in board:
                continue  # rule 5: the cell beyond must be on the board and empty
            if over not in board or owner(board[over]) == me:
                continue  # rule 5: only a column commanded by the enemy is jumped
            if over in jumped:
                continue  # rule 7: no column is jumped twice in a move
            went_on = True
            after = dict(board)
            taken, rest = board[over][-1], board[over][:-1]
            if rest:
                after[over] = rest  # rule 5: the rest of the jumped column stays
            else:
                del after[over]  # rule 8: the cell is empty at once
            extend(land, (taken,) + column, after, jumped | {over}, path + [land])
        if not went_on and len(path) > 1:
            found.append(path)  # rule 6: the sequence ends only when no jump is left

    extend(start_cell, column, board, frozenset(), [start_cell])
    return found


def moves(p: Pos) -> list:
    """Every legal move of the side to move, as texts (sorted). Captures if any (rule 6), else steps."""
    mine = [c for c in p.board if owner(p.board[c]) == p.side]
    captures = ["x".join(name(*c) for c in path)
                for c in mine for path in capture_sequences(p, c)]
    if captures:
        assert len(set(captures)) == len(captures), captures
        return sorted(captures)
    steps = []
    for (f, r) in mine:
        for df, dr in directions(p.board[(f, r)][-1]):
            to = (f + df, r + dr)
            if on_board(*to) and to not in p.board:
                steps.append(f"{name(f, r)}-{name(*to)}")
    return sorted(steps)


def promote_if_arrived(board, at, side):
    """Rule 9: the moved column's soldier commander on its far rank becomes an officer."""
    column = board[at]
    if column[-1][1] == "s" and at[1] == FAR_RANK[side]:
        board[at] = column[:-1] + (OWNERS[side] + "o",)


def play(p: Pos, move: str) -> Pos:
    """The position after a legal move (checked: a move not in moves(p) raises ValueError)."""
    if move not in moves(p):
        raise ValueError(f"{move!r} is not legal in {p.text()}")
    q = p.copy()
    if "x" in move:
        cells = [cell(c) for c in move.split("x")]
        column = q.board.pop(cells[0])
        for (f0, r0), (f1, r1) in zip(cells, cells[1:]):
            over = ((f0 + f1) // 2, (r0 + r1) // 2)
            jumped = q.board.pop(over)
            column = (jumped[-1],) + column  # the top piece goes to the bottom of the mover
            if jumped[:-1]:
                q.board[over] = jumped[:-1]  # the rest stays, under its new commander
        q.board[cells[-1]] = column
    else:
        frm, to = (cell(c) for c in move.split("-"))
        q.board[to] = q.board.pop(frm)
        cells = [frm, to]
    promote_if_arrived(q.board, cells[-1], p.side)
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


# ------------------------------------------------------------------ self-check

def selfcheck():
    """Small facts of the rules, checked by hand; raises AssertionError on a mistake."""
    s = start()
    assert s.text() == ("white 0 | a1=Ws c1=Ws e1=Ws g1=Ws b2=Ws d2=Ws f2=Ws a3=Ws c3=Ws e3=Ws "
                        "g3=Ws a5=Bs c5=Bs e5=Bs g5=Bs b6=Bs d6=Bs f6=Bs a7=Bs c7=Bs e7=Bs g7=Bs | ")
    for variant in (s.text(), s.text().rstrip(), s.text().rstrip(" |")):
        assert parse(variant).text() == s.text()
    assert sum(playable(f, r) for f in range(SIZE) for r in range(SIZE)) == 25
    assert moves(s) == ["a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4"]
    # After a3-b4, c5 must take b4 landing on the emptied a3: a white soldier under a black one.
    q = play(s, "a3-b4")
    assert moves(q) == ["c5xa3"]
    q = play(q, "c5xa3")
    assert q.board[cell("a3")] == ("Ws", "Bs") and cell("b4") not in q.board
    # Only the top is taken; the rest stays and is released (rule 5).
    p = parse("white 0 | c3=Ws d4=WsBs | ")
    assert moves(p) == ["c3xe5"]
    q = play(p, "c3xe5")
    assert q.board[cell("d4")] == ("Ws",) and q.board[cell("e5")] == ("Bs", "Ws")
    # No 180-degree turn, no second jump over one column (rule 7); promotion ends a capture (9).
    assert moves(parse("white 0 | c3=Wo d4=BsBs | ")) == ["c3xe5"]
    q = play(parse("white 0 | c5=Ws d6=Bs f6=Bs | "), "c5xe7")
    assert q.board[cell("e7")] == ("Bs", "Wo") and moves(q) == ["f6-e5", "f6-g5"]
    # Soldiers step and jump forward only; officers both ways.
    assert moves(parse("black 0 | d4=Bs c3=Ws | ")) == ["d4xb2"]
    assert moves(parse("black 0 | d4=Bs c5=Ws | ")) == ["d4-c3", "d4-e3"]
    assert moves(parse("black 0 | d4=Bo | ")) == ["d4-c3", "d4-c5", "d4-e3", "d4-e5"]
    # A finished game: no leaves below it.
    assert perft(parse("black 3 | d4=WsWo | "), 1) == 0 and winner(parse("black 3 | | ")) == "white"
    return True


def verify(path, max_leaves=2_000_000):
    """Recompute every count (up to max_leaves) of a perft data file with this reference."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from perft_data import read  # the project's loader for tests/perft/*.perft

    ok = True
    for record in read(Path(path)):
        assert record.ruleset == "lasca" and not record.options, record
        pos = start() if record.position == "start" else parse(record.position)
        for depth, leaves in record.counts:
            if leaves > max_leaves:
                print(f"{record.id} d{depth}: {leaves} skipped")
                continue
            t = time.time()
            got = perft(pos, depth)
            flag = "ok" if got == leaves else "MISMATCH"
            ok &= got == leaves
            print(f"{record.id} d{depth}: {got} (file {leaves}) {flag} {time.time() - t:.1f}s")
    return ok


def main(args):
    if args and args[0] == "selfcheck":
        selfcheck()
        print("selfcheck ok")
        return
    if args and args[0] == "verify":
        default = Path(__file__).resolve().parent.parent / "perft" / "lasca.perft"
        path = args[1] if len(args) > 1 else default
        limit = int(args[2]) if len(args) > 2 else 2_000_000
        sys.exit(0 if verify(path, limit) else 1)
    pos = parse(args.pop(0)) if "|" in args[0] else start()
    depth = int(args.pop(0))
    if args and args[0] == "divide":
        rows = divide(pos, depth)
        for m, n in rows:
            print(m, n)
        print("total", sum(n for _, n in rows))
    else:
        print(perft(pos, depth))


if __name__ == "__main__":
    main(sys.argv[1:])
