"""Martian Chess (rulesets/martian-chess.rules) against its rules and the independent reference
tests/reference/martian_chess_ref.py, written from the rules text apart from the ruleset.

First each rule of the source on a hand-built position, the expected moves worked out by hand in a
comment; then seeded random games replayed in the engine and the reference side by side (the legal
moves and the position text at every ply, the result at the end), in the Python backend and, for
the native one, its perft and its seeded playouts replayed in the reference. Cells: files a..,
ranks 1.. (a1 bottom left). With 2 players, one's zone is ranks 1-4 and two's ranks 5-8; a
piece is written by its size (1 pawn, 2 drone, 3 queen). The position texts end with the zones
and counters: captured.P (the sizes a player took), box (pieces merged away), back_from/back_to
(the move that would undo the last crossing), called (the clock) and quiet (moves since).
"""

from __future__ import annotations

import os
import random
from functools import lru_cache

import pytest

import ziggurat
from perft_data import PERFT_DIR, read
from reference import martian_chess_ref as ref

REST = "captured.one= captured.two= box= back_from=- back_to=- called=0 quiet=0"
REST4 = "captured.one= captured.two= captured.three= captured.four= box= back_from=- back_to=- called=0 quiet=0"


@lru_cache(maxsize=None)
def game(players=2, promotions=True):
    return ziggurat.load("martian-chess", {"players": players, "promotions": promotions})


def pos(board, rest=REST, side="one", players=2, promotions=True):
    return game(players, promotions).position(f"{side} 10 | {board} | {rest}")


def texts(st, call=False):
    """The legal moves as texts, sorted; without the clock calls unless asked."""
    return sorted(t for t in (st.move_text(m) for m in st.moves()) if call or not t.endswith(" call"))


def after(st, *moves):
    for m in moves:
        st.play(m)
    return st


# ---- the start and the pieces' moves -------------------------------------------------------------


def test_each_player_starts_with_three_queens_drones_and_pawns_in_its_corner():
    # one's block at a1: queens a1 b1 a2, drones c1 b2 a3, pawns c2 b3 c3; two's the half turn at d8.
    st = game().new()
    assert st.text().split(" | ")[1] == ("a1=3 b1=3 c1=2 a2=3 b2=2 c2=1 a3=2 b3=1 c3=1 "
                                         "b6=1 c6=1 d6=2 b7=1 c7=2 d7=3 b8=2 c8=3 d8=3")
    four = game(4).new().text().split(" | ")[1].split()
    assert len(four) == 36 and {"a1=3", "a8=3", "h8=3", "h1=3", "c3=1", "c6=1", "f6=1", "f3=1"} <= set(four)


def test_the_opening_moves_counted_by_hand():
    # Ten moves, each also offered with the clock called (20 in all): the drone c1 to d1 (c2 and b1
    # are its own); the drone a3 to a4 and a5 (a2, b3 its own); the pawns c2 to d1, d3; b3 to a4,
    # c4; c3 to b4, d4, d2; the queens a1 b1 a2 and the drone b2 are walled in by their own pieces.
    st = game().new()
    assert texts(st) == sorted(["c1-d1", "a3-a4", "a3-a5", "c2-d1", "c2-d3", "b3-a4", "b3-c4",
                                "c3-b4", "c3-d4", "c3-d2"])
    assert len(st.moves()) == 20


def test_a_pawn_steps_one_cell_diagonally_any_way():
    assert texts(pos("b2=1 c7=1")) == ["b2-a1", "b2-a3", "b2-c1", "b2-c3"]


def test_a_drone_moves_one_or_two_cells_straight():
    # from b2: b1, a2, c2 d2, b3 b4 (not b5 or past the edge)
    assert texts(pos("b2=2 c7=1")) == ["b2-a2", "b2-b1", "b2-b3", "b2-b4", "b2-c2", "b2-d2"]


def test_a_queen_moves_any_distance_in_any_line():
    # from a1: up a2..a8 (7), right b1..d1 (3), diagonal b2 c3 d4 (3); a8 is two's: an empty cell
    assert len(texts(pos("a1=3 d8=1"))) == 13


def test_no_piece_jumps_and_none_lands_on_a_piece_of_its_own_zone():
    # the queen a1 is blocked at a2 (own) and b2 (own): only b1 c1 d1 along the first rank
    st = pos("a1=3 a2=1 b2=1 d8=1", promotions=False)
    assert [t for t in texts(st) if t.startswith("a1")] == ["a1-b1", "a1-c1", "a1-d1"]


# ---- control by zone, captures and points ---------------------------------------------------------


def test_a_piece_belongs_to_whoever_zone_it_stands_in():
    # the drone a3 crosses the canal to a5: it is two's now, and one may not move it
    st = after(game().new(), "a3-a5")
    assert any(t.startswith("a5-") for t in texts(st))
    st.play("d6-d5")
    assert not any(t.startswith("a5") for t in texts(st))


def test_a_capture_lands_on_a_piece_in_another_zone_and_scores_its_points():
    # the queen a1 takes the drone a6 across the canal: 2 points to one; the queen stands on a6,
    # in two's zone, so it is two's now: two moves it (a6-a5) and takes one's pawn d3 with it
    st = after(pos("a1=3 d3=1 a6=2 b7=1"), "a1xa6")
    assert "captured.one=2 " in st.text() and "a6=3" in st.text()
    assert {"a6-a5", "a6xd3"} <= set(texts(st))
    st.play("a6xd3")
    assert "captured.two=1 " in st.text()


def test_no_capture_inside_ones_own_zone():
    assert "a1xa2" not in texts(pos("a1=3 a2=1 d8=1")) and "a1-a2" not in texts(pos("a1=3 a2=1 d8=1"))


# ---- no undo ---------------------------------------------------------------------------------------


def test_a_piece_that_crossed_may_not_go_straight_back():
    # one's drone a3 crosses to a5; two may move it anywhere but straight back to a3 on this turn,
    # and may on the turn after
    st = after(pos("a3=2 d1=1 d8=1"), "a3-a5")
    assert "a5-a3" not in texts(st) and {"a5-a4", "a5-b5", "a5-a6"} <= set(texts(st))
    st = after(st, "d8-c7", "d1-c2")
    assert "a5-a3" in texts(st)


def test_the_rule_holds_after_a_capture_too():
    # the queen a3 takes a6; two may not send it back to a3 (Looney Labs' answer: it is the move,
    # not the capture, that may not be rejected), though it may take a piece on the way
    st = after(pos("a3=3 d1=1 a6=1 d8=1"), "a3xa6")
    assert "a6-a3" not in texts(st) and "a6-a4" in texts(st) and "a6-a5" in texts(st)


def test_a_move_inside_a_zone_forbids_nothing():
    st = after(pos("a3=2 d1=1 c8=2 d8=1"), "a3-a4", "c8-c6")
    st.play("a4-a3")
    assert "c6-c8" in texts(st)


# ---- field promotions ------------------------------------------------------------------------------


def test_a_pawn_and_a_drone_merge_into_a_queen_when_one_has_none():
    # one has no queen: the pawn a2 steps diagonally onto the drone b3 and they merge; the pawn goes
    # to the box and the drone becomes a queen (the drone cannot reach a2: it moves straight)
    st = pos("a2=1 b3=2 d8=1")
    assert "a2+b3" in texts(st) and "b3+a2" not in texts(st)
    st.play("a2+b3")
    assert "b3=3" in st.text() and "a2=" not in st.text() and "box=1 " in st.text()


def test_a_drone_moving_onto_a_pawn_makes_a_queen_too():
    st = after(pos("a1=1 a3=2 d8=1"), "a3+a1")
    assert "a1=3" in st.text() and "box=2 " in st.text()


def test_two_pawns_merge_into_a_drone_when_one_has_none():
    assert "a1+b2" in texts(pos("a1=1 b2=1 d8=1"))
    assert "a1+b2" not in texts(pos("a1=1 b2=1 d4=2 d8=1"))  # a drone in one's zone already


def test_no_queen_is_made_while_one_has_a_queen():
    assert "a2+b3" not in texts(pos("a2=1 b3=2 d1=3 d8=1"))
    assert "d1+d2" not in texts(pos("a2=1 b3=2 d1=3 d2=1 d8=1"))  # queen + pawn makes nothing


def test_a_queen_in_another_zone_does_not_count():
    assert "a2+b3" in texts(pos("a2=1 b3=2 d8=3"))


def test_a_merge_keeps_the_pips_of_the_two_pieces():
    # 4 pips on the board and 32 captured: 36, 18 a player; the queen made is the pawn's 1 and the
    # drone's 2, so the invariant of the ruleset still holds after it (the pawn waits in the box)
    st = pos("a2=1 b3=2 d8=1", rest="captured.one=33333333 captured.two=3311 box= back_from=- back_to=- "
                                    "called=0 quiet=0")
    assert st.invariant_failures() == []
    st.play("a2+b3")
    assert st.invariant_failures() == [] and "box=1 " in st.text()


def test_the_option_turns_field_promotions_off():
    assert "a2+b3" not in texts(pos("a2=1 b3=2 d8=1", promotions=False))


# ---- the clock and the end -------------------------------------------------------------------------


def test_the_clock_is_called_with_a_move_once_a_game():
    st = pos("a1=1 d4=1 a8=1 d8=1")
    assert "a1-b2 call" in texts(st, call=True)
    st.play("a1-b2 call")
    assert not any(t.endswith(" call") for t in texts(st, call=True))


def test_seven_moves_without_a_capture_after_the_call_end_the_game():
    # pawns shuffle in their own zones: the calling move is not counted, the seventh after it ends
    st = after(pos("a1=1 d4=1 a8=1 d8=1"), "a1-b2 call")
    shuffle = ["a8-b7", "b2-a1", "b7-a8", "a1-b2", "a8-b7", "b2-a1"]
    for m in shuffle:
        st.play(m)
        assert st.outcome() is None
    st.play("b7-a8")
    out = st.outcome()
    assert out is not None and out.kind == "draw" and "seven moves" in out.reason and out.scores == (0, 0)


def test_a_capture_restarts_the_clock():
    # five quiet moves after the call, then one takes: the count starts again
    st = after(pos("a1=1 d4=1 c5=1 a8=1 d8=1"), "a1-b2 call", "a8-b7", "b2-a1", "b7-a8", "a1-b2", "a8-b7")
    assert "quiet=5" in st.text()
    st.play("d4xc5")
    assert st.outcome() is None and "quiet=0" in st.text() and "captured.one=1 " in st.text()


def test_the_game_ends_when_a_zone_is_empty_and_the_most_points_win():
    # one's last piece crosses the canal: one's zone is empty; two has taken more
    st = pos("a4=1 c8=2", rest="captured.one=1 captured.two=3 box= back_from=- back_to=- called=0 quiet=0")
    st.play("a4-b5")
    out = st.outcome()
    assert out.kind == "win" and out.player == 1 and out.scores == (1, 3) and "zone" in out.reason


def test_a_tie_with_a_zone_empty_goes_to_the_player_who_ended_the_game():
    # one empties its own zone with the scores level at 2 each: one wins, a point ahead
    st = pos("a4=1 c8=2", rest="captured.one=2 captured.two=2 box= back_from=- back_to=- called=0 quiet=0")
    st.play("a4-b5")
    out = st.outcome()
    assert out.kind == "win" and out.player == 0 and out.scores == (3, 2)


def test_a_tie_by_the_clock_is_a_tie():
    st = after(pos("a1=1 d4=1 a8=1 d8=1", rest=REST.replace("quiet=0", "quiet=6").replace("called=0", "called=1")),
               "a1-b2")
    out = st.outcome()
    assert out.kind == "draw" and out.scores == (0, 0)


# ---- four players ----------------------------------------------------------------------------------


def test_four_players_take_turns_to_the_left_each_in_its_quadrant():
    # one (a1-d4), two (a5-d8), three (e5-h8), four (e1-h4): clockwise seen from above
    st = game(4).new()
    seen = []
    for _ in range(4):
        seen.append(st.mover_name if isinstance(st.mover_name, str) else st.mover_name())
        st.play(texts(st)[0])
    assert seen == ["one", "two", "three", "four"]


def test_with_four_a_capture_may_land_in_any_other_zone():
    # one's queen d4 takes three's pawn e5 (diagonally) and four's pawn e4 (along the rank)
    st = pos("d4=3 e5=1 e4=1 a8=1 h1=1", rest=REST4, players=4)
    assert {"d4xe5", "d4xe4"} <= set(texts(st))


# ---- the reference, move by move -------------------------------------------------------------------


def random_line(players, seed, plies, promotions=True):
    """A seeded random game in the engine and the reference side by side: the same moves and
    positions every ply, the same result at the end. The clock is called rarely (1 move in 50), so
    games run long enough to reach captures and promotions."""
    rng = random.Random(f"mc{players}/{seed}/{promotions}")
    st, p = game(players, promotions).new(), ref.start(players, promotions)
    for _ in range(plies):
        assert st.text() == ref.text(p)
        moves = texts(st, call=True)
        assert moves == sorted(ref.moves(p))
        if not moves:
            break
        plain = [m for m in moves if not m.endswith(" call")]
        m = rng.choice(moves if rng.random() < 0.02 else plain)
        st.play(m)
        p = ref.play(p, m)
    return st, p


@pytest.mark.parametrize("players,seed", [(2, s) for s in range(6)] + [(4, s) for s in range(2)])
def test_random_games_agree_with_the_reference(players, seed):
    st, p = random_line(players, seed, 400)
    out, expected = st.outcome(), ref.result(p)
    assert (out is None) == (expected is None)
    if out is not None:
        assert tuple(out.scores) == expected[1]


def test_random_games_without_promotions_agree_with_the_reference():
    random_line(2, 0, 200, promotions=False)


def test_the_reference_gives_the_perft_file_counts():
    """The reference reproduces every count of tests/perft/martian-chess.perft up to 20,000 leaves
    (up to 100,000 with ZIGGURAT_SLOW=1: 6 CPU s more; depth 5, 1.6 million, takes minutes)."""
    limit = 100_000 if os.environ.get("ZIGGURAT_SLOW") == "1" else 20_000
    for record in read(PERFT_DIR / "martian-chess.perft"):
        opts = dict(record.options) if not isinstance(record.options, str) else {}
        players = int(opts.get("players", 2))
        promotions = str(opts.get("promotions", "true")).lower() in ("true", "1", "yes")
        p = ref.start(players, promotions) if record.position == "start" else ref.parse(record.position, promotions)
        for depth, leaves in record.counts:
            if leaves <= limit:
                assert ref.perft(p, depth) == leaves, f"{record.id} depth {depth}"


def _replay_in_the_reference(fast, st, p, seed: int) -> None:
    """A seeded native playout from `st` (the reference's position `p`): each move legal in the
    reference, the final position and the points the reference's."""
    playout = fast.playout(st, seed, 300)
    state = st.copy()
    for m in playout.moves:
        text = state.move_text(m)
        assert text in ref.moves(p), f"{text} is not legal in the reference at {ref.text(p)}"
        state.push(m)
        p = ref.play(p, text)
    assert fast.state(playout.final).text() == ref.text(p)
    expected = ref.result(p)
    assert (playout.kind is None) == (expected is None)
    if expected is not None:
        assert tuple(playout.scores) == expected[1]


def test_native_perft_and_seeded_playouts_agree_with_the_reference():
    """One native compile: perft from the start, and seeded playouts from ten positions 20 to 92
    plies into random games (native random play calls the clock at once, so a playout from the
    start ends within a few moves), each move legal in the reference, the final position and the
    points the reference's."""
    pytest.importorskip("numba")
    from ziggurat.interpreter.native.game import native

    g = game()
    fast = native(g)
    start = g.new()
    assert [fast.perft(start, d) for d in range(4)] == [ref.perft(ref.start(), d) for d in range(4)]
    for seed in range(10):
        st, p = random_line(2, 100 + seed, 20 + 8 * seed)
        if st.outcome() is not None:
            continue
        _replay_in_the_reference(fast, st, p, seed)


def test_native_four_player_game_agrees_with_the_reference():
    """The 4-player game natively: perft to depth 3 and seeded playouts, against the reference (a
    second native compile, so only with ZIGGURAT_SLOW=1)."""
    if os.environ.get("ZIGGURAT_SLOW") != "1":
        pytest.skip("a second native compile: run with ZIGGURAT_SLOW=1")
    pytest.importorskip("numba")
    from ziggurat.interpreter.native.game import native

    g = game(4)
    fast = native(g)
    start = g.new()
    assert [fast.perft(start, d) for d in range(4)] == [ref.perft(ref.start(4), d) for d in range(4)]
    for seed in range(20):
        _replay_in_the_reference(fast, start, ref.start(4), seed)
