"""`ways(n, faces, total)` at run time in the native kernel (`kernel_dice.py`: the writer's table
for a constant number of faces, `WAYS_<faces>`, and past it `dice_ways`, a sum by inclusion and
exclusion, or one row of sums where its terms could overflow) against the Python backend's weights
(`dsl.dice.ways`, exact), for every outcome of throws of 1 to 16 dice, with the direct path on
(which compiles the chance functions now that `dice_ways` makes no buffer in a loop) and off; the
counts a float64 weight would round (past 2**53) compared by their residues modulo a prime."""

import os

import numpy as np
import pytest

import ziggurat
from ziggurat.dsl.dice import ways

numba = pytest.importorskip("numba")

from ziggurat.interpreter.native import game as native_game  # noqa: E402
from ziggurat.interpreter.native.direct import bind  # noqa: E402

RULES = os.path.join(os.path.dirname(__file__), "dice.rules")  # nature throws 1, 2, ... `most` dice


def throws(game):
    """Each position where nature throws, from 1 die to the most (the line throw, more, throw, ...)."""
    state = game.new()
    while True:
        moves = game.legal(state)
        yield state, moves
        state.push(moves[0])  # the lowest sum
        more = [m for m in game.legal(state) if state.move_text(m) == "more"]
        if not more:
            return
        state.push(more[0])


MODULO = 1000003  # a prime: counts past 2**53 (which a float64 weight rounds) compared exactly by their residues


@pytest.mark.parametrize("switch", ["1", "0"])
@pytest.mark.parametrize("faces, most, modulo", [(6, 16, 0), (20, 14, 0), (20, 14, MODULO)])
def test_native_weights_of_dice_sums_are_the_exact_counts_of_throws(monkeypatch, switch, faces, most, modulo):
    monkeypatch.setenv(bind.SWITCH, switch)
    game = ziggurat.load(RULES, options={"faces": faces, "most": most, "modulo": modulo})
    ng = native_game.native(game, ("perft",))
    assert (getattr(ng.module, "_direct_library", None) is not None) == (switch == "1")
    wrapped = ng.module.chance_weight.py_func.__globals__ is not ng.module.__dict__  # the direct code's wrapper
    assert wrapped == (switch == "1")
    seen = 0
    for n, (state, moves) in enumerate(throws(game), start=1):
        v = ng.start(state)[0]
        want = game.weights(state, moves)
        exact = [ways(n, faces, m[1]) for m in moves]
        assert want == ([w % modulo + 1 for w in exact] if modulo else exact)  # the Python backend: exact
        got = [ng.module.chance_weight(v, np.int64(ng.pack(m))) for m in moves]
        assert got == [float(w) for w in want], f"{n} dice of {faces} faces"
        seen = n
    assert seen == most
    # the table holds 12 dice of 6 faces, 6 of 20 (exprs.WAYS_CELLS); past it the sums are counted, and
    # the largest counts (20 faces, 14 dice) pass 2**62 / (n + 1) in a term of the sum: one row of sums counts them
    assert ng.module.WAYS_6[-1] == 13 if faces == 6 else ng.module.WAYS_20[-1] == 7  # rows: 0 dice to the most
    assert faces != 20 or max(exact) > 10 ** 16
