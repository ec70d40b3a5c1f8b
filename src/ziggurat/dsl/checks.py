"""`ziggurat check`: every mistake in a ruleset, found without playing it and without writing code.

The checking passes alone: parsing and the model catch syntax, duplicates and unknown
declarations; `resolve` checks every name and type once (whatever the options); `options`
computes the option values and the checks between them; `fold` finds what only values can show
(a board too large, a table without an entry for a key). Warnings point at what is declared and
never used.
"""

from __future__ import annotations

from ..errors import Diagnostic, GameError, RulesetError
from . import ast
from .fold import fold
from .loader import load_model
from .options import option_values
from .resolve import resolve_model


def check(name_or_path: str, text: str | None = None, options: dict | None = None) -> list:
    """Every diagnostic for a ruleset (errors and warnings), in file order. Never raises for bad input."""
    try:
        model = load_model(name_or_path, text)
    except RulesetError as e:
        return e.diagnostics
    except GameError as e:
        return [Diagnostic(str(name_or_path), 0, 0, str(e))]
    plan, diagnostics = resolve_model(model)
    try:
        values, _ = option_values(plan, options or {}, diagnostics)
    except GameError as e:
        return [Diagnostic(str(name_or_path), 0, 0, str(e))]
    if not any(d.severity == "error" for d in diagnostics):
        diagnostics += fold(plan, values).diagnostics
    if not any(d.severity == "error" for d in diagnostics):
        diagnostics += unused(model)
    diagnostics += model.warnings
    seen, out = set(), []
    for d in diagnostics:
        key = (d.path, d.line, d.col, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return sorted(out, key=lambda d: (d.path, d.line, d.col))


def unused(model) -> list:
    """Warnings for defs, tables and procedures that nothing uses."""
    everything = (list(model.actions.values()) + list(model.defs.values()) + list(model.tables.values())
                  + list(model.procedures.values())
                  + model.setup + model.invariants + model.statistics + model.checks + list(model.options.values())
                  + list(model.board.values()) + list(model.surface.values())
                  + [model.end, model.after, model.control, model.heuristic]
                  + list(model.directions.values()) + list(model.counters.values()))
    used = set()
    for x in ast.walk([x for x in everything if x is not None]):
        if isinstance(x, ast.Name):
            used.add(x.id)
        elif isinstance(x, ast.Call):
            used.add(x.func)
    out = []
    for kind, table in (("def", model.defs), ("table", model.tables), ("procedure", model.procedures)):
        for name, node in table.items():
            if name not in used:
                out.append(model.reporter_for(node).make(node.pos, f"{kind} {name!r} is never used",
                                                         severity="warning", hint="remove it, or use it in a rule"))
    return out
