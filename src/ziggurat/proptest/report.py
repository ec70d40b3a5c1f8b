"""What a property test finds, as the caller sees it: the failures and the report."""

from __future__ import annotations

from typing import Optional

from attrs import define, field, frozen


def invariant_property(text: str) -> str:
    """The property name of a declared invariant."""
    return f"invariant {text!r}"


def value_text(v) -> str:
    """An option value as written on a command line (`true`, not `True`)."""
    return str(v).lower() if isinstance(v, bool) else str(v)


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
        opts = ", ".join(f"{k}={value_text(v)}" for k, v in self.options.items()) or "(none)"
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
    declared: tuple = (0, 0)  # the ruleset's examples and symmetries, checked first
    rules_failures: list = field(factory=list)  # RulesFailure: those that do not hold

    @property
    def ok(self) -> bool:
        return not self.failures and not self.rules_failures

    def render(self) -> str:
        n_ex, n_sym = self.declared
        head = (f"{self.ruleset}: {n_ex} examples and {n_sym} symmetries of the rules, {self.examples} games, "
                f"{self.positions} positions checked, " + ("every property holds" if self.ok else
                                                           f"{len(self.failures) + len(self.rules_failures)} failing"))
        return "\n\n".join([head] + [f.render() for f in self.rules_failures + self.failures])



class Failed(Exception):
    """Raised inside a Hypothesis example when a property fails; carries the failure."""

    def __init__(self, failure: PropertyFailure):
        super().__init__(failure.property)
        self.failure = failure


class Stop(Exception):
    """A property that is not being looked for failed: the example ends quietly."""


@frozen
class RulesFailure:
    """An example or a declared symmetry that does not hold: where it is written (file:line:col
    of the line that failed), what it is (`example 'NAME'`), what differed, and where."""

    path: str
    line: int
    col: int
    what: str  # example 'NAME' or symmetry 'NAME'
    message: str  # what differed, expected against found
    position: str = ""  # the position text where it was checked
    moves: tuple = ()  # for a symmetry: the moves from the start that reached it

    def render(self) -> str:
        lines = [f"{self.path}:{self.line}:{self.col}: {self.what} does not hold", f"  why:      {self.message}"]
        if self.moves:
            lines.append(f"  moves:    {' '.join(self.moves)}")
        if self.position:
            lines.append(f"  position: {self.position}")
        return "\n".join(lines)
