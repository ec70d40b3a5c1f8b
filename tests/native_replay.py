"""Replaying a native playout in the Python backend, the tests' check that the native module plays
the same game: each move must be legal where it is played."""

from __future__ import annotations


def replay(game, playout) -> object:
    """The Python backend's state after a native playout's moves, each checked legal first."""
    state = game.new()
    for k, m in enumerate(playout.moves):
        assert m in state.moves(), f"ply {k}: {state.move_text(m) if m[0] < len(game.actions) else m} is not legal"
        state.push(m)
    return state
