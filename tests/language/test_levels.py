"""An effect at a level its stack does not have (insert, remove, change, move, and a piece
taken from a level) stops the game at that rule's line in both backends; it used to slip the
piece in at the wrong place (a level 0 or below counted from the top in Python, and wrote into the
neighbouring cell's stack natively)."""

from __future__ import annotations

import importlib.util

import pytest

import ziggurat

RULES = """\
players a, b
board:
    files: 3
    ranks: 1
piece:
    owner: players
zone pool
setup:
    place(piece(a), cells[1])
    place(piece(b), cells[1])
    add(pool, piece(a))
action {effect} "{{k}}":
    k: -1..4
    do:
        {body}
"""
EFFECTS = {  # the effect, and the levels of the two-piece stack on a1 it accepts
    "insert": ("insert(pool, piece(a), cells[1], k)", {1, 2, 3}),
    "remove": ("remove(cells[1], k, pool)", {1, 2}),
    "change": ("change(cells[1], k, piece(b))", {1, 2}),
    "move": ("move(cells[1], k, cells[2])", {1, 2, 3}),
    "lift": ("insert(cells[1], k, cells[2], 1)", {1, 2}),
}


def _game(tmp_path, effect):
    body, _ = EFFECTS[effect]
    path = tmp_path / f"{effect}.rules"
    path.write_text(RULES.format(effect=effect, body=body))
    return path, ziggurat.load(str(path))


@pytest.mark.parametrize("effect", sorted(EFFECTS))
def test_a_level_the_stack_does_not_have_stops_at_the_rule(tmp_path, effect):
    path, game = _game(tmp_path, effect)
    _, levels = EFFECTS[effect]
    for move in game.new().moves():
        k = int(game.new().move_text(move))
        state = game.new()
        if k in levels:
            state.play(move)
            continue
        with pytest.raises(ziggurat.RulesetError) as e:
            state.play(move)
        d = e.value.diagnostics[0]
        assert (d.path, d.line) == (str(path), 15), d.render()
        assert "of a stack of 2 pieces" in d.message and f"level {k} " in d.message


def test_an_insert_keeps_the_stack_in_order_at_every_level_it_has(tmp_path):
    """a1 holds A (level 1) under B (level 2): A slipped in at level 1, 2 and 3 (the top)."""
    _, game = _game(tmp_path, "insert")
    shown = []
    for k in (1, 2, 3):
        state = game.new()
        state.play(next(m for m in state.moves() if state.move_text(m) == str(k)))
        shown.append(state.text().split(" | ")[1])
    assert shown == ["a1=AAB", "a1=AAB", "a1=ABA"]


@pytest.mark.skipif(importlib.util.find_spec("numba") is None, reason="the native backend needs Numba")
def test_the_native_backend_hands_such_a_position_to_python(tmp_path):
    """Natively the position is not held (it wrote into the next cell's stack before): perft
    falls back to Python, which names the rule."""
    from ziggurat.errors import Unsupported
    from ziggurat.interpreter.native import native

    _, game = _game(tmp_path, "change")
    fast = native(game, ("perft",))
    with pytest.raises(Unsupported, match="a level its stack does not have"):
        fast.perft(game.new(), 2)
    with pytest.raises(ziggurat.RulesetError, match="failed while the game ran"):
        ziggurat.perft(game.new(), 2)
