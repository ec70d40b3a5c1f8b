"""The direct path (native/direct/bind.py; on by default, ZIGGURAT_NATIVE_DIRECT=0 turns it off): a
module's game functions compiled by the direct path, the loops by Numba calling them. The same perft counts and the same seeded
games (every column of `study_chunk`, the final positions) as the module compiled by Numba alone,
for rulesets of different shapes; a module the translator refuses falls back to Numba whole. The
direct code's cache, across processes and machines, and the fallbacks: test_direct_cache.py."""

import numpy as np
import pytest

import ziggurat

numba = pytest.importorskip("numba")

from ziggurat.interpreter.native import game as native_game  # noqa: E402
from ziggurat.interpreter.native.direct import bind  # noqa: E402

LOOPS = ("perft", "study_chunk")


def played(ng, game, depth: int, count: int, plies: int) -> tuple:
    """perft to `depth`, and `count` seeded games' columns and final positions."""
    state = game.new()
    counts = [ng.perft(state, d) for d in range(1, depth + 1)]
    starts = ng.start(state)[0]
    cols = ng.study_chunk(starts, np.arange(1, count + 1, dtype=np.uint64), plies, finals=True)
    columns = {f: np.asarray(getattr(cols, f)).tolist() for f in
               ("plies", "codes", "results", "who", "branching", "actions", "seats", "finals")}
    return counts, columns


def both(monkeypatch, name: str, depth: int, count: int = 40, plies: int = 300) -> tuple:
    """(Numba's, the switch's) native games of a ruleset, and the switch's module."""
    game = ziggurat.load(name)
    monkeypatch.setenv(bind.SWITCH, "0")
    off = played(native_game.native(game, LOOPS), game, depth, count, plies)
    monkeypatch.setenv(bind.SWITCH, "1")
    ng = native_game.native(game, LOOPS)
    on = played(ng, game, depth, count, plies)
    return off, on, ng.module


@pytest.mark.parametrize("name, depth", [("breakthrough", 3), ("rgb", 2), ("ryb", 2), ("pig", 3)])
def test_the_direct_game_functions_play_the_same_perft_and_seeded_games(monkeypatch, name, depth):
    off, on, module = both(monkeypatch, name, depth)
    assert getattr(module, "_direct_library", None) is not None  # the switch did bind the module
    assert module.legal.py_func.__globals__ is not module.__dict__  # its `legal` is the wrapper
    assert on[0] == off[0]
    assert on[1] == off[1]


def test_a_module_the_translator_refuses_falls_back_to_numba_and_plays_the_same_games(monkeypatch):
    off, on, module = both(monkeypatch, "chaos", 2)  # chaos's module raises: outside the subset
    assert getattr(module, "_direct_library", None) is None
    assert module.legal.py_func.__globals__ is module.__dict__
    assert on == off


def test_the_direct_path_is_on_by_default_and_off_with_the_switch_at_0_or_numbas_bounds_checks(monkeypatch):
    monkeypatch.delenv(bind.SWITCH, raising=False)
    monkeypatch.delenv("NUMBA_BOUNDSCHECK", raising=False)
    assert bind.wanted()
    monkeypatch.setenv(bind.SWITCH, "1")
    assert bind.wanted()
    monkeypatch.setenv(bind.SWITCH, "0")
    assert not bind.wanted()
    monkeypatch.delenv(bind.SWITCH)
    for checks, on in (("1", False), ("0", True), ("", True)):  # Numba's reading: a number, 0 for off
        monkeypatch.setenv("NUMBA_BOUNDSCHECK", checks)
        assert bind.wanted() is on


def searched(ng, game) -> tuple:
    """Alpha-beta's values (depth 3, the heuristic and nature's weights at its leaves) and a
    seeded MCTS's root children (its rollouts: legal, apply, outcome) at the start."""
    from ziggurat.interpreter.native.search import NativeSearch

    search, state = NativeSearch(ng), game.new()
    while state.is_chance:
        state.push(state.moves()[0])
    run = search.alphabeta(state, list(state.moves()), 3, 1000.0, use_tt=False)
    assert run.run()
    tree = search.mcts(state, 1.4, 200, 9, 300)
    tree.run(300)
    return run.result(), tree.children()


@pytest.mark.parametrize("name", ["othello", "pig"])  # each with a heuristic: pig with nature
def test_the_searches_over_direct_game_functions_find_the_same_values(monkeypatch, name):
    game = ziggurat.load(name)
    monkeypatch.setenv(bind.SWITCH, "0")
    off = searched(native_game.native(game, ()), game)
    monkeypatch.setenv(bind.SWITCH, "1")
    ng = native_game.native(game, ())
    assert getattr(ng.module, "_direct_library", None) is not None
    assert searched(ng, game) == off


def test_a_module_compiled_with_the_switch_on_is_cached_under_it(monkeypatch):
    # is_cached asks for the module native() would give now: with the switch on, its own (the direct one)
    game = ziggurat.load("tic-tac-toe")
    monkeypatch.setenv(bind.SWITCH, "1")
    ng = native_game.native(game, ("perft",))
    assert getattr(ng.module, "_direct_library", None) is not None
    assert native_game.is_cached(game)
    assert native_game.native(game) is ng
