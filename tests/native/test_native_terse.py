"""The native writer's shorter code (fewer statements for Numba to type and lower, cold): a guard
an option makes the constant False ends the listing there (legal.py); an effect's argument of
numbers and names only is written in place, one that reads the position kept in a local before
the effect writes anything (effects.py); a move whose choices all sit at fixed offsets is packed
in one expression where it is stored (moves.py). Each module of terse.rules is run as plain
Python (nothing compiled) against the Python backend: the same moves listed, the same position
after each move played, at both values of its option.
"""

import os
import random
import re

import numpy as np
import pytest

import ziggurat
from ziggurat.interpreter.native import game as native_game

from native_replay import plain_module

TERSE = os.path.join(os.path.dirname(__file__), "terse.rules")


def written(bonus: bool) -> tuple:
    game = ziggurat.load(TERSE, {"bonus": bonus})
    text, layout = native_game._write(game)[:2]
    return game, text, layout


def function(text: str, name: str) -> str:
    start = text.index(f"def {name}(")
    return text[start:text.index("\n\n\n", start)]


def test_a_guard_the_option_makes_false_writes_no_code_after_it():
    _, off, _ = written(False)
    _, on, _ = written(True)
    for name in ("legal", "legal_parts"):
        assert "if False" not in function(off, name)
        bonus_moves = re.compile(r"out\[U\(n\)\] = \(3 \| ")  # action 3, bonus, stored with its cell
        assert not bonus_moves.search(function(off, name)), name
        assert bonus_moves.search(function(on, name)), name


def test_settled_arguments_are_written_in_place_and_position_reads_kept_in_a_local():
    _, text, _ = written(True)
    bonus = function(text, "do_3")
    assert "zone_drop(s, 0, (mover + 2))" in bonus  # a zone number and a piece of numbers and names
    assert "zone_add(s, (1 + mover), (mover + 2))" in bonus
    hand = function(text, "do_0")
    kept = re.findall(r"(_p\d+) = s\[ZON \+ \(1 \+ mover\) \* ZW \+ 1\]", hand)  # reserve[mover][1]
    assert len(kept) == 2
    for p in kept:
        assert f"zone_drop(s, (1 + mover), {p})" in hand


@pytest.mark.parametrize("bonus", [False, True])
def test_terse_module_lists_and_plays_as_the_python_backend(bonus):
    game, text, layout = written(bonus)
    module = plain_module(text, 4096)
    buf = np.empty(4096, np.int64)
    played = set()
    for seed in range(8):
        rng = random.Random(seed)
        state = game.new()
        v = layout.vector(state)
        for _ply in range(20):
            if state.outcome() is not None:
                break
            moves = list(state.moves())
            n = module["legal"](v, buf)
            assert [int(x) for x in buf[:n]] == [layout.codec.pack(m) for m in moves], f"seed {seed}"
            m = rng.choice(moves)
            played.add(m[0])
            state.push(m)
            module["apply"](v, layout.codec.pack(m))
            assert np.array_equal(v[4:layout.hsh], layout.vector(state)[4:layout.hsh]), f"seed {seed}: {m}"
    assert {0, 1, 2} <= played  # hand (two transfers), drop, lift: each played at least once
    if bonus:
        assert 3 in played
