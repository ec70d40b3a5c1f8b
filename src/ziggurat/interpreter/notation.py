"""Text for moves and positions, generated from what the ruleset declares; both round-trip.

A move prints through its action's format ("{from}:{level}-{to}"). A position prints as

    <side> <ply> | <cell>=<stack> ... | <zone>=<pieces> <counter>=<n> ... [| seats=<side>,...]

where a stack is its pieces' codes from the bottom up (each piece code joins the code of every
attribute, in declaration order: `S3` = owner south, size 3). The seats field appears only when
the players have changed sides (the pie rule): it lists, seat by seat, the side each one plays.
"""

from __future__ import annotations

import difflib
import re
import string
from typing import Optional

from ..dsl import types as T
from ..dsl.types import WINDOW_COUNTERS
from ..errors import GameError, did_you_mean, shown
from ..dsl import surface
from ..dsl.world import DIRECTION_NAMES
from .geometry import CODE_BITS, CODE_MASK
from .spec import PRESENT


class Notation:
    def __init__(self, game):
        self.game = game
        w = game.world
        self.world = w
        self.cell_names = [w.cell_name(c) for c in range(w.ncells)]
        self.cell_index = {n: i for i, n in enumerate(self.cell_names)}
        self._names: dict = {}
        self.piece_codes = w.piece_by_text()
        self.piece_width = w.piece_width()
        self.players = list(game.players)
        self.value_names = {a.name: dict(zip(a.numbers, a.values)) for a in game.attributes}
        self.value_numbers = {a.name: dict(zip(a.values, a.numbers)) for a in game.attributes}
        owner = game.owner_attribute
        self.neutral = dict(zip(owner.numbers, owner.values)) if owner else {}  # player values beyond the players
        # Counters that hold a cell print as its name ("-" for none).
        self.cell_counters = {i for i, n in enumerate(w.counter_names)
                              if _counter_kind(game.spec, n) == "cell"}
        # A response window's counters (the engine's: see dsl/windows.py) hold seats, 0 for none.
        self.window_counters = _window_slots(game.spec, w.counter_names)
        # Counters the rules never make negative (the compiler finds them: spec.nonnegative).
        floor = set(getattr(game.spec, "nonnegative", ()))
        self.nonnegative = {i for i, n in enumerate(w.counter_names) if _counter_name(game.spec, n) in floor}
        # Sets of cells (a 0/1 slot per cell) are written as the cells they hold: `visited=a1,b2`.
        self.set_groups = _set_groups(game.spec, w)
        self.set_slots = {i: g for g, slots in self.set_groups.items() for i in slots}
        self._longest: Optional[int] = None

    # ---- values -----------------------------------------------------------------------------

    def _printer(self, typ: T.Type):
        if typ == T.CELL:
            return self.cell_names.__getitem__
        if typ == T.INT or typ is None:
            return str
        return lambda v: self.value_text(typ, v)

    def value_text(self, typ: Optional[T.Type], v) -> str:
        if typ is not None and T.is_list(typ):  # a choice of one value per item: "e1,f1"
            return ",".join(self.value_text(typ.elem, x) for x in v)
        if typ == T.CELL:
            return self.cell_names[v]
        if typ == T.PLAYER:
            return self.players[v] if v < len(self.players) else self.neutral.get(v, str(v))
        if typ == T.DIR:
            return DIRECTION_NAMES[v]
        if typ == T.PIECE:
            return self.world.piece_text(v)
        if typ is not None and typ.name == "enum":
            return self.value_names[typ.attr][v]
        if typ == T.SPOT:
            return surface.spot_text(v) if v != surface.NONE else "-"
        return str(v)

    def parse_value(self, typ: Optional[T.Type], text: str):
        if typ is not None and T.is_list(typ):
            return tuple(self.parse_value(typ.elem, x) for x in text.split(",")) if text else ()
        if typ == T.CELL:
            if text not in self.cell_index:
                raise GameError(f"{shown(text)} is not a cell of this {self.world.files}x{self.world.ranks} board")
            return self.cell_index[text]
        if typ == T.PLAYER:
            neutral = {name: v for v, name in self.neutral.items() if v >= len(self.players)}
            if text in neutral:
                return neutral[text]
            if text not in self.players:
                raise GameError(f"{shown(text)} is not a player" + _hint(text, self.players))
            return self.players.index(text)
        if typ == T.DIR:
            return DIRECTION_NAMES.index(text)
        if typ == T.PIECE:
            if text not in self.piece_codes:
                raise GameError(f"{shown(text)} is not a piece code")
            return self.piece_codes[text]
        if typ == T.SPOT:
            v = surface.parse_spot(text)
            if v is None:
                raise GameError(f"{shown(text)} is not a spot on the table: write its centre in inches, 'X,Y' "
                                "for a standing piece or 'X,Y>D' for one lying with its point to D (n, e, s, w)")
            return v
        if typ is not None and typ.name == "enum":
            names = self.value_numbers[typ.attr]
            if text not in names:
                raise GameError(f"{shown(text)} is not a {typ.attr}" + _hint(text, names))
            return names[text]
        try:
            return int(text)
        except ValueError:
            raise GameError(f"{shown(text)} is not a number") from None

    _PATTERNS = {"cell": r"[a-z]+[0-9]+", "int": r"-?[0-9]+"}

    def pattern(self, typ) -> str:
        if typ is not None and T.is_list(typ):
            item = self.pattern(typ.elem)
            return f"(?:{item}(?:,{item})*)?"
        if typ == T.CELL:
            return self._PATTERNS["cell"]
        if typ == T.INT or typ is None:
            return self._PATTERNS["int"]
        if typ == T.SPOT:
            return surface.SPOT_PATTERN
        return r"[A-Za-z0-9_]+"

    # ---- moves ------------------------------------------------------------------------------

    def move_text(self, move) -> str:
        action = self.game.actions[move[0]]
        names = self._names.get(move[0])
        if names is None:  # once per action: the choice names and a printer for each type
            names = self._names[move[0]] = [(n, self._printer(t)) for n, t in action.choices]
        if action.repeated:
            text = self._repeated_text(action, action.fmt, move)
        else:
            values = {name: show(v) for (name, show), v in zip(names, move[1:]) if v is not None}
            text = action.fmt.format(**values)
        if action.after_fmt is not None and all(v is not None for v in move[1 + action.nbase:]):
            after = (self._repeated_text(action, action.after_fmt, move) if action.repeated
                     else action.after_fmt.format(**values))
            if after:
                text += " " + after
        return text

    def _repeated_text(self, action, fmt, move) -> str:
        """A move with a repeated choice: the text just before that choice's field is written
        before each of its values ("{from}x{to}" gives c3xe5xg7)."""
        types = dict(action.choices)
        values = dict(zip((n for n, _ in action.choices), move[1:]))
        out = []
        for literal, field, _, _ in string.Formatter().parse(fmt):
            if field is None:
                out.append(literal)
            elif field in action.repeated:
                out.extend(literal + self.value_text(types[field].elem, v) for v in values[field])
            else:
                out.append(literal + self.value_text(types[field], values[field]))
        return "".join(out)

    def decode(self, text: str) -> list:
        """Every (action, move) the text could mean, legal or not (a GameError for a move that
        cannot be read)."""
        found: list[tuple[object, tuple | GameError]] = []
        for a in self.game.actions:
            regex = self._regex(a, a.fmt)
            present = any(n == PRESENT for n, _ in a.choices[a.nbase:])  # the after part's mark
            if a.after_fmt:
                regex += f"(?P<{_group(PRESENT)}> {self._regex(a, a.after_fmt)})?" if present else \
                    f"(?: {self._regex(a, a.after_fmt)})?"
            mt = re.fullmatch(regex, text)
            if mt:
                try:
                    move = (a.index,) + tuple(
                        (True if a.after_fmt and mt.group(_group(n)) is not None else None) if n == PRESENT
                        else None if mt.group(_group(n)) is None
                        else self._parse_repeated(a, n, t, mt.group(_group(n))) if n in a.repeated
                        else self.parse_value(t, mt.group(_group(n)))
                        for n, t in a.choices)
                except GameError as e:
                    found.append((a, e))
                    continue
                found.append((a, move))
        return found

    def _parse_repeated(self, action, name, typ, text) -> tuple:
        literal = self._literal_before(action, name)
        items = re.findall(re.escape(literal) + f"({self.pattern(typ.elem)})", text)
        return tuple(self.parse_value(typ.elem, x) for x in items)

    @staticmethod
    def _literal_before(action, name) -> str:
        return next(lit for fmt in (action.fmt, action.after_fmt or "")
                    for lit, f, _, _ in string.Formatter().parse(fmt) if f == name)

    def _regex(self, action, fmt: str) -> str:
        types = dict((n, t) for n, t in action.choices)
        regex = ""
        for literal, field, _, _ in string.Formatter().parse(fmt):
            if field is not None and field in action.repeated:  # the literal comes before every value
                item = self.pattern(types[field].elem)
                regex += f"(?P<{_group(field)}>(?:{re.escape(literal)}{item})+)"
                continue
            regex += re.escape(literal)
            if field is not None:
                regex += f"(?P<{_group(field)}>{self.pattern(types[field])})"
        return regex

    def parse_move(self, state, text: str, legal: Optional[list] = None) -> tuple:
        text = " ".join(str(text).split())
        moves = state.moves() if legal is None else legal
        possible = set(moves)
        for _, m in self.decode(text):  # read the text, then check it against the legal moves
            if isinstance(m, tuple) and m in possible and self.move_text(m) == text:
                return m
        by_text = {self.move_text(m): m for m in moves}  # texts the reader cannot decode alone
        if text in by_text:
            return by_text[text]
        if state.is_terminal():
            out = state.outcome()
            raise GameError(f"{shown(text)}: the game is over ({out.reason or out.kind})")
        decoded = self.decode(text)
        moves = [m for _, m in decoded if isinstance(m, tuple)]
        if moves:
            raise GameError(f"{shown(text)} is not legal here: {state.explain(moves[0])}")
        errors = [m for _, m in decoded if isinstance(m, GameError)]
        near = _near(text, by_text)
        if errors:
            said = str(errors[0])
            raise GameError(f"{shown(text)}: {said}" + (f"; {near}" if near and "did you mean" not in said else ""))
        if near:
            raise GameError(f"{shown(text)} is not a move here; {near}")
        forms = ", ".join(repr(a.fmt) for a in self.game.actions)
        example = next(iter(by_text), None)
        raise GameError(f"{shown(text)} is not a move of {self.game.title}: moves are written {forms}"
                        + (f", for example {example!r}" if example else ""))

    # ---- positions --------------------------------------------------------------------------

    def position_text(self, st, viewer: Optional[int] = None) -> str:
        """The position; with a viewer (a side), only what that side sees: a zone hidden from it
        is written as the number of its pieces (`deck=?3`). An observation does not parse back."""
        w = self.world
        cells = " ".join(f"{self.cell_names[c]}={''.join(w.piece_text(p) for p in s)}"
                         for c, s in enumerate(st.cells) if s)
        if w.surface is not None:  # the open table: each piece at its spot, in the order they were placed
            cells = " ".join(f"{w.piece_text(e & CODE_MASK)}@{surface.spot_text(e >> CODE_BITS)}" for e in st.table[0])
        viewers = self.game.zone_viewers if viewer is not None else [None] * len(st.zones)
        zones = [f"{n}={''.join(w.piece_text(p) for p in z)}" if v is None or viewer in v or not z else f"{n}=?{len(z)}"
                 for n, z, v in zip(w.zone_names, st.zones, viewers)]
        counters = [f"{n}={self._counter_text(i, v)}" for i, (n, v) in enumerate(zip(w.counter_names, st.counters))
                    if i not in self.set_slots]
        counters += [f"{g}={','.join(self.cell_names[c] for c, i in enumerate(slots) if st.counters[i]) or '-'}"
                     for g, slots in self.set_groups.items()]
        out = f"{self.players[st.side]} {st.ply} | {cells} | {' '.join(zones + counters)}".rstrip()
        if st.seats != list(range(len(self.players))):
            by_seat = sorted(range(len(self.players)), key=lambda side: st.seats[side])
            out += " | seats=" + ",".join(self.players[s] for s in by_seat)
        return out

    def parse_position(self, text: str):
        """The state a position text describes, after checking it against the game's limits: a
        GameError names the first thing wrong (the field, the cell, the counter, the limit)."""
        if not isinstance(text, str):
            raise GameError(f"a position is text, not {type(text).__name__}")
        longest = self.longest_position()
        if len(text) > longest:
            raise GameError(f"the position text has {len(text):,} characters; no position of "
                            f"{self.game.title} needs more than {longest:,}")
        fields = [f.strip() for f in text.split("|")]
        if len(fields) < 2 or len(fields) > 4:
            raise GameError("a position is written '<side> <ply> | <cell>=<stack> ... | <zone>=<pieces> ...'"
                            f", not {_shown(text)}")
        head = fields[0].split()
        if len(head) != 2:
            raise GameError(f"a position starts with the side to move and the ply, like "
                            f"'{self.players[0]} 0', not {_shown(fields[0])}")
        if head[0] not in self.players:
            raise GameError(f"{_shown(head[0])} is not a side of this game" + _hint(head[0], self.players))
        if not re.fullmatch(r"-?[0-9]+", head[1]):
            raise GameError(f"the ply must be a number, not {_shown(head[1])}")
        if head[1].startswith("-"):
            raise GameError("the ply cannot be negative")
        if len(head[1]) > NUMBER_DIGITS or int(head[1]) > NUMBER_MAX:
            raise GameError(f"the ply {_shown(head[1])} is out of range (at most {NUMBER_MAX:,})")
        st = self.game.empty_state()
        st.side, st.ply = self.players.index(head[0]), int(head[1])
        supply = Supply(self.game, self.piece_width)
        given: set = set()
        if self.world.surface is not None:
            st.table = [self._table(fields[1], supply)]
        for item in ([] if self.world.surface is not None else fields[1].split()):
            name, eq, stack = item.partition("=")
            if not eq:
                raise GameError(f"a cell is written <cell>=<pieces>, not {_shown(item)}")
            if name not in self.cell_index:
                raise GameError(f"{_shown(name)} is not a cell of this {self.world.files}x{self.world.ranks} board")
            if name in given:
                raise GameError(f"cell {name} is given twice: a cell holds one stack "
                                "(write it once, bottom piece first)")
            given.add(name)
            supply.room(name, stack)
            st.cells[self.cell_index[name]] = supply.take(self.pieces(stack, name), name)
        zone_slots = {n: i for i, n in enumerate(self.world.zone_names)}
        counter_slots = {n: i for i, n in enumerate(self.world.counter_names)}
        for item in (fields[2].split() if len(fields) > 2 else []):
            name, eq, value = item.partition("=")
            if not eq:
                raise GameError(f"a zone or counter is written <name>=<value>, not {_shown(item)}")
            if name in given:
                raise GameError(f"{name!r} is given twice")
            if name in zone_slots:
                given.add(name)
                supply.room(name, value)
                try:
                    pieces = self.pieces(value, name)
                except GameError:
                    if re.fullmatch(r"\?[0-9]+", value):  # an observation's count, not pieces
                        raise GameError(f"zone {name!r}: {_shown(value)} is how a hidden zone is shown to one "
                                        "side; a position needs its pieces") from None
                    raise
                st.zones[zone_slots[name]] = supply.take(pieces, name)
            elif name in self.set_groups:
                given.add(name)
                self._parse_set(st, name, value)
            elif name in counter_slots and counter_slots[name] not in self.set_slots:
                given.add(name)
                st.counters[counter_slots[name]] = self._parse_counter(counter_slots[name], name, value)
            else:
                raise GameError(f"{_shown(name)} is neither a zone nor a counter"
                                + _hint(name, list(zone_slots) + list(self.set_groups)
                                        + [n for n, i in counter_slots.items() if i not in self.set_slots]))
        if len(fields) > 3 and fields[3]:
            key, eq, value = fields[3].partition("=")
            sides = value.split(",")
            if key.strip() != "seats" or sorted(sides) != sorted(self.players):
                raise GameError(f"the last field lists each seat's side once, like "
                                f"'seats={','.join(self.players[::-1])}', not {_shown(fields[3])}")
            for seat, side in enumerate(sides):
                st.seats[self.players.index(side)] = seat
        return st

    def _table(self, text: str, supply: "Supply") -> tuple:
        """The pieces on the open table, written `<piece>@<spot>` in the order they were placed."""
        out, spots = [], set()
        for item in text.split():
            code, at, where = item.partition("@")
            if not at:
                raise GameError(f"a piece on the table is written <piece>@<spot> (as {self._table_example()}), "
                                f"not {_shown(item)}")
            s = surface.parse_spot(where)
            if s is None:
                raise GameError(f"{_shown(where)} is not a spot on the table: write its centre in inches, 'X,Y' "
                                "for a standing piece or 'X,Y>D' for one lying with its point to D (n, e, s, w)")
            if s in spots:
                raise GameError(f"two pieces are given at {where}: a spot holds one piece")
            spots.add(s)
            if len(code) != self.piece_width:
                raise GameError(f"{where}: {_shown(code)} is not one piece" + _hint(code, self.piece_codes))
            supply.room(where, code)
            (piece,) = supply.take(self.pieces(code, where), where)
            out.append((s << CODE_BITS) | piece)
        return tuple(out)

    def _table_example(self) -> str:
        return f"{self.world.piece_text(0)}@0,0"

    def _parse_counter(self, slot: int, name: str, value: str) -> int:
        """A counter's value: a cell (or - for none) for a cell counter, else a whole number within
        the engine's range (and, for a response window's counters, within the players' seats)."""
        if slot in self.cell_counters:
            if value != "-" and value not in self.cell_index:
                raise GameError(f"counter {name!r} holds a cell of this board (or - for none), not {_shown(value)}")
            return -1 if value == "-" else self.cell_index[value]
        if not re.fullmatch(r"-?[0-9]+", value):
            raise GameError(f"counter {name!r} holds a whole number, not {_shown(value)}")
        if len(value.lstrip("-")) > NUMBER_DIGITS or abs(int(value)) > NUMBER_MAX:
            raise GameError(f"counter {name!r}: {_shown(value)} is out of range (-{NUMBER_MAX:,} to {NUMBER_MAX:,})")
        n = int(value)
        if n < 0 and slot in self.nonnegative:
            raise GameError(f"counter {name!r} cannot be negative ({n}): the rules of {self.game.title} only ever "
                            "give it 0 or more")
        seats = len(self.players)
        if slot in self.window_counters and not 0 <= n <= seats:
            what = ("the seat that opened the response window (1 to {0}; 0 when none is open)"
                    if name == WINDOW_COUNTERS[1]
                    else "this player's place in the response window's order (1 to {0}; 0 when not asked)")
            raise GameError(f"counter {name!r} is {what.format(seats)}, not {n}")
        return n

    def longest_position(self) -> int:
        """The most characters a position text of this game may have: twice the longest text its
        limits allow (every cell, zone and counter written, the most pieces there can be), so
        space between the fields is free, and at least LONGEST_TEXT (so a text a little too long
        is read and its mistake named); a text of megabytes is refused before it is read."""
        if self._longest is None:
            w = self.world
            names = (sum(len(n) + 2 for n in self.cell_names) + sum(len(n) + 2 for n in w.zone_names)
                     + sum(len(n) + 3 + NUMBER_DIGITS for n in w.counter_names))
            sides = sum(len(p) + 1 for p in self.players)
            pieces = Supply(self.game, self.piece_width).most * self.piece_width
            self._longest = max(2 * (names + 2 * sides + NUMBER_DIGITS + pieces + 32), LONGEST_TEXT)
        return self._longest

    def _parse_set(self, st, name: str, value: str) -> None:
        """A set of cells: the cells it holds, separated by commas, or - for none."""
        slots = self.set_groups[name]
        for cell in ([] if value == "-" else value.split(",")):
            if cell not in self.cell_index:
                raise GameError(f"set {name!r} holds cells of this board (a1,b2 or - for none), not {_shown(cell)}")
            st.counters[slots[self.cell_index[cell]]] = 1

    def _counter_text(self, slot: int, value) -> str:
        if slot in self.cell_counters:
            return self.cell_names[value] if 0 <= value < len(self.cell_names) else "-"
        return str(value)

    def pieces(self, text: str, where: str) -> tuple:
        """The pieces a text lists, their codes run together."""
        k = self.piece_width
        if len(text) % k:
            raise GameError(f"{where}: {_shown(text)} is not a list of {k}-character piece codes")
        out = []
        for i in range(0, len(text), k):
            code = text[i:i + k]
            if code not in self.piece_codes:
                raise GameError(f"{where}: {_shown(code)} is not a piece" + _hint(code, self.piece_codes))
            out.append(self.piece_codes[code])
        return tuple(out)


#: The most pieces a position may hold when the game's moves make pieces (no supply to count them
#: by): far beyond any shipped game's, yet read in milliseconds.
MAX_PIECES = 10_000
#: Numbers in a position (the ply, counters) fit in 64 bits, as in any engine that stores them.
NUMBER_MAX = 2 ** 63 - 1
NUMBER_DIGITS = len(str(NUMBER_MAX))
#: A position text up to this long is always read (a longer one only when the game's limits
#: allow a longer position): reading it takes well under a millisecond.
LONGEST_TEXT = 100_000


class Supply:
    """The pieces of a position counted as it is read, against what the game has: its supply
    (`Game.piece_supply`: the setup's pieces, when the game's moves make none) and the engine's
    MAX_PIECES in all."""

    def __init__(self, game, width: int):
        self.game = game
        supply = game.piece_supply()
        self.supply = supply
        self.most = max(MAX_PIECES, supply.total) if supply is not None else MAX_PIECES
        self.width = max(width, 1)
        self.used = 0  # every piece read so far
        self.counted = 0  # those of the kinds the supply counts
        self.count: dict = {}

    def room(self, where: str, text: str) -> None:
        """Refuse a stack (or zone) written `text` when its pieces would be more than any position
        of any game may hold, before reading them."""
        n = len(text) // self.width
        if self.used + n > self.most:
            why = (f" (the moves of {self.game.title} make pieces, so it has no supply to count them by)"
                   if self.supply is None else "")
            raise GameError(f"{where}: {n:,} pieces make {self.used + n:,} in the position, beyond the engine's "
                            f"limit of {self.most:,} pieces{why}")

    def take(self, pieces: tuple, where: str) -> tuple:
        """Count `pieces` (which `room` let in); refuse them beyond the supply, in all or by kind."""
        self.used += len(pieces)
        supply = self.supply
        if supply is None:
            return pieces
        title = self.game.title
        mine = [p for p in pieces if supply.counted is None or p in supply.counted]
        if self.counted + len(mine) > supply.total:
            already = f" with the {self.counted:,} before it" if self.counted else ""
            raise GameError(f"{where}: {len(mine):,} pieces{already} are more than the {supply.total:,} {title} "
                            "has in all (its moves make no pieces: the setup places every one)")
        self.counted += len(mine)
        if supply.kinds is not None:
            for p in mine:
                n = self.count[p] = self.count.get(p, 0) + 1
                if n > supply.kinds[p]:
                    have, code = supply.kinds[p], self.game.world.piece_text(p)
                    raise GameError(f"{where}: {code!r} piece number {n}, but {title} has {have} (the setup "
                                    "places every one; no move makes or changes a piece)")
        return pieces


def _window_slots(spec, slot_names) -> set:
    """The counter slots of a response window, `asked` (per player) and `asker`: the counters
    the engine gives a ruleset that uses windows (both present, in those shapes)."""
    shapes = {name: per_player for name, per_player, kind in spec.counters if kind == "int"}
    asked, asker = WINDOW_COUNTERS
    if shapes.get(asked) is not True or shapes.get(asker) is not False:
        return set()
    return {i for i, n in enumerate(slot_names) if n == asker or n.startswith(asked + ".")}


def _shown(text: str, most: int = 40) -> str:
    """Text quoted in a message, cut short when long (a position may be pasted by mistake)."""
    return repr(text if len(text) <= most else text[:most] + "...")


def _set_groups(spec, w) -> dict:
    """Each set of cells (each player's, for a set per player: `seen.south`) -> its slot per cell."""
    out: dict = {}
    for name, per_player, kind in spec.counters:
        if kind == "set":
            base, per = w.counter_index[name], len(w.players) if per_player else 1
            for p in range(per):
                group = f"{name}.{w.players[p]}" if per_player else name
                out[group] = [base + c * per + p for c in range(w.ncells)]
    return out


def _counter_kind(spec, slot_name: str) -> str:
    """The kind ("int", "cell" or "set") of the counter a slot belongs to (`quiet`, `score.south`)."""
    for name, per_player, kind in spec.counters:
        if slot_name == name or ((per_player or kind == "set") and slot_name.startswith(name + ".")):
            return kind
    return "int"


def _counter_name(spec, slot_name: str) -> Optional[str]:
    """The counter a slot belongs to (`score` for `score.south`)."""
    for name, per_player, kind in spec.counters:
        if slot_name == name or ((per_player or kind == "set") and slot_name.startswith(name + ".")):
            return name
    return None


def _group(name: str) -> str:
    return "g_" + name


def _hint(word, candidates) -> str:
    h = did_you_mean(word, candidates)
    return f"; {h}" if h else ""


def _near(text: str, legal) -> str:
    """'did you mean ...?' for a move text that is the start of legal moves' texts (`c2xc5` when
    `c2xc5:red` is legal: the rest of a compound move left out) or close to one; '' if none."""
    if not text:
        return ""
    longer = [t for t in legal if t.startswith(text)]
    close = longer[:3] or difflib.get_close_matches(text, list(legal), n=3, cutoff=0.75)
    if not close:
        return ""
    more = f" ({len(longer)} moves start so)" if len(longer) > 3 else ""
    return "did you mean " + " or ".join(repr(t) for t in close) + "?" + more

