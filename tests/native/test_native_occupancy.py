"""The occupancy words of a native position (ziggurat.interpreter.native.occupancy): where a game's
moves choose among the mover's own cells (or the empty ones), the position keeps a bit a cell a
player, and that choice walks the mover's bits (the bits in no word); a flanked run is looked for
only where a first neighbour is in another player's word. Checked against the Python backend,
which keeps no such words: the words of a position reached by native moves are the words
`Layout.vector` makes of the Python backend's position after the same moves, listing the moves
(whose Stages are taken back by their inverses or by copies) leaves them as they were, and the
moves listed are the Python backend's.

The written modules run as plain Python (no compile) but for one compiled check of Breakthrough.
"""

from pathlib import Path

import numpy as np
import pytest

import ziggurat
from ziggurat.interpreter.native import game as native_game
from ziggurat.interpreter.native.game import source
from ziggurat.interpreter.native.layout import LAST

from native_replay import plain_module, replay

HERE = Path(__file__).parent
ROCKS = str(HERE / "rocks.rules")  # Othello's placing with a rock nobody owns, which breaks a line

# stacks of one piece (Breakthrough, Konane), two words a player (Amazons' 100 cells), `change` of
# a level (Checkers' crowning, Lasca's and RGB's), tall stacks (RGB: copy_state's loop a cell; Stacktics);
# empty cells chosen (Othello, Tic-tac-toe; Rocks, whose rock is in no word and not empty) and
# flanked runs looked for (Othello, Rocks)
WORDS = ["breakthrough", "amazons", "checkers", "lasca", "rgb", "konane", "stacktics", "othello", "tic-tac-toe", ROCKS]


def written(name: str):
    native_game._WRITTEN.clear()
    game = ziggurat.load(name)
    text, layout = source(game)[:2]
    return game, text, layout


def words(layout, v) -> list:
    return v[layout.occ:layout.size].tolist()


@pytest.mark.parametrize("name", WORDS)
def test_occupancy_words_follow_the_python_backends_positions_move_by_move(name):
    game, text, layout = written(name)
    assert layout.nw == (layout.ncells + 63) // 64 and layout.size == layout.occ + layout.nplayers * layout.nw
    m = plain_module(text)
    codec = layout.codec
    out = np.empty(m["MAXM"], np.int64)
    rng = np.random.default_rng(5)
    for _ in range(2):
        state = game.new()
        v = layout.vector(state)
        assert any(words(layout, v)) == bool(v[layout.hgt:layout.stk].any())  # some bit set where a piece is
        for ply in range(120):
            if state.outcome() is not None:
                break
            before = v.copy()
            n = m["legal"](v, out)
            assert np.array_equal(v[:layout.hsh], before[:layout.hsh]) and words(layout, v) == words(layout, before)
            assert sorted(out[:n].tolist()) == sorted(codec.pack(mv) for mv in state.moves()), f"ply {ply}"
            pick = int(out[rng.integers(n)])
            m["apply"](v, pick)
            state.push(codec.unpack(pick))
            assert words(layout, v) == words(layout, layout.vector(state)), f"ply {ply}"


def listing(text: str) -> str:
    return text[text.index("def legal("):text.index("\n@njit", text.index("def legal("))]


def test_breakthroughs_moves_walk_the_movers_bits():
    _, text, layout = written("breakthrough")
    legal = listing(text)
    assert "range(NC)" not in legal and "low_bit(" in legal and "OCC + mover" in legal


def test_othellos_moves_walk_the_empty_cells_bits_and_probe_the_neighbours_before_the_runs():
    _, text, layout = written("othello")
    legal = listing(text)
    assert layout.nw == 1 and "range(NC)" not in legal and "low_bit(" in legal
    assert "~(np.uint64(s[U(OCC + 0)]) | np.uint64(s[U(OCC + 1)]))" in legal  # in no player's word
    probe = legal.index("if occ_near(s, ")
    assert probe < legal.index("flank_len(", probe)  # the runs looked for only past the probe
    end = text[text.index("def outcome("):text.index("\n@njit", text.index("def outcome("))]
    assert end.count("occ_near(s, ") == 2 and "range(NC)" not in end.split("_keys")[0]  # can_place for both


def test_a_rock_nobody_owns_is_no_empty_cell_and_breaks_a_run():
    game, text, layout = written(ROCKS)
    assert layout.nw == 1 and "OCC + mover" in text.split("# ---- kernel")[0]  # the lift choice: words kept
    legal = listing(text)
    assert "range(NC)" in legal and "occ_near(s, " in legal  # empty cells by their heights; the probe
    m = plain_module(text)
    out = np.empty(m["MAXM"], np.int64)
    start = game.new()
    v = layout.vector(start)
    n = m["legal"](v, out)
    assert [layout.codec.unpack(int(x)) for x in out[:n]] == list(start.moves()) == [(0, 10)]  # a3 alone
    m["apply"](v, int(out[0]))
    start.push((0, 10))
    after = layout.vector(start)
    # all but the slot of the last move (the vector of a Python position has none)
    assert np.array_equal(np.delete(v[:layout.hsh], LAST), np.delete(after[:layout.hsh], LAST))
    assert v[layout.hgt:layout.stk].tolist() == after[layout.hgt:layout.stk].tolist()
    assert words(layout, v) == words(layout, after)
    assert [v[layout.stk + c] for c in (11, 12)] == [after[layout.stk + c] for c in (11, 12)]  # b3, c3 not turned


def test_compiled_breakthrough_playouts_end_with_the_words_of_the_python_position():
    from ziggurat.interpreter.native.game import native

    game = ziggurat.load("breakthrough")
    fast = native(game)
    for seed in range(6):
        p = fast.playout(game.new(), seed, 400)
        state = replay(game, p)
        assert words(fast.layout, p.final) == words(fast.layout, fast.layout.vector(state)), f"seed {seed}"


def test_copying_a_position_of_tall_stacks_copies_its_words():
    game, text, layout = written("rgb")
    m = plain_module(text)
    assert m["CAP"] > 8  # copy_state's loop a cell, not one straight copy
    v = layout.vector(game.new())
    dst = np.zeros_like(v)
    m["copy_state"](dst, v)
    assert words(layout, dst) == words(layout, v) and any(words(layout, dst))


def test_a_large_modules_moves_fix_the_words_of_a_changed_level_inside_change_piece():
    """What runs once a move in a large module (RGB's do_N, outline.py) changes a level with one
    call of `change_piece`, which makes the words right itself: no inlined occ_fix after it. That
    the words stay right is counted by test_native_slots.py's perft of a large module whose moves
    turn the other's piece (it fails with change_piece's occ_fix left out)."""
    _, text, layout = written("rgb")
    assert layout.nw > 0
    part = text.split("# ---- kernel.py")[0]
    dos = "".join(part[i:part.index("\n@njit", i)] for i in range(len(part)) if part.startswith("\ndef do_", i))
    assert "change_piece(s, " in dos and "occ_fix(" not in dos
    kernel = text.split("# ---- kernel.py")[1]
    change = kernel[kernel.index("def change_piece("):kernel.index("\n@njit", kernel.index("def change_piece("))]
    assert "occ_fix(s, c)" in change
