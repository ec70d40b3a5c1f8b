"""A large game's native `legal` split into functions `legal_K` and its `do_N` called, not inlined
(`legal.Legal.split`, `apply.Apply.dos`: what a cold compile of the largest shipped rulesets
costs), their bodies written together in functions `dos_K` (`Apply.groups`): the same moves in
the same order, the same moves made.

The split is forced on the test rulesets (every action its own legal_K; the do_N bodies each in a
function of its own, or all in one) and the module is run as plain Python (no Numba: nothing is
compiled), beside the Python backend, along random games.
"""

import os
import random
import re

import numpy as np
import pytest

import ziggurat
from ziggurat.interpreter.native import apply as native_apply
from ziggurat.interpreter.native import game as native_game
from ziggurat.interpreter.native import legal as native_legal

from native_replay import plain_module

HERE = os.path.dirname(__file__)


@pytest.fixture(params=[1, 10**6], ids=["a group each", "one group"])
def split_all(monkeypatch, request):
    monkeypatch.setattr(native_legal, "SPLIT_LINES", 0)
    monkeypatch.setattr(native_legal, "PART_LINES", 1)
    monkeypatch.setattr(native_apply, "INLINED_DO_LINES", 0)
    monkeypatch.setattr(native_apply, "GROUP_STATEMENTS", request.param)
    return request.param


@pytest.mark.parametrize("name", ["fuse.rules", "stages.rules", "after.rules", "chance.rules", "sets.rules"])
def test_a_split_legal_and_called_do_functions_list_and_make_pythons_moves(split_all, name):
    game = ziggurat.load(os.path.join(HERE, name))
    text, layout = native_game._write(game)[:2]
    assert "def legal_0(" in text and "= legal_0(s, out, n, mover, ply" in text  # split: legal calls its parts
    assert "\ndef do_" not in text and "def dos_0(s, m, a):" in text  # do_N called, their bodies in dos_K
    groups = len(re.findall(r"^def dos_\d+\(", text, re.M))
    dos = "".join(re.findall(r"^def dos_\d+\(.*?(?=^@njit|^# ----)", text, re.M | re.S))
    actions = len(re.findall(r"^    (?:el)?if a == \d+:$", dos, re.M))  # their branches, one an action
    assert groups == (actions if split_all == 1 else 1), (groups, actions)  # a function each, or one for all
    module = plain_module(text, 4096)
    buf = np.empty(4096, np.int64)
    for seed in range(4):
        rng = random.Random(seed)
        state = game.new()
        v = layout.vector(state)
        for _ply in range(30):
            if state.outcome() is not None:
                break
            moves = list(state.moves())
            n = module["legal"](v.copy(), buf)
            assert [int(x) for x in buf[:n]] == [layout.codec.pack(m) for m in moves], f"seed {seed}"
            m = rng.choice(moves)
            state.push(m)
            module["apply"](v, layout.codec.pack(m))
            assert np.array_equal(v[4:layout.hsh], layout.vector(state)[4:layout.hsh]), f"seed {seed}: {m}"



def test_a_split_legals_parts_and_dos_k_compile_as_shared_parts_and_count_pythons_perft(monkeypatch):
    """Compiled, each legal_K and dos_K is a function of its own with machine code (`legal.PART`:
    `numbacache.Shared`, called by its symbol when large), not linked into `legal` and `apply`."""
    pytest.importorskip("numba")
    from ziggurat.interpreter.native.numbacache import Shared

    monkeypatch.setattr(native_legal, "SPLIT_LINES", 0)
    monkeypatch.setattr(native_legal, "PART_LINES", 1)
    monkeypatch.setattr(native_apply, "INLINED_DO_LINES", 0)
    monkeypatch.setattr(native_apply, "GROUP_STATEMENTS", 1)
    for name, value in (("_written_before", lambda game: None), ("_keep_written", lambda game, written: None),
                        ("_NATIVE", {}), ("_LOADED", {})):
        monkeypatch.setattr(native_game, name, value)
    game = ziggurat.load(os.path.join(HERE, "stages.rules"))
    made = native_game.native(game, ("perft",))
    with open(made.path) as f:
        text = f.read()
    assert f"@njit(cache=True, inlines=False, {native_legal.PART})\ndef legal_0(" in text
    assert f"@njit(cache=True, {native_legal.PART})\ndef dos_0(" in text
    assert isinstance(made.module.legal_0, Shared) and isinstance(made.module.dos_0, Shared)
    assert made.perft(game.new(), 3) == ziggurat.perft(game.new(), 3)
