"""Stages whose effects take pieces from zones onto stacks and back (`put`, `insert`, `remove`, a
`for` over a list written out) taken back by their inverses (native/undo.py), not by a copy:
the same moves as the Python backend, and each position left as it was (every slot but a stack's
above its height, and the hash). The module runs as plain Python (nothing compiled).
"""

import os
import random

import numpy as np

import ziggurat
from ziggurat.interpreter.native import game as native_game

from native_replay import plain_module

ZONES = os.path.join(os.path.dirname(__file__), "zones.rules")


def live(module: dict, v: np.ndarray) -> list:
    """The slots that hold the position: all before the stacks, and each stack up to its height."""
    stk, cap, hgt = module["STK"], module["CAP"], module["HGT"]
    return list(v[:stk]) + [list(v[stk + c * cap: stk + c * cap + v[hgt + c]]) for c in range(module["NC"])]


def test_zone_effects_in_stages_are_taken_back_without_a_copy():
    text = native_game._write(ziggurat.load(ZONES))[0]
    legal = text[text.index("def legal("):text.index("@njit", text.index("def legal("))]
    assert "copy_state" not in legal
    for undone in ("zone_take(", "zone_untake(", "slip_out(", "zone_unadd("):
        assert undone in legal


def test_zone_stages_undone_in_place_list_pythons_moves_and_leave_the_position():
    game = ziggurat.load(ZONES)
    text, layout = native_game._write(game)[:2]
    module = plain_module(text, 4096)
    buf = np.empty(4096, np.int64)
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new()
        v = layout.vector(state)
        v[module["HSH"]] = module["hash_state"](v)
        for _ply in range(30):
            if state.outcome() is not None:
                break
            moves = list(state.moves())
            before = live(module, v)
            n = module["legal"](v, buf)
            assert [int(x) for x in buf[:n]] == [layout.codec.pack(m) for m in moves], f"seed {seed}"
            assert live(module, v) == before, f"seed {seed}: legal left the position changed"
            assert v[module["HSH"]] == module["hash_state"](v)
            m = rng.choice(moves)
            state.push(m)
            module["apply"](v, layout.codec.pack(m))
            assert np.array_equal(v[4:layout.hsh], layout.vector(state)[4:layout.hsh]), f"seed {seed}: {m}"
