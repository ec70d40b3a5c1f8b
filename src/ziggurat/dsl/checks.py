"""`ziggurat check`: every mistake in a ruleset, found without playing it.

Parsing and the model catch syntax, duplicates and unknown declarations; translating every rule
with the default options catches unknown names, wrong types and wrong arguments (the translator
types each expression as it writes it); the option checks catch contradictions. Warnings point at
what is declared and never used.
"""

from __future__ import annotations

from ..errors import Diagnostic, GameError, Reporter, RulesetError


def check(name_or_path: str, text: str | None = None, options: dict | None = None) -> list:
    """Every diagnostic for a ruleset (errors and warnings), in file order. Never raises for bad input."""
    from ..interpreter.compiler import Compiler, resolve_options
    from .loader import load_model

    try:
        model = load_model(name_or_path, text)
    except RulesetError as e:
        return e.diagnostics
    except GameError as e:
        return [Diagnostic(str(name_or_path), 0, 0, str(e))]
    diagnostics: list = []
    try:
        values = resolve_options(model, options or {}, diagnostics)
    except GameError as e:
        return [Diagnostic(str(name_or_path), 0, 0, str(e))]
    compiler = Compiler(model, values)
    compiler.compile(f"<ziggurat check {model.files[-1]}>") if not diagnostics else None
    diagnostics += compiler.diagnostics
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
    """Warnings for defs and tables that nothing uses."""
    from ..interpreter.compiler import names_used

    used: set = set()
    everything = (list(model.actions.values()) + list(model.defs.values()) + list(model.tables.values())
                  + model.setup + model.invariants + model.checks + list(model.options.values())
                  + list(model.board.values()) + [model.end, model.after, model.control, model.heuristic]
                  + list(model.directions.values()) + list(model.counters.values()))
    used |= names_used([x for x in everything if x is not None])
    used |= {c.func for c in _calls(everything)}
    out = []
    for kind, table in (("def", model.defs), ("table", model.tables)):
        for name, node in table.items():
            if name not in used:
                rep: Reporter = model.reporter_for(node)
                out.append(rep.make(node.pos, f"{kind} {name!r} is never used", severity="warning",
                                    hint="remove it, or use it in a rule"))
    return out


def _calls(nodes):
    from . import ast

    return [x for x in ast.walk(list(nodes)) if isinstance(x, ast.Call)]
