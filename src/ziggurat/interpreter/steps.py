"""Pass 3: lower each folded action to one plan of steps, the single meaning every backend reads.

An action and the ruleset's `after` block become one sequence:

| step | in a move's generation | in applying a move | in explaining a move |
|---|---|---|---|
| `Guard` (when / require) | an `if`; a false one ends the action | only an after part's with no choice | the reason |
| `Bind` (let) | a local | only if an effect needs it | a local |
| `Choose` | a loop over the domain | the value from the move | membership and `where` checked |
| `Stage` (effects, choices after) | applied, the rest generated, taken back | applied | applied, undone at the end |
| `Apply` (the final effects) | nothing | applied | nothing |
| `Repeat` | a function making one pass, calling itself | a loop over the passes | each pass checked |
| `AfterPart` | offered; the move without it where it offers nothing [1] | only if the move holds it | required [1] |
| `Measure` (weight, seen by) | nothing | nothing | nothing: read by its own function (`python.measure`) |

[1] An after block that `may decline` offers the move without it always, and is never required.

Backends (`python.generate`, `python.apply`, `python.explain`) are each one `match` over these
kinds; a new construct is a new step kind and one case in each.
"""

from __future__ import annotations

from typing import Iterable, Optional, TypeAlias

from attrs import frozen

from ..dsl import ir
from ..dsl import types as T
from ..dsl.ast import NOWHERE, Pos
from .spec import PRESENT, ActionSpec


@frozen
class Guard:
    cond: ir.Expr
    kind: str  # when / require
    message: Optional[str]
    text: str
    pos: Pos


@frozen
class Bind:
    var: str
    value: ir.Expr
    pos: Pos


@frozen
class Choose:
    name: str  # the choice: its values go into the move at `index`
    domain: ir.Expr
    cond: Optional[ir.Expr]
    message: Optional[str]
    type: T.Type  # one value's type
    index: int  # its place in the move tuple (from 1)
    domain_text: str
    cond_text: str
    pos: Pos


@frozen
class Stage:
    """Effects that more choices follow: the rest of the move is made on the changed board."""

    body: tuple[ir.Stmt, ...]
    pos: Pos


@frozen
class Apply:
    """The effects at the end of the move."""

    body: tuple[ir.Stmt, ...]
    pos: Pos


@frozen
class Repeat:
    var: str
    start: ir.Expr
    cond: Optional[ir.Expr]
    may_stop: bool
    steps: tuple[Step, ...]  # a pass's steps
    choice: str  # the pass's choice (its values go into the move as a tuple)
    index: int
    elem: T.Type  # the type of one value of the choice
    previous: Optional[str]
    cond_text: str
    pos: Pos
    earlier: tuple[tuple[str, ir.Local], ...] = ()  # (list name, Local): a pass's values, appended when it ends


@frozen
class Measure:
    """A value of a made move, read at the position before it: `weight` or `seen`."""

    kind: str
    value: ir.Expr
    pos: Pos


@frozen
class AfterPart:
    """The ruleset's end-of-turn part, after an action's own steps."""

    steps: tuple[Step, ...]
    has_choices: bool
    first: int  # the move index of its first choice
    pos: Pos
    may_decline: bool = False  # `may decline`: the move without it is offered too (it then has choices)


Step: TypeAlias = Guard | Bind | Choose | Stage | Apply | Repeat | Measure | AfterPart
"""One step of an action's plan (an `AfterPart` only at the end of an action's own steps)."""


@frozen
class ActionPlan:
    spec: ActionSpec
    steps: tuple[Step, ...]
    priority: int
    fallback: bool
    pos: Pos

    @property
    def index(self) -> int:
        return self.spec.index

    @property
    def chance(self) -> bool:
        return self.spec.chance


def lower(a: ir.Action, after_fmt: Optional[str] = None, bounds: Optional[dict] = None,
          may_decline: bool = False) -> ActionPlan:
    """The step plan of one folded action (with the after block's items). `after_fmt` is the after
    block's notation when it applies to this action, `bounds` its number choices' ranges
    (interpreter.bounds): both go into the action's spec, made here once and whole. With
    `may_decline`, the move without the after block is offered as well as those with it."""
    measures = {it.kind for it in a.items if isinstance(it, ir.Measure)}
    choices = [(name, typ) for name, typ in a.choices]
    index = {n: k + 1 for k, (n, _) in enumerate(a.choices)}
    after = list(a.after_items) if a.after_items is not None else None
    # Effects become stages when anything that makes or tests the move follows them.
    own = _lower(a.items, index, rest_makes_choices=after is not None and _makes(after))
    steps = list(own)
    if after is not None:
        part = _lower(after, index, rest_makes_choices=False)
        first = a.nbase + 1
        has_choices = len(a.choices) > a.nbase
        if not has_choices and (may_decline or any(isinstance(s, Guard) for s in part)):
            choices.append((PRESENT, T.BOOL))
            part = _with_presence(part, len(choices))
            has_choices = True
        steps.append(AfterPart(tuple(part), has_choices, first, a.pos, may_decline))
    spec = ActionSpec(index=a.index, name=a.name, fmt=a.fmt, choices=tuple(choices), nbase=a.nbase,
                      after_fmt=after_fmt, repeated=frozenset(a.repeated), chance=a.chance,
                      weighted="weight" in measures, secret="seen" in measures, bounds=dict(bounds or {}))
    return ActionPlan(spec, tuple(steps), a.priority, a.fallback, a.pos)


def _with_presence(part: list[Step], index: int) -> list[Step]:
    """An after part without choices whose conditions may fail, given one choice of the single
    value `true` (the move's `index`-th value, named PRESENT) just before its effects: a move holds
    `true` there when the part applied and None when its conditions failed, so the move says which
    (its text has the after block's text only when it holds the part), and every backend treats the
    part as one with choices."""
    pos = next((s.pos for s in part if isinstance(s, Guard)), NOWHERE)
    domain = ir.ListLit((ir.Const(True, T.BOOL, pos),), T.list_of(T.BOOL), pos)
    choose = Choose(PRESENT, domain, None, None, T.BOOL, index, "[true]", "", pos)
    at = next((k for k, s in enumerate(part) if isinstance(s, (Stage, Apply))), len(part))
    return part[:at] + [choose] + part[at:]


def _makes(items: Iterable[ir.Item]) -> bool:
    return any(isinstance(x, (ir.Choice, ir.When, ir.Require, ir.Repeat)) for x in items)


def _lower(items: Iterable[ir.Item], index: dict[str, int], rest_makes_choices: bool,
           in_pass: bool = False) -> list[Step]:
    out: list[Step] = []
    items = list(items)
    for i, it in enumerate(items):
        if isinstance(it, (ir.When, ir.Require)):
            if isinstance(it.cond, ir.Const) and it.cond.value:
                continue  # always true at these options
            kind = "when" if isinstance(it, ir.When) else "require"
            out.append(Guard(it.cond, kind, getattr(it, "message", None), it.text, it.pos))
        elif isinstance(it, ir.Let):
            out.append(Bind(it.var, it.value, it.pos))
        elif isinstance(it, ir.Choice):
            out.append(Choose(it.name, it.domain, it.cond, it.message, it.type, index[it.name], it.domain_text,
                              it.cond_text, it.pos))
        elif isinstance(it, ir.Effects):
            staged = in_pass or _makes(items[i + 1:]) or rest_makes_choices
            out.append((Stage if staged else Apply)(it.body, it.pos))
        elif isinstance(it, ir.Measure):
            out.append(Measure(it.kind, it.value, it.pos))
        elif isinstance(it, ir.Repeat):
            choice = it.choice
            if choice is None:
                raise AssertionError(f"a repeat without its choice {it!r}")  # resolve keeps none
            steps = _lower(it.items, index, rest_makes_choices=False, in_pass=True)
            out.append(Repeat(it.var, it.start, it.cond, it.may_stop, tuple(steps), choice.name,
                              index[choice.name], choice.type, it.previous, it.cond_text, it.pos, it.earlier))
        else:
            raise AssertionError(f"unknown action item {it!r}")
    return out


def after_steps(steps: Iterable[Step]) -> Optional[AfterPart]:
    return next((s for s in steps if isinstance(s, AfterPart)), None)
