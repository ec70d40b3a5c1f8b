"""Reference implementation of Chaos (plain Python, standard library only, exact integers).

Written from the rules text (shared/seeds/004_098e17cb302eb8e0.txt), the project's rulings
(shared/games/chaos.md) and the contract of issue 12 (options, move texts, what each ruling leaves
open), apart from rulesets/chaos.rules and from the engine's table space, so that the two can be
compared move by move.

Lengths are whole numbers of UNIT = 1/2000 inch (1.375 in is 2750), never floats: every size, half
size, offset and lattice step of the game is a whole number of them. A piece on the table is a
Piece (colour, size, x, y, facing): (x, y) is the centre of its footprint, facing is None for a
standing piece (a defender) and one of "n", "e", "s", "w" for a lying one (an attacker, its point
that way). Footprints are closed axis-aligned rectangles; two overlap when their interiors meet.

One ChaosReference object holds the options and the state, and changes in place: `new()` resets
it to the start and returns it, `copy()` gives an independent object at the same position,
`play(text)` makes a move. A turn is a chance node (the roll: "red+blue", the unordered pair in
ring order) and then the mover's placements ("red@3,-2" standing, "red@1.375,0>e" lying), one
colour at a time in the order it chooses, or "pass" when none of its rolled colours still to place
may be placed. Positions for tests are built with `setup_table`, `setup_supply`, `setup_hand` and
`setup_turn`, which place pieces without checking any rule.

Readings of points the contract leaves open:
- The ply cap is checked after every move, like the other end rules, so a game may end between a
  roll and its placements (the cap counts every move: rolls, placements and passes).
- The table-exhausted end is checked only at the start of a turn (no rolled colour pending); a
  rolled colour that may not be placed mid-turn gives the forced "pass".
- A ray leaving an attacker's point that starts on another piece's boundary enters it at distance
  0; a piece whose interior the ray never enters (it runs along an edge, or the piece is behind or
  beside the point) is not met.

    python tests/reference/chaos.py            # perft 1-3 from the start for every colour set
"""

from __future__ import annotations

import random
import sys
import time
from collections import namedtuple
from fractions import Fraction
from math import isqrt

UNIT = 2000  # lengths are whole numbers of 1/2000 inch
REACH = 6 * UNIT  # the six inches of placement and attack

RINGS = {
    "ten": ("white", "clear", "red", "orange", "yellow", "green", "cyan", "blue", "purple", "black"),
    "six": ("white", "red", "yellow", "green", "blue", "black"),
    "four": ("red", "yellow", "green", "blue"),
}
SIZES = ("large", "medium", "small")  # largest first: the order a supply is used in
WIDTH = {"large": 2000, "medium": 1600, "small": 1200}  # standing square; a lying piece's short side
LENGTH = {"large": 3500, "medium": 2750, "small": 2000}  # a lying piece along its point
POINTS = {"large": 3, "medium": 2, "small": 1}
DIRECTIONS = {"n": (0, 1), "e": (1, 0), "s": (0, -1), "w": (-1, 0)}
PER_SIZE = 5  # pieces of each size in each colour's supply

Piece = namedtuple("Piece", "colour size x y facing")


# ---- lengths and texts ---------------------------------------------------------------------------

def inches(units: int) -> str:
    """A length in units as a move writes it: inches with as few decimals as exact ("-0.4")."""
    whole, part = divmod(abs(units), UNIT)
    text = str(whole)
    if part:
        text += "." + f"{part * 10_000 // UNIT:04d}".rstrip("0")  # UNIT divides 10,000 * part
    return "-" + text if units < 0 else text


def units_of(text: str) -> int:
    """Inches written as a decimal ("1.375") as a whole number of units; ValueError otherwise."""
    try:
        value = Fraction(text) * UNIT
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"not a length in inches: {text!r}") from None
    if value.denominator != 1 or "/" in text or "e" in text.lower():
        raise ValueError(f"not a length in whole 1/2000 inches: {text!r}")
    return int(value)


def spot_text(x: int, y: int, facing) -> str:
    return f"{inches(x)},{inches(y)}" + (f">{facing}" if facing else "")


def parse_spot(text: str):
    """'X,Y' or 'X,Y>D' -> (x, y, facing) in units; ValueError naming a bad spot."""
    where, _, facing = text.partition(">")
    if facing and facing not in DIRECTIONS or (">" in text and not facing):
        raise ValueError(f"bad direction in spot {text!r} (one of n, e, s, w)")
    parts = where.split(",")
    if len(parts) != 2:
        raise ValueError(f"bad spot {text!r}: write X,Y or X,Y>D")
    return units_of(parts[0]), units_of(parts[1]), facing or None


def footprint(size: str, x: int, y: int, facing):
    """(x0, x1, y0, y1): the closed rectangle a piece covers on the table."""
    half_w = WIDTH[size] // 2
    if facing is None:
        half_x = half_y = half_w
    elif facing in ("e", "w"):
        half_x, half_y = LENGTH[size] // 2, half_w
    else:
        half_x, half_y = half_w, LENGTH[size] // 2
    return x - half_x, x + half_x, y - half_y, y + half_y


def overlap(a, b) -> bool:
    """Two closed rectangles overlap when their interiors meet (touching sides or corners do not)."""
    return a[0] < b[1] and b[0] < a[1] and a[2] < b[3] and b[2] < a[3]


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def distance2(ax, ay, bx, by) -> int:
    return (ax - bx) ** 2 + (ay - by) ** 2


def may_capture(ring, attacker: str, target: str) -> bool:
    """Ten colours: 1 or 2 steps either way round the ring; six: 1 step; four: the next colour."""
    n = len(ring)
    step = (ring.index(target) - ring.index(attacker)) % n
    if n == 4:
        return step == 1
    reach = 2 if n == 10 else 1
    return 0 < min(step, n - step) <= reach


# ---- the game ------------------------------------------------------------------------------------

class ChaosReference:
    """Chaos at one set of options, holding one position (see the module's docstring)."""

    def __init__(self, players=2, colours="ten", pitch=8, offsets="three", scoring=False, ply_cap=0):
        if not isinstance(players, int) or not 2 <= players <= 5:
            raise ValueError(f"players must be 2..5, not {players!r}")
        if colours not in RINGS:
            raise ValueError(f"colours must be one of ten, six, four, not {colours!r}")
        if not isinstance(pitch, int) or not 1 <= pitch <= 16:
            raise ValueError(f"pitch must be 1..16 eighths of an inch, not {pitch!r}")
        if offsets not in ("three", "centred"):
            raise ValueError(f"offsets must be three or centred, not {offsets!r}")
        if not isinstance(ply_cap, int) or not 0 <= ply_cap <= 100_000:
            raise ValueError(f"ply_cap must be 0..100000, not {ply_cap!r}")
        self.players = players
        self.ring = RINGS[colours]
        self.step = pitch * UNIT // 8
        self.offsets = offsets
        self.scoring = bool(scoring)
        self.ply_cap = ply_cap
        self.new()

    # ---- the state ----------------------------------------------------------------------------
    def new(self):
        """Reset to the start (empty table, full supplies, seat 0 to roll); returns self."""
        self.table = []  # Pieces, in the order placed
        self.supply = {c: [PER_SIZE] * len(SIZES) for c in self.ring}  # large, medium, small left
        self.hands = [{} for _ in range(self.players)]  # per seat: colour -> size of its capture
        self.mover = 0
        self.pending = []  # rolled colours still to place; empty: the turn starts with a roll
        self.plies = 0
        self._changed()
        return self

    def copy(self):
        other = object.__new__(ChaosReference)
        other.__dict__.update(self.__dict__)
        other.table = list(self.table)
        other.supply = {c: list(s) for c, s in self.supply.items()}
        other.hands = [dict(h) for h in self.hands]
        other.pending = list(self.pending)
        return other

    def _changed(self):
        self._moves = None  # move text -> what it does, while the position is unchanged
        self._end = None  # None: not known yet; else ("going",) or the end

    # ---- building positions for tests (no rule is checked) ------------------------------------
    def setup_table(self, pieces):
        """Put pieces on the table: (colour, size, spot text) each, taken from the supply."""
        for colour, size, spot in pieces:
            x, y, facing = parse_spot(spot)
            self._take(colour, size)
            self.table.append(Piece(colour, size, x, y, facing))
        self._changed()
        return self

    def setup_supply(self, colour, large, medium, small):
        self.supply[colour] = [large, medium, small]
        self._changed()
        return self

    def setup_hand(self, seat, pieces):
        """Give a seat captured pieces: (colour, size) each, taken from the supply."""
        for colour, size in pieces:
            self._take(colour, size)
            self.hands[seat][colour] = size
        self._changed()
        return self

    def setup_turn(self, mover, pending=(), plies=None):
        """Make `mover` the player to move with these rolled colours still to place."""
        self.mover = mover
        self.pending = list(pending)
        if plies is not None:
            self.plies = plies
        self._changed()
        return self

    def _take(self, colour, size):
        i = SIZES.index(size)
        if self.supply[colour][i] == 0:
            raise ValueError(f"no {size} {colour} piece left in the supply")
        self.supply[colour][i] -= 1

    # ---- spots --------------------------------------------------------------------------------
    def next_size(self, colour):
        """The largest piece left in the colour's supply, or None."""
        return next((s for s, left in zip(SIZES, self.supply[colour]) if left), None)

    def stands(self, colour) -> bool:
        """The next piece of the colour stands while fewer than `players` of it stand."""
        standing = sum(1 for p in self.table if p.colour == colour and p.facing is None)
        return standing < self.players

    def spots(self, colour):
        """Every legal (x, y, facing) for the colour's next piece (a generator, duplicates possible)."""
        size = self.next_size(colour)
        if size is None:
            return
        if self.stands(colour):
            candidates = self._defender_candidates(colour, size)
        else:
            candidates = self._attacker_candidates(colour, size)
        for x, y, facing in candidates:
            box = footprint(size, x, y, facing)
            if not any(overlap(box, footprint(p.size, p.x, p.y, p.facing)) for p in self.table):
                yield x, y, facing

    def may_place(self, colour) -> bool:
        return next(self.spots(colour), None) is not None

    def _defender_candidates(self, colour, size):
        """Lattice points at most 6 in from some piece and at least 6 in from each of the colour."""
        if not self.table:
            yield 0, 0, None  # the first piece of the game
            return
        own = [(p.x, p.y) for p in self.table if p.colour == colour]
        seen = set()
        for p in self.table:
            for point in self._lattice_near(p.x, p.y):
                if point in seen:
                    continue
                seen.add(point)
                if all(distance2(*point, ox, oy) >= REACH * REACH for ox, oy in own):
                    yield point[0], point[1], None

    def _lattice_near(self, cx, cy):
        """The lattice points at most REACH from (cx, cy) (exact: integer square roots)."""
        step = self.step
        for i in range(ceil_div(cx - REACH, step), (cx + REACH) // step + 1):
            x = i * step
            room = REACH * REACH - (x - cx) ** 2
            if room < 0:
                continue
            r = isqrt(room)  # |y - cy| <= r exactly when (y - cy)^2 <= room, y an integer
            for j in range(ceil_div(cy - r, step), (cy + r) // step + 1):
                yield x, j * step

    def _attacker_candidates(self, colour, size):
        """Flush against a side of a piece of the colour, pointing straight away from it."""
        width, length = WIDTH[size], LENGTH[size]
        for p in self.table:
            if p.colour != colour:
                continue
            if p.facing is None:  # a standing piece: its four sides, each as long as its width
                sides = [(d, WIDTH[p.size] // 2, WIDTH[p.size]) for d in DIRECTIONS]
            else:  # a lying piece: its two long sides only
                across = ("n", "s") if p.facing in ("e", "w") else ("e", "w")
                sides = [(d, WIDTH[p.size] // 2, LENGTH[p.size]) for d in across]
            for d, out, side in sides:
                if width > side:
                    continue  # the base would overhang the side
                slack = (side - width) // 2
                shifts = {-slack, 0, slack} if self.offsets == "three" else {0}
                dx, dy = DIRECTIONS[d]
                reach = out + length // 2  # from the anchor's centre to the new piece's centre
                for shift in shifts:  # along the side: +shift is along (-dy, dx)
                    yield p.x + dx * reach - dy * shift, p.y + dy * reach + dx * shift, d

    # ---- moves --------------------------------------------------------------------------------
    def is_chance(self) -> bool:
        return not self.pending and not self.is_terminal()

    def rolls(self):
        """[(text, probability)] of the roll: the unordered pair, a at or before b in ring order."""
        n = len(self.ring)
        return [(f"{a}+{b}", Fraction(1 if i == j else 2, n * n))
                for i, a in enumerate(self.ring) for j, b in enumerate(self.ring) if i <= j]

    def chance_outcomes(self):
        return self.rolls() if self.is_chance() else None

    def _move_table(self):
        if self._moves is None:
            moves = {}
            if self.is_terminal():
                pass
            elif not self.pending:
                for text, _ in self.rolls():
                    a, b = text.split("+")
                    moves[text] = ("roll", [a, b])
            else:
                for colour in dict.fromkeys(self.pending):
                    for x, y, facing in self.spots(colour):
                        moves[f"{colour}@{spot_text(x, y, facing)}"] = ("place", colour, x, y, facing)
                if not moves:
                    moves["pass"] = ("pass",)
            self._moves = moves
        return self._moves

    def legal(self):
        """The set of move texts here (the rolls at a chance node); empty when the game is over."""
        return set(self._move_table())

    def play(self, text):
        """Make a move given by its text; ValueError naming it when it is not legal here."""
        move = self._move_table().get(text)
        if move is None:
            if self.is_terminal():
                raise ValueError(f"illegal move {text!r}: the game is over")
            why = " (the dice are to be rolled)" if not self.pending else ""
            raise ValueError(f"illegal move {text!r}{why}")
        self.plies += 1
        if move[0] == "roll":
            self.pending = move[1]
        elif move[0] == "pass":
            self._end_turn()
        else:
            _, colour, x, y, facing = move
            size = self.next_size(colour)
            self._take(colour, size)
            piece = Piece(colour, size, x, y, facing)
            self.table.append(piece)
            self.pending.remove(colour)
            if facing is not None:
                self._capture(piece)
            if not self.pending:
                self._end_turn()
        self._changed()
        return self

    def _end_turn(self):
        self.pending = []
        self.mover = (self.mover + 1) % self.players

    def target(self, piece):
        """The piece whose interior the line from the point enters first, within 6 in, or None."""
        dx, dy = DIRECTIONS[piece.facing]
        half = LENGTH[piece.size] // 2
        tx, ty = piece.x + dx * half, piece.y + dy * half  # the point: middle of the far short side
        best, best_at = None, None
        for p in self.table:
            if p is piece:
                continue
            x0, x1, y0, y1 = footprint(p.size, p.x, p.y, p.facing)
            if dx:  # the line y = ty: it enters only pieces strictly across it
                if not y0 < ty < y1:
                    continue
                near, far = (x0 - tx, x1 - tx) if dx > 0 else (tx - x1, tx - x0)
            else:
                if not x0 < tx < x1:
                    continue
                near, far = (y0 - ty, y1 - ty) if dy > 0 else (ty - y1, ty - y0)
            if far <= 0:
                continue  # behind the point
            at = max(near, 0)
            if best_at is None or at < best_at:
                best, best_at = p, at
        return best if best_at is not None and best_at <= REACH else None

    def _capture(self, piece):
        target = self.target(piece)
        if target is None or target.facing is not None:
            return
        colour = target.colour
        hand = self.hands[self.mover]
        if not may_capture(self.ring, piece.colour, colour) or colour in hand:
            return
        size = self.next_size(colour)
        if size is not None:
            self._take(colour, size)
            hand[colour] = size

    # ---- the end ------------------------------------------------------------------------------
    def _outcome(self):
        if self._end is None:
            self._end = ("going",)
            for seat, hand in enumerate(self.hands):
                if all(c in hand for c in self.ring):
                    self._end = ("win", seat)
                    break
            else:
                if self.ply_cap and self.plies >= self.ply_cap:
                    self._end = ("over", "ply cap")
                elif not self.pending and not any(self.may_place(c) for c in self.ring):
                    self._end = ("over", "no colour may be placed")
        return self._end

    def is_terminal(self) -> bool:
        return self._outcome()[0] != "going"

    def end_reason(self):
        """'win', 'ply cap', 'no colour may be placed', or None while the game goes on."""
        end = self._outcome()
        return None if end[0] == "going" else "win" if end[0] == "win" else end[1]

    def points(self, seat) -> int:
        return sum(POINTS[size] for size in self.hands[seat].values())

    def returns(self):
        """Per seat: 1 to a winner (0 to the others); unwon: 1/2 each, or with scoring 1/k to each of
        the k seats tied on the most points (0 to the others). None while the game goes on."""
        end = self._outcome()
        n = self.players
        if end[0] == "going":
            return None
        if end[0] == "win":
            return tuple(Fraction(int(seat == end[1])) for seat in range(n))
        if not self.scoring:
            return (Fraction(1, 2),) * n
        points = [self.points(seat) for seat in range(n)]
        top = [seat for seat in range(n) if points[seat] == max(points)]
        return tuple(Fraction(1, len(top)) if seat in top else Fraction(0) for seat in range(n))

    # ---- helpers ------------------------------------------------------------------------------
    def perft(self, depth):
        """The leaves of the move tree `depth` plies deep (chance outcomes counted, unweighted)."""
        if depth == 0:
            return 1
        moves = self._move_table()
        if depth == 1:
            return len(moves)
        total = 0
        for text in sorted(moves):
            child = self.copy()
            child.play(text)
            total += child.perft(depth - 1)
        return total

    def random_game(self, seed):
        """The move texts of one whole game from this position (played on a copy): nature by its
        probabilities, each decision uniformly among the sorted legal moves, with random.Random(seed)."""
        rng = random.Random(seed)
        game = self.copy()
        texts = []
        while not game.is_terminal():
            outcomes = game.chance_outcomes()
            if outcomes is not None:
                text = rng.choices([t for t, _ in outcomes], weights=[p for _, p in outcomes])[0]
            else:
                text = rng.choice(sorted(game.legal()))
            game.play(text)
            texts.append(text)
        return texts

    def summary(self):
        """The whole position as plain data (for comparing and for messages)."""
        return {
            "mover": self.mover,
            "pending": sorted(self.pending, key=self.ring.index),
            "plies": self.plies,
            "table": sorted((p.colour, p.size, spot_text(p.x, p.y, p.facing)) for p in self.table),
            "supply": {c: tuple(s) for c, s in self.supply.items()},
            "hands": [dict(h) for h in self.hands],
        }


def main():
    for colours in RINGS:
        for depth in (1, 2, 3):
            start = time.perf_counter()
            n = ChaosReference(colours=colours).perft(depth)
            print(f"{colours:>4} perft {depth}: {n:>8,} ({time.perf_counter() - start:.2f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
