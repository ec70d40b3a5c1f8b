"""Volcano (rulesets/volcano.rules) against its rules and the independent reference
tests/reference/volcano_ref.py, written from the rules text apart from the ruleset.

Each rule of the source on a hand-built position, the expected moves worked out by hand in a
comment; then seeded random games replayed in the engine and the reference side by side (the legal
moves and the position text at every part, the scores at the end), and the reference's perft
against tests/perft/volcano.perft. A move is one part of a turn (a cap step, or a pass): the
ruleset is not written with whole turns (see docs/games/volcano.md). Cells: files a-e, ranks 1-5;
a piece is its size (1 small, 2 medium, 3 large) then its colour (r y g b w, k the caps'), a stack
bottom first; `left` is the set of squares a cap has left this turn.
"""

from __future__ import annotations

import os
import random
from functools import lru_cache

import pytest

import ziggurat
from perft_data import PERFT_DIR, read
from reference import volcano_ref as ref
from native_replay import replay_in_reference

REST = "captured.one= captured.two= left=-"


@lru_cache(maxsize=None)
def game(players=2):
    return ziggurat.load("volcano", {"players": players})


def pos(board, rest=REST, side="one"):
    return game().position(f"{side} 10 | {board} | {rest}")


def texts(st):
    return sorted(st.move_text(m) for m in st.moves())


def cells(st):
    return dict(item.split("=") for item in st.text().split(" | ")[1].split())


def after(st, *moves):
    for m in moves:
        st.play(m)
    return st


# ---- the set-up -----------------------------------------------------------------------------------


def test_a_nest_on_every_square_large_on_top_and_five_caps_on_the_diagonal():
    board = cells(game().new())
    assert len(board) == 25
    for at, stack in board.items():
        colour = stack[1]
        assert stack[:6] == f"1{colour}2{colour}3{colour}"      # small, medium, large on top
        assert stack[6:] == ("1k" if at[0] == "abcde"[int(at[1]) - 1] else "")
    # every colour once in each rank and each file
    for i in range(5):
        assert len({board[f"{'abcde'[i]}{r}"][1] for r in range(1, 6)}) == 5
        assert len({board[f"{f}{i + 1}"][1] for f in "abcde"}) == 5


# ---- the caps' steps ------------------------------------------------------------------------------


def test_the_start_has_22_cap_steps_counted_by_hand():
    # a1: a2 b1 (b2 is a cap); b2, c3, d4: their eight neighbours but the two caps; e5: e4 d5
    assert len(texts(game().new())) == 22
    assert [t for t in texts(game().new()) if t.startswith("b2")] == ["b2-a2", "b2-a3", "b2-b1", "b2-b3", "b2-c1", "b2-c2"]


def test_a_cap_steps_any_of_eight_ways_but_not_off_the_board_or_onto_a_cap():
    st = pos("c3=1k b2=1k e5=1k")
    assert [t for t in texts(st) if t.startswith("c3")] == ["c3-b3", "c3-b4", "c3-c2", "c3-c4", "c3-d2", "c3-d3", "c3-d4"]
    assert [t for t in texts(st) if t.startswith("e5")] == ["e5-d4", "e5-d5", "e5-e4"]


def test_a_step_that_erupts_nothing_keeps_the_turn_and_closes_the_square_it_left():
    # b2 to b1: b2's large would land on b0, off the board: nothing erupts, one moves again
    st = after(game().new(), "b2-b1")
    assert st.side == 0 and st.text().endswith("left=b2")
    assert cells(st)["b2"] == "1y2y3y" and cells(st)["b1"] == "1w2w3w1k"
    # no cap may enter b2 again this turn, whichever cap: c3 may not, nor b1
    assert "c3-b2" not in texts(st) and "b1-b2" not in texts(st) and "c3-c2" in texts(st)


def test_a_cap_leaving_an_empty_square_never_erupts():
    st = after(pos("c3=1k a1=1k e5=1k d4=3r"), "c3-b2")
    assert st.side == 0 and cells(st)["d4"] == "3r"


# ---- the eruption ---------------------------------------------------------------------------------


def test_the_volcano_erupts_the_way_the_cap_went_each_piece_one_square_further():
    # c1 (small, medium, large, cap) erupts north as the cap steps to c2: the large lands on c3,
    # the medium on c4, the small on c5 (all empty: nothing captured); the turn passes
    st = after(pos("c1=1r2r3r1k a5=1k e5=1k"), "c1-c2")
    assert st.side == 1 and st.text().endswith("left=-")
    assert {k: v for k, v in cells(st).items() if k[0] == "c"} == {"c2": "1k", "c3": "3r", "c4": "2r", "c5": "1r"}


def test_the_eruption_stops_at_the_edge_and_at_a_cap():
    # c1 north-east to d2: the large lands e3, the medium would land on f4, off the board
    st = after(pos("c1=1r2r3r1k a5=1k e5=1k"), "c1-d2")
    assert cells(st)["c1"] == "1r2r" and cells(st)["e3"] == "3r"
    # c1 north to c2 with a cap on c4: the large lands on c3, the medium stops before the cap
    st = after(pos("c1=1r2r3r1k c4=1k e5=1k"), "c1-c2")
    assert cells(st)["c1"] == "1r2r" and cells(st)["c3"] == "3r" and cells(st)["c4"] == "1k"
    # with the cap on c3 nothing erupts at all: the same player moves on
    st = after(pos("c1=1r2r3r1k c3=1k e5=1k"), "c1-c2")
    assert st.side == 0 and cells(st)["c1"] == "1r2r3r"


def test_a_piece_landing_on_the_top_piece_of_its_size_is_captured_by_the_mover():
    # c1 north: the large lands on c3's large (captured), the medium on c4's small (it stays), the
    # small on c5, a small on a medium: on a small, so captured
    st = after(pos("c1=1r2r3r1k c3=3b c4=1y c5=2g1w a1=1k e1=1k"), "c1-c2")
    assert "captured.one=3r1r " in st.text()
    assert cells(st)["c3"] == "3b" and cells(st)["c4"] == "1y2r" and cells(st)["c5"] == "2g1w"
    # only the top counts: a large landing on a small over a large is not captured
    st = after(pos("c1=3r1k c3=3b1y a1=1k e1=1k"), "c1-c2")
    assert "captured.one= " in st.text() and cells(st)["c3"] == "3b1y3r"


def test_shut_in_caps_pass_the_turn():
    # a cap on a1 whose three neighbours were left this turn has no step (the other caps have)
    st = pos("a1=1k c5=1k d5=1k e5=1k e4=1k d4=3r c4=3r", rest="captured.one= captured.two= left=a2,b1,b2,c3,d3,e3,b4,b5")
    moves = [t for t in texts(st) if t.startswith("a1")]
    assert moves == []
    # caps a1 b3 c2, every square next to them left this turn: no step at all, so one passes
    st = pos("a1=1k b3=1k c2=1k", rest="captured.one= captured.two= left=a2,b1,b2,a3,a4,b4,c3,c4,c1,d1,d2,d3,b3")
    assert texts(st) == ["pass"]
    st.play("pass")
    assert st.side == 1 and st.text().endswith("left=-")


# ---- scoring and the end --------------------------------------------------------------------------


@pytest.mark.parametrize("pieces", ["", "1r", "1r2r3r", "1r2y3b", "1r2r3r1y2y3y1b", "1r1y2r2y3r3b", "1r1r2r2r3r3g1b2b3b",
                                    "3r3r3y2b2b1w1w1w", "1r2r3r1y2y3y1g2g3g1b2b3b1w2w3w"])
def test_the_score_is_the_best_arrangement_into_nests(pieces):
    # solid nests 7, mixed nests 5, other pieces 1: the reference tries every arrangement. Two
    # holds the five colours (five smalls, 5 points), so the game is over and scored at once.
    st = pos("a1=1k b3=1k e5=1k", rest=f"captured.one={pieces} captured.two=1r1y1g1b1w left=-")
    expected = ref.best(tuple(sorted((int(pieces[i]), pieces[i + 1]) for i in range(0, len(pieces), 2))))
    assert st.outcome().scores == (expected, 5)


def test_the_game_ends_when_a_player_holds_every_colour_and_the_best_score_wins():
    # one holds r y b w, two more points; one captures the green large: five colours, the end.
    # one: 1r 2y 3b 1w 3g = a mixed nest (5) and two pieces: 7; two: 3r 3r 3r 3r 3y 3y 3y 3y: 8
    st = pos("c3=3g1k c5=3y e1=1k", rest="captured.one=1r2y3b1w captured.two=3r3r3r3r3y3y3y3y left=-")
    st.play("c3-c4")
    out = st.outcome()
    assert out is not None and out.scores == (7, 8) and out.results == (0, 1)
    # four colours only: the game goes on
    st = pos("c3=3y1k c5=3y e1=1k", rest="captured.one=1r2y3b1w captured.two=3r left=-")
    st.play("c3-c4")
    assert st.outcome() is None


# ---- the engine against the reference -------------------------------------------------------------


def random_line(players, seed, plies):
    rng = random.Random(seed)
    st, v = game(players).new(), ref.Volcano(players)
    for _ in range(plies):
        moves = texts(st)
        assert moves == sorted(v.parts()), f"moves differ at {st.text()}"
        assert st.text().split(" | ", 1)[1] == v.text()
        if not moves:
            assert list(st.outcome().scores) == v.scores()
            return st, v
        m = rng.choice(moves)
        st.play(m)
        v.play(m)
    return st, v


@pytest.mark.parametrize("players,seed", [(2, 1), (2, 2), (3, 3), (6, 4)])
def test_random_games_agree_with_the_reference_part_by_part(players, seed):
    st, v = random_line(players, seed, 600)
    assert st.outcome() is not None, "the game should end within 600 parts"


def test_the_reference_gives_the_perft_file_counts():
    limit = 1_000_000 if os.environ.get("ZIGGURAT_SLOW") == "1" else 20_000
    for record in read(PERFT_DIR / "volcano.perft"):
        opts = dict(record.options) if not isinstance(record.options, str) else {}
        players = int(opts.get("players", 2))
        v = ref.Volcano(players) if record.position == "start" else ref.parse(record.position, players)
        for depth, leaves in record.counts:
            if leaves <= limit:
                assert ref.perft(v, depth) == leaves, f"{record.id} depth {depth}"


def test_native_perft_and_seeded_playouts_agree_with_the_reference():
    """One native compile (cached after the first run; about a minute cold, so only with
    ZIGGURAT_SLOW=1): perft from the start to depth 3 and seeded playouts from positions 0 to 90
    parts into random games, each part legal in the reference, the final position and the points
    the reference's."""
    if os.environ.get("ZIGGURAT_SLOW") != "1":
        pytest.skip("a native compile: ZIGGURAT_SLOW=1")
    pytest.importorskip("numba")
    from ziggurat.interpreter.native.game import native

    g = game()
    fast = native(g)
    start = g.new()
    assert [fast.perft(start, d) for d in range(4)] == [ref.perft(ref.Volcano(), d) for d in range(4)]
    for seed in range(10):
        st, v = random_line(2, 100 + seed, 10 * seed)
        if st.outcome() is not None:
            continue
        playout = fast.playout(st, seed, 2000)
        replay_in_reference(st, playout, v.parts, v.play)
        assert fast.state(playout.final).text().split(" | ", 1)[1] == v.text()
        assert (playout.kind is None) == (not v.over())
        if v.over():
            assert list(playout.scores) == v.scores()
