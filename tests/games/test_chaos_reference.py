"""Tests of tests/reference/chaos.py, the plain-Python Chaos written from the rules text and the
contract of issue 12, on the hand counts of the contract and on positions built by hand (pieces put
on the table directly): each test checks one rule and fails if the reference breaks it."""

from __future__ import annotations

from fractions import Fraction

import pytest

from reference.chaos import RINGS, ChaosReference, inches, parse_spot, units_of

HALF = Fraction(1, 2)


def position(pieces, pending=(), mover=0, **options):
    """A reference at `options` with pieces (colour, size, spot) on the table and `mover` to place
    the rolled colours `pending` (none: it is to roll)."""
    ref = ChaosReference(**options)
    ref.setup_table(pieces)
    ref.setup_turn(mover, pending)
    return ref


def spots(ref, colour):
    """The spots the legal moves offer to the colour."""
    return {text.split("@")[1] for text in ref.legal() if text.startswith(colour + "@")}


def near(texts, x, y, within=4):
    """The spot texts whose centre is within `within` inches (each way) of (x, y)."""
    out = set()
    for text in texts:
        sx, sy, _ = parse_spot(text)
        if abs(sx - units_of(str(x))) <= within * 2000 and abs(sy - units_of(str(y))) <= within * 2000:
            out.add(text)
    return out


def lattice(step, centres, radius=6):
    """The lattice points (step in inches) within `radius` inches of one of the centres, as spots."""
    out = set()
    k = int(radius / step) + 1
    for cx, cy in centres:
        for i in range(-k, k + 1):
            for j in range(-k, k + 1):
                x, y = cx + i * step, cy + j * step
                if (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2:
                    out.add((x, y))
    return out


def as_spot(x, y):
    return f"{inches(round(x * 2000))},{inches(round(y * 2000))}"


# ---- counts from the start -------------------------------------------------------------------

@pytest.mark.parametrize("colours, counts", [
    ("ten", (55, 100, 10_120)),
    ("six", (21, 36, 3_384)),
    ("four", (10, 16, 1_360)),
])
def test_hand_perft_counts_from_the_start(colours, counts):
    ref = ChaosReference(colours=colours)
    assert tuple(ref.perft(depth) for depth in (1, 2, 3)) == counts


def test_pitch_sets_the_lattice_of_defender_spots():
    # Half-inch lattice: the second piece of a different colour goes anywhere within 6 in of the
    # origin that its square does not overlap (|x|, |y| < 1 in); a double's second piece only at
    # the four points exactly 6 in away (12 half-steps: 144 is a sum of two squares only as 144+0).
    points = lattice(0.5, [(0, 0)])
    free = {p for p in points if not (abs(p[0]) < 1 and abs(p[1]) < 1)}
    assert ChaosReference(pitch=4).perft(3) == 45 * 2 * len(free) + 10 * 4


def test_the_roll_is_one_unordered_pair_with_its_probability():
    ref = ChaosReference()
    outcomes = dict(ref.chance_outcomes())
    assert len(outcomes) == 55 and sum(outcomes.values()) == 1
    assert outcomes["white+black"] == Fraction(2, 100) and "black+white" not in outcomes
    assert outcomes["red+red"] == Fraction(1, 100)
    assert ref.legal() == set(outcomes)
    six = dict(ChaosReference(colours="six").chance_outcomes())
    assert six["white+black"] == Fraction(2, 36) and six["blue+blue"] == Fraction(1, 36)
    assert "clear+red" not in six


def test_no_chance_outcomes_at_a_decision():
    ref = ChaosReference().play("red+blue")
    assert ref.chance_outcomes() is None and not ref.is_chance()


def test_first_piece_goes_at_the_origin_and_a_double_six_inches_from_it():
    assert ChaosReference().play("red+blue").legal() == {"red@0,0", "blue@0,0"}
    ref = ChaosReference().play("red+red")
    assert ref.legal() == {"red@0,0"}
    ref.play("red@0,0")
    assert ref.legal() == {"red@6,0", "red@-6,0", "red@0,6", "red@0,-6"}


# ---- defenders -------------------------------------------------------------------------------

def test_defender_is_at_most_six_inches_from_the_nearest_piece():
    ref = position([("red", "large", "0,0"), ("green", "large", "12,0")], pending=["blue"])
    expected = {as_spot(x, y) for x, y in lattice(1, [(0, 0), (12, 0)])} - {"0,0", "12,0"}
    assert spots(ref, "blue") == expected
    assert {"6,0", "-6,0", "3,5"} <= expected  # exactly 6 counts
    assert not {"6,1", "-7,0", "4,5"} & spots(ref, "blue")


def test_defender_is_at_least_six_inches_from_every_piece_of_its_colour():
    pieces = [("red", "large", "0,0"), ("red", "large", "10,0"), ("blue", "large", "5,0")]
    red = spots(position(pieces, pending=["red"], players=3), "red")
    assert {"5,5", "5,-4", "0,6", "-6,0", "16,0"} <= red  # 6 in or more from both reds
    assert not {"6,0", "4,4", "6,4", "5,1"} & red  # each is under 6 in from one of the reds


def test_defender_squares_may_touch_but_not_overlap():
    ref = position([("red", "large", "0,0")], pending=["blue"], pitch=4)
    blue = spots(ref, "blue")
    assert {"1,0", "1,1", "0.5,1", "-1,-0.5"} <= blue  # sides or corners touching
    assert not {"0.5,0", "0.5,0.5", "0,0", "-0.5,-0.5"} & blue


def test_defender_does_not_overlap_a_lying_piece():
    ref = position([("red", "large", "0,0>e")], pending=["blue"], pitch=4)
    blue = spots(ref, "blue")
    assert {"1.5,0", "0,1", "-1.5,0.5"} <= blue
    assert not {"1,0", "-1,0", "0,0.5", "1,0.5"} & blue


# ---- attackers -------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_attackers_only_after_as_many_defenders_as_players(players):
    reds = [("red", "large", f"{20 * i},0") for i in range(players - 1)]
    before = spots(position(reds, pending=["red"], players=players), "red")
    assert before and all(">" not in s for s in before)
    after = spots(position(reds + [("red", "large", f"{20 * players},0")], pending=["red"],
                           players=players), "red")
    assert after and all(">" in s for s in after)


def test_equal_widths_give_one_spot_per_side():
    ref = position([("red", "large", "0,0"), ("red", "large", "6,0")], pending=["red"])
    assert spots(ref, "red") == {
        "1.375,0>e", "-1.375,0>w", "0,1.375>n", "0,-1.375>s",
        "7.375,0>e", "4.625,0>w", "6,1.375>n", "6,-1.375>s"}


def test_a_narrower_attacker_has_three_offsets_along_a_side():
    pieces = [("red", "large", "0,0"), ("red", "large", "20,0")]
    ref = position(pieces, pending=["red"]).setup_supply("red", 0, 5, 5)  # next red: medium
    assert near(spots(ref, "red"), 0, 0) == {
        "1.1875,-0.1>e", "1.1875,0>e", "1.1875,0.1>e",
        "-1.1875,-0.1>w", "-1.1875,0>w", "-1.1875,0.1>w",
        "-0.1,1.1875>n", "0,1.1875>n", "0.1,1.1875>n",
        "-0.1,-1.1875>s", "0,-1.1875>s", "0.1,-1.1875>s"}
    centred = position(pieces, pending=["red"], offsets="centred").setup_supply("red", 0, 5, 5)
    assert near(spots(centred, "red"), 0, 0) == {"1.1875,0>e", "-1.1875,0>w", "0,1.1875>n", "0,-1.1875>s"}


def test_an_attacker_may_not_overhang_a_narrower_side():
    pieces = [("red", "medium", "0,0"), ("red", "medium", "20,0")]
    large = position(pieces, pending=["red", "blue"])  # red's next piece is large: 1 in on 0.8 in
    assert spots(large, "red") == set() and spots(large, "blue")
    medium = position(pieces, pending=["red"]).setup_supply("red", 0, 3, 5)
    assert near(spots(medium, "red"), 0, 0) == {"1.0875,0>e", "-1.0875,0>w", "0,1.0875>n", "0,-1.0875>s"}
    small = position(pieces, pending=["red"]).setup_supply("red", 0, 0, 5)
    assert near(spots(small, "red"), 0, 0) >= {"0.9,-0.1>e", "0.9,0>e", "0.9,0.1>e"}
    assert len(near(spots(small, "red"), 0, 0)) == 12


@pytest.mark.parametrize("facing, expected", [
    ("e", {"-0.375,1.375>n", "0,1.375>n", "0.375,1.375>n",
           "-0.375,-1.375>s", "0,-1.375>s", "0.375,-1.375>s"}),
    ("n", {"1.375,-0.375>e", "1.375,0>e", "1.375,0.375>e",
           "-1.375,-0.375>w", "-1.375,0>w", "-1.375,0.375>w"}),
])
def test_a_lying_anchor_offers_only_its_long_sides(facing, expected):
    pieces = [("red", "large", "0,20"), ("red", "large", "20,20"), ("red", "large", f"0,0>{facing}")]
    assert near(spots(position(pieces, pending=["red"]), "red"), 0, 0) == expected


def test_an_attacker_does_not_overlap_a_piece():
    pieces = [("red", "large", "0,0"), ("red", "large", "20,0"), ("blue", "small", "2,0")]
    red = near(spots(position(pieces, pending=["red"]), "red"), 0, 0)
    assert "1.375,0>e" not in red and red == {"-1.375,0>w", "0,1.375>n", "0,-1.375>s"}


def test_spots_reached_from_two_anchors_are_one_move():
    # Put there by hand (they overlap): a lying red whose upper long side runs along the standing
    # red's upper side, so both offer the spot 0,1.375 pointing north.
    pieces = [("red", "large", "0,0"), ("red", "large", "0,20"), ("red", "large", "0.375,0>e")]
    ref = position(pieces, pending=["red"])
    assert list(ref.spots("red")).count((0, 2750, "n")) == 2
    assert "red@0,1.375>n" in ref.legal()
    assert ref.perft(1) == len(ref.legal()) == len(set(ref.spots("red")))


# ---- capture ---------------------------------------------------------------------------------

def attack(target=("orange", "large", "3.25,0"), attacker="red", extra=(), colours="ten", hand=(),
           supply=None, players=2):
    """Seat 0 places attacker@1.375,0>e (point at 2.25,0, line along y=0 to the east) from its
    defender at 0,0; returns the reference after the move."""
    defenders = [(attacker, "large", f"0,{-20 * k}") for k in range(players)]  # enough to lie
    pieces = [*defenders, target, *extra]
    ref = position(pieces, pending=[attacker], colours=colours, players=players)
    ref.setup_hand(0, hand)
    if supply:
        ref.setup_supply(*supply)
    assert f"{attacker}@1.375,0>e" in ref.legal()
    return ref.play(f"{attacker}@1.375,0>e")


CAPTURES = {  # attacker -> the colours it may capture, from the rules text's examples
    "ten": {"blue": {"green", "cyan", "purple", "black"}, "black": {"purple", "blue", "white", "clear"},
            "white": {"black", "purple", "clear", "red"}, "clear": {"black", "white", "red", "orange"}},
    "six": {"white": {"black", "red"}, "green": {"yellow", "blue"}, "black": {"blue", "white"}},
    "four": {"red": {"yellow"}, "yellow": {"green"}, "green": {"blue"}, "blue": {"red"}},
}


@pytest.mark.parametrize("colours, attacker, target", [
    (colours, attacker, target) for colours, table in CAPTURES.items() for attacker in table
    for target in RINGS[colours]])
def test_capture_reaches_its_ring_distance_and_not_beyond(colours, attacker, target):
    ref = attack((target, "large", "3.25,0"), attacker=attacker, colours=colours)
    assert (target in ref.hands[0]) == (target in CAPTURES[colours][attacker])


def test_capture_takes_from_the_supply_the_largest_left():
    ref = attack()
    assert ref.hands[0] == {"orange": "large"} and ref.supply["orange"] == [3, 5, 5]
    ref = attack(supply=("orange", 0, 2, 5))
    assert ref.hands[0] == {"orange": "medium"} and ref.supply["orange"] == [0, 1, 5]
    ref = attack(supply=("orange", 0, 0, 1))
    assert ref.hands[0] == {"orange": "small"} and ref.supply["orange"] == [0, 0, 0]


def test_capture_gives_nothing_when_the_supply_is_empty():
    ref = attack(supply=("orange", 0, 0, 0))
    assert ref.hands[0] == {} and ref.supply["orange"] == [0, 0, 0]


def test_at_most_one_captured_piece_of_a_colour_per_player():
    ref = attack(hand=[("orange", "small")])
    assert ref.hands[0] == {"orange": "small"} and ref.supply["orange"] == [4, 5, 4]
    other = position([("red", "large", "0,0"), ("red", "large", "0,-20"), ("orange", "large", "3.25,0")],
                     pending=["red"]).setup_hand(1, [("orange", "small")])
    other.play("red@1.375,0>e")
    assert other.hands[0] == {"orange": "large"}  # another player's capture does not count


def test_capture_is_blocked_by_a_nearer_piece():
    assert attack(("orange", "large", "5.5,0")).hands[0] == {"orange": "large"}
    assert attack(("orange", "large", "5.5,0"), extra=[("blue", "small", "3.5,0")]).hands[0] == {}
    assert attack(("orange", "large", "5.5,0"), extra=[("blue", "small", "3.5,0>n")]).hands[0] == {}
    # the nearer piece, if it may be captured, is the one taken
    nearer = attack(("orange", "large", "5.5,0"), extra=[("yellow", "small", "3.5,0")])
    assert nearer.hands[0] == {"yellow": "large"}


def test_capture_reaches_six_inches_exactly_and_not_beyond():
    assert attack(("orange", "large", "8.75,0")).hands[0] == {"orange": "large"}  # near edge 6 in away
    assert attack(("orange", "large", "8.875,0")).hands[0] == {}  # 6.125 in away
    assert attack(("orange", "large", "2.75,0")).hands[0] == {"orange": "large"}  # touching: 0 in


def test_a_line_along_an_edge_does_not_meet_the_piece():
    edge = ("blue", "medium", "3.25,0.4")  # its lower edge lies on the line y = 0
    assert attack(("orange", "large", "3.25,0.5")).hands[0] == {}  # along its edge: not met
    assert attack(("orange", "large", "3.25,0.4995")).hands[0] == {"orange": "large"}
    assert attack(("orange", "large", "6,0"), extra=[edge]).hands[0] == {"orange": "large"}
    inside = ("blue", "medium", "3.25,0.375")  # 0.025 in across the line: it blocks
    assert attack(("orange", "large", "6,0"), extra=[inside]).hands[0] == {}


def test_a_lying_target_is_not_captured():
    assert attack(("orange", "large", "3.125,0>n")).hands[0] == {}


# ---- turns and the end -----------------------------------------------------------------------

def test_the_turn_passes_after_the_last_placement():
    ref = ChaosReference(players=3).play("red+blue").play("blue@0,0")
    assert ref.mover == 0
    assert ref.legal() == {"red@" + as_spot(x, y) for x, y in lattice(1, [(0, 0)])} - {"red@0,0"}
    ref.play("red@1,0")
    assert ref.mover == 1 and ref.is_chance() and ref.plies == 3 and ref.pending == []


def test_the_forced_pass_gives_up_the_colours_left():
    pieces = [("red", "medium", "0,0"), ("red", "medium", "20,0")]  # red's next (large) cannot lie
    ref = position(pieces, pending=["red"])
    assert ref.legal() == {"pass"}
    ref.play("pass")
    assert ref.mover == 1 and ref.is_chance() and ref.plies == 1 and len(ref.table) == 2
    both = position(pieces, pending=["red", "blue"])
    assert "pass" not in both.legal() and all(t.startswith("blue@") for t in both.legal())
    both.play("blue@0,6")
    assert both.legal() == {"pass"} and both.mover == 0
    empty = position([("blue", "large", "0,0")], pending=["red"]).setup_supply("red", 0, 0, 0)
    assert empty.legal() == {"pass"}


def test_holding_every_colour_wins():
    rest = [(c, "small") for c in RINGS["ten"] if c != "orange"]
    ref = attack(hand=rest, players=3)
    assert ref.is_terminal() and ref.end_reason() == "win" and ref.legal() == set()
    assert ref.returns() == (1, 0, 0)
    with pytest.raises(ValueError, match="game is over"):
        ref.play("red+blue")
    held = ChaosReference().setup_hand(1, [(c, "small") for c in RINGS["ten"]])
    assert held.is_terminal() and held.returns() == (0, 1)  # before the roll


def test_a_table_where_no_colour_may_be_placed_ends_the_game():
    pieces = [(c, "medium", f"{30 * i},{y}") for i, c in enumerate(RINGS["four"]) for y in (0, 20)]
    ref = position(pieces, colours="four")
    for c in RINGS["four"]:
        ref.setup_supply(c, 5, 0, 0)  # only large left: each would overhang a medium defender
    assert ref.is_terminal() and ref.end_reason() == "no colour may be placed"
    assert ref.returns() == (HALF, HALF) and ref.legal() == set()
    assert not ref.setup_supply("blue", 0, 1, 0).is_terminal()  # a medium blue could still lie
    ref.setup_supply("blue", 5, 0, 0).setup_turn(0, ["red"])
    assert not ref.is_terminal() and ref.legal() == {"pass"}  # checked at the start of a turn only
    assert ref.play("pass").is_terminal()
    bare = ChaosReference(colours="four")
    for c in RINGS["four"]:
        bare.setup_supply(c, 0, 0, 0)
    assert bare.is_terminal() and bare.end_reason() == "no colour may be placed"


def test_the_ply_cap_counts_every_move():
    ref = ChaosReference(ply_cap=3).play("red+blue").play("red@0,0")
    assert not ref.is_terminal()
    ref.play("blue@0,6")
    assert ref.is_terminal() and ref.end_reason() == "ply cap" and ref.returns() == (HALF, HALF)
    after_roll = ChaosReference(ply_cap=1).play("red+blue")
    assert after_roll.is_terminal() and after_roll.legal() == set()  # checked after every move
    assert not ChaosReference(ply_cap=0).play("red+blue").is_terminal()


@pytest.mark.parametrize("scoring, hands, expected", [
    (True, [[("red", "large"), ("yellow", "small")], [("green", "medium"), ("blue", "medium")],
            [("yellow", "medium")]], (HALF, HALF, 0)),
    (True, [[("red", "small")], [], [("yellow", "medium")]], (0, 0, 1)),
    (True, [[], [], []], (Fraction(1, 3),) * 3),
    (False, [[("red", "large")], [], []], (HALF,) * 3),
])
def test_scoring_ranks_captured_points(scoring, hands, expected):
    ref = ChaosReference(players=3, colours="four", scoring=scoring)
    for seat, hand in enumerate(hands):
        ref.setup_hand(seat, hand)
    for c in RINGS["four"]:
        ref.setup_supply(c, 0, 0, 0)
    assert ref.is_terminal() and ref.returns() == expected


# ---- whole games and bad input -----------------------------------------------------------------

@pytest.mark.parametrize("options", [
    {"colours": "ten"}, {"colours": "six", "players": 3},
    {"colours": "four", "players": 5, "offsets": "centred"}])
def test_random_games_play_legal_moves_to_the_end_and_keep_every_piece(options):
    ref = ChaosReference(**options)
    moves = ref.random_game(7)
    assert moves == ref.random_game(7) and moves != ref.random_game(8)
    for text in moves:
        assert not ref.is_terminal() and text in ref.legal()
        ref.play(text)
        for c in ref.ring:
            for i, size in enumerate(("large", "medium", "small")):
                placed = sum(1 for p in ref.table if p.colour == c and p.size == size)
                held = sum(1 for h in ref.hands if h.get(c) == size)
                assert placed + held + ref.supply[c][i] == 5
    assert ref.is_terminal() and ref.plies == len(moves)


def test_bad_moves_and_options_are_named():
    ref = ChaosReference().play("red+blue")
    for text in ("red@0.3,0", "green@0,0", "nonsense", "pass", "red+blue"):
        with pytest.raises(ValueError, match="illegal move '" + text.replace("+", r"\+")):
            ref.play(text)
    for options, word in (({"players": 6}, "players"), ({"colours": "five"}, "colours"),
                          ({"pitch": 0}, "pitch"), ({"offsets": "left"}, "offsets"),
                          ({"ply_cap": -1}, "ply_cap")):
        with pytest.raises(ValueError, match=word):
            ChaosReference(**options)
    with pytest.raises(ValueError, match="1/3"):
        parse_spot("1/3,0")


def test_lengths_are_written_with_as_few_decimals_as_exact():
    assert [inches(u) for u in (0, 12000, -4000, 2750, -800, 4875, -1)] == \
        ["0", "6", "-2", "1.375", "-0.4", "2.4375", "-0.0005"]
    assert [units_of(t) for t in ("0", "6", "-2", "1.375", "-0.4", "2.4375")] == \
        [0, 12000, -4000, 2750, -800, 4875]
