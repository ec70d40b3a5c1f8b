"""The Python backend's compiler: the lowered ruleset -> the Python module and the game's spec.

    1-4. pipeline  interpreter.pipeline.lowered   resolve, options, fold, lower: the record both
                                                  backends read (memoized per process)
    5.   backend   interpreter.python             the module (legal, do, explain, outcome, ...)

Each pass stops the compiler with a RulesetError when it finds mistakes; `ziggurat check` runs
the first three alone.
"""

from __future__ import annotations

import os
from typing import Optional

from attrs import frozen

from ..dsl import ir
from ..dsl.model import Model
from ..dsl.places import board_is_places, listed_pieces, piece_facts
from ..errors import RulesetError, diagnostic_at
from .python.module import ModuleWriter
from .nonnegative import nonnegative_counters
from .pipeline import lowered
from .spec import AttributeSpec, GameSpec, OptionSpec


@frozen
class CompiledModule:
    spec: GameSpec
    source: str  # the module's text


def compile_model(model: Model, overrides: dict, name: str) -> CompiledModule:
    """The module and spec of a model at the given option values (text or values)."""
    ruleset = lowered(model, overrides)
    plan, values, bounds = ruleset.plan, ruleset.values, ruleset.bounds
    folded, plans = ruleset.folded, list(ruleset.steps)
    writer = ModuleWriter(folded, plans)
    sources = tuple(model.files)
    label = _labeller(sources)
    text, linemap, tables = writer.write(", ".join(os.path.basename(f) for f in sources), values, label)
    within_python_limits(text, linemap)
    spec = GameSpec(
        name=name, title=plan.title, description=plan.description, players=tuple(folded.plan.players),
        options=dict(values), option_specs=option_specs(plan, bounds),
        attributes=tuple(AttributeSpec(name=a.name, values=tuple(a.values), numbers=tuple(a.numbers),
                                       codes=tuple(a.codes), players=a.players, numeric=a.numeric)
                         for a in plan.attributes.values()),
        files=folded.world.files, ranks=folded.world.ranks, dirsets=tuple(tuple(d) for d in folded.world.dirsets),
        zones=tuple((z.name, z.per_player, z.hidden) for z in plan.zones.values()),
        counters=tuple((c.name, c.per_player, "set" if c.holds else "cell" if c.type.name == "cell" else "int")
                       for c in plan.counters.values()),
        actions=tuple(p.spec for p in plans), invariant_texts=tuple(inv.text for inv in plan.invariants),
        has_heuristic=plan.heuristic is not None,
        outcome_reads_moves=writer.outcome_reads_moves, heuristic_per_mover=heuristic_reads_mover(folded.plan),
        changes_pieces=_effects(folded.plan, ("change",)),
        creates_pieces=_effects(folded.plan, ("place", "add"), moves_only=True),
        hashing=writer.hashing, uses_last=writer.last, tables=tuple(tables), sources=sources,
        linemap=_compress(linemap, sources), statistic_texts=tuple(s.text for s in folded.plan.statistics),
        points=points_kind(folded.plan.end),
        nonnegative=nonnegative_counters(folded.plan),  # positions read from text are held to it
        surface=folded.world.surface,
        bookkeeping=tuple(c.name for c in plan.counters.values() if c.bookkeeping),
        places=board_is_places(plan),  # as written: fold turns `files` into a number
        facts=piece_facts(folded), cards=listed_pieces(folded), **_whole_turns(model))
    return CompiledModule(spec, text)


def _whole_turns(model: Model) -> dict:
    """The spec's fields of a `whole turns` declaration (none: each part is a move)."""
    d = model.whole_turns
    if d is None:
        return {}
    path = d.pos.file.path if d.pos.file is not None else model.files[-1]
    return dict(turn_parts=d.parts, turn_merged=d.one_per_position, turn_at=f"{path}:{d.pos.line}:{d.pos.col}",
                turn_keeping=d.keeping)


PYTHON_MAX_LOOPS = 20  # CPython: "too many statically nested blocks" (loops, try, with) past 20 in a function
PYTHON_MAX_INDENT = 98  # CPython's tokenizer: "too many levels of indentation" at 100


def within_python_limits(text: str, linemap: list) -> None:
    """Refuse, at the rules line that made it, a module Python would refuse to compile: more
    loops inside one another in a function, or more levels of indentation, than Python allows.
    The check's estimate (dsl.budgets) keeps rulesets well inside both; this is the guarantee
    that the generated code is never an internal error."""
    open_blocks: list = []  # (indent, is_loop) of the blocks around the current line
    for number, line in enumerate(text.split("\n")):
        stripped = line.lstrip(" ")
        if not stripped or stripped.startswith("#"):
            continue
        indent = (len(line) - len(stripped)) // 4
        while open_blocks and open_blocks[-1][0] >= indent:
            open_blocks.pop()
        word = stripped.split(None, 1)[0].rstrip(":")
        if word in ("def", "class"):
            open_blocks.append((indent, "def"))
        elif word in ("for", "while", "try", "with", "async"):
            open_blocks.append((indent, "loop"))
        loops = 0
        for _, kind in reversed(open_blocks):
            if kind == "def":
                break
            loops += 1
        if loops > PYTHON_MAX_LOOPS or indent > PYTHON_MAX_INDENT:
            pos = next((linemap[k] for k in range(min(number, len(linemap) - 1), 0, -1)
                        if linemap[k] is not None and getattr(linemap[k], "line", None)), None)
            what = (f"{loops} loops inside one another (Python allows {PYTHON_MAX_LOOPS})" if loops > PYTHON_MAX_LOOPS
                    else f"{indent} levels of indentation (Python allows {PYTHON_MAX_INDENT})")
            raise RulesetError([diagnostic_at(pos, f"the code written for this rule nests {what}",
                                              hint="fewer choices, conditions or loops inside one another")])


def option_specs(plan: ir.Plan, bounds: dict) -> dict:
    out = {}
    for name, o in plan.options.items():
        type_text = o.type_pos.snippet() if o.type_pos is not None and o.kind in ("range", "enum") else o.kind
        default_text = o.default.pos.snippet() if o.default is not None else ""
        low, high = bounds.get(name) or (None, None)
        out[name] = OptionSpec(name=name, kind=o.kind, doc=o.doc, low=low, high=high, values=tuple(o.values),
                               type_text=type_text or o.kind, default_text=default_text)
    return out


def heuristic_reads_mover(plan: ir.Plan) -> bool:
    return plan.heuristic is not None and any(isinstance(n, ir.Global) and n.what == "mover"
                                              for n in ir.walk(plan.heuristic))


def _effects(plan: ir.Plan, fns, moves_only: bool = False) -> bool:
    places: list[ir.Item | ir.Stmt] = [i for a in plan.actions for i in a.items + (a.after_items or ())]
    if not moves_only:
        places += [s for b in plan.setup for s in b]
    return any(isinstance(n, ir.Effect) and n.fn in fns for n in ir.walk(places))


def _labeller(sources: tuple):
    """Pos -> "file.rules:LINE": the file's name, or its path when two files share a name."""
    names = [os.path.basename(s) for s in sources]
    unique = len(set(names)) == len(names)

    def label(pos) -> Optional[str]:
        if pos is None or not getattr(pos, "line", 0):
            return None
        path = getattr(pos.file, "path", None)
        shown = os.path.basename(path) if unique and path else path
        return f"{shown}:{pos.line}" if shown else f"rules:{pos.line}"
    return label


def _compress(linemap: list, sources: tuple) -> tuple:
    """(generated line, source index, line, col, end col) where the rules position changes."""
    out, last = [], None
    index = {s: i for i, s in enumerate(sources)}
    for line, pos in enumerate(linemap):
        if line == 0:
            continue
        key = None
        if pos is not None and getattr(pos, "line", None):
            path = getattr(pos.file, "path", None)
            key = (index.get(path, -1), pos.line, pos.col, pos.end_col if pos.end_line == pos.line else 0)
        if key != last:
            out.append((line,) + (key or (-1, 0, 0, 0)))
            last = key
    return tuple(out)


def points_kind(end) -> Optional[str]:
    """None for results won and lost; for results in points (ir.scores_points), "zero-sum" when
    they come from `win P by K` / `lose P by K` only (the others share what P wins or loses),
    else "general-sum" (`win by NAME` gives each player NAME(p))."""
    if not ir.scores_points(end):
        return None
    return "general-sum" if any(isinstance(n, ir.RankBy) for n in ir.walk(end)) else "zero-sum"
