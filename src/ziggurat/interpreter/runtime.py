"""The game API shared by every ruleset: games, states, moves, outcomes, perft.

A `Game` is a ruleset compiled at fixed option values. A `State` is one position of it, changed
in place by `push(move)` and restored by `pop()`. Moves are tuples `(action, choice, ...)`;
`state.move_text(m)` prints one and `state.parse_move(text)` reads it back.
"""

from __future__ import annotations

import random
from typing import Callable, Iterator, Literal, Optional

from ..dsl.world import World
from ..errors import GameError, shown
from . import linemap, notation
from .geometry import CODE_BITS, CODE_MASK, extents
from .linemap import rules_failures
from .move_cells import move_cells
from .outcome import Outcome, outcome_of
from .python.load import load_module
from .spec import GameSpec
from .supply import PieceSupply, WatchedRandom, count_supply
from .whole_turns import TurnNotation, WholeTurns, read_turns, split

SEED_OPTION = "seed"  # an option of this name seeds the setup when new() is given no seed


class Game:
    """One ruleset at one set of option values, ready to play.

    Besides `new` and `position`, a game is the public kernel every tool uses (see the API
    reference): the fast functions `legal`, `count`, `apply`, `undo`, `outcome`, `heuristic`,
    `invariants`, and what the ruleset declares (`spec`: options, attributes, actions, ...).
    """

    def __init__(self, spec: GameSpec, source: str, filename: str, rules: tuple = ()):
        self.spec = spec
        self.rules = tuple(rules)  # ((path, text), ...): the extends chain it was compiled from, base first
        self.name = spec.name
        self.title = spec.title
        self.description = spec.description
        self.options = dict(spec.options)
        self.players = tuple(spec.players)
        self.option_specs = dict(spec.option_specs)
        self.attributes = tuple(spec.attributes)
        self.owner_attribute = next((a for a in self.attributes if a.players), None)
        self.actions = spec.actions
        self.has_chance = any(a.chance for a in spec.actions)  # whether nature ever moves
        self.invariant_texts = list(spec.invariant_texts)
        self.has_heuristic = spec.has_heuristic
        self.outcome_reads_moves = spec.outcome_reads_moves  # else `outcome(st, ())` judges the end alike
        self.points = spec.points  # None, or how its results in points add up: "zero-sum" / "general-sum"
        self.heuristic_per_mover = spec.heuristic_per_mover
        self.changes_pieces = spec.changes_pieces
        self.creates_pieces = spec.creates_pieces
        self.world = World(spec.files, spec.ranks, spec.attributes, spec.players,
                           [(z[0], z[1]) for z in spec.zones], [(c[0], c[1], "cells" if c[2] == "set" else "")
                                                                      for c in spec.counters],
                           spec.dirsets, spec.surface)
        self.source, self.filename = source, filename
        linemap.register(filename, source, spec)
        ns = self.namespace = load_module(source, filename, self.world, spec.tables)
        # The kernel: the generated functions, public and fast (no checks, no conversions).
        self.legal = ns["legal"]
        self.count = ns["count"]
        self.apply = ns["apply"]
        self.undo = ns["undo"]
        self.outcome = ns["outcome"]
        self.heuristic = ns["heuristic"]
        self.invariants = ns["invariants"]
        self.statistic_texts = list(spec.statistic_texts)
        self._statistics = ns["statistics"]
        self._explain = ns["EXPLAIN"]
        self._weight = ns["WEIGHT"]
        self._seen = ns["SEEN"]
        self.weighted = any(a.weighted for a in spec.actions)
        # Hidden information: for each zone slot, the sides who see its pieces (None: everyone).
        self.zone_viewers = zone_viewers(spec.zones, len(self.players))
        # The counter slots players are shown: all but those marked `bookkeeping` (kept in
        # positions and records all the same); and whether the board is only places (dsl.places).
        self.shown_counters = tuple(i for i, n in enumerate(self.world.counter_names)
                                    if n.partition(".")[0] not in spec.bookkeeping
                                    and n.partition(".")[0] not in {c[0] for c in spec.counters if c[2] == "set"})
        self.board_is_places = spec.places
        self.has_secrets = any(a.secret for a in spec.actions) or any(v is not None for v in self.zone_viewers)
        self._setup = ns["setup"]
        self._sidekey = ns["SIDEKEY"]
        self._counters = ns["INITIAL_COUNTERS"]
        # piece_supply(), counted when first needed (False: moves make pieces)
        self._supply: Optional[Literal[False] | PieceSupply] = None
        # A ruleset of whole turns: the kernel above lists, makes and takes back whole turns, its
        # parts' own kept as `parts` (interpreter.whole_turns); None when each part is a move.
        self.whole_turns = WholeTurns(self) if spec.turn_parts else None
        if self.whole_turns is not None:
            self.parts = self.whole_turns.parts
            self.legal, self.count = self.whole_turns.legal, self.whole_turns.count
            self.apply, self.undo = self.whole_turns.apply, self.whole_turns.undo
        self._notation = (TurnNotation if self.whole_turns is not None else notation.Notation)(self)

    def chance_outcomes(self, st: "State", moves: Optional[list] = None) -> Optional[list]:
        """[(move, probability)] where nature moves next (a chance node), else None. `moves`, when
        given, are `legal(st)` (no second generation). Outcomes are equally likely unless their
        action has a `weight`: then each is its weight over the sum of the weights."""
        moves = self._nature(st, moves)
        if moves is None:
            return None
        if not self.weighted:
            p = 1.0 / len(moves)
            return [(m, p) for m in moves]
        weights = self.weights(st, moves)
        total = sum(weights)
        return [(m, w / total) for m, w in zip(moves, weights)]

    def _nature(self, st: "State", moves: Optional[list]) -> Optional[list]:
        """The legal moves (`moves`, or generated) when they are nature's; else None."""
        if not self.has_chance:
            return None
        if moves is None:
            moves = self.legal(st)
        if not moves or not self.actions[moves[0][0]].chance:
            return None
        return moves

    def weights(self, st: "State", moves: list) -> list:
        """The weight of each of nature's moves (1 for an action without `weight`); a weight that
        is not positive is the ruleset's mistake, named with the move."""
        weigh = self._weight
        with rules_failures():
            weights = [weigh[m[0]](st, m) if weigh[m[0]] is not None else 1 for m in moves]
        for m, w in zip(moves, weights):
            if w <= 0:
                raise GameError(f"the chance outcome {self._notation.move_text(m)!r} has weight {w}: "
                                "a weight must be positive (leave an impossible outcome out with 'where')")
        return weights

    def seen_by(self, st: "State", move: tuple) -> Optional[frozenset]:
        """The sides who see what `move` is, read before it is made (None: everyone)."""
        read = self._seen[move[0]]
        if read is None:
            return None
        with rules_failures():
            who = read(st, move)
        return frozenset((who,)) if isinstance(who, int) else frozenset(who)  # a player, or any list of them

    def sample_chance(self, st: "State", rng: random.Random, moves: Optional[list] = None) -> Optional[tuple]:
        """Nature's move, drawn by the outcomes' probabilities with `rng`, where nature moves
        next; else None."""
        moves = self._nature(st, moves)
        if moves is None:
            return None
        weights = self.weights(st, moves) if self.weighted else [1.0 / len(moves)] * len(moves)
        return rng.choices(moves, weights=weights)[0]

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"<Game {self.name} ({opts})>"

    def empty_state(self) -> "State":
        w = self.world
        st = State(self)
        st.cells = [()] * w.ncells
        st.zones = [()] * len(w.zone_names)
        st.counters = list(self._counters)
        st.seats = list(range(len(self.players)))
        return st

    def new(self, seed: Optional[int] = None) -> "State":
        """The start position; `seed` fixes any random setup (the same seed, the same setup).
        Without one, a ruleset's option named `seed` gives it, so `--set seed=S` chooses a setup."""
        if seed is None and isinstance(self.options.get(SEED_OPTION), int):
            seed = self.options[SEED_OPTION]
        st = self.empty_state()
        st.seed = seed
        with rules_failures():
            self._setup(st, random.Random(seed))
        st.reset_history()
        return st

    def position(self, text: str) -> "State":
        """A state from position text (see `State.text`); 'start' is the start position. A text
        that breaks the game's limits (see `piece_supply`; a cell given twice, a counter out of
        range, more pieces than the game has) is refused with a GameError naming what is wrong."""
        if not isinstance(text, str):
            raise GameError(f"a position is text, not {type(text).__name__}")
        if text.strip() in ("", "start"):
            return self.new()
        st = self._notation.parse_position(text)
        st.reset_history()
        return st

    def piece_supply(self) -> Optional[PieceSupply]:
        """The pieces this game has, when its moves make none (`creates_pieces` is false): then
        the setup places every piece of its kinds there will ever be, and no position holds more.
        None when moves make pieces (the engine's own bound, `notation.MAX_PIECES`, applies).

        The pieces counted are those of the kinds the setup places (every kind, when a move may
        change a piece into another); a kind the setup never places is a position's own (a
        puzzle's stock), held only to the engine's bound. When the setup draws nothing at random
        and no move changes pieces, each kind is held to its number; otherwise the kinds counted
        are held to their number together (for a random setup, the most of several draws)."""
        if self._supply is None:
            self._supply = False if self.creates_pieces else count_supply(
                self._setup_pieces, self.changes_pieces, self.options.get(SEED_OPTION))
        return self._supply or None

    def setup_draws(self) -> bool:
        """Whether the setup draws at random: then `new(seed)` depends on its seed."""
        rng = WatchedRandom(0)
        self._setup_pieces(rng)
        return rng.drawn

    def _setup_pieces(self, rng) -> dict:
        """piece -> how many the setup places (board and zones), with this generator."""
        st = self.empty_state()
        with rules_failures():
            self._setup(st, rng)
        out: dict = {}
        for stack in list(st.cells) + list(st.zones) + [tuple(e & CODE_MASK for e in st.table[0])]:
            for p in stack:
                out[p] = out.get(p, 0) + 1
        return out

    def footprint(self, piece: int, spot: int) -> tuple:
        """(x, y, half width across x, half height across y) in the table's units (1/2000 inch)
        of a piece at a spot on the open table: its centre and the half extents of its rectangle."""
        _, width, length = self.world.surface
        return extents(spot, piece, width, length)

    def value_text(self, typ, value) -> str:
        """A choice's value as moves write it (its type from `spec.actions[i].choices`)."""
        return self._notation.value_text(typ, value)

    def read_moves(self, text: str) -> list:
        """Every move a move's text could mean, legal or not (a GameError for a text no action
        of the game reads)."""
        if self.whole_turns is not None and ";" in text:  # each part's readings, in turn
            return read_turns(self, text)
        return [m for _, m in self._notation.decode(" ".join(text.split())) if isinstance(m, tuple)]

    def holds_cell(self, slot: int) -> bool:
        """Whether counter `slot` holds a cell (its value a cell's number, -1 for none)."""
        return slot in self._notation.cell_counters

    def counter_text(self, slot: int, value: int) -> str:
        """A counter's value as positions write it: a number, or a cell's name ('-' for none)."""
        return self._notation._counter_text(slot, value)

    def move_cells(self, move, after: bool = True) -> tuple:
        """The cells a move names, in its order (on the open table, the spots): what a picture
        outlines and the browser has clicked (`after=False`: without the after block's choices)."""
        if self.whole_turns is not None:  # a whole turn: its parts' cells (where one ends and the next starts, once)
            cells = [c for part in split(self.actions, move) for c in move_cells(self, part, after)]
            return tuple(c for i, c in enumerate(cells) if i == 0 or c != cells[i - 1])
        return move_cells(self, move, after)


class LegalMoves:
    """A lazy view of the legal moves of a state: iterate, `len`, `in`, `bool`, `count()`."""

    def __init__(self, state: "State"):
        self._state = state

    def _list(self) -> list:
        return self._state.moves()

    def __iter__(self) -> Iterator[tuple]:
        return iter(self._list())

    def __len__(self) -> int:
        return len(self._list())

    def count(self) -> int:
        return len(self._list())

    def __bool__(self) -> bool:
        return bool(self._list())

    def __contains__(self, move) -> bool:
        return tuple(move) in self._list()

    def __repr__(self) -> str:
        st = self._state
        return f"<LegalMoves ({', '.join(st.move_text(m) for m in self._list())})>"


class State:
    """A position: the board, zones, counters, whose turn it is, and the history to undo."""

    __slots__ = ("game", "cells", "zones", "counters", "side", "ply", "seats", "log", "trail", "h",
                 "seen", "seed", "stack", "last", "table", "turns")

    def __init__(self, game: Game):
        self.game = game
        self.cells: list = []
        self.zones: list = []
        self.counters: list = []
        self.side = 0
        self.ply = 0
        self.seats: list = []
        self.log: list = []
        self.trail: list = []
        self.h = 0
        self.seen: dict = {}
        self.seed: Optional[int] = None
        self.stack: list = []  # the moves pushed, for pop() and records
        self.last: Optional[tuple] = None  # the last move (kept when the rules read `last`)
        self.table: list = [()]  # the open table: one tuple of (spot << 12) | piece (interpreter/geometry.py)
        self.turns: list = []  # with whole turns, the parts of each move played, for undo

    # ---- history ----------------------------------------------------------------------------

    def full_hash(self) -> int:
        """The position hash from scratch; moves keep `h` up to date incrementally."""
        h = 0
        for tag, values in ((0, self.cells), (1, self.zones), (2, self.counters), (3, self.seats), (5, self.table)):
            for i, v in enumerate(values):
                h ^= hash((tag, i, v))
        return h

    def reset_history(self) -> None:
        self.log, self.trail, self.stack, self.turns = [], [], [], []
        self.last = None
        hashing = self.game.spec.hashing
        self.h = self.full_hash() if hashing else 0
        self.seen = {}
        if hashing:
            self.seen[self.h ^ self.game._sidekey[self.side]] = 1

    # ---- the game API -----------------------------------------------------------------------

    @property
    def legal_moves(self) -> LegalMoves:
        return LegalMoves(self)

    def moves(self) -> list:
        """Every legal move, as a list (empty when the game is over)."""
        with rules_failures():
            moves = self.game.legal(self)
            if self.game.outcome(self, moves) is not None:
                return []
        return moves

    def chance_outcomes(self) -> Optional[list]:
        """[(move, probability)] when nature moves next (dice, a draw), else None."""
        moves = self.moves()
        return self.game.chance_outcomes(self, moves) if moves else None

    @property
    def is_chance(self) -> bool:
        """Whether nature moves next."""
        return self.chance_outcomes() is not None

    def push(self, move) -> None:
        """Play a move (assumed legal: check with `move in state.legal_moves`, or use `play`)."""
        with rules_failures():
            self.game.apply(self, tuple(move))
        self.stack.append(tuple(move))

    def pop(self) -> tuple:
        """Take back the last move and return it."""
        if not self.stack:
            raise GameError("no move to take back")
        self.game.undo(self)
        return self.stack.pop()

    def play(self, move_or_text) -> tuple:
        """Play a move given as text or tuple after checking it is legal; GameError says why not."""
        move = self.parse_move(move_or_text) if isinstance(move_or_text, str) else tuple(move_or_text)
        if move not in self.moves():
            raise GameError(self.explain(move))
        self.push(move)
        return move

    @property
    def mover(self) -> int:
        """The side to move (an index into game.players)."""
        return self.side

    @property
    def mover_name(self) -> str:
        return self.game.players[self.side]

    def seat_of(self, side: int) -> int:
        return self.seats[side]

    def outcome(self) -> Optional[Outcome]:
        """How the game ended, or None while it goes on."""
        with rules_failures():
            moves = self.game.legal(self) if self.game.outcome_reads_moves else ()
            raw = self.game.outcome(self, moves)
        return None if raw is None else outcome_of(raw, len(self.game.players))

    def is_terminal(self) -> bool:
        return self.outcome() is not None

    def copy(self) -> "State":
        """An independent state with the same position and history."""
        st = State(self.game)
        st.cells, st.zones, st.counters = list(self.cells), list(self.zones), list(self.counters)
        st.table = list(self.table)
        st.side, st.ply, st.seats, st.h = self.side, self.ply, list(self.seats), self.h
        st.seed, st.last = self.seed, self.last
        # The undo log refers to the lists it restores, so a copy replays its history instead.
        st.seen = dict(self.seen)
        st.log, st.trail, st.stack, st.turns = [], [], [], []
        return st

    def statistics(self) -> dict:
        """The ruleset's `statistic` declarations measured here: text -> number, or bool for a truth."""
        return dict(zip(self.game.statistic_texts, self.game._statistics(self)))

    def invariant_failures(self) -> list:
        """The texts of the ruleset's declared invariants that do not hold here."""
        return [self.game.invariant_texts[i] for i in self.game.invariants(self)]

    def heuristic(self) -> Optional[int]:
        return self.game.heuristic(self)

    # ---- notation ---------------------------------------------------------------------------

    def move_text(self, move) -> str:
        return self.game._notation.move_text(move)

    def parse_move(self, text: str, legal: Optional[list] = None) -> tuple:
        """The legal move written `text`; GameError explains a bad or illegal one. `legal`: the
        legal moves here, when the caller has them already (reading many moves of one position)."""
        return self.game._notation.parse_move(self, text, legal)

    def explain(self, move) -> str:
        """Why `move` is not legal here (or 'legal')."""
        move = tuple(move)
        if self.is_terminal():
            out = self.outcome()
            assert out is not None  # a finished game has its outcome
            return f"the game is over: {out.reason or out.kind}"
        if move in self.moves():
            return "legal"
        if self.game.whole_turns is not None:  # why, part by part
            return self.game.whole_turns.explain(self, move) or "legal"
        if not move or not 0 <= move[0] < len(self.game.actions):
            return f"{shown(move) if isinstance(move, str) else shown(repr(move))} is not a move of this game"
        action = self.game.actions[move[0]]
        if len(move) != len(action.choices) + 1:
            return f"a {action.name} move has {len(action.choices)} choices"
        why = self.game._explain[move[0]](self, move)
        if why is None:
            at = [i + 1 for i, (name, _) in enumerate(action.choices) if name in action.repeated]
            longer = sorted(self.move_text(m) for m in self.moves() if m[0] == move[0] and at and all(
                len(m[i]) > len(move[i]) and m[i][:len(move[i])] == tuple(move[i]) for i in at))
            if longer:
                return f"the move does not end there: it must go on while it can (as in {longer[0]!r})"
            return "another kind of move must be played first (an action of higher priority is possible)"
        return why

    def on_table(self) -> list:
        """The pieces on the open table, in the order they were placed: [(piece code, spot)]
        (a spot's centre and pose: dsl.surface.centre, spot_text); empty for a game on a board."""
        return [(e & CODE_MASK, e >> CODE_BITS) for e in self.table[0]]

    def text(self) -> str:
        return self.game._notation.position_text(self)

    # ---- what each player sees --------------------------------------------------------------

    def observation(self, side: int) -> str:
        """The position as `side` sees it: the pieces of zones hidden from it are written as
        their number (`deck=?12`). Everything else is public."""
        return self.game._notation.position_text(self, viewer=side)

    def move_view(self, move, side: int) -> str:
        """`move` as `side` sees it, read here, before it is made: its text, or `<action>` when
        the action's `seen by` leaves that side out."""
        move = tuple(move)
        seen = self.game.seen_by(self, move)
        if seen is None or side in seen:
            return self.move_text(move)
        return f"<{self.game.actions[move[0]].name}>"

    def determinized(self, side: int, rng: random.Random) -> "State":
        """A copy in which the pieces `side` cannot see are dealt again at random among the zones
        hidden from it, each keeping its number of pieces: a world consistent with what `side`
        sees now. The deal depends only on those pieces as a multiset, so two positions that
        differ only in what `side` cannot see give the same worlds from the same `rng`."""
        st = self.copy()
        hidden = [i for i, v in enumerate(self.game.zone_viewers) if v is not None and side not in v]
        if not hidden:
            return st
        pool = sorted(p for i in hidden for p in st.zones[i])
        rng.shuffle(pool)
        for i in hidden:
            n = len(st.zones[i])
            st.zones[i], pool = tuple(pool[:n]), pool[n:]
        if self.game.spec.hashing:
            st.h = st.full_hash()
        return st

    def information_state(self, side: int) -> str:
        """All that `side` has seen: the first position it saw, then each move as it saw it and
        the position after it, one line each (a position read from text starts its history)."""
        game, moves = self.game, list(self.stack)
        with rules_failures():
            for _ in moves:
                game.undo(self)
            lines = [self.observation(side)]
            for m in moves:
                lines.append(self.move_view(m, side))
                game.apply(self, m)
                lines.append(self.observation(side))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"<State {self.game.name}: {self.text()}>"

    def _repr_svg_(self) -> str:
        """The position as SVG for Jupyter: the pictures (and matplotlib) imported when first asked
        for, as python-chess's Board._repr_svg_ imports chess.svg (the one upward import allowed)."""
        from .. import render

        return render.svg(self)

    def _repr_png_(self) -> bytes:
        from .. import render

        return render.png(self)


def zone_viewers(zones, nplayers: int) -> list:
    """For each zone slot (a per-player zone has one per player), the sides who see its pieces:
    None for a public zone; for a hidden one, its owner alone, or nobody for a shared one."""
    out = []
    for _name, per_player, hidden in zones:
        if per_player:
            out += [frozenset((p,)) if hidden else None for p in range(nplayers)]
        else:
            out.append(frozenset() if hidden else None)
    return out


def perft(state: State, depth: int) -> int:
    """Leaves of the move tree to `depth` plies; a finished game has no moves (counts 0 below it)."""
    if depth <= 0:
        return 1
    game = state.game
    legal, count, apply, undo, outcome = game.legal, game.count, game.apply, game.undo, game.outcome

    def rec(d: int) -> int:
        if d == 1:  # the last ply: count the moves without making them
            n = count(state)
            return 0 if outcome(state, n) is not None else n
        moves = legal(state)
        if outcome(state, moves) is not None:
            return 0
        n = 0
        for m in moves:
            apply(state, m)
            n += rec(d - 1)
            undo(state)
        return n

    with rules_failures():
        return rec(depth)


def random_playout(state: State, rng: random.Random, max_plies: Optional[int] = None) -> int:
    """Play uniformly random moves from `state` until the game ends (or max_plies); return the
    number of plies played. The state is left at the end; the moves stay on `state.stack`."""
    game = state.game
    legal, apply, outcome = game.legal, game.apply, game.outcome
    choice: Callable[[list], tuple] = rng.choice
    if game.weighted:  # nature's moves by their weights (unweighted outcomes: any move alike)
        sample, uniform = game.sample_chance, rng.choice
        choice = lambda moves: sample(state, rng, moves) or uniform(moves)  # noqa: E731
    plies = 0
    with rules_failures():
        while max_plies is None or plies < max_plies:
            moves = legal(state)
            if outcome(state, moves) is not None:
                break
            m = choice(moves)
            apply(state, m)
            state.stack.append(m)
            plies += 1
    return plies


def divide(state: State, depth: int) -> list:
    """perft split by first move: [(move text, leaves)]."""
    out = []
    for m in state.moves():
        state.push(m)
        out.append((state.game._notation.move_text(m), perft(state, depth - 1)))
        state.pop()
    return out
