"""Homeworlds (rulesets/homeworlds.rules) against its rules and the independent reference
tests/reference/homeworlds_ref.py, written from the rules text apart from the ruleset.

Each rule on a hand-built position, the expected parts worked out by hand in a comment; then
seeded games replayed in the engine and the reference side by side (the legal parts and the
position at every part, the result at the end), and the reference's perft against
tests/perft/homeworlds.perft. A move is one part of a turn (a homeworld, an action, a sacrifice,
a catastrophe, a pass): the ruleset is not written with whole turns (see docs/games/homeworlds.md).
Systems sit in the slots a1..e4, south's homeworld in a1, north's in e4; a piece is its owner
(x a star or a piece in the bank, S south's ship, N north's), its size (1 small, 2 medium,
3 large) and its colour (r y g b). The bank of a hand-built position is what the board leaves.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from functools import lru_cache

import pytest

import ziggurat
from perft_data import PERFT_DIR, read
from reference import homeworlds_ref as ref
from native_replay import replay_in_reference

ALL = Counter({f"x{s}{k}": 3 for s in "123" for k in "rygb"})


@lru_cache(maxsize=None)
def game():
    return ziggurat.load("homeworlds")


def pos(board, side="south", acted=0, left=0, sacrificed=0, going=0, ply=10):
    """A position from its systems alone: the bank holds every piece the board does not."""
    on_board = Counter("x" + p[1:] for item in board.split() for p in _pieces(item.split("=")[1]))
    bank = "".join(sorted((ALL - on_board).elements()))
    return game().position(f"{side} {ply} | {board} | bank={bank} acted={acted} left={left} "
                           f"sacrificed={sacrificed} going={going}")


def _pieces(stack):
    return [stack[i:i + 3] for i in range(0, len(stack), 3)]


def texts(st):
    return sorted(st.move_text(m) for m in st.moves())


def systems(st):
    """Slot -> the sorted pieces there."""
    return {c: "".join(sorted(_pieces(s))) for c, s in (i.split("=") for i in st.text().split(" | ")[1].split())}


def bank(st):
    field = next(f for f in st.text().split(" | ")[2].split() if f.startswith("bank="))[5:]
    return Counter(_pieces(field))


def after(st, *parts):
    for m in parts:
        st.play(m)
    return st


# South at home in a1 (small yellow and medium blue stars, a large green ship), north in e4 (small
# red and large green stars, a large blue ship): each home shares the size small with the other.
HOMES = "a1=x1yx2bS3g e4=x1rx3gN3b"


# ---- the bank and the homeworlds ------------------------------------------------------------------


def test_the_bank_holds_three_of_each_size_and_colour_and_the_board_is_empty():
    st = game().new()
    assert bank(st) == ALL and systems(st) == {}


def test_the_first_turn_sets_up_a_homeworld_of_two_sizes_and_a_large_ship_192_ways():
    # the two sizes: small-medium, small-large, medium-large (3); a colour for each star (4 x 4)
    # and for the large ship (4): 3 x 16 x 4 = 192, the bank holding three of everything
    moves = texts(game().new())
    assert len(moves) == 192
    assert "home small yellow + medium blue, ship green" in moves
    st = game().new()
    for illegal in ("home small red + small blue, ship green", "home medium red + small blue, ship green"):
        assert illegal not in moves
        with pytest.raises(ziggurat.GameError):
            st.play(illegal)


def test_homeworlds_are_set_up_in_their_slots_from_the_bank_and_then_the_game_begins():
    st = after(game().new(), "home small yellow + medium blue, ship green", "home small red + large green, ship blue")
    assert systems(st) == {"a1": "S3gx1yx2b", "e4": "N3bx1rx3g"}
    assert bank(st) == ALL - Counter(["x1y", "x2b", "x3g", "x1r", "x3g", "x3b"])
    assert st.side == 0 and st.outcome() is None and "pass" in texts(st)


def test_a_homeworld_takes_only_what_the_bank_still_has():
    # north wants a large red star and a large red ship when south took two of the three
    st = pos("a1=x1rx3rS3r")
    st = game().position(st.text().replace("south 10", "north 1"))
    moves = texts(st)
    assert "home small blue + large red, ship blue" in moves
    assert "home small blue + large red, ship red" not in moves      # one large red left, not two
    assert "home small blue + large blue, ship red" in moves


# ---- the powers ---------------------------------------------------------------------------------


def test_the_first_real_turn_counted_by_hand():
    # south at a1: yellow and blue by the stars, green by the ship. Yellow: e4's stars share the
    # size small, so no move; discover a large star (sizes 1 and 2 are a1's) of r, y, g, b (the
    # bank has a large green left and two blues): 4. Green: build a small green: 1. Blue: trade
    # the large green for a large r, y or b: 3. Sacrifice the ship: 1. Pass: 1. In all 10.
    st = pos(HOMES, ply=2)
    assert texts(st) == sorted(["pass", "sacrifice large green a1", "build green a1"]
                               + [f"discover large green a1: large {k}" for k in ("red", "yellow", "green", "blue")]
                               + [f"trade large green a1 for {k}" for k in ("red", "yellow", "blue")])


def test_a_power_is_at_hand_by_the_star_or_by_a_ship_of_ones_own_never_by_an_enemy_ship():
    # b1 (a medium yellow star) holds south's small red and north's small green: south has red
    # (its ship) and yellow (the star), not green (north's ship) nor blue
    st = pos(HOMES + " b1=x2yS1rN1g")
    at_b1 = [t for t in texts(st) if " b1" in t and not t.startswith("sacrifice")]
    assert any(t.startswith("capture") for t in at_b1) and any(t.startswith("discover") for t in at_b1)
    assert not any(t.startswith(("build", "trade")) for t in at_b1)
    # north, to move there, has green (its ship) and yellow, not red
    st = pos(HOMES + " b1=x2yS1rN1g", side="north")
    at_b1 = [t for t in texts(st) if " b1" in t and not t.startswith("sacrifice")]
    assert "build green b1" in at_b1 and not any(t.startswith("capture") for t in at_b1)


def test_red_captures_an_enemy_ship_no_larger_than_ones_largest_there():
    # b1, a red star: south's medium blue may take north's small or medium, not the large
    st = pos(HOMES + " b1=x1rS2bN1gN2yN3y")
    captures = [t for t in texts(st) if t.startswith("capture")]
    assert captures == ["capture medium yellow b1", "capture small green b1"]
    after(st, "capture medium yellow b1")
    assert systems(st)["b1"] == "N1gN3yS2bS2yx1r" and st.side == 1
    assert bank(st) == bank(pos(HOMES + " b1=x1rS2bN1gN2yN3y"))      # nothing leaves the board


def test_systems_are_connected_when_their_stars_share_no_size_both_stars_of_a_homeworld_counting():
    # b1 has a large star: connected to a1 (sizes 1 and 2), not to e4 (1 and 3); c1, a medium,
    # to e4 only; d1, a small, to neither home
    st = pos(HOMES + " b1=x3yS1y c1=x2rS1r d1=x1rS1g")
    moves = [t for t in texts(st) if t.startswith("move")]
    assert sorted(t for t in moves if t.startswith("move small yellow b1")) == [
        "move small yellow b1-a1", "move small yellow b1-c1", "move small yellow b1-d1"]
    # a1 (1, 2) reaches b1 (3) alone; c1 is not yellow-powered for south (no yellow there)
    assert [t for t in moves if t.startswith("move large green a1")] == ["move large green a1-b1"]
    assert not any(t.startswith("move small red c1") for t in moves)


def test_a_ship_that_moves_away_leaves_a_system_with_no_ships_to_the_bank():
    st = after(pos(HOMES + " b1=x3yS1y c1=x1bS1b"), "move small yellow b1-c1")
    assert "b1" not in systems(st) and systems(st)["c1"] == "S1bS1yx1b"
    assert bank(st)["x3y"] == 3                                         # the star is back


def test_discovery_takes_a_star_of_a_size_the_old_system_has_not_into_the_first_free_slot():
    # from a1 (1, 2): only large stars, of the colours the bank has (the three large yellows are
    # on the board)
    st = pos(HOMES + " b1=x3yS1y c1=x2rS3yS3y")
    discoveries = [t for t in texts(st) if t.startswith("discover large green a1")]
    assert discoveries == [f"discover large green a1: large {k}" for k in ("blue", "green", "red")]
    # the new system goes to the first free slot when the ship sets off (b1 is left behind, and
    # empties: its star goes back)
    st = pos(HOMES + " b1=x3yS1y")
    after(st, "discover small yellow b1: medium red")
    assert "b1" not in systems(st) and systems(st)["c1"] == "S1yx2r"    # b1 emptied, so c1 was the first free
    st = after(pos(HOMES), "discover large green a1: large red")         # the home left without ships: gone
    assert "a1" not in systems(st) and systems(st)["b1"] == "S3gx3r"
    st = after(pos(HOMES + " b1=x3yS1yS1r"), "discover small yellow b1: small red")
    assert systems(st)["c1"] == "S1yx1r" and systems(st)["b1"] == "S1rx3y"


def test_green_builds_the_smallest_piece_of_the_bank_of_a_colour_one_has_a_ship_of_there():
    # b1 (green star) with south's medium red and north's large blue: south builds red (its own)
    # and not blue; the bank has no small red (three on the board), so a medium red
    st = pos(HOMES + " b1=x3gS2rN3b c1=x1rS1r")                        # the small reds: e4, c1 (two)
    assert [t for t in texts(st) if t.startswith("build") and "b1" in t] == ["build red b1"]
    after(st, "build red b1")
    assert systems(st)["b1"] == "N3bS2rS2rx3g"
    assert bank(st)["x2r"] == 1


def test_blue_trades_a_ship_for_one_of_its_size_and_another_colour_from_the_bank():
    # the three small greens are at b1: a small red trades for a small yellow or blue
    st = pos(HOMES + " b1=x3bS1rS1gN1gN1g c1=x2rS1y")
    trades = sorted(t for t in texts(st) if t.startswith("trade small red b1"))
    assert trades == ["trade small red b1 for blue", "trade small red b1 for yellow"]
    after(st, "trade small red b1 for blue")
    assert systems(st)["b1"] == "N1gN1gS1bS1gx3b" and bank(st)["x1r"] == 2   # e4's star is a small red


# ---- sacrifice --------------------------------------------------------------------------------------


def test_a_sacrifice_gives_as_many_actions_of_its_colour_as_its_size_anywhere_one_has_ships():
    # south sacrifices its medium yellow at b1: two yellow actions, in any system where south has
    # a ship, even c1 (a red star, a red ship: no yellow there), and nothing but yellow
    st = pos(HOMES + " b1=x3gS2yS1b c1=x2rS1r")
    after(st, "sacrifice medium yellow b1")
    assert systems(st)["b1"] == "S1bx3g" and bank(st)["x2y"] == 3      # the medium yellow is back
    assert st.side == 0 and "acted=1 left=2 sacrificed=2" in st.text()
    moves = texts(st)
    assert "move small red c1-a1" not in moves                           # c1 (2) and a1 (1, 2) share a size
    assert "move small red c1-b1" in moves and "discover small red c1: large red" in moves
    assert not any(t.startswith(("build", "trade", "capture", "sacrifice")) for t in moves)
    after(st, "move small red c1-b1")                                    # c1 empties: gone
    assert st.side == 0 and "left=1" in st.text() and "c1" not in systems(st)
    after(st, "discover small red b1: small blue")                       # the second and last action
    assert st.side == 1 and systems(st)["c1"] == "S1rx1b"


def test_the_actions_of_a_sacrifice_may_be_left_unused():
    st = after(pos(HOMES + " b1=x3gS3rS1b"), "sacrifice large red b1", "pass")
    assert st.side == 1 and "acted=0 left=0" in st.text()


def test_a_sacrifice_replaces_the_turns_action():
    # after a build there is no sacrifice (nor another action): the turn is over
    st = after(pos(HOMES), "build green a1")
    assert st.side == 1


# ---- catastrophe --------------------------------------------------------------------------------


def test_four_of_a_colour_in_a_system_may_be_called_a_catastrophe_at_any_point_of_ones_turn():
    # b1: a green star, south's two small greens, north's medium green: four greens
    board = HOMES + " b1=x3gS1gS1gN2gS1b"
    st = pos(board)
    assert "catastrophe green b1" in texts(st)
    after(st, "catastrophe green b1")                                    # the star is gone: so is b1
    assert "b1" not in systems(st) and bank(st) == ALL - Counter(["x1y", "x2b", "x3g", "x1r", "x3g", "x3b"])
    assert st.side == 0 and "build green a1" in texts(st)               # the turn goes on: south still acts
    # north's turn, the same system: north may call it too
    assert "catastrophe green b1" in texts(pos(board, side="north"))


def test_a_catastrophe_that_leaves_a_star_and_no_ships_empties_the_system():
    st = after(pos(HOMES + " b1=x3bS1gS1gS2gS2g"), "catastrophe green b1")
    assert "b1" not in systems(st) and bank(st)["x3b"] == 3 - 1


def test_a_catastrophe_keeps_the_star_and_ships_of_other_colours():
    st = after(pos(HOMES + " b1=x3bS1rS1rS2rN2rN1g"), "catastrophe red b1")
    assert systems(st)["b1"] == "N1gx3b"


def test_a_turn_that_overpopulates_a_system_goes_on_for_a_catastrophe_or_a_pass():
    # building a third green at b1 (a green star) makes four: the turn goes on
    st = after(pos(HOMES + " b1=x3gS1gS1gS1b"), "build green b1")
    assert st.side == 0 and texts(st) == ["catastrophe green b1", "pass"]
    after(st, "pass")
    assert st.side == 1 and "catastrophe green b1" in texts(st)         # still overpopulated


def test_a_homeworld_that_loses_one_star_is_still_a_homeworld():
    # four blues at a1 (the medium blue star and three blue ships): the star goes, the small
    # yellow stays, with the green ship
    st = after(pos("a1=x1yx2bS3gS1bS1bS2b e4=x1rx3gN3b"), "catastrophe blue a1", "pass")
    assert systems(st)["a1"] == "S3gx1y" and st.outcome() is None


# ---- the end ------------------------------------------------------------------------------------


def test_a_player_with_no_ship_at_home_loses_at_the_end_of_a_turn():
    # north's only ship at home is captured (south's large green is at e4, a red star)
    st = pos("a1=x1yx2bS3g e4=x1rx3gN2bS3y")
    after(st, "capture medium blue e4")
    out = st.outcome()
    assert out is not None and out.results == (1, 0)


def test_the_end_is_judged_at_the_end_of_the_turn_not_between_its_parts():
    # south's only ship at home (a1, where north's small red also is) leaves and comes back with
    # a yellow sacrifice of two: no loss between the parts, none at the end
    st = pos("a1=x1yx2bS1rN1r b1=x3gS2yS1b e4=x1rx3gN3b")
    after(st, "sacrifice medium yellow b1", "move small red a1-b1")
    assert st.outcome() is None and st.side == 0                         # a1 keeps north's ship
    after(st, "move small red b1-a1")
    assert st.outcome() is None and st.side == 1
    # had it stayed away, the end of the turn would have lost it
    st = after(pos("a1=x1yx2bS1rN1r b1=x3gS2yS1b e4=x1rx3gN3b"),
               "sacrifice medium yellow b1", "move small red a1-b1", "pass")
    assert st.outcome().results == (0, 1)


def test_a_homeworld_with_no_star_loses():
    # four reds at north's home (the small red star and three ships of south's): it loses that
    # star, and south's ships; the large green star is left
    st = after(pos("a1=x1yx2bS3g e4=x1rx3gN3bS1rS1rS2r"), "catastrophe red e4", "pass")
    assert systems(st)["e4"] == "N3bx3g" and st.outcome() is None       # one star left: still home
    st = after(pos("a1=x1yx2bS3g e4=x3gN3bS1gS1gS2g"), "catastrophe green e4", "pass")
    assert "e4" not in systems(st) and st.outcome().results == (1, 0)


def test_both_homeworlds_lost_at_once_is_a_draw():
    # south destroys north's home (four greens, the star among them), then sacrifices its only ship
    # at home and passes
    st = pos("a1=x1yx2bS2r e4=x1gx3rN1gN1gS3g")
    after(st, "catastrophe green e4")
    assert st.outcome() is None and st.side == 0
    after(st, "sacrifice medium red a1", "pass")
    out = st.outcome()
    assert out is not None and out.results == (0.5, 0.5)


def test_passing_at_the_start_of_a_turn_changes_nothing_but_the_side():
    st = pos(HOMES)
    before = systems(st)
    after(st, "pass")
    assert systems(st) == before and st.side == 1 and st.outcome() is None


# ---- the engine against the reference ---------------------------------------------------------------


def lives(st, m):
    """Whether part m, followed by a pass if the turn goes on, leaves the mover still playing."""
    side, c = st.side, st.copy()
    c.push(m)
    if c.outcome() is None and c.side == side:
        c.play("pass")
    return c.outcome() is None or c.outcome().results[side] > 0


# The playing policy of the random games: a part at random, weighted so that games last (building
# and discovering more likely than passing, catastrophes taken when offered), never one that loses
# at once when another does not.
WEIGHTS = {"build": 6, "discover": 3, "move": 2, "trade": 2, "capture": 3, "sacrifice": 3, "catastrophe": 20,
           "pass": 0.3, "home": 1}


def random_line(seed, parts):
    rng = random.Random(seed)
    st, h = game().new(), ref.Homeworlds()
    for _ in range(parts):
        moves = texts(st)
        assert moves == sorted(h.parts()), f"parts differ at {st.text()}"
        assert ref.canonical(st.text()) == h.text()
        if not moves:
            assert tuple(st.outcome().results) == h.result
            return st, h
        legal = [m for m in st.moves() if st.ply < 2 or lives(st, m)] or st.moves()   # a homeworld never loses
        m = st.move_text(rng.choices(legal, [WEIGHTS[st.move_text(x).split()[0]] for x in legal])[0])
        st.play(m)
        h.play(m)
    return st, h


@pytest.mark.parametrize("seed,parts", [(108, 30), (102, 400), (103, 400), (107, 400)])
def test_random_games_agree_with_the_reference_part_by_part(seed, parts):
    """Seed 108 (its first 30 parts) in the default suite; the others, longer games with every kind
    of part (captures, catastrophes, sacrifices of every colour), in the long suite."""
    st, h = random_line(seed, parts)
    assert st.ply >= 30


def test_native_perft_and_seeded_playouts_agree_with_the_reference():
    """One native compile (cached after the first run; two minutes or more cold, so only with
    ZIGGURAT_SLOW=1): perft from the start to depth 2 and from the mid-turn position of the perft
    file to depth 3, and seeded playouts from positions 0 to 90 parts into seeded games, each part
    legal in the reference, the final position and the result the reference's."""
    if os.environ.get("ZIGGURAT_SLOW") != "1":
        pytest.skip("a native compile: ZIGGURAT_SLOW=1")
    pytest.importorskip("numba")
    from ziggurat.interpreter.native.game import native

    g = game()
    fast = native(g)
    assert [fast.perft(g.new(), d) for d in range(3)] == [ref.perft(ref.Homeworlds(), d) for d in range(3)]
    mid = next(r for r in read(PERFT_DIR / "homeworlds.perft") if r.id == "homeworlds-mid").position
    assert fast.perft(g.position(mid), 3) == ref.perft(ref.parse(mid), 3)
    for seed in range(10):
        st, h = random_line(200 + seed, 10 * seed)
        if st.outcome() is not None:
            continue
        playout = fast.playout(st, seed, 2000)
        replay_in_reference(st, playout, h.parts, h.play)
        assert ref.canonical(fast.state(playout.final).text()) == h.text()
        assert (playout.kind is None) == (not h.over())
        if h.over():
            assert tuple(playout.results) == h.result


def test_the_reference_gives_the_perft_file_counts():
    limit = 1_000_000 if os.environ.get("ZIGGURAT_SLOW") == "1" else 20_000
    for record in read(PERFT_DIR / "homeworlds.perft"):
        h = ref.Homeworlds() if record.position == "start" else ref.parse(record.position)
        for depth, leaves in record.counts:
            if leaves <= limit:
                assert ref.perft(h, depth) == leaves, f"{record.id} depth {depth}"
