"""Declared symmetries (`symmetry "NAME": mirror files, swap south north`), checked on positions
reached by play: the moves of the mapped position are the mapped moves, and its outcome is the
mapped outcome (each side's result goes to the side it is swapped with).

A symmetry maps a position: every cell through the board map (a mirror or a rotation), every piece
through the swaps of its attribute values (swapping two players swaps the owner of their pieces
too), the side to move, the seats, and each player's zones and counters, and a counter that holds
a cell. A move maps choice by choice, by the choice's type (a cell, a direction, a player, a piece
or an attribute value; a number stays). Both positions are read from position text, so neither
has a history (a repetition count, the last move) that the other lacks. Moves that differ as
written are compared by where they lead, zones taken as pools: a move listing several cells lists
them in board order, which a map of the board reverses (`_same_landings`).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Optional

from ..dsl import types as T
from ..dsl.world import DIRECTION_NAMES
from ..errors import GameError, RulesetError
from ..interpreter.runtime import Game, State

# How each board map moves a vector (dx, dy) of the board (file, rank), and whether it needs a
# square board (it exchanges files and ranks).
VECTOR_MAPS = {
    ("mirror", "files"): (lambda x, y: (-x, y), False),
    ("mirror", "ranks"): (lambda x, y: (x, -y), False),
    ("mirror", "diagonal"): (lambda x, y: (y, x), True),
    ("rotate", "90"): (lambda x, y: (y, -x), True),
    ("rotate", "180"): (lambda x, y: (-x, -y), False),
    ("rotate", "270"): (lambda x, y: (-y, x), True),
}


class NotApplicable(GameError):
    """A symmetry that does not apply at these options (a quarter turn of a board that is not square):
    not checked, and not a failure."""


class SymmetryMap:
    """One declared symmetry at one game's options: maps of positions and of moves."""

    def __init__(self, game: Game, decl):
        self.game, self.decl, self.name = game, decl, decl.name
        w = game.world
        if w.surface is not None:
            raise GameError("a symmetry maps a board; this game is played on an open table")
        swaps = {}
        board: tuple = ()
        for part in decl.parts:
            if part.words[0] == "swap":
                a, b = part.words[1], part.words[2]
                swaps[a], swaps[b] = b, a
            else:
                board = tuple(part.words)
        vec, square = VECTOR_MAPS[board] if board else ((lambda x, y: (x, y)), False)
        if square and w.files != w.ranks:
            raise NotApplicable(f"{' '.join(board)} needs a square board, not {w.files}x{w.ranks}")
        F, R = w.files, w.ranks
        self.cells = []
        for c in range(w.ncells):
            x, y = vec(2 * (c % F) - (F - 1), 2 * (c // F) - (R - 1))
            self.cells.append(w.cell((x + F - 1) // 2, (y + R - 1) // 2))
        names = {v: k for k, v in enumerate(DIRECTION_NAMES)}
        vectors = T.BUILTIN_DIRECTIONS
        by_vector = {v: k for k, v in vectors.items()}
        self.dirs = [names[by_vector[vec(*vectors[d])]] for d in DIRECTION_NAMES]
        players = list(game.players)
        self.sides = [players.index(swaps.get(p, p)) for p in players]
        self.values = {a.name: [a.values.index(swaps.get(v, v)) for v in a.values] for a in game.attributes}
        self.pieces = [self._piece(code) for code in range(w.npieces)]
        self.zones = self._slots(w.zone_names, players, swaps)
        self.counters = self._slots(w.counter_names, players, swaps)
        sets = {name for name, _, kind in game.spec.counters if kind == "set"}
        index = {n: i for i, n in enumerate(w.counter_names)}
        cell_of = {w.cell_name(c): c for c in range(w.ncells)}
        for i, n in enumerate(w.counter_names):  # a set's slot (`visited.a1`, `left.south.a1`): its cell moves too
            head, _, cell = n.rpartition(".")
            if head.partition(".")[0] in sets:
                base, dot, who = head.rpartition(".")
                head = f"{base}.{swaps.get(who, who)}" if dot and who in players else head
                self.counters[i] = index[f"{head}.{w.cell_name(self.cells[cell_of[cell]])}"]

    def _piece(self, code: int) -> int:
        w = self.game.world
        out = 0
        for a in self.game.attributes:
            n, s = max(1, len(a.values)), w.stride[a.name]
            index = (code // s) % n
            out += s * (self.values[a.name][index] if a.values else 0)
        return out

    @staticmethod
    def _slots(slot_names, players, swaps) -> list:
        """Slot i goes to the slot of the swapped player (`prisoners.south` to `prisoners.north`)."""
        index = {n: i for i, n in enumerate(slot_names)}
        out = []
        for n in slot_names:
            base, dot, who = n.rpartition(".")
            out.append(index[f"{base}.{swaps.get(who, who)}"] if dot and who in players else index[n])
        return out

    # ---- positions and moves ----------------------------------------------------------------

    def position(self, st: State) -> State:
        """The mapped position (read back from its text, as `st` should be)."""
        game = self.game
        out = game.empty_state()
        for c, stack in enumerate(st.cells):
            out.cells[self.cells[c]] = tuple(self.pieces[p] for p in stack)
        for i, z in enumerate(st.zones):
            out.zones[self.zones[i]] = tuple(self.pieces[p] for p in z)
        for i, v in enumerate(st.counters):
            out.counters[self.counters[i]] = self.cells[v] if game.holds_cell(i) and 0 <= v < len(self.cells) else v
        out.side, out.ply = self.sides[st.side], st.ply
        for side, seat in enumerate(st.seats):
            out.seats[self.sides[side]] = seat
        return game.position(out.text())

    def _same_landings(self, here: State, moves: list, there: State, found: list) -> bool:
        """Whether the mapped position's moves lead to the maps of the positions the moves lead to,
        one for one, each zone's pieces taken in any order: a move that lists several cells (all
        at once) lists them in board order, which a map of the board reverses, and pieces it puts
        in a zone go there in that order, so the moves differ as written and not as played."""
        if len(moves) != len(found):
            return False

        def landings(st: State, ms: list, mapped: bool) -> Counter:
            out: Counter = Counter()
            for m in ms:
                after = st.copy()
                after.push(m)
                out[_landing(self.position(after) if mapped else after)] += 1
            return out

        return landings(here, moves, True) == landings(there, found, False)

    def move(self, move: tuple) -> tuple:
        action = self.game.actions[move[0]]
        return (move[0],) + tuple(self._value(t, v) for (_, t), v in zip(action.choices, move[1:]))

    def _value(self, typ, v):
        if v is None or typ is None:
            return v
        if T.is_list(typ):
            return tuple(self._value(typ.elem, x) for x in v)
        if typ == T.CELL:
            return self.cells[v] if 0 <= v < len(self.cells) else v
        if typ == T.DIR:
            return self.dirs[v]
        if typ == T.PLAYER:
            return self.sides[v] if 0 <= v < len(self.sides) else v
        if typ == T.PIECE:
            return self.pieces[v]
        if typ.name == "enum":
            attr = next(a for a in self.game.attributes if a.name == typ.attr)
            return attr.numbers[self.values[attr.name][attr.numbers.index(v)]]
        return v

    def differs(self, st: State) -> Optional[str]:
        """What the rules tell apart between the position `st` and its map, or None."""
        here = self.game.position(st.text())
        there = self.position(here)
        moves = here.moves()
        mapped = {self.move(m) for m in moves}
        listed = there.moves()
        found = set(listed)
        if mapped != found and not self._same_landings(here, moves, there, listed):
            missing = sorted(_text(there, m) for m in mapped - found)
            extra = sorted(there.move_text(m) for m in found - mapped)
            lines = [f"the mapped position has {len(found)} moves, the position {len(moves)}"]
            if missing:
                lines.append("moves mapped from the position but not legal in the map: " + _some(missing))
            if extra:
                lines.append("moves legal in the map that map from no move of the position: " + _some(extra))
            return "; ".join(lines) + f"\n  mapped:   {there.text()}"
        a, b = here.outcome(), there.outcome()
        if (a is None) != (b is None) or (a is not None and b is not None and any(
                b.results[self.sides[i]] != r for i, r in enumerate(a.results))):
            return (f"the outcome is {_outcome(self.game, a)}, the mapped position's {_outcome(self.game, b)}"
                    f"\n  mapped:   {there.text()}")
        return None


def _landing(st: State) -> tuple:
    """A position as the rules read it, each zone's pieces in any order (a pool, as a bank)."""
    return (tuple(st.cells), tuple(tuple(sorted(z)) for z in st.zones), tuple(st.counters), st.side)


def _text(st: State, move: tuple) -> str:
    try:
        return st.move_text(move)
    except Exception:  # a mapped move the notation cannot print (a value out of range): as a tuple
        return repr(move)


def _outcome(game: Game, out) -> str:
    if out is None:
        return "none (the game goes on)"
    return f"{out.kind.value} " + ", ".join(f"{p}={r}" for p, r in zip(game.players, out.results)) + (
        f" ({out.reason})" if out.reason else "")


def _some(texts: list, most: int = 12) -> str:
    return ", ".join(texts[:most]) + (f" and {len(texts) - most} more" if len(texts) > most else "")


def check_symmetries(game: Game, maps: list, *, games: int = 10, max_plies: int = 60, seed: int = 0) -> list:
    """[(SymmetryMap, moves played, position text, what differed)]: the first position of seeded
    random games (at most `max_plies` plies each) where a symmetry does not hold, per symmetry."""
    rng = random.Random(seed)
    failing: dict = {}
    for _ in range(games):
        draws = game.setup_draws()
        st = game.new(rng.randrange(2**16) if draws else None)
        played: list = []
        for _ply in range(max_plies + 1):
            for sym in maps:
                if sym.name in failing:
                    continue
                try:
                    why = sym.differs(st)
                except (GameError, RulesetError) as e:  # a rule that fails on the mapped position
                    why = f"the rules failed: {e}"
                if why is not None:
                    failing[sym.name] = (sym, list(played), st.text(), why)
            try:
                moves = st.moves()
                if not moves or len(failing) == len(maps):
                    break
                move = rng.choice(moves)
                played.append(st.move_text(move))
                st.push(move)
            except (GameError, RulesetError):  # the game cannot go on: the properties' run says why
                break
    return list(failing.values())
