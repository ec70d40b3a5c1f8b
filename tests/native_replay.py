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


def plain_module(text: str, maxm=None) -> dict:
    """A written native module run as plain Python (no Numba: its decorator the identity, see
    `module.plain_text`), its buffer MAXM moves long when maxm is given."""
    from ziggurat.interpreter.native.module import plain_text

    namespace: dict = {}
    exec(compile(plain_text(text), "<native>", "exec"), namespace)
    assert not hasattr(namespace["legal"], "py_func")  # plain: Numba compiles nothing here
    if maxm is not None:
        namespace["MAXM"] = maxm
    return namespace


def assert_plain_perft(text: str, layout, state, depth: int) -> None:
    """The written module, as plain Python, counts the Python backend's perft from `state` at
    every depth up to `depth`."""
    import numpy as np

    from ziggurat.interpreter.runtime import perft

    module = plain_module(text)
    v = layout.vector(state)
    hist = np.zeros(depth + 2, dtype=np.int64)
    for d in range(depth + 1):
        assert module["perft"](v.copy(), d, hist, 0) == perft(state, d), f"depth {d}"
