"""The ruleset lowered once: resolve, options, fold and lower, kept as one frozen record that both
backends read (the Python backend's `compile.compile_model`, the native backend's writer).

    1. resolve   dsl.resolve.resolve_model   names and types, once (any option values)
    2. options   dsl.options.option_values   the values, checked, and the checks between them
    3. fold      dsl.fold.fold               constants computed, dead branches gone, the world
    4. lower     interpreter.steps.lower     each action as one plan of steps

`lowered(model, options)` runs them on a parsed model (what `load` has when it compiles);
`lowered_rules(rules, options)` on the texts a `Game` keeps (`Game.rules`: the path and text of
every file of its `extends` chain, base first), parsing them only when this process has not
lowered them yet: no file is read. Both are memoized per process by the texts of the chain and
the options, asked for or as their values (a game's own `options` are every value, the options
`load` was given may be a few): a study, a command choosing its backend, or an agent asking for
the native module again lowers nothing.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Optional

from attrs import frozen

from ..dsl import ir
from ..dsl.fold import Folded, fold
from ..dsl.model import Model
from ..dsl.options import option_values
from ..dsl.resolve import resolve_model
from ..errors import RulesetError
from .bounds import choice_bounds
from .steps import lower

MEMORY_SIZE = 64  # lowered rulesets kept by one process (the least recently used go first)
_MEMORY: OrderedDict = OrderedDict()


@frozen
class Lowered:
    """One ruleset at one set of option values, through every pass both backends share."""

    rules: tuple  # ((path, text), ...): every file of the extends chain, base first
    plan: ir.Plan  # resolved: names and types (the same at any option values)
    values: dict  # name -> the option's value
    bounds: dict  # name -> (low, high) of a range option
    folded: Folded  # the plan and the world at those values
    steps: tuple  # one interpreter.steps.ActionPlan per folded action

    @property
    def files(self) -> tuple:
        """The paths of the chain's files, base first (the names rules lines are shown with)."""
        return tuple(path for path, _ in self.rules)


def options_key(options: dict) -> tuple:
    """Options as a key: names with their values' repr (3 and "3" apart; values of any type)."""
    return tuple(sorted((k, repr(v)) for k, v in options.items()))


def lowered(model: Model, options: dict) -> Lowered:
    """The ruleset of a parsed model at the given options (values or text); RulesetError with the
    mistakes of a pass, GameError for options that are not allowed."""
    rules = tuple((path, text) for path, text in model.sources)
    return _lowered(rules, options, lambda: model)


def lowered_rules(rules: tuple, options: dict) -> Lowered:
    """The ruleset of the texts a `Game` keeps (`Game.rules`) at the given options: parsed from
    those texts when this process has not lowered them yet, never read from a file."""
    rules = tuple((path, text) for path, text in rules)

    def parsed() -> Model:
        from ..dsl.loader import load_model

        return load_model(rules[-1][0], rules[-1][1], chain=rules)
    return _lowered(rules, options, parsed)


def _lowered(rules: tuple, options: dict, model_of) -> Lowered:
    asked = (rules, options_key(options))
    hit = _remembered(asked)
    if hit is not None:
        return hit
    plan = resolved(model_of())
    values, bounds = option_values(plan, dict(options))
    exact = (rules, options_key(values))  # the same values asked for another way: lowered already
    record = _remembered(exact)
    if record is None:
        record = lower_ruleset(rules, plan, values, bounds)
        _remember(exact, record)
    _remember(asked, record)
    return record


def resolved(model: Model) -> ir.Plan:
    """Pass 1: the checked plan; RulesetError with its mistakes."""
    plan, diagnostics = resolve_model(model)
    errors = [d for d in diagnostics if d.severity == "error"]
    if errors:
        raise RulesetError(errors)
    return plan


def lower_ruleset(rules: tuple, plan: ir.Plan, values: dict, bounds: dict) -> Lowered:
    """Passes 3 and 4 at checked option values: the record both backends read. Runs once per
    ruleset and values in a process (see `lowered`)."""
    folded = fold(plan, values)
    errors = [d for d in folded.diagnostics if d.severity == "error"]
    if errors:
        raise RulesetError(errors)
    # Each number choice's range (a fixed action space) and the after block's notation (not for
    # nature's moves) go into the action specs as they are made.
    ranges = choice_bounds(folded.plan, folded.world.files * folded.world.ranks)
    steps = tuple(lower(a, after_fmt=plan.after.fmt if plan.after is not None and not a.chance else None,
                        bounds={choice: bound for (index, choice), bound in ranges.items() if index == a.index},
                        may_decline=plan.after is not None and plan.after.may_decline)
                  for a in folded.plan.actions)
    return Lowered(rules, plan, dict(values), dict(bounds), folded, steps)


def _remembered(key: tuple) -> Optional[Lowered]:
    record = _MEMORY.get(key)
    if record is not None:
        _MEMORY.move_to_end(key)
    return record


def _remember(key: tuple, record: Lowered) -> None:
    _MEMORY[key] = record
    while len(_MEMORY) > MEMORY_SIZE:
        _MEMORY.popitem(last=False)


def forget() -> None:
    """Drop every lowered ruleset this process keeps (tests: a process that has lowered nothing)."""
    _MEMORY.clear()
