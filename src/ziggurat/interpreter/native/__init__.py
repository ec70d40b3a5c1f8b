"""The native backend: the same step plans as the Python backend, written for Numba, for the
whole loops (perft, random playouts) at compiled speed.

This package is the backend's public face; tools import from it, never from its modules:

- `available()`: None when Numba can be imported, else why not (one line);
- `native(game, loops)`: the game's `NativeGame`, compiled (or loaded from Numba's cache) once
  per process; raises `ziggurat.errors.Unsupported` for what the backend cannot compile;
- `is_cached(game)`: whether that module was compiled before (here, or into the cache folder);
- `why_not(game)`: the `Unsupported` that `native` would raise for the rules, or None;
- `NativeGame`: perft, divide, playouts, and the facts of a position vector (`side`, `ply`,
  `seats`, `state`);
- `NativeSearch(native_game)`: MCTS (UCT, and information-set MCTS for hidden pieces) and
  alpha-beta with a transposition table, whole in compiled code (the agents' native search).

The names are imported at their first use (`game` imports NumPy, and Numba when compiling), so
that importing this package costs nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import NativeGame, available, is_cached, native, why_not
    from .search import NativeSearch

__all__ = ["NativeGame", "NativeSearch", "available", "is_cached", "native", "why_not"]


def __getattr__(name: str):
    if name == "NativeSearch":
        from .search import NativeSearch

        return NativeSearch
    if name in __all__:
        from . import game

        return getattr(game, name)  # looked up each time: a test may replace it in `game`
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
