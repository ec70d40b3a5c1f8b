"""Ziggurat: a rules language and engine for games of stackable pieces.

The names below are imported when first used (PEP 562), so that `import ziggurat` (and the
command line's `--help`) does not load the engine.
"""

from __future__ import annotations

import importlib

from .version import __version__

_LAZY = {
    "ZigguratError": "errors", "RulesetError": "errors", "GameError": "errors",
    "load": "interpreter.games",
    "Game": "interpreter.runtime", "LegalMoves": "interpreter.runtime", "Outcome": "interpreter.outcome",
    "State": "interpreter.runtime", "divide": "interpreter.runtime", "perft": "interpreter.runtime",
    "random_playout": "interpreter.runtime",
}


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module 'ziggurat' has no attribute {name!r}")
    module = importlib.import_module(f".{_LAZY[name]}", __name__)
    value = getattr(module, name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(list(globals()) + list(_LAZY))


__all__ = ["__version__", "load", "Game", "State", "LegalMoves", "Outcome", "perft", "divide", "random_playout",
           "ZigguratError", "RulesetError", "GameError"]
