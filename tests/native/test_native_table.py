"""The open table in the native backend (native/table.py, native/table_kernel.py, the layout's table
region), checked against the Python backend, which is independent (interpreter/geometry.py): the
moves each position lists (in Python's order, which decides what a seeded draw takes), the
positions the moves reach, the end, perft, and native playouts replayed move by move in Python.

Most checks run the written module as plain Python (nothing compiled: seconds per option set);
one option set is compiled in the default suite, every other in the long suite (ZIGGURAT_SLOW=1).
"""

from __future__ import annotations

import os
import random

import numpy as np
import pytest

import ziggurat
from ziggurat.errors import Unsupported
from ziggurat.interpreter.native import game as native_game
from ziggurat.interpreter.runtime import perft

from native_replay import plain_module, replay

SLOW = os.environ.get("ZIGGURAT_SLOW") == "1"
TABLE_REPEAT = os.path.join(os.path.dirname(__file__), "table_repeat.rules")
# Every other built-in of the table (one-argument lattice, two-argument flush, distance to the
# nearest spot, on_table, pointing, hit read in the end block): a small game of its own.
TABLE_CALLS = os.path.join(os.path.dirname(__file__), "table_calls.rules")

# Every option of the table game: its colours, players, lattice pitch, offsets, scoring and cap.
PLAIN = [{"colours": "ten"}, {"colours": "four", "players": 5, "offsets": "centred"},
         {"colours": "six", "pitch": 16, "players": 4}, {"colours": "four", "scoring": True, "ply_cap": 40}] + (
    [{"colours": "six"}, {"colours": "four"}, {"colours": "ten", "players": 3}, {"colours": "six", "players": 3},
     {"colours": "four", "players": 3}, {"colours": "four", "pitch": 3}] if SLOW else [])
COMPILED = [{"colours": "four"}] + ([{"colours": "ten"}, {"colours": "six", "players": 3},
                                     {"colours": "four", "players": 5, "scoring": True}] if SLOW else [])

# Positions of the ruleset's examples (chaos.rules), with their options: the table as the rules
# reason about it by hand, with attackers, defenders and captures.
POSITIONS = [
    ({}, "first 5 | rd3@0,0 rd3@6,0 | supply=rd3rd3 captured.first= captured.second= die1=5 die2=0"),
    ({}, "first 5 | rd3@0,0 rd3@6,0 | supply=rd2rd1 captured.first= captured.second= die1=3 die2=0"),
    ({}, "first 5 | rd3@0,0 rd3@6,0 rd3@1.375,0>e | supply=rd3rd3 captured.first= captured.second= die1=3 die2=0"),
    ({"players": 3}, "first 5 | rd3@0,0 rd3@6,0 | supply=rd3rd3 captured.first= captured.second= "
                     "captured.third= die1=3 die2=0"),
    ({"scoring": True, "ply_cap": 10}, "first 9 | rd3@0,0 rd3@-6,0 or3@4,0 ye3@0,4 gn3@0,-4 cl3@-10,0 wh3@-6,4 "
     "bk3@-6,-4 | supply=rd3rd2or3or2ye3gn3cl3wh3bk3 captured.first= captured.second=pu2 die1=3 die2=0"),
    ({"scoring": True, "ply_cap": 10}, "first 9 | rd3@0,0 rd3@-6,0 bl3@3,0 ye3@5,0 or3@0,3>e | "
     "supply=rd3ye3or3bl3 captured.first= captured.second=pu2 die1=3 die2=0"),
    ({"colours": "four", "scoring": True, "ply_cap": 10}, "first 9 | bl3@0,0 bl3@-6,0 rd3@4,0 gn3@0,4 | "
     "supply=bl3rd3gn3 captured.first= captured.second=pu2 die1=4 die2=0"),
]

_games: dict = {}


def written(options: dict, ruleset: str = "chaos") -> tuple:
    """(game, module text, layout) of a table game at these options (written once)."""
    key = (ruleset,) + tuple(sorted(options.items()))
    if key not in _games:
        game = ziggurat.load(ruleset, options)
        text, layout = native_game._write(game)[:2]
        _games[key] = (game, text, layout)
    return _games[key]


def plain_games(options: dict, seeds: range, plies: int = 10_000, ruleset: str = "chaos"):
    """Seeded random games of the Python backend, with the plain module beside it: yields (state,
    vector, module, layout) before each move and checks, at each position, that the module lists
    Python's moves in Python's order, that it ends where Python ends, and that each move reaches
    Python's position."""
    game, text, layout = written(options, ruleset)
    module = plain_module(text)
    buf = np.empty(module["MAXM"] + 1, np.int64)
    res = np.empty(layout.nplayers + 1, np.float64)
    hist = np.zeros(1, np.int64)
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new()
        v = layout.vector(state)
        for _ply in range(plies):
            yield state, v, module, layout
            n = module["legal"](v, buf)
            ended = state.outcome()
            assert (module["outcome"](v, n, res, hist, 0) != 0) == (ended is not None), f"seed {seed}"
            if ended is not None:
                break
            moves = list(state.moves())
            assert [int(m) for m in buf[:n]] == [layout.codec.pack(m) for m in moves], f"seed {seed}: {state.text()}"
            m = rng.choice(moves)
            state.push(m)
            module["apply"](v, layout.codec.pack(m))
            assert v[3] == 0  # OVER: nothing past what the vector holds
            assert np.array_equal(v[4:], layout.vector(state)[4:]), f"seed {seed}: {state.move_text(m)}"


@pytest.mark.parametrize("options", PLAIN, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_the_written_module_lists_pythons_moves_and_reaches_its_positions(options):
    plies = sum(1 for _ in plain_games(options, range(2)))
    assert plies > 40  # whole games, defenders and attackers on the table


def test_every_table_built_in_lists_pythons_moves_and_reaches_its_positions():
    ended = set()
    for reach, seeds in ((2, range(12)), (5, range(4))):
        for state, *_rest in plain_games({"reach": reach}, seeds, ruleset=TABLE_CALLS):
            if state.outcome() is not None:
                ended.add(state.outcome().reason)
    assert ended == {"no moves", "pointed at an enemy", "two laid east"}  # hit() and pointing() decided games


def test_table_positions_and_spot_moves_convert_both_ways():
    game, _text, layout = written({"colours": "six"})
    for state, v, _module, _layout in plain_games({"colours": "six"}, range(1), 80):
        assert layout.table(v) == tuple(state.table[0])
        for m in state.moves():
            assert layout.codec.unpack(layout.codec.pack(m)) == m
    assert layout.tcap == 15 * 6 and len(state.table[0]) > 20


@pytest.mark.parametrize("k", range(len(POSITIONS)))
def test_plain_perft_from_the_examples_positions_equals_pythons(k):
    options, text = POSITIONS[k]
    game, module_text, layout = written(options)
    state = game.position(text)
    module = plain_module(module_text)
    hist = np.zeros(4, np.int64)
    for d in range(3):
        assert module["perft"](layout.vector(state), d, hist, 0) == perft(state, d), f"depth {d}"


def test_a_table_past_its_capacity_stops_the_loop_and_python_runs_it():
    game, text, layout = written({})
    module = plain_module(text)
    module["TCAP"] = 2  # the kernel's helpers read it at each call, as plain Python
    state = game.position(POSITIONS[1][1])  # two pieces on the table, a red to place
    hist = np.zeros(4, np.int64)
    assert module["perft"](layout.vector(state), 2, hist, 0) == -2  # OVER 1: the loop stops
    assert module["perft"](layout.vector(state), 1, hist, 0) == perft(state, 1)


def test_more_lattice_points_than_a_list_holds_stop_the_loop(monkeypatch):
    from ziggurat.interpreter.native import module as native_module

    monkeypatch.setattr(native_module, "MAXM", 50)  # a lattice list of 50 points, fewer than 112
    game = ziggurat.load("chaos", {"colours": "four"})
    text, layout = native_game._write(game)[:2]
    module = plain_module(text)
    state = game.new()
    for move in ("red+blue", "red@0,0"):
        state.play(move)
    v = layout.vector(state)
    module["legal"](v, np.empty(4096, np.int64))
    assert v[3] == 1


def test_repetition_on_the_open_table_is_refused_at_the_surfaces_line():
    with pytest.raises(Unsupported) as caught:
        native_game.source(ziggurat.load(TABLE_REPEAT))
    assert caught.value.line().startswith("the native backend cannot compile repetition on the open table "
                                          "(not yet checked against the Python backend) (table_repeat.rules:")


# ---- compiled ---------------------------------------------------------------------------------


@pytest.mark.parametrize("options", COMPILED, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_compiled_perft_and_playouts_are_pythons(options):
    game = ziggurat.load("chaos", options)
    native = native_game.native(game, ("perft", "playout"))
    start = game.new()
    for d in range(4):
        assert native.perft(start, d) == perft(start, d), f"depth {d}"
    for seed in range(6):
        p = native.playout(start, seed, 1000)
        state = replay(game, p)
        assert native.state(p.final).table == state.table
        outcome = state.outcome()
        assert outcome is not None and p.kind is not None
        assert (outcome.kind, outcome.player, outcome.reason) == (p.kind, p.who, p.reason)
        assert tuple(outcome.results) == pytest.approx(p.results)
        if seed < 2:
            mid = game.new()
            for m in state.stack[:len(state.stack) // 2]:
                mid.push(m)
            assert native.perft(mid, 2) == perft(mid, 2), f"seed {seed}: from {mid.text()}"


def test_native_mcts_searches_the_table_in_its_own_tree():
    from ziggurat.agents import make_agent

    game = ziggurat.load("chaos", {"colours": "four"})
    state = game.new()
    for move in ("red+blue", "red@0,0", "blue@6,0", "yellow+green"):
        state.play(move)
    agent = make_agent("mcts:iterations=100:rollout=10:rollouts=native", 1)
    m = agent.choose(state)
    assert m in state.moves()
    assert agent.reason.endswith("(native search)"), agent.reason


def test_the_written_heuristic_and_cut_playouts_score_as_python():
    """The search's cut-off (`rollout=10`) scores a position by the ruleset's heuristic: written
    natively, it equals the Python one for every side, along seeded games."""
    from ziggurat.agents.base import Evaluator
    from ziggurat.agents.rollouts import cut_short

    game, _text, _layout = written({"colours": "four", "players": 3})
    ev = Evaluator(game)
    seen = set()
    for state, v, module, _layout in plain_games({"colours": "four", "players": 3}, range(2)):
        sides = [module["heuristic"](v, p) for p in range(3)]
        assert sides == list(ev.for_each_side(state, game.heuristic)), state.text()
        out = np.zeros(3)
        module["cut_result"](v, out)
        assert tuple(out) == cut_short(state, ev, 3)
        seen.add(tuple(sides))
    assert len(seen) > 1  # captures were made: the heuristic moved


def test_the_hash_tells_apart_positions_that_differ_only_in_where_pieces_lie():
    """Alpha-beta's transposition table keys a position by its hash: the table's slots are in it."""
    game, text, layout = written({"colours": "four"})
    module = plain_module(text)
    hashes = set()
    for place in ("red@0,0", "blue@0,0"):
        state = game.new()
        for move in ("red+blue", place, "red@6,0" if place == "blue@0,0" else "blue@6,0"):
            state.play(move)
        with np.errstate(over="ignore"):  # the hash wraps round on purpose (uint64 arithmetic)
            hashes.add(int(module["hash_state"](layout.vector(state))))
    assert len(hashes) == 2  # the same supply, dice and side; red and blue swapped on the table


def test_native_alphabeta_on_the_table_agrees_with_python():
    """The same best value and the same moves tied best as the Python negamax (its transposition
    table keyed by the hash, the table in it), from positions of seeded random play."""
    from ziggurat.agents.alphabeta import AlphaBetaAgent
    from ziggurat.agents.base import WIN, Evaluator
    from ziggurat.interpreter.native.search import NativeSearch

    game = ziggurat.load("chaos", {"colours": "four"})
    search = NativeSearch(native_game.native(game, ()))
    python, ev = AlphaBetaAgent(seed=0), Evaluator(game)
    rng, state, checked = random.Random(7), game.new(), 0
    while checked < 4:
        for _ in range(rng.randrange(3, 12)):
            if state.outcome() is not None:
                state = game.new()
            state.push(rng.choice(state.moves()))
        if state.outcome() is not None or state.is_chance or len(state.moves()) < 2:
            continue
        checked += 1
        moves = state.moves()
        value, best = python._root(state.copy(), ev, list(moves), 2, None)
        run = search.alphabeta(state, list(moves), 2, WIN)
        assert run.run()
        values = run.result()
        assert max(values) == pytest.approx(value, abs=1e-9), state.text()
        assert sorted(m for m, v in zip(moves, values) if v == max(values)) == sorted(best)
