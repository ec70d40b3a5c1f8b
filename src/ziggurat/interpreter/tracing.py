"""Counting what a game's generated code runs, for rule coverage (ziggurat.proptest.coverage).

The Python backend writes one module per game. `Tracer` counts, with `sys.settrace` restricted to
the code objects of that module's playing functions (`legal`, the `do_` functions, `outcome`,
`setup`; not `count`, the `explain_` functions nor the invariants), each step from one generated
line to the next (the *arcs*), only while it is on: the game is not changed. `probes` finds in the
module's syntax tree what stands for a rule (an action's function, a move added to the list, an
`if` of the rules, an ending returned); `statement_lines` lists the lines of the playing functions.
Kept in the engine, as it reads the generated module; the tools see only these three.

Why `sys.settrace` and not coverage.py: coverage.py records whether an arc ran, not how often
(the report gives counts: listed 2,568, refused 20), and it measures files, where a generated
module may live only in memory (ZIGGURAT_CACHE_DIR=off); a trace function that returns at once
for every other code object costs one call per Python call and needs no new dependency.
"""

from __future__ import annotations

import ast
import re
import sys
from collections import Counter
from typing import Callable, Optional

from attrs import frozen

# The module's functions that are not play: left out of the tracing.
NOT_PLAY = ("count", "invariants", "statistics", "heuristic", "apply", "undo")
NOT_PLAY_PREFIXES = ("explain_", "weight_", "seen_", "_")
# An `if` of generated bookkeeping, not of the rules: the move budget, the list of moves, the undo log.
INTERNAL = re.compile(r"\b(out|_k\d+|_mk\d+|MAX_MOVES|log)\b")
AFTER_PART = re.compile(r"^m\[\d+\] is not None$")


def play_functions(game) -> dict:
    """name -> code object of the generated functions that play the game (traced for coverage)."""
    out = {}
    for name, value in game.namespace.items():
        code = getattr(value, "__code__", None)
        if code is None or code.co_filename != game.filename:
            continue
        if name in NOT_PLAY or name.startswith(NOT_PLAY_PREFIXES):
            continue
        out[name] = code
    return out


class Tracer:
    """Counts the arcs (line to line steps) run in a game's playing functions while it is on.

    `with Tracer(game) as t: ...` traces the current thread; `t.arcs[(a, b)]` is how often line
    b ran right after line a of the same call (a is 0 at a call's first line), `t.calls[name]`
    how often a function was called. Tracers add up: several `with` blocks count into one."""

    def __init__(self, game):
        self.game = game
        self.codes = {code: name for name, code in play_functions(game).items()}
        self.arcs: Counter = Counter()
        self.calls: Counter = Counter()
        self._previous: Optional[Callable] = None

    def _global(self, frame, event, arg):
        name = self.codes.get(frame.f_code)
        if name is None:
            return None
        self.calls[name] += 1
        arcs = self.arcs
        last = [0]

        def local(frame, event, arg):
            if event == "line":
                line = frame.f_lineno
                arcs[(last[0], line)] += 1
                last[0] = line
            return local

        return local

    def hits(self) -> Counter:
        """Generated line -> times it ran."""
        out: Counter = Counter()
        for (_, b), n in self.arcs.items():
            out[b] += n
        return out

    def __enter__(self) -> "Tracer":
        self._previous = sys.gettrace()
        sys.settrace(self._global)
        return self

    def __exit__(self, *exc) -> None:
        sys.settrace(self._previous)


@frozen
class Probe:
    """One thing of the generated module that stands for something the rules do."""

    kind: str  # "action", "condition", "after", "ending", "line"
    line: int  # generated line
    body: int = 0  # a condition: the first line of its body
    function: str = ""
    action: int = -1  # an action's number ("action", "after")
    label: str = ""  # an ending: "win: k in a row"


def probes(game) -> list:
    """The probes of a game's generated module (see the module docstring)."""
    tree = ast.parse(game.source)
    functions = play_functions(game)
    # do_ function -> its action's number
    names = {getattr(f, "__name__", ""): i for i, f in enumerate(game.namespace.get("DO", ()))}
    out = []
    for fn in tree.body:
        if not isinstance(fn, ast.FunctionDef) or fn.name not in functions:
            continue
        if fn.name in names:
            out.append(Probe("action", fn.lineno, function=fn.name, action=names[fn.name]))
        for node in ast.walk(fn):
            if isinstance(node, ast.If):
                test = ast.unparse(node.test)
                if fn.name in names and AFTER_PART.match(test):
                    out.append(Probe("after", node.lineno, node.body[0].lineno, fn.name, names[fn.name]))
                elif not INTERNAL.search(test) and not isinstance(node.body[0], ast.Raise):
                    out.append(Probe("condition", node.lineno, node.body[0].lineno, fn.name))
            elif isinstance(node, ast.Return) and fn.name == "outcome" and isinstance(node.value, ast.Tuple):
                parts = node.value.elts
                if parts and isinstance(parts[0], ast.Constant):
                    reason = parts[-1].value if isinstance(parts[-1], ast.Constant) else None
                    label = str(parts[0].value) + (f": {reason}" if isinstance(reason, str) else "")
                    out.append(Probe("ending", node.lineno, function=fn.name, label=label))
            elif (fn.name == "legal" and isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                  and node.func.id == "add" and node.args and isinstance(node.args[0], ast.Tuple)
                  and node.args[0].elts and isinstance(node.args[0].elts[0], ast.Constant)):
                number = node.args[0].elts[0].value
                if isinstance(number, int):
                    out.append(Probe("listed", node.lineno, function=fn.name, action=number))
    return out



def statement_lines(game) -> list:
    """(generated line, function name) of every statement of the game's playing functions."""
    functions = play_functions(game)
    out = []
    for fn in ast.parse(game.source).body:
        if isinstance(fn, ast.FunctionDef) and fn.name in functions:
            out += [(stmt.lineno, fn.name) for stmt in ast.walk(fn) if isinstance(stmt, ast.stmt) and stmt is not fn]
    return out
