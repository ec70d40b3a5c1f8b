"""The search for failing properties: `run_properties` and the Hypothesis runs behind it.

Each search has two Hypothesis runs sharing an in-memory example database: the first generates
games checking every property and stops at the first failure; the second replays that failure
and shrinks it checking only the failing property. After a failure the search runs again without
that property, so one report can name several independent failures.
"""

from __future__ import annotations

from typing import Callable, Optional

import hypothesis
import hypothesis.errors
from hypothesis import HealthCheck, Phase, Verbosity, assume, given, settings
from hypothesis import strategies as st
from hypothesis.database import ExampleDatabase

from ..errors import GameError, RulesetError
from ..interpreter.games import load
from ..interpreter.runtime import SEED_OPTION, Game
from .checks import GameUnderTest
from .examples import count, declarations, run_examples
from .options import options_strategy
from .report import Failed, PropertyFailure, PropertyReport, Stop
from .symmetry import NotApplicable, SymmetryMap

# At most this many failures are searched for in one report.
MAX_FAILURES = 5


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
    # The ruleset's own examples (at their options), before the random games; its symmetries are
    # checked at every position of those games (checks.GameUnderTest), so a false one is shrunk.
    report.declared = count(base)
    report.rules_failures = run_examples(base)
    runner = Runner(ruleset, base, fixed, max_plies, report, progress)
    while len(report.failures) < MAX_FAILURES:
        failure = runner.search(examples, seed)
        if failure is None:
            break
        report.failures.append(failure)
        runner.skip.add(failure.property)
    return report


class Handover(ExampleDatabase):
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


class Runner:
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
        self.symmetries: dict = {}  # game -> its declared symmetries' (property, file:line, map or why not)

    def search(self, examples: int, seed: Optional[int]) -> Optional[PropertyFailure]:
        """The shrunk failure of a property not yet reported, or None."""
        db = Handover()

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
        except Failed as e:
            return e.failure
        except hypothesis.errors.Unsatisfiable:
            raise GameError("no drawn option values were accepted by the ruleset; "
                            "fix some options to values that go together") from None
        except BaseExceptionGroup as group:  # a flaky failure: report what failed first
            match, _ = group.split(Failed)
            if match is None:
                raise
            return first_failure(match).failure
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
            GameUnderTest(self, game, data).play()
        except Stop:
            pass

    def fail(self, prop: str, options: dict, moves: list, position: str, message: str,
             setup_seed: Optional[int] = None):
        if not self.wants(prop):
            raise Stop()
        raise Failed(PropertyFailure(prop, dict(options), tuple(moves), position, message, setup_seed))

    def random_setup(self, game: Game) -> bool:
        """Whether the start position of `game` depends on the seed given to `new` (a ruleset
        option named `seed` chooses the setup itself, and is drawn like any option)."""
        if SEED_OPTION in game.options:
            return False
        if game not in self.setups:
            self.setups[game] = len({game.new(seed).text() for seed in range(3)}) > 1
        return self.setups[game]

    def symmetry_maps(self, game: Game) -> list:
        """(property, where declared, SymmetryMap or why it cannot be made) of each declared
        symmetry that applies at `game`'s options (a quarter turn of a board not square does not)."""
        if game not in self.symmetries:
            out = []
            path = game.rules[-1][0] if game.rules else game.name
            for decl in declarations(game)[1]:
                where = f"{path}:{decl.pos.line}:{decl.pos.col}"
                try:
                    out.append((f"symmetry {decl.name!r}", where, SymmetryMap(game, decl)))
                except NotApplicable:
                    continue
                except GameError as e:
                    out.append((f"symmetry {decl.name!r}", where, str(e)))
            self.symmetries[game] = out
        return self.symmetries[game]

    def counted(self) -> None:
        self.report.positions += 1
        if self.progress is not None:
            self.progress(self.report.positions)


def first_failure(group: BaseExceptionGroup) -> Failed:
    for e in group.exceptions:
        if isinstance(e, BaseExceptionGroup):
            return first_failure(e)
        return e
    raise AssertionError("empty exception group")
