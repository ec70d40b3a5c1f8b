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


def replay_in_reference(state, playout, legal, play) -> object:
    """The Python backend's state after a native playout's moves from `state`, each move's text
    legal in a reference first (`legal()`: the reference's move texts now) and then played there
    too (`play(text)`); the reference's own API is given by the two functions."""
    state = state.copy()
    for m in playout.moves:
        text = state.move_text(m)
        assert text in legal(), f"{text} is not legal in the reference"
        state.push(m)
        play(text)
    return state
