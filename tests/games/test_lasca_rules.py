"""Lasca (rulesets/lasca.rules) against the independent reference tests/reference/lasca_ref.py.

The reference was written from the published rules alone, apart from the ruleset; its docstring
numbers the rules (1-10) with their sources. Random games are replayed move by move in both,
comparing the legal moves and the position text at every ply and the winner at the end. Then one
test or more per rule on hand-built positions, with the expected moves worked out by hand in a
comment. Cells: files a-g, ranks 1-7 (a1 bottom left, white's side); a column is written bottom
first, so `WsBs` is a white soldier under a black one (black commands it).
"""

from __future__ import annotations

import random

import pytest

import ziggurat
from perft_data import PERFT_DIR, read
from reference import lasca_ref as ref

GAME = ziggurat.load("lasca")


def pos(text):
    return GAME.position(text)


def texts(st):
    """The engine's legal moves as texts, sorted."""
    return sorted(st.move_text(m) for m in st.moves())


def board(st):
    """The occupied cells of a position as {cell: column}."""
    return dict(item.split("=") for item in st.text().split("|")[1].split())


def winner(st):
    out = st.outcome()
    return None if out is None else GAME.players[out.results.index(1)]


# ---- random games, engine and reference side by side ------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_random_game_agrees_with_reference(seed):
    """In a seeded random game both have the same moves and positions every ply, and the same winner."""
    rng = random.Random(f"lasca/{seed}")
    st, p = GAME.new(), ref.start()
    for _ in range(300):
        assert ref.parse(st.text()).text() == p.text(), f"ply {p.ply}"
        expected = ref.moves(p)
        assert texts(st) == expected, f"ply {p.ply} in {p.text()}"
        if not expected:
            assert winner(st) == ref.winner(p) == ref.SIDES[1 - p.side]
            break
        move = rng.choice(expected)
        st.play(move)
        p = ref.play(p, move)
    else:
        assert winner(st) is None


def test_reference_matches_the_perft_file():
    """The reference gives every count of tests/perft/lasca.perft (the engine is checked against
    the same file by tests/engine/test_perft.py)."""
    checked = 0
    for record in read(PERFT_DIR / "lasca.perft"):
        p = ref.start() if record.position == "start" else ref.parse(record.position)
        for depth, leaves in record.counts:
            if leaves <= 20_000:
                assert ref.perft(p, depth) == leaves, f"{record.id} depth {depth}"
                checked += 1
    assert checked >= 30


def test_reference_selfcheck():
    """The reference's own hand-checked facts hold."""
    assert ref.selfcheck()


# ---- 1, 2: the board and the start ------------------------------------------------------------


def test_start_uses_the_25_squares_of_the_corners_colour():
    """Eleven soldiers a side on the corner-coloured squares of ranks 1-3 and 5-7; b4 d4 f4 empty;
    white moves first."""
    st = GAME.new()
    cells = board(st)
    assert len(cells) == 22 and st.mover_name == "white"
    assert {c for c, col in cells.items() if col == "Ws"} == {
        "a1", "c1", "e1", "g1", "b2", "d2", "f2", "a3", "c3", "e3", "g3"}
    assert {c for c, col in cells.items() if col == "Bs"} == {
        "a5", "c5", "e5", "g5", "b6", "d6", "f6", "a7", "c7", "e7", "g7"}


# ---- 3, 4: columns and steps ------------------------------------------------------------------


def test_the_top_piece_commands_and_the_column_moves_whole():
    """A column of a black soldier under a white one is white's, and moves all together."""
    # White's d4 = BsWs steps forward to c5 or e5; black's b2 = WsBs steps down to a1 or c1.
    st = pos("white 0 | b2=WsBs d4=BsWs |")
    assert texts(st) == ["d4-c5", "d4-e5"]
    st.play("d4-e5")
    assert board(st) == {"b2": "WsBs", "e5": "BsWs"}
    assert texts(st) == ["b2-a1", "b2-c1"]


def test_a_soldier_steps_forward_only():
    """White soldiers go up, black ones down, one diagonal step onto an empty square."""
    assert texts(pos("white 0 | d4=Ws |")) == ["d4-c5", "d4-e5"]
    assert texts(pos("black 0 | d4=Bs |")) == ["d4-c3", "d4-e3"]
    # Blocked: c5 and e5 are taken, and b6 and f6 behind them too, so nothing can be jumped.
    assert texts(pos("white 0 | d4=Ws c5=Bs e5=Bs b6=Bs f6=Bs |")) == []


def test_an_officer_steps_both_ways_one_square():
    """An officer-led column steps to any of its four diagonal neighbours, one square only."""
    assert texts(pos("white 0 | d4=BsWo |")) == ["d4-c3", "d4-c5", "d4-e3", "d4-e5"]


# ---- 5: capture -------------------------------------------------------------------------------


def test_a_capture_takes_only_the_top_piece_and_puts_it_under_the_capturer():
    """c3 jumps d4 = WsBs: the black soldier goes under c3's column, the white one is freed."""
    st = pos("white 0 | c3=Ws d4=WsBs |")
    assert texts(st) == ["c3xe5"]
    st.play("c3xe5")
    assert board(st) == {"d4": "Ws", "e5": "BsWs"}


def test_a_captured_officer_keeps_its_rank():
    """An officer taken prisoner stays an officer, and leads again when freed."""
    st = pos("white 0 | c3=Ws d4=Bo |")
    st.play("c3xe5")
    assert board(st) == {"e5": "BoWs"}
    st = pos("black 0 | e5=BoWs f6=Bs |")
    st.play("f6xd4")  # black takes e5's white soldier: the black officer under it leads again
    assert board(st) == {"e5": "Bo", "d4": "WsBs"}


def test_a_soldier_captures_forward_only_and_an_officer_both_ways():
    """A white soldier with an enemy behind it cannot take it; an officer there can."""
    assert texts(pos("white 0 | d4=Ws c3=Bs |")) == ["d4-c5", "d4-e5"]
    assert texts(pos("white 0 | d4=Wo c3=Bs |")) == ["d4xb2"]


def test_no_capture_of_own_columns_or_onto_an_occupied_square():
    """A column the mover commands is not jumped; nor is an enemy with something behind it."""
    # d4 over e5 (white's own BsWs) onto f6: no; d4 over c5 (black) onto b6 (occupied): no. So
    # white steps, and only e5 can (d4's c5 and e5 are taken).
    assert texts(pos("white 0 | d4=Ws e5=BsWs c5=Bs b6=Bs |")) == ["e5-d6", "e5-f6"]


# ---- 6: compulsory capture, free choice -------------------------------------------------------


def test_capture_is_compulsory():
    """When a capture exists, steps are not legal, even of other columns."""
    st = pos("white 0 | a1=Ws c3=Ws d4=Bs |")
    assert texts(st) == ["c3xe5"]
    with pytest.raises(ziggurat.GameError):
        st.play("a1-b2")


def test_a_capture_goes_on_while_it_can():
    """A capture sequence ends only where no further jump is possible: c3xe5 alone is not a move."""
    st = pos("white 0 | c3=Ws d4=Bs d6=Bs |")
    assert texts(st) == ["c3xe5xc7"]
    with pytest.raises(ziggurat.GameError):
        st.play("c3xe5")


def test_the_player_chooses_among_sequences_however_long():
    """No maximum-capture rule: the one-jump capture is as legal as the two-jump one."""
    assert texts(pos("white 0 | a1=Ws e1=Ws b2=Bs d4=Bs f2=Bs |")) == ["a1xc3xe5", "e1xg3"]


# ---- 7, 8: within one move --------------------------------------------------------------------


def test_no_column_is_jumped_twice_in_a_move():
    """Round four two-high black columns the officer jumps each once and stops back on a3."""
    st = pos("white 0 | a3=Wo b2=BsBs b4=BsBs d2=BsBs d4=BsBs |")
    assert texts(st) == ["a3xc1xe3xc5xa3", "a3xc5xe3xc1xa3"]
    with pytest.raises(ziggurat.GameError):
        st.play("a3xc5xa3")  # b4 again, straight back
    st.play("a3xc5xe3xc1xa3")
    assert board(st) == {"a3": "BsBsBsBsWo", "b2": "Bs", "b4": "Bs", "d2": "Bs", "d4": "Bs"}


def test_a_square_emptied_in_the_move_is_empty_for_the_rest_of_it():
    """The start square, left at the first jump, is a landing square for the last one."""
    # The officer starts on a3 and lands on it at the end of the ring (see above); here a column
    # emptied by the first jump (single pieces) lets the chain pass on.
    st = pos("white 0 | a3=Wo b4=Bs d4=Bs d2=Bs b2=Bs |")
    assert texts(st) == ["a3xc1xe3xc5xa3", "a3xc5xe3xc1xa3"]


# ---- 9: promotion -----------------------------------------------------------------------------


def test_a_soldier_reaching_the_far_rank_is_promoted():
    """A step onto rank 7 makes white's leading soldier an officer; only the leader changes."""
    st = pos("white 0 | d6=BsWs |")
    st.play("d6-c7")
    assert board(st) == {"c7": "BsWo"}


def test_promotion_ends_a_capture():
    """c5 jumps d6 onto e7 and is promoted there; the new officer does not go on over f6."""
    st = pos("white 0 | c5=Ws d6=Bs f6=Bs |")
    assert texts(st) == ["c5xe7"]
    st.play("c5xe7")
    assert board(st) == {"e7": "BsWo", "f6": "Bs"}


def test_an_officer_goes_on_through_the_far_rank():
    """An officer already leading is not promoted again, so its capture goes on past rank 7."""
    # c5 officer: over d6 onto e7, then back over f6 onto g5.
    assert texts(pos("white 0 | c5=Wo d6=Bs f6=Bs |")) == ["c5xe7xg5"]


# ---- 10: the end ------------------------------------------------------------------------------


def test_a_player_who_commands_no_column_loses():
    """All black pieces are prisoners: black, to move, has lost."""
    st = pos("black 3 | e5=BsWs d4=Ws |")
    assert st.moves() == [] and winner(st) == "white"


def test_a_player_who_is_blocked_loses():
    """Black's soldier on b2 has a1 and c1 occupied by white and cannot capture: black loses."""
    st = pos("black 9 | b2=Bs a1=Ws c1=Ws |")
    assert texts(st) == [] and winner(st) == "white"


def test_invariants_hold_in_play():
    """The ruleset's invariants (22 pieces on the board, one change of colour a column, no
    soldier leading on its far rank) hold at every ply of a random game."""
    rng = random.Random(7)
    st = GAME.new()
    for _ in range(200):
        assert st.invariant_failures() == []
        legal = st.moves()
        if not legal:
            break
        st.push(rng.choice(legal))
