"""Shared Hypothesis strategies: option values, games, and positions reached by play."""

from __future__ import annotations

from collections import Counter

from hypothesis import strategies as st

import ziggurat
from ziggurat.proptest import options_strategy


def _loads(ruleset: str, options: dict) -> bool:
    try:
        ziggurat.load(ruleset, options)
    except ziggurat.GameError:
        return False
    return True


def options_for(ruleset: str, fixed: dict | None = None) -> st.SearchStrategy:
    """Option dicts for `ruleset` drawn from its declared option types, `fixed` ones kept, and
    only combinations that `ziggurat.load` accepts."""
    fixed = dict(fixed or {})
    base = ziggurat.load(ruleset, fixed)
    return (options_strategy(base, fixed)
            .map(lambda drawn: {**fixed, **drawn})
            .filter(lambda options: _loads(ruleset, options)))


def stacktics_options() -> st.SearchStrategy:
    """Stacktics options: sizes 2..5, the narrow board (size 2 only), pie on or off."""

    @st.composite
    def draw(draw):
        size = draw(st.integers(2, 5))
        narrow = draw(st.booleans()) if size == 2 else False
        return {"size": size, "narrow": narrow, "pie": draw(st.booleans())}

    return draw()


def games(ruleset: str, options: st.SearchStrategy | None = None) -> st.SearchStrategy:
    """Games of `ruleset` at drawn options (by default from `options_for`)."""
    options = options if options is not None else options_for(ruleset)
    return options.map(lambda o: ziggurat.load(ruleset, o))


def random_walks(game: ziggurat.Game, max_plies: int) -> st.SearchStrategy:
    """States of `game` reached from the start by up to `max_plies` drawn legal moves (the moves
    are in `state.stack`); the walk ends early when the game does."""

    @st.composite
    def walk(draw):
        state = game.new()
        plies = draw(st.integers(0, max_plies))
        for _ in range(plies):
            moves = state.moves()
            if not moves:
                break
            state.push(moves[draw(st.integers(0, len(moves) - 1))])
        return state

    return walk()


def snapshot(state: ziggurat.State) -> dict:
    """Everything that undo must restore, the position text included."""
    return {"cells": list(state.cells), "zones": list(state.zones), "counters": list(state.counters),
            "side": state.side, "ply": state.ply, "seats": list(state.seats), "text": state.text()}


def pieces(state: ziggurat.State) -> Counter:
    """The multiset of piece codes over every cell and zone."""
    out: Counter = Counter()
    for stack in list(state.cells) + list(state.zones):
        out.update(stack)
    return out
