"""Checkers (rulesets/checkers.rules) rule by rule, in OpenSpiel's `checkers` conventions.

Each test sets up a small hand-built position where one rule decides what is legal, works out the
legal moves by hand (the reasoning is in a comment) and asserts the exact set of move texts or the
exact outcome, so it fails if checkers.rules gets that rule wrong. Squares: files a.., ranks 1..;
a piece stands on a dark square, one whose file number plus rank number is even on an even-height
board (a1, c1, b2, ...). White men go north (ne, nw), black men south (se, sw).
"""

from __future__ import annotations

import random
from functools import lru_cache

import pytest

import ziggurat

EMPTY = "captured.white= captured.black="


@lru_cache(maxsize=None)
def game(**options):
    """The checkers game with these options (values as text)."""
    return ziggurat.load("checkers", {k: str(v) for k, v in options.items()} or None)


def pos(text, **options):
    """A position of checkers with these options."""
    return game(**options).position(text)


def texts(st):
    """The legal moves as texts."""
    return {st.move_text(m) for m in st.moves()}


def at(st, cell):
    """The stack on a cell as piece texts, e.g. ('Wk',) or () for an empty cell."""
    w = st.game.world
    c = next(i for i in range(w.ncells) if w.cell_name(i) == cell)
    return tuple(w.piece_text(p) for p in st.cells[c])


def zone(st, name):
    """The pieces in a zone as texts, e.g. ('Bm', 'Bm')."""
    w = st.game.world
    return tuple(w.piece_text(p) for p in st.zones[w.zone_names.index(name)])


def quiet(st):
    """The quiet counter."""
    return st.counters[st.game.world.counter_names.index("quiet")]


def census(st):
    """How many of each piece text stand on the board."""
    w = st.game.world
    counts = {}
    for stack in st.cells:
        for p in stack:
            counts[w.piece_text(p)] = counts.get(w.piece_text(p), 0) + 1
    return counts


# ---- the start -------------------------------------------------------------------------------


def test_start_white_moves_first_with_seven_steps():
    """At the start white moves, and its moves are the seven steps of its front rank men."""
    st = game().new()
    # White's front rank is a3 c3 e3 g3; rank 4 is empty. a3 can only go to b4 (the a file is the
    # edge), c3 to b4/d4, e3 to d4/f4, g3 to f4/h4. Men behind are blocked by their own men.
    assert st.mover_name == "white"
    assert texts(st) == {"a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"}


# ---- steps -----------------------------------------------------------------------------------


def test_white_man_steps_only_forward():
    """A white man steps to the two empty squares diagonally north, never south."""
    # d4: forward c5, e5 (empty); c3 and e3 are behind it. The black man on a7 is far away.
    st = pos(f"white 0 | d4=Wm a7=Bm | {EMPTY} quiet=0")
    assert texts(st) == {"d4-c5", "d4-e5"}


def test_black_man_steps_only_forward():
    """A black man steps to the two empty squares diagonally south, never north."""
    # e5: forward d4, f4; d6 and f6 are behind it. The white man on a1 is far away.
    st = pos(f"black 0 | e5=Bm a1=Wm | {EMPTY} quiet=0")
    assert texts(st) == {"e5-d4", "e5-f4"}


def test_man_on_the_edge_has_one_step():
    """A man on the a file has one forward diagonal only."""
    # a3: b4 is the only forward square on the board.
    st = pos(f"white 0 | a3=Wm h8=Bm | {EMPTY} quiet=0")
    assert texts(st) == {"a3-b4"}


@pytest.mark.parametrize("side,king,other,expected", [
    # A king on d4 (e5 for black) steps to all four diagonal neighbours, each one square.
    ("white", "d4=Wk", "h8=Bm", {"d4-c5", "d4-e5", "d4-c3", "d4-e3"}),
    ("black", "e5=Bk", "a1=Wm", {"e5-d6", "e5-f6", "e5-d4", "e5-f4"}),
])
def test_king_steps_all_four_ways(side, king, other, expected):
    """A king steps one square along any of the four diagonals, forward or back."""
    st = pos(f"{side} 0 | {king} {other} | {EMPTY} quiet=0")
    assert texts(st) == expected


def test_a_step_does_not_go_onto_an_occupied_square():
    """A step needs an empty square: own and enemy pieces block it."""
    # King d4: c5 holds a white man; e5 a black man with another black man behind it on f6, so
    # no jump there either. Left for the king: c3 and e3. The man on c5 steps to b6 and d6
    # (no enemy next to it forward, so no jump anywhere).
    st = pos(f"white 0 | d4=Wk c5=Wm e5=Bm f6=Bm | {EMPTY} quiet=0")
    assert texts(st) == {"d4-c3", "d4-e3", "c5-b6", "c5-d6"}


# ---- jumps -----------------------------------------------------------------------------------


def test_jump_is_compulsory():
    """When any piece can jump, the jumps are the only moves: no step is offered or accepted."""
    # c3 jumps d4 to e5; g3 jumps f4 to e5 too. a1 could step to b2 and both jumpers could step,
    # but a capture is possible, so only the two jumps. After c3xe5 the man on e5 could take f4
    # only backwards (se) onto g3, which holds a white man anyway: each is a one-hop chain.
    st = pos(f"white 0 | a1=Wm c3=Wm g3=Wm d4=Bm f4=Bm | {EMPTY} quiet=0")
    assert texts(st) == {"c3xe5", "g3xe5"}
    with pytest.raises(ziggurat.GameError):
        st.play("a1-b2")


@pytest.mark.parametrize("side,text,expected", [
    # A white man on e5 with a black man behind it on d4 (c3 empty): it may not take backwards,
    # so it only steps forward to d6 / f6.
    ("white", "e5=Wm d4=Bm", {"e5-d6", "e5-f6"}),
    # A black man on d4 with a white man behind it on e5 (f6 empty): steps c3 / e3 only.
    ("black", "d4=Bm e5=Wm", {"d4-c3", "d4-e3"}),
])
def test_man_cannot_jump_backwards(side, text, expected):
    """A man captures forward only; an enemy behind it is not a jump."""
    st = pos(f"{side} 0 | {text} | {EMPTY} quiet=0")
    assert texts(st) == expected


@pytest.mark.parametrize("side,text,expected", [
    # The same two positions with a king: it takes backwards, and must (jumps are compulsory).
    ("white", "e5=Wk d4=Bm", {"e5xc3"}),
    ("black", "d4=Bk e5=Wm", {"d4xf6"}),
])
def test_king_jumps_backwards(side, text, expected):
    """A king captures along any diagonal, backwards included."""
    st = pos(f"{side} 0 | {text} | {EMPTY} quiet=0")
    assert texts(st) == expected


def test_jump_needs_an_empty_landing_square():
    """No jump over a piece whose far side is occupied or off the board."""
    # c3 over d4 would land on e5, which holds another black man; b2 over a3 would land off the
    # board (left of the a file). So no jump at all. Steps: c3-b4; b2 has none (a3 is black,
    # c3 white).
    st = pos(f"white 0 | b2=Wm c3=Wm a3=Bm d4=Bm e5=Bm | {EMPTY} quiet=0")
    assert texts(st) == {"c3-b4"}


def test_chain_must_continue():
    """A jump chain goes on while it can: c3xe5 alone is illegal when c3xe5xg7 exists."""
    # c3 takes d4 landing on e5; from e5 it takes f6 landing on g7 (rank 7, not crowned); from g7
    # there is nothing left to take. The only move is the whole chain.
    st = pos(f"white 0 | c3=Wm d4=Bm f6=Bm a7=Bm | {EMPTY} quiet=0")
    assert texts(st) == {"c3xe5xg7"}
    with pytest.raises(ziggurat.GameError, match="must go on"):
        st.play("c3xe5")


def test_branching_chain_gives_one_move_per_branch():
    """A chain that can go two ways after a hop is two moves, whatever their lengths."""
    # c1 takes d2 landing on e3. From e3: nw over d4 onto c5 (then c5 has nothing to take: b6, d6
    # empty) or ne over f4 onto g5, then nw over f6 onto e7 (e7: d8/f8 empty, nothing to take).
    # English draughts has no rule to take the most, so both chains are legal.
    st = pos(f"white 0 | c1=Wm d2=Bm d4=Bm f4=Bm f6=Bm | {EMPTY} quiet=0")
    assert texts(st) == {"c1xe3xc5", "c1xe3xg5xe7"}


def test_branching_at_the_first_hop():
    """Two first hops from one piece, each continuing on its own, give one move each."""
    # e3 can take d4 onto c5 or f4 onto g5. From c5 it takes d6 onto e7 (b6 is empty), and e7
    # has nothing to take (d8, f8 empty). From g5 the man on h6 would be taken onto i7, off the
    # board, and f6 is empty, so that chain stops at g5.
    st = pos(f"white 0 | e3=Wm d4=Bm f4=Bm d6=Bm h6=Bm | {EMPTY} quiet=0")
    assert texts(st) == {"e3xc5xe7", "e3xg5"}


def test_king_chain_may_turn_backwards():
    """A king's chain may change direction and go backwards; a man's may not."""
    # King c3: ne over d4 onto e5, then se (backwards for white) over f4 onto g3. With a man on
    # c3 the chain stops at e5: f4 lies behind it.
    st = pos(f"white 0 | c3=Wk d4=Bm f4=Bm | {EMPTY} quiet=0")
    assert texts(st) == {"c3xe5xg3"}
    man = pos(f"white 0 | c3=Wm d4=Bm f4=Bm | {EMPTY} quiet=0")
    assert texts(man) == {"c3xe5"}


def test_chain_cannot_jump_the_same_piece_twice():
    """A king circling a ring of four men takes each once and stops: two moves, one each way."""
    # 10x10 board, king e5, black men f6 h6 h4 f4 around the square g5. Clockwise:
    # e5 over f6 -> g7, over h6 -> i5, over h4 -> g3, over f4 -> e5 (empty, the king left it);
    # back on e5 every ring man is gone, so the chain ends. Counter-clockwise the same reversed.
    # From e5 the only first hops are ne (f6) and se (f4); at every later square exactly one
    # untaken neighbour is left in the ring, and the board around is empty: 2 moves.
    st = pos(f"white 0 | e5=Wk f6=Bm h6=Bm h4=Bm f4=Bm | {EMPTY} quiet=0", width=10, height=10)
    assert texts(st) == {"e5xg7xi5xg3xe5", "e5xg3xi5xg7xe5"}
    st.play("e5xg7xi5xg3xe5")
    assert census(st) == {"Wk": 1}
    assert zone(st, "captured.white") == ("Bm",) * 4


def test_three_hop_move_text_round_trips():
    """parse_move and move_text agree on a three-hop chain, and the parsed move is legal."""
    st = pos(f"white 0 | c1=Wm d2=Bm d4=Bm f4=Bm f6=Bm | {EMPTY} quiet=0")
    move = st.parse_move("c1xe3xg5xe7")
    assert move in st.moves()
    assert st.move_text(move) == "c1xe3xg5xe7"
    with pytest.raises(ziggurat.GameError):
        st.parse_move("c1xe3xg5")  # stops where it could go on


# ---- crowning --------------------------------------------------------------------------------


def test_crowning_ends_the_move():
    """A man crowned by a jump stops there, even though the new king could take on."""
    # d6 takes e7 landing on f8, the far rank: it is crowned. As a king on f8 it could take g7
    # onto h6, but crowning ends the move. The same position with a king on d6 takes both.
    st = pos(f"white 0 | d6=Wm e7=Bm g7=Bm | {EMPTY} quiet=0")
    assert texts(st) == {"d6xf8"}
    st.play("d6xf8")
    assert at(st, "f8") == ("Wk",)
    assert at(st, "g7") == ("Bm",)
    assert st.mover_name == "black"
    king = pos(f"white 0 | d6=Wk e7=Bm g7=Bm | {EMPTY} quiet=0")
    assert texts(king) == {"d6xf8xh6"}


@pytest.mark.parametrize("side,text,move,cell,crowned", [
    # White c7 steps to d8 (rank 8); black d2 steps to c1 (rank 1).
    ("white", "c7=Wm h6=Bm", "c7-d8", "d8", "Wk"),
    ("black", "d2=Bm a3=Wm", "d2-c1", "c1", "Bk"),
])
def test_man_reaching_far_rank_by_step_is_crowned(side, text, move, cell, crowned):
    """A step onto the far rank crowns the man."""
    st = pos(f"{side} 0 | {text} | {EMPTY} quiet=0")
    st.play(move)
    assert at(st, cell) == (crowned,)
    assert f"{cell}={crowned}" in st.text()


def test_new_king_moves_as_a_king():
    """After crowning the piece steps backwards like any king."""
    # c7-d8 crowns; black answers h6-g5 (its only move); the king on d8 then steps back to c7
    # and e7, which a man could not.
    st = pos(f"white 0 | c7=Wm h6=Bm | {EMPTY} quiet=0")
    st.play("c7-d8")
    st.play("h6-g5")
    assert texts(st) == {"d8-c7", "d8-e7"}


# ---- captures --------------------------------------------------------------------------------


def test_captured_pieces_go_to_the_movers_zone():
    """Taken pieces leave the board for captured.<mover>, one per hop."""
    st = pos(f"white 0 | c3=Wm d4=Bm f6=Bm a7=Bm | {EMPTY} quiet=0")
    st.play("c3xe5xg7")
    assert at(st, "c3") == at(st, "d4") == at(st, "e5") == at(st, "f6") == ()
    assert at(st, "g7") == ("Wm",)
    assert zone(st, "captured.white") == ("Bm", "Bm")
    assert zone(st, "captured.black") == ()
    # Black's captures go to captured.black: a black king on e5 must take the white man on d4
    # (onto c3, then nothing more to take: h2 is far away).
    black = pos(f"black 0 | e5=Bk d4=Wm h2=Wm | {EMPTY} quiet=0")
    black.play("e5xc3")
    assert zone(black, "captured.black") == ("Wm",)
    assert at(black, "d4") == ()


# ---- the end ---------------------------------------------------------------------------------


@pytest.mark.parametrize("text,move,loser,results", [
    # White c3 takes black's last man d4: black has no piece left.
    ("white 0 | c3=Wm d4=Bm", "c3xe5", 1, (1, 0)),
    # Black d4 takes white's last man c3 (onto b2): white has no piece left.
    ("black 0 | d4=Bm c3=Wm", "d4xb2", 0, (0, 1)),
])
def test_player_without_pieces_loses(text, move, loser, results):
    """Taking the last enemy piece wins: the side to move has no move and loses."""
    st = pos(f"{text} | {EMPTY} quiet=0")
    st.play(move)
    out = st.outcome()
    assert out is not None and out.kind == "lose" and out.player == loser
    assert out.results == results
    assert st.moves() == []


def test_blocked_player_loses():
    """A player whose pieces cannot move loses even with pieces on the board."""
    # Black h4 can only go sw: g3 holds a white man and f2 behind it another, so no step and no
    # jump (se is off the board). White has no jump (g3 over h4 would land off the board) and
    # plays a1-b2, leaving black stuck.
    st = pos(f"white 0 | a1=Wm f2=Wm g3=Wm h4=Bm | {EMPTY} quiet=0")
    assert "a1-b2" in texts(st)
    st.play("a1-b2")
    out = st.outcome()
    assert out is not None and out.kind == "lose" and out.player == 1
    assert out.results == (1, 0)


def test_quiet_counter_step_adds_one_jump_resets():
    """A step adds one to quiet; a jump sets it to 0."""
    st = pos(f"white 0 | a1=Wm h8=Bm | {EMPTY} quiet=5")
    st.play("a1-b2")
    assert quiet(st) == 6
    jumper = pos(f"white 0 | c3=Wm d4=Bm a7=Bm | {EMPTY} quiet=17")
    jumper.play("c3xe5")
    assert quiet(jumper) == 0


def test_quiet_limit_draws():
    """The fortieth move in a row without a capture draws; a capture at 39 does not."""
    st = pos(f"white 0 | a1=Wm h8=Bm | {EMPTY} quiet=39")
    st.play("a1-b2")
    out = st.outcome()
    assert out is not None and out.kind == "draw"
    assert out.results == (0.5, 0.5)
    assert st.moves() == []
    capture = pos(f"white 0 | c3=Wm d4=Bm a7=Bm | {EMPTY} quiet=39")
    capture.play("c3xe5")
    assert capture.outcome() is None and quiet(capture) == 0


def test_quiet_limit_counts_from_a_capture():
    """Two kings shuffling from quiet=0 draw exactly on the fortieth quiet move."""
    # White d4<->e5 and black h8<->g7: the kings never come next to each other (e5's neighbours
    # are d6 f6 d4 f4), so nothing is ever taken.
    st = pos(f"white 0 | d4=Wk h8=Bk | {EMPTY} quiet=0")
    cycle = ["d4-e5", "h8-g7", "e5-d4", "g7-h8"]
    for ply in range(39):
        st.play(cycle[ply % 4])
        assert st.outcome() is None
    st.play(cycle[39 % 4])
    assert st.outcome() is not None and st.outcome().kind == "draw"


def test_quiet_limit_zero_never_draws():
    """quiet_limit=0 turns the quiet draw off: 100 quiet moves and the game goes on."""
    st = pos(f"white 0 | d4=Wk h8=Bk | {EMPTY} quiet=0", quiet_limit=0)
    cycle = ["d4-e5", "h8-g7", "e5-d4", "g7-h8"]
    for ply in range(100):
        st.play(cycle[ply % 4])
        assert st.outcome() is None
    assert quiet(st) == 100


def test_quiet_limit_option_sets_the_limit():
    """quiet_limit=3 draws on the third quiet move in a row."""
    st = pos(f"white 0 | d4=Wk h8=Bk | {EMPTY} quiet=0", quiet_limit=3)
    st.play("d4-e5")
    st.play("h8-g7")
    assert st.outcome() is None
    st.play("e5-d4")
    assert st.outcome() is not None and st.outcome().kind == "draw"


# ---- options ---------------------------------------------------------------------------------


def test_ten_by_ten_has_fifteen_men_each():
    """width=10 height=10: three ranks of five dark squares each side, 15 men each."""
    st = game(width=10, height=10).new()
    assert census(st) == {"Wm": 15, "Bm": 15}
    w = st.game.world
    for c in range(w.ncells):
        name = w.cell_name(c)
        rank = int(name[1:])
        pieces = at(st, name)
        if pieces:
            assert (pieces == ("Wm",) and rank <= 3) or (pieces == ("Bm",) and rank >= 8)


def test_army_two_gives_eight_each():
    """army=2 on 8x8: two ranks of four, 8 men each, rank 3 and 6 empty."""
    st = game(army=2).new()
    assert census(st) == {"Wm": 8, "Bm": 8}
    assert at(st, "a3") == () and at(st, "b6") == ()
    assert at(st, "b2") == ("Wm",) and at(st, "a7") == ("Bm",)


def test_army_four_fills_half_the_board():
    """army=4 on 8x8 is allowed (2*4 <= 8): 16 men each."""
    assert census(game(army=4).new()) == {"Wm": 16, "Bm": 16}


def test_army_too_large_is_refused():
    """army=5 on 8x8 breaks 2*army <= height and is refused with a GameError."""
    with pytest.raises(ziggurat.GameError, match="overlap"):
        ziggurat.load("checkers", {"army": "5"})


# ---- invariants ------------------------------------------------------------------------------


def test_invariants_can_fail():
    """The invariants catch a man uncrowned on its far rank."""
    st = pos(f"white 0 | d8=Wm a7=Bm | {EMPTY} quiet=0")
    assert st.invariant_failures() == ["a man on its far rank has been crowned"]


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_invariants_hold_in_random_games(seed):
    """Along a seeded random game the declared invariants hold and no piece appears or vanishes."""
    st = game().new()
    assert len(st.game.invariant_texts) == 2
    rng = random.Random(seed)
    # At most 24 captures, each followed by at most 39 quiet moves: every game ends in 1000 plies.
    while not st.is_terminal() and st.ply < 1100:
        st.push(rng.choice(st.moves()))
        assert st.invariant_failures() == []
        on_board = census(st)
        white = on_board.get("Wm", 0) + on_board.get("Wk", 0) + len(zone(st, "captured.black"))
        black = on_board.get("Bm", 0) + on_board.get("Bk", 0) + len(zone(st, "captured.white"))
        assert white == black == 12
    assert st.is_terminal()
