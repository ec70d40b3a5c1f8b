"""Konane (rulesets/konane.rules) against the independent reference tests/reference/konane_ref.py.

The reference was written from the rules alone, apart from the ruleset. Random games on several
board sizes are replayed move by move in both, comparing the legal moves and the position text at
every ply and the winner at the end. Then rule-by-rule tests on hand-built positions, each with
the expected moves worked out by hand in a comment. Cells: files a.., ranks 1.. (a1 bottom left);
at the start black stands where file + rank is even.
"""

from __future__ import annotations

import os
import random
from functools import lru_cache

import pytest

import ziggurat
from perft_data import PERFT_DIR, read
from reference import konane_ref as ref

ZONES = "removed=BW captured.black= captured.white="


@lru_cache(maxsize=None)
def game(width=8, height=8):
    """The Konane game on a board of this size."""
    return ziggurat.load("konane", {"width": str(width), "height": str(height)})


def pos(text, width=8, height=8):
    """An engine position of Konane on a board of this size."""
    return game(width, height).position(text)


def texts(st):
    """The engine's legal moves as texts, sorted."""
    return sorted(st.move_text(m) for m in st.moves())


def engine_winner(st):
    """The name of the side that won, or None while the game goes on."""
    out = st.outcome()
    if out is None:
        return None
    assert out.kind == "lose"
    return st.game.players[out.results.index(1)]


# ---- random games, engine and reference side by side ------------------------------------------


SIZES = [(4, 4), (5, 5), (6, 6), (8, 8), (7, 6), (4, 9)]


@pytest.mark.parametrize("width,height", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("seed", range(6))
def test_random_game_agrees_with_reference(width, height, seed):
    """In a seeded random game both implementations have the same moves and positions every ply and the same winner."""
    rng = random.Random(f"{width}x{height}/{seed}")
    st, p = game(width, height).new(), ref.start(width, height)
    while True:
        assert st.text() == p.text(), f"ply {p.ply}"
        expected = ref.moves(p)
        assert texts(st) == expected, f"ply {p.ply} in {p.text()}"
        if not expected:
            break
        move = rng.choice(expected)
        st.play(move)
        p = ref.play(p, move)
    assert engine_winner(st) == ref.winner(p) == ref.SIDES[1 - p.side]


def test_reference_matches_the_perft_file():
    """The reference gives every count of tests/perft/konane.perft up to 20,000 leaves: 41 of its
    44 counts (6x6 at depth 7, 5x5 at 8 and 4x4 at 12 with ZIGGURAT_SLOW=1, up to 50,000)."""
    limit = 50_000 if os.environ.get("ZIGGURAT_SLOW") == "1" else 20_000
    checked = 0
    for record in read(PERFT_DIR / "konane.perft"):
        width, height = int(record.options.get("width", 8)), int(record.options.get("height", 8))
        p = (ref.start(width, height) if record.position == "start"
             else ref.parse(record.position, width, height))
        for depth, leaves in record.counts:
            if leaves <= limit:
                assert ref.perft(p, depth) == leaves, f"{record.id} depth {depth}"
                checked += 1
    assert checked >= 20


# ---- removals at plies 0 and 1 ----------------------------------------------------------------


@pytest.mark.parametrize("width,height,expected", [
    # 8x8: middle d4 d5 e4 e5, black d4 e5; corners a1 h8 black, a8 h1 white.
    (8, 8, ["xa1", "xd4", "xe5", "xh8"]),
    # 5x5: the middle is the one centre cell c3 (black); all four corners are black.
    (5, 5, ["xa1", "xa5", "xc3", "xe1", "xe5"]),
    # 7x6: the middle is d3 d4 (odd width: one file), d4 black; corners a1 g1 black, a6 g6 white.
    (7, 6, ["xa1", "xd4", "xg1"]),
    # 6x5: the middle is c3 d3 (odd height: one rank), c3 black (3 + 3 even); corners a1 a5 black,
    # f1 f5 white.
    (6, 5, ["xa1", "xa5", "xc3"]),
])
def test_first_move_removes_a_black_middle_or_corner_stone(width, height, expected):
    """At ply 0 black removes one of its stones in the middle or on a corner, nothing else."""
    st = game(width, height).new()
    assert st.mover_name == "black" and st.ply == 0
    assert texts(st) == expected


def test_first_move_cannot_remove_a_white_or_edge_stone():
    """At ply 0 a white middle stone, a white corner and a black edge stone are refused."""
    for move in ("xd5", "xe4", "xa8", "xc1"):
        with pytest.raises(ziggurat.GameError):
            game().new().play(move)


@pytest.mark.parametrize("first,expected", [
    # The hole d4 has the white neighbours c4 e4 d3 d5.
    ("xd4", ["xc4", "xd3", "xd5", "xe4"]),
    # The hole a1 has the white neighbours a2 b1.
    ("xa1", ["xa2", "xb1"]),
    # The hole h8 has g8 and h7.
    ("xh8", ["xg8", "xh7"]),
])
def test_second_move_removes_a_white_stone_next_to_the_hole(first, expected):
    """At ply 1 white removes one of its stones orthogonally next to the empty cell."""
    st = game().new()
    st.play(first)
    assert st.mover_name == "white"
    assert texts(st) == expected


def test_second_move_is_a_removal_even_when_a_jump_would_be_possible():
    """At ply 1 only removals are legal: a white stone that could jump is only taken off."""
    # White c3 next to black b3 with a3 empty beyond would jump to a3 from ply 2 on; at ply 1 the
    # only move is to remove c3 (it is next to the empty c2 c4 d3). Black b3 is not white's.
    st = pos("white 1 | b3=B c3=W | removed=B captured.black= captured.white=")
    assert texts(st) == ["xc3"]
    with pytest.raises(ziggurat.GameError):
        st.play("c3-a3")


def test_removed_stones_go_to_the_removed_zone():
    """The two removals put a black and a white stone in `removed`, nothing in the captured zones."""
    st = game().new()
    st.play("xd4")
    st.play("xd5")
    assert st.text().endswith("| removed=BW captured.black= captured.white=")
    assert all(not t.startswith("x") for t in texts(st))


def test_no_removal_after_ply_one():
    """From ply 2 on a stone next to a hole cannot be removed: only jumps are legal."""
    # Black a1 is next to the empty a2, which would make it removable at ply 1; at ply 2 its only
    # move is the jump over white b1 onto the empty c1.
    st = pos(f"black 2 | a1=B b1=W | {ZONES}")
    assert texts(st) == ["a1-c1"]
    with pytest.raises(ziggurat.GameError):
        st.play("xa1")


# ---- jumps ------------------------------------------------------------------------------------


def test_player_may_stop_after_any_jump():
    """A stone jumping a line of enemies may stop after each jump: one move per stopping point."""
    # c1 north: over c2 to c3, over c4 to c5, over c6 to c7 (c8 beyond has nothing to jump).
    st = pos(f"black 2 | c1=B c2=W c4=W c6=W | {ZONES}")
    assert texts(st) == ["c1-c3", "c1-c3-c5", "c1-c3-c5-c7"]
    st.play("c1-c3-c5")
    assert st.text() == f"white 3 | c5=B c6=W | removed=BW captured.black=WW captured.white="


def test_jump_does_not_turn():
    """After a first jump the stone goes on only in the same direction, never turning."""
    # d4 jumps e4 to f4; from f4 a turn over f5 (to f6) or f3 (to f2) is not allowed, and g4
    # beyond f4 is empty. c4 jumps b4 to a4.
    st = pos(f"black 6 | f3=W b4=W c4=B d4=B e4=W f5=W | {ZONES}")
    assert texts(st) == ["c4-a4", "d4-f4"]
    for move in ("d4-f4-f6", "d4-f4-f2"):
        with pytest.raises(ziggurat.GameError):
            st.parse_move(move)


def test_no_jumping_own_stones():
    """A stone cannot jump a stone of its own side, even onto an empty cell."""
    # b2 is next to its own c2 (d2 empty beyond) and own b3 (b4 empty), c2 next to own b2 (a2
    # empty), b3 next to own b2 (b1 empty): no jump; b3 over white a3 would land off the board.
    # Black's one move is h8 over white g8 onto f8.
    st = pos(f"black 2 | b2=B c2=B b3=B a3=W g8=W h8=B | {ZONES}")
    assert texts(st) == ["h8-f8"]
    with pytest.raises(ziggurat.GameError):
        st.play("b2-d2")


def test_jump_needs_an_empty_landing_cell():
    """A jump needs the cell beyond the enemy empty and on the board; a chain stops at an occupied one."""
    # d4 east: e4 white, f4 white (occupied) -> no. d4 north: d5 white, d6 empty -> d4-d6; then
    # d7 white but d8 occupied (white) -> stop. d4 west: c4 white, b4 empty -> d4-b4; then a4 white, and
    # beyond a4 is off the board -> stop.
    st = pos(f"black 2 | d4=B e4=W f4=W d5=W d7=W d8=W c4=W a4=W | {ZONES}")
    assert texts(st) == ["d4-b4", "d4-d6"]


def test_jump_over_an_empty_cell_is_no_move():
    """A stone does not move onto an empty cell two away with nothing (or a gap) between."""
    # b2 with empty b3, b4: no jump; c2 white then d2 empty -> b2-d2 only.
    st = pos(f"black 2 | b2=B c2=W | {ZONES}")
    assert texts(st) == ["b2-d2"]


def test_white_jumps_black_and_fills_captured_white():
    """White's jumps take black stones into captured.white."""
    # White e5 west over d5 to c5, on over b5 to a5.
    st = pos(f"white 3 | b5=B d5=B e5=W | {ZONES}")
    assert texts(st) == ["e5-c5", "e5-c5-a5"]
    st.play("e5-c5-a5")
    assert st.text() == "black 4 | a5=W | removed=BW captured.black= captured.white=BB"


# ---- the end -----------------------------------------------------------------------------------


def test_player_without_a_move_loses():
    """The side to move with no legal jump loses, even with stones on the board."""
    # Black c4 takes b4 (to a4); white e4 takes d4 (to c4); black a4 has nothing next to it.
    st = pos(f"black 6 | f3=W b4=W c4=B d4=B e4=W f5=W | {ZONES}")
    st.play("c4-a4")
    assert st.outcome() is None
    st.play("e4-c4")
    assert st.moves() == []
    out = st.outcome()
    assert out is not None and out.kind == "lose" and out.player == 0
    assert engine_winner(st) == "white"
