"""`ziggurat test`: property-test a ruleset with Hypothesis.

Hypothesis draws option values from the ruleset's declared option types (and the seed of a random
setup, unless an option named `seed` chooses it), then plays a random game from the start, one
drawn index into `state.moves()` per ply. At every position reached the
engine's own properties and the ruleset's declared invariants are checked:

- *moves apply*: every generated move can be pushed, the list has no duplicates, the move played
  is in `state.legal_moves` and `explain` calls it legal;
- *undo*: `pop` restores cells, zones, counters, side, ply, seats, the legal moves and the position
  text exactly, after each move and after taking back the whole game;
- *move notation*: every legal move prints differently and `parse_move(move_text(m)) == m`;
- *position notation*: `game.position(state.text())` prints the same text and has the same legal
  moves;
- *perft*: `perft(1)` of the re-read position counts the legal moves;
- *conservation*: the multiset of pieces over cells and zones never changes (in a game that
  places pieces during play, no piece is ever lost);
- *a finished game has an outcome*: no legal moves means an outcome;
- every declared `invariant` of the ruleset.

Hypothesis shrinks a failing game (the drawn options and indices) to a small one, checking only
the failing property while it shrinks; the failure gives the property, the options, the moves of
the shrunk game in notation and the position where it failed. After a failure the search runs
again without that property, so one report can name several independent failures.
"""

from __future__ import annotations

import math
from collections import Counter
from contextlib import contextmanager
from typing import Callable, Optional

import hypothesis
import hypothesis.errors
from attrs import define, field, frozen
from hypothesis import HealthCheck, Phase, Verbosity, assume, given, settings
from hypothesis import strategies as st
from hypothesis.database import ExampleDatabase

from .dsl import ast
from .errors import GameError, RulesetError
from .interpreter.games import load
from .interpreter.runtime import SEED_OPTION, Game, State, perft

# The engine's own properties, in the order they are checked; declared invariants follow.
PROPERTIES = {
    "compiles": "the ruleset compiles at every option value it accepts",
    "moves apply": "every generated move applies, once, and is legal",
    "undo": "pop restores the exact position",
    "move notation": "every legal move prints differently and reads back as itself",
    "position notation": "a position's text reads back as the same position",
    "perft": "perft(1) of a re-read position counts the legal moves",
    "conservation": "pieces are never created or destroyed",
    "ends with an outcome": "a position without legal moves has an outcome",
    "invariants evaluate": "the declared invariants can be evaluated",
}

# Every legal move is read back while there are at most this many; beyond, an evenly spread
# sample that shifts every ply (reading a move back looks at every legal move, so reading them
# all costs the square of their number). Every move's text is still checked to be unique.
PARSE_SAMPLE = 100
# Beyond this many legal moves, push/pop is also tried on a spread sample.
UNDO_SAMPLE = 100
# At most this many failures are searched for in one report.
MAX_FAILURES = 5
# The range drawn from for an `int` option, or a range whose bounds are not plain numbers:
# the default plus or minus this.
INT_SPREAD = 5


def invariant_property(text: str) -> str:
    """The property name of a declared invariant."""
    return f"invariant {text!r}"


@frozen
class PropertyFailure:
    """One property that does not hold, with the smallest game Hypothesis found that shows it."""

    property: str
    options: dict
    moves: tuple  # the moves from the start position, in notation
    position: str  # the position text where the property failed
    message: str
    setup_seed: Optional[int] = None  # the seed of a random setup (`game.new(seed)`), if drawn

    def render(self) -> str:
        opts = ", ".join(f"{k}={_value_text(v)}" for k, v in self.options.items()) or "(none)"
        moves = " ".join(self.moves) if self.moves else "(none: the start position)"
        lines = [f"property {self.property} does not hold", f"  options:  {opts}"]
        if self.setup_seed is not None:
            lines.append(f"  setup:    seed {self.setup_seed}")
        return "\n".join(lines + [
            f"  moves:    {moves}",
            f"  position: {self.position or '(none: no game was set up)'}",
            f"  why:      {self.message}",
        ])


@define
class PropertyReport:
    """What `run_properties` found: games played, positions checked and the failures."""

    ruleset: str
    examples: int = 0  # games generated (the replays Hypothesis makes while shrinking not counted)
    positions: int = 0  # positions checked, in every game played
    failures: list = field(factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures

    def render(self) -> str:
        head = (f"{self.ruleset}: {self.examples} games, {self.positions} positions checked, "
                + ("every property holds" if self.ok else f"{len(self.failures)} failing"))
        return "\n\n".join([head] + [f.render() for f in self.failures])


def run_properties(ruleset: str, *, options: Optional[dict] = None, examples: int = 50,
                   max_plies: int = 60, seed: Optional[int] = None,
                   progress: Optional[Callable[[int], None]] = None) -> PropertyReport:
    """Property-test a ruleset (a shipped name or a path) on `examples` random games.

    Options given in `options` are fixed; the others are drawn from their declared types. Each
    game lasts at most `max_plies` plies. The same `seed` gives the same games. `progress`, if
    given, is called with the number of positions checked so far. Raises RulesetError for a
    broken ruleset and GameError for bad options, as `ziggurat.load` does.
    """
    if examples < 1:
        raise GameError(f"the number of examples must be at least 1, not {examples}")
    if max_plies < 0:
        raise GameError(f"the number of plies cannot be negative, not {max_plies}")
    fixed = dict(options or {})
    base = load(ruleset, fixed)
    report = PropertyReport(str(ruleset))
    runner = _Runner(ruleset, base, fixed, max_plies, report, progress)
    while len(report.failures) < MAX_FAILURES:
        failure = runner.search(examples, seed)
        if failure is None:
            break
        report.failures.append(failure)
        runner.skip.add(failure.property)
    return report


# ---- drawing options ----------------------------------------------------------------------------


def options_strategy(game: Game, fixed: Optional[dict] = None) -> st.SearchStrategy:
    """Option overrides drawn from the declared types of `game`'s ruleset (a dict; an option left
    out keeps its default, which may depend on others). Options in `fixed` are not drawn. Some
    drawn combinations may be refused by `load` (a `check` between options)."""
    fixed = fixed or {}
    parts = {}
    for name, opt in game.compiled.model.options.items():
        if name in fixed:
            continue
        parts[name] = st.one_of(st.none(), _values(opt, game.options.get(name)))
    return st.fixed_dictionaries(parts).map(lambda d: {k: v for k, v in d.items() if v is not None})


def _values(opt: ast.Option, default) -> st.SearchStrategy:
    kind = opt.type.kind if opt.type is not None else _kind_of(default)
    if kind == "bool":
        return st.booleans()
    if kind == "enum":
        return st.sampled_from(list(opt.type.values)) if opt.type else st.just(default)
    if kind == "range":
        lo, hi = _const(opt.type.lo), _const(opt.type.hi)
        if lo is not None and hi is not None and lo <= hi:
            return st.integers(lo, hi)
    centre = default if isinstance(default, int) and not isinstance(default, bool) else 0
    return st.integers(centre - INT_SPREAD, centre + INT_SPREAD)


def _kind_of(value) -> str:
    if isinstance(value, bool):
        return "bool"
    return "int" if isinstance(value, int) else "enum"


def _const(node) -> Optional[int]:
    """The value of a bound written with numbers only (None when it names anything)."""
    if isinstance(node, ast.Num):
        return node.value
    if isinstance(node, ast.Neg):
        v = _const(node.operand)
        return None if v is None else -v
    if isinstance(node, ast.BinOp) and node.op in ("+", "-", "*"):
        a, b = _const(node.left), _const(node.right)
        if a is None or b is None:
            return None
        return a + b if node.op == "+" else a - b if node.op == "-" else a * b
    return None


def _value_text(v) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


# ---- the search ----------------------------------------------------------------------------------


class _Failed(Exception):
    """Raised inside a Hypothesis example when a property fails; carries the failure."""

    def __init__(self, failure: PropertyFailure):
        super().__init__(failure.property)
        self.failure = failure


class _Stop(Exception):
    """A property that is not being looked for failed: the example ends quietly."""


class _Handover(ExampleDatabase):
    """An example database that hands the failure of the first run to the second.

    Hypothesis does not shrink again an example found under a test's primary key (it takes it
    for one it shrank before), so `demote` moves the examples to the secondary key, from which
    they are replayed and shrunk.
    """

    def __init__(self):
        super().__init__()
        self.data: dict = {}

    def save(self, key: bytes, value: bytes) -> None:
        self.data.setdefault(key, set()).add(value)

    def fetch(self, key: bytes):
        yield from sorted(self.data.get(key, ()))

    def delete(self, key: bytes, value: bytes) -> None:
        self.data.get(key, set()).discard(value)

    def demote(self) -> None:
        keys = list(self.data)
        for key in keys:
            if not any(key.startswith(other + b".") for other in keys if other != key):  # a primary key
                self.data.setdefault(key + b".secondary", set()).update(self.data.pop(key))


class _Runner:
    """Searches a ruleset for failing properties.

    Each search has two Hypothesis runs sharing an in-memory example database. The first
    generates games checking every property, and stops at the first failure. The second replays
    that failure and shrinks it checking only the failing property, so that the many replays of
    shrinking cost little.
    """

    def __init__(self, ruleset, base: Game, fixed: dict, max_plies: int, report: PropertyReport,
                 progress):
        self.ruleset, self.base, self.fixed = ruleset, base, fixed
        self.max_plies, self.report, self.progress = max_plies, report, progress
        self.skip: set = set()  # properties already reported
        self.focus: Optional[str] = None  # while shrinking: the one property checked
        self.options = options_strategy(base, fixed)
        # Shrinking replays the same options many times: keep each game at hand.
        self.games: dict = {}
        self.setups: dict = {}  # game -> whether its setup is random

    def search(self, examples: int, seed: Optional[int]) -> Optional[PropertyFailure]:
        """The shrunk failure of a property not yet reported, or None."""
        db = _Handover()

        def example(data):
            self.example(data)

        first = self.run(example, seed, max_examples=examples, database=db, phases=[Phase.generate])
        if first is None:
            return None
        self.focus = first.property
        db.demote()
        try:
            shrunk = self.run(example, seed, max_examples=1, database=db,
                              phases=[Phase.reuse, Phase.shrink])
        finally:
            self.focus = None
        return shrunk or first

    def run(self, example, seed, **config) -> Optional[PropertyFailure]:
        test = given(st.data())(example)
        if seed is not None:
            test = hypothesis.seed(seed)(test)
        # Applied after `seed`, which would otherwise turn the example database off.
        test = settings(deadline=None, derandomize=False, verbosity=Verbosity.quiet,
                        report_multiple_bugs=False, print_blob=False,
                        suppress_health_check=list(HealthCheck), **config)(test)
        try:
            test()
        except _Failed as e:
            return e.failure
        except hypothesis.errors.Unsatisfiable:
            raise GameError("no drawn option values were accepted by the ruleset; "
                            "fix some options to values that go together") from None
        except BaseExceptionGroup as group:  # a flaky failure: report what failed first
            match, _ = group.split(_Failed)
            if match is None:
                raise
            return _first(match).failure
        return None

    def wants(self, prop: str) -> bool:
        """Whether `prop` is checked in this run."""
        return prop not in self.skip and (self.focus is None or self.focus == prop)

    # ---- one example: draw options, play a game, check every position ----

    def example(self, data) -> None:
        drawn = data.draw(self.options, label="options")
        overrides = {**self.fixed, **drawn}
        key = tuple(sorted((k, str(v)) for k, v in overrides.items()))
        if key not in self.games:
            try:
                self.games[key] = load(self.ruleset, overrides)
            except (GameError, RulesetError) as e:
                self.games[key] = e
        game = self.games[key]
        if isinstance(game, GameError):  # options that do not go together: not a game to test
            assume(False)
        if isinstance(game, RulesetError):
            self.fail("compiles", overrides, [], "", "the ruleset does not compile at these options:\n"
                      + "\n".join(d.render() for d in game.diagnostics))
        if self.focus is None:  # not a replay while shrinking
            self.report.examples += 1
        try:
            _Game(self, game, data).play()
        except _Stop:
            pass

    def fail(self, prop: str, options: dict, moves: list, position: str, message: str,
             setup_seed: Optional[int] = None):
        if not self.wants(prop):
            raise _Stop()
        raise _Failed(PropertyFailure(prop, dict(options), tuple(moves), position, message, setup_seed))

    def random_setup(self, game: Game) -> bool:
        """Whether the start position of `game` depends on the seed given to `new` (a ruleset
        option named `seed` chooses the setup itself, and is drawn like any option)."""
        if SEED_OPTION in game.options:
            return False
        if game not in self.setups:
            self.setups[game] = len({game.new(seed).text() for seed in range(3)}) > 1
        return self.setups[game]

    def counted(self) -> None:
        self.report.positions += 1
        if self.progress is not None:
            self.progress(self.report.positions)


class _Game:
    """One random game under test."""

    def __init__(self, runner: _Runner, game: Game, data):
        self.runner, self.game, self.data = runner, game, data
        self.wants = runner.wants
        self.played: list = []  # the moves in notation, for the failure
        self.position = ""
        self.setup_seed: Optional[int] = None

    @contextmanager
    def checking(self, prop: str, doing: str = ""):
        """Any exception inside (a GameError or an engine crash) fails `prop`."""
        try:
            yield
        except (_Failed, _Stop):
            raise
        except Exception as e:  # the engine's own errors are what this looks for
            self.fail(prop, (f"{doing}: " if doing else "") + f"{type(e).__name__}: {e}")

    def fail(self, prop: str, message: str):
        self.runner.fail(prop, self.game.options, self.played, self.position, message, self.setup_seed)

    def play(self) -> None:
        with self.checking("compiles", "setting up"):
            random_setup = self.runner.random_setup(self.game)
        if random_setup:
            self.setup_seed = self.data.draw(st.integers(0, 2**16), label="setup seed")
        with self.checking("compiles", "setting up"):
            state = self.game.new(self.setup_seed)
        with self.checking("position notation"):
            self.position = state.text()
        start, start_text = _snapshot(state), self.position
        with self.checking("conservation"):
            pieces = _pieces(state)
        for ply in range(self.runner.max_plies + 1):
            moves = self.check_position(state, pieces, ply)
            if not moves or ply == self.runner.max_plies:
                break
            index = self.data.draw(st.integers(0, len(moves) - 1), label=f"ply {ply + 1}")
            move = moves[index]
            with self.checking("move notation"):
                text = state.move_text(move)
            if self.wants("moves apply"):
                with self.checking("moves apply", f"checking {text}"):
                    if move not in state.legal_moves:
                        self.fail("moves apply", f"{text} is generated but not in state.legal_moves")
                    why = state.explain(move)
                if why != "legal":
                    self.fail("moves apply", f"{text} is generated but explain says: {why}")
            with self.checking("moves apply", f"pushing {text}"):
                state.push(move)
            with self.checking("position notation"):
                after = state.text()
            if self.wants("undo"):  # undo it once more, comparing the position text as well
                with self.checking("undo", f"popping {text}"):
                    state.pop()
                    back = state.text()
                if back != self.position:
                    self.fail("undo", f"pushing and popping {text} changes the position text to {back!r}")
                with self.checking("moves apply", f"pushing {text}"):
                    state.push(move)
            self.played.append(text)
            self.position = after
        if self.wants("undo"):
            with self.checking("undo", "taking back the whole game"):
                while state.stack:
                    state.pop()
                now, now_text = _snapshot(state), state.text()
            if now != start or now_text != start_text:
                self.position = now_text
                self.fail("undo", "taking back the whole game does not give the start position "
                          f"{start_text!r}" + (":\n" + _difference(start, now) if now != start else ""))

    def check_position(self, state: State, pieces: Counter, ply: int) -> list:
        """Check the wanted properties at this position; its legal moves."""
        self.runner.counted()
        with self.checking("moves apply", "generating the moves"):
            moves = state.moves()
        if self.wants("moves apply") or self.wants("undo"):
            self.check_undo(state, moves, ply)
        if self.wants("move notation"):
            self.check_move_notation(state, moves, ply)
        if self.wants("position notation") or self.wants("perft"):
            self.check_position_notation(state, moves)
        if self.wants("conservation"):
            with self.checking("conservation"):
                now = _pieces(state)
            if not _conserved(self.game, pieces, now):
                self.fail("conservation", _piece_change(self.game, pieces, now))
        if not moves and self.wants("ends with an outcome"):
            with self.checking("ends with an outcome"):
                outcome = state.outcome()
            if outcome is None:
                self.fail("ends with an outcome", "no legal moves, but no end rule applies")
        if self.runner.focus is None or self.runner.focus.startswith("invariant "):
            with self.checking("invariants evaluate"):
                failing = state.invariant_failures()
            for inv in failing:
                if self.wants(invariant_property(inv)):  # one already reported: the game goes on
                    self.fail(invariant_property(inv), f"the declared invariant {inv!r} is false here")
        return moves

    def check_undo(self, state: State, moves: list, ply: int) -> None:
        """Every move is generated once and pushes; pop restores the position and its moves."""
        if len(set(moves)) != len(moves):
            dup = next(m for m, n in Counter(moves).items() if n > 1)
            self.fail("moves apply", f"the move {_safe_text(state, dup)} is generated twice")
        before = _snapshot(state)
        for move in _spread(moves, UNDO_SAMPLE, ply):
            with self.checking("moves apply", f"pushing {_safe_text(state, move)}"):
                state.push(move)
            with self.checking("undo", f"popping {_safe_text(state, move)}"):
                state.pop()
                after = _snapshot(state)
            if after != before:
                self.fail("undo", f"pushing and popping {_safe_text(state, move)} changes the position:\n"
                          + _difference(before, after))
        with self.checking("undo", "generating the moves again"):
            again = state.moves()
        if again != moves:
            self.fail("undo", "the legal moves differ after pushing and popping every move")

    def check_move_notation(self, state: State, moves: list, ply: int) -> None:
        """Every legal move prints differently and reads back as itself."""
        with self.checking("move notation"):
            texts = [state.move_text(m) for m in moves]
        if len(set(texts)) != len(texts):
            same = next(t for t, n in Counter(texts).items() if n > 1)
            which = ", ".join(repr(m) for m, t in zip(moves, texts) if t == same)
            self.fail("move notation", f"different moves print the same, {same!r}: {which}")
        for move, text in _spread(list(zip(moves, texts)), PARSE_SAMPLE, ply):
            with self.checking("move notation", f"reading {text!r}"):
                back = state.parse_move(text)
            if back != move:
                self.fail("move notation", f"{text!r} is the move {move!r} but reads back as {back!r}")

    def check_position_notation(self, state: State, moves: list) -> None:
        """The position text reads back as the same position, with the same moves and perft(1)."""
        with self.checking("position notation", "reading the position back"):
            text = state.text()
            copy = self.game.position(text)
            copy_text = copy.text()
            copy_moves = copy.moves()
        if copy_text != text:
            self.fail("position notation", f"the position reads back as {copy_text!r}")
        # The position text does not hold the history, so a game ended by repetition may go on
        # in the copy; any other difference is a failure.
        if moves or state.outcome() is None:
            if Counter(copy_moves) != Counter(moves):
                lost = sorted(_safe_text(state, m) for m in set(moves) - set(copy_moves))
                new = sorted(_safe_text(copy, m) for m in set(copy_moves) - set(moves))
                self.fail("position notation", "the position read back has other legal moves"
                          + (f"; missing: {' '.join(lost)}" if lost else "")
                          + (f"; extra: {' '.join(new)}" if new else ""))
        with self.checking("perft"):
            leaves = perft(copy, 1)
        if leaves != len(copy_moves):
            self.fail("perft", f"perft(1) is {leaves} but there are {len(copy_moves)} legal moves")


# ---- helpers -----------------------------------------------------------------------------------


def _first(group: BaseExceptionGroup) -> _Failed:
    for e in group.exceptions:
        if isinstance(e, BaseExceptionGroup):
            return _first(e)
        return e
    raise AssertionError("empty exception group")


def _spread(items: list, limit: int, shift: int) -> list:
    """All of `items`, or `limit` of them evenly spread, starting at a place that moves with `shift`."""
    if len(items) <= limit:
        return items
    step = math.ceil(len(items) / limit)
    return items[shift % step::step]


def _snapshot(state: State) -> dict:
    """What undo must restore (the position text is derived from these)."""
    return {
        "cells": list(state.cells), "zones": list(state.zones), "counters": list(state.counters),
        "side": state.side, "ply": state.ply, "seats": list(state.seats), "moves pushed": len(state.stack),
    }


def _difference(before: dict, after: dict) -> str:
    return "\n".join(f"    {k}: {before[k]!r} became {after[k]!r}" for k in before if before[k] != after[k])


def _pieces(state: State) -> Counter:
    out: Counter = Counter()
    for stack in state.cells:
        out.update(stack)
    for zone in state.zones:
        out.update(zone)
    if state.game.compiled.changes_pieces:  # change() turns pieces into others: count them only
        return Counter({0: sum(out.values())})
    return out


def _conserved(game: Game, start: Counter, now: Counter) -> bool:
    """Pieces are neither created nor destroyed; in a game that places pieces during play
    (place() in a move), none is ever lost."""
    if game.compiled.creates_pieces:
        return all(now[p] >= n for p, n in start.items())
    return now == start


def _piece_change(game: Game, start: Counter, now: Counter) -> str:
    def listing(c: Counter) -> str:
        return " ".join(f"{n}x{game.world.piece_text(p)}" for p, n in sorted(c.items()))

    lost, made = start - now, now - start
    return ("the pieces changed"
            + (f"; gone: {listing(lost)}" if lost else "")
            + (f"; new: {listing(made)}" if made else ""))


def _safe_text(state: State, move) -> str:
    try:
        return state.move_text(move)
    except Exception:  # a move the notation cannot print: show the tuple
        return repr(move)
