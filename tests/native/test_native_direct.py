"""The switch ZIGGURAT_NATIVE_DIRECT=1 (native/direct/bind.py): a module's game functions compiled
by the direct path, the loops by Numba calling them. The same perft counts and the same seeded
games (every column of `study_chunk`, the final positions) as the module compiled by Numba alone,
for rulesets of different shapes; a module the translator refuses falls back to Numba whole."""

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
    monkeypatch.delenv(bind.SWITCH, raising=False)
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


def test_the_switch_is_off_by_default(monkeypatch):
    monkeypatch.delenv(bind.SWITCH, raising=False)
    assert not bind.wanted()
    monkeypatch.setenv(bind.SWITCH, "1")
    assert bind.wanted()


PROCESS = """
import hashlib, json, sys
import numpy as np
import ziggurat
from ziggurat.interpreter.native.game import native
game = ziggurat.load(sys.argv[1])
ng = native(game, ("perft", "study_chunk"))
state = game.new()
cols = ng.study_chunk(ng.start(state)[0], np.arange(1, 21, dtype=np.uint64), 200, finals=True)
games = [np.asarray(getattr(cols, f)).tolist() for f in ("plies", "codes", "results", "branching", "finals")]
lib = getattr(ng.module, "_direct_library", None)
digest = hashlib.sha1(json.dumps(games).encode()).hexdigest()
print(json.dumps({"perft": [ng.perft(state, d) for d in (1, 2)], "games": digest,
                  "direct": None if lib is None else lib.from_cache,
                  "loop hits": sum(ng.module.study_chunk.stats.cache_hits.values())}))
"""


def test_a_second_process_loads_the_direct_code_and_its_loops_from_the_cache(tmp_path):
    """The direct object code and the loops calling it are kept (the loops under a file of their
    own): a second process with the switch on loads both and plays the same games; a process
    with the switch off, on the same cache, loads none of those loops (it would end: their
    symbols are not in it) and plays the same games too."""
    import json
    import os
    import subprocess
    import sys

    def run(on: bool) -> dict:
        env = {k: v for k, v in os.environ.items() if k != bind.SWITCH}
        env.update({"ZIGGURAT_CACHE_DIR": str(tmp_path), **({bind.SWITCH: "1"} if on else {})})
        out = subprocess.run([sys.executable, "-c", PROCESS, "breakthrough"], env=env, capture_output=True,
                             text=True, check=True)
        return json.loads(out.stdout.strip().splitlines()[-1])

    cold, warm, off = run(True), run(True), run(False)
    assert cold["direct"] is False and cold["loop hits"] == 0  # compiled, then kept
    assert warm["direct"] is True and warm["loop hits"] > 0  # both loaded
    assert off["direct"] is None and off["loop hits"] == 0  # its own module: compiled by Numba
    assert cold["perft"] == warm["perft"] == off["perft"]
    assert cold["games"] == warm["games"] == off["games"]


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
    monkeypatch.delenv(bind.SWITCH, raising=False)
    off = searched(native_game.native(game, ()), game)
    monkeypatch.setenv(bind.SWITCH, "1")
    ng = native_game.native(game, ())
    assert getattr(ng.module, "_direct_library", None) is not None
    assert searched(ng, game) == off


def test_the_direct_code_is_kept_per_machine(monkeypatch):
    # another CPU (or its features, or another LLVM) is another cache entry: never machine code made for another
    pytest.importorskip("llvmlite")
    from ziggurat.interpreter.native.direct import compile as direct_compile

    here = direct_compile.target_tag()
    assert direct_compile.target_tag() == here
    llvm, _ = direct_compile.llvm_setup()
    monkeypatch.setattr(llvm, "get_host_cpu_name", lambda: "some-other-cpu")
    assert direct_compile.target_tag() != here


def test_a_module_compiled_with_the_switch_on_is_cached_under_it(monkeypatch):
    # is_cached asks for the module native() would give now: with the switch on, its own (the direct one)
    game = ziggurat.load("tic-tac-toe")
    monkeypatch.setenv(bind.SWITCH, "1")
    ng = native_game.native(game, ("perft",))
    assert getattr(ng.module, "_direct_library", None) is not None
    assert native_game.is_cached(game)
    assert native_game.native(game) is ng
