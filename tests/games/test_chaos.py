"""Chaos (rulesets/chaos.rules), rule by rule on hand-built table positions.

Each test names the rule of the text (../shared/seeds/004_...; rulings in ../shared/games/chaos.md)
it checks, and fails when the ruleset breaks it. Counts come from the geometry worked by hand in
each test's comment. The whole game is checked against the independent reference in
tests/games/test_chaos_crosscheck.py.
"""

from __future__ import annotations

import re

import pytest

import ziggurat
from ziggurat.agents import make_agent

CODES = {"white": "wh", "clear": "cl", "red": "rd", "orange": "or", "yellow": "ye", "green": "gn",
         "cyan": "cy", "blue": "bl", "purple": "pu", "black": "bk"}
RINGS = {"ten": list(CODES), "six": ["white", "red", "yellow", "green", "blue", "black"],
         "four": ["red", "yellow", "green", "blue"]}
SEATS = ["first", "second", "third", "fourth", "fifth"]
_games: dict = {}


def game(**options):
    key = tuple(sorted(options.items()))
    if key not in _games:
        _games[key] = ziggurat.load("chaos", options)
    return _games[key]


def position(g, table=(), pending=(), captured=None, side="first", ply=20, supply=None):
    """A position of game g: `table` lists (piece code, spot) in placement order, `pending` the
    colours rolled and not yet placed, `captured` seat -> piece codes, `supply` colour -> how many
    (large, medium, small) are left (default: all those not on the table or captured)."""
    ring = RINGS[g.options["colours"]]
    captured = captured or {}
    used = [code for code, _ in table] + [c for cs in captured.values() for c in cs]
    pieces = []
    for colour in ring:
        for size, digit in (("large", "3"), ("medium", "2"), ("small", "1")):
            code = CODES[colour] + digit
            left = 5 - used.count(code)
            if supply is not None and colour in supply:
                left = supply[colour][("large", "medium", "small").index(size)]
            pieces += [code] * left
    places = [ring.index(c) + 1 for c in pending] + [0, 0]
    fields = [f"supply={''.join(pieces)}"]
    fields += [f"captured.{p}={''.join(captured.get(p, ()))}" for p in SEATS[:g.options["players"]]]
    fields += [f"die1={places[0]}", f"die2={places[1]}"]
    text = f"{side} {ply} | {' '.join(f'{c}@{s}' for c, s in table)} | {' '.join(fields)}"
    return g.position(text)


def moves(st) -> set:
    return {st.move_text(m) for m in st.moves()}


class TestTurn:
    def test_the_roll_is_one_chance_move_with_the_dice_odds(self):
        """Two ten-sided dice: 55 unordered pairs, a double 1/100, two colours 2/100."""
        st = game().new()
        outcomes = {st.move_text(m): p for m, p in st.chance_outcomes()}
        assert len(outcomes) == 55
        assert outcomes["red+red"] == pytest.approx(0.01)
        assert outcomes["white+black"] == pytest.approx(0.02)
        assert "black+white" not in outcomes
        assert sum(outcomes.values()) == pytest.approx(1)

    @pytest.mark.parametrize("colours, faces", [("six", 6), ("four", 4)])
    def test_the_small_variants_roll_their_own_dice(self, colours, faces):
        """Six colours: two d6 (21 pairs); four colours: two d4 (10 pairs)."""
        st = game(colours=colours).new()
        assert len(st.chance_outcomes()) == faces * (faces + 1) // 2

    def test_the_first_piece_goes_to_the_origin_in_either_order(self):
        """The player places both colours, in the order it likes; the first piece of the game goes anywhere
        (the origin)."""
        st = game().new()
        st.play("red+blue")
        assert moves(st) == {"red@0,0", "blue@0,0"}

    def test_a_turn_is_two_placements_then_the_next_player(self):
        """After both colours are placed the turn passes, and nature rolls for the next player."""
        st = game().new()
        st.play("red+blue")
        st.play("blue@0,0")
        assert st.text().split()[0] == "first" and not st.is_chance
        assert all(t.startswith("red@") for t in moves(st))
        st.play("red@6,0")
        assert st.text().split()[0] == "second" and st.is_chance

    def test_a_colour_with_no_supply_is_given_up_with_a_forced_pass(self):
        """A colour with no supply (or no legal spot) is skipped: when no rolled colour may be placed,
        the only move is 'pass', which ends the turn."""
        g = game()
        st = position(g, [("cy3", "0,0")], pending=["red"], supply={"red": (0, 0, 0)})
        assert moves(st) == {"pass"}
        st.play("pass")
        assert st.is_chance and st.text().split()[0] == "second"

    def test_the_largest_piece_left_is_placed(self):
        """Always the largest piece left in the colour's supply."""
        g = game()
        st = position(g, [("cy3", "0,0")], pending=["red"], supply={"red": (0, 2, 5)})
        st.play("red@3,0")
        assert "rd2@3,0" in st.text()


class TestDefenders:
    def test_within_six_inches_of_the_nearest_piece(self):
        """No more than 6 in from the nearest piece: the 113 lattice points within 6 of the one piece,
        but its own spot (x^2 + y^2 <= 36 has 113 integer solutions)."""
        g = game()
        st = position(g, [("cy3", "0,0")], pending=["red"])
        got = moves(st)
        assert len(got) == 112
        assert "red@6,0" in got and "red@4,4" in got  # 6 and 5.66 in away
        assert "red@5,4" not in got and "red@6,1" not in got  # 6.40 and 6.08 in away

    def test_at_least_six_inches_from_its_own_colour(self):
        """No less than 6 in from the nearest piece of the same colour: with only a red piece on the
        table, a red defender stands exactly 6 in away (the four lattice points with x^2 + y^2 = 36)."""
        g = game()
        st = position(g, [("rd3", "0,0")], pending=["red"])
        assert moves(st) == {"red@6,0", "red@-6,0", "red@0,6", "red@0,-6"}

    def test_no_placed_piece_may_overlap_another(self):
        """Footprints may touch but not overlap: on a half-inch lattice a large defender (1 in square)
        beside another large one must stand a whole inch away."""
        g = game(pitch=4)
        st = position(g, [("cy3", "0,0")], pending=["red"])
        got = moves(st)
        assert "red@1,0" in got and "red@1,1" in got  # touching a side, a corner
        assert "red@0.5,0" not in got and "red@0.5,0.5" not in got

    def test_the_lattice_pitch_is_an_option(self):
        """The table's lattice (default 1 in) is an option: on a half-inch lattice there are more spots."""
        coarse = position(game(), [("cy3", "0,0")], pending=["red"])
        fine = position(game(pitch=4), [("cy3", "0,0")], pending=["red"])
        assert len(moves(fine)) > 3 * len(moves(coarse))
        assert all(float(t.split("@")[1].split(",")[0]) % 1 == 0 for t in moves(coarse))


class TestAttackers:
    def test_attackers_come_only_after_as_many_defenders_as_players(self):
        """With 2 players a colour stands twice before any piece of it lies down, and never stands
        a third time."""
        g = game()
        one = position(g, [("rd3", "0,0"), ("cy3", "3,0")], pending=["red"])
        assert all(">" not in t for t in moves(one))
        two = position(g, [("rd3", "0,0"), ("rd3", "6,0")], pending=["red"])
        assert moves(two) and all(">" in t for t in moves(two))
        three = position(game(players=3), [("rd3", "0,0"), ("rd3", "6,0")], pending=["red"])
        assert all(">" not in t for t in moves(three))

    def test_a_large_attacker_on_a_large_defender_has_one_place_a_side(self):
        """Base flush against each of the four sides, pointing straight away: equal widths leave one
        offset, and the centre is half a side plus half a length (0.5 + 0.875 in) away."""
        g = game()
        st = position(g, [("rd3", "0,0"), ("rd3", "6,0")], pending=["red"])
        assert moves(st) == {"red@1.375,0>e", "red@-1.375,0>w", "red@0,1.375>n", "red@0,-1.375>s",
                             "red@7.375,0>e", "red@4.625,0>w", "red@6,1.375>n", "red@6,-1.375>s"}

    def test_a_narrower_attacker_has_three_offsets_along_a_side(self):
        """A medium (0.8 in) attacker on a large (1 in) defender's side: aligned left, centred, aligned
        right (0.1 in either way), and with the option 'centred' only the middle one."""
        g = game()
        st = position(g, [("rd3", "0,0"), ("rd3", "6,0")], pending=["red"], supply={"red": (0, 3, 5)})
        east = {t for t in moves(st) if t.startswith("red@1.1875")}  # 0.5 + 1.375 / 2
        assert east == {"red@1.1875,-0.1>e", "red@1.1875,0>e", "red@1.1875,0.1>e"}
        assert len(moves(st)) == 24
        centred = position(game(offsets="centred"), [("rd3", "0,0"), ("rd3", "6,0")], pending=["red"],
                           supply={"red": (0, 3, 5)})
        assert len(moves(centred)) == 8

    def test_an_attacker_may_not_overhang_the_side(self):
        """No part of the base may extend beyond the side: a large attacker (1 in) on a medium
        defender (0.8 in) has no place."""
        g = game()
        st = position(g, [("rd2", "0,0"), ("rd2", "6,0")], pending=["red"], supply={"red": (1, 3, 5)})
        assert moves(st) == {"pass"}

    def test_a_lying_anchor_offers_only_its_two_long_sides(self):
        """Against another attacker, only its sides, not its base or point: a large one lying east
        has a north and a south side 1.75 in long (x from 0.5 to 2.25), so a large attacker has three
        offsets on each: centred at x = 1, 1.375 and 1.75."""
        g = game()
        table = [("rd3", "0,0"), ("rd3", "20,0"), ("rd3", "1.375,0>e")]
        st = position(g, table, pending=["red"], supply={"red": (1, 0, 0)})
        anchored = {t for t in moves(st) if t.endswith((">n", ">s")) and abs(float(t[4:].split(",")[0]) - 1.375) < 1}
        assert anchored == {"red@1,1.375>n", "red@1.375,1.375>n", "red@1.75,1.375>n",
                            "red@1,-1.375>s", "red@1.375,-1.375>s", "red@1.75,-1.375>s"}
        assert "red@3.125,0>e" not in moves(st)  # not against its point


def capture_position(g, attacker, target, gap=0.5, between=None, supply=None, captured=None):
    """A two-player table: two `attacker` defenders (one at the origin), a `target` defender east of
    it with `gap` inches between the new attacker's point and the target's side, and the attacker's
    colour rolled. The large attacker laid east of the origin has its point at x = 2.25."""
    tx = 2.25 + gap + 0.5
    table = [(CODES[attacker] + "3", "0,0"), (CODES[attacker] + "3", "0,-12"), (CODES[target] + "3", f"{tx:g},0")]
    if between:
        table.append(between)
    return position(g, table, pending=[attacker], supply=supply, captured=captured)


def after_attack(st, attacker="red"):
    """What the first player holds after laying a large attacker east of the origin."""
    st.play(f"{attacker}@1.375,0>e")
    return re.search(r"captured\.first=(\S*)", st.text()).group(1)


class TestCapture:
    @pytest.mark.parametrize("target, taken", [("orange", True), ("yellow", True), ("green", False),
                                               ("clear", True), ("white", True), ("black", False),
                                               ("red", False)])
    def test_ten_colours_capture_one_or_two_steps_round_the_ring(self, target, taken):
        """Each attacker captures the four colours adjacent or one step away on the ring (red:
        white, clear, orange, yellow), never its own."""
        st = capture_position(game(), "red", target)
        assert (after_attack(st) != "") == taken

    def test_the_ring_loops_round(self):
        """Black may attack white and clear; purple may attack white."""
        assert after_attack(capture_position(game(), "black", "clear"), "black") == "cl3"
        assert after_attack(capture_position(game(), "purple", "white"), "purple") == "wh3"

    @pytest.mark.parametrize("target, taken", [("yellow", True), ("white", True), ("green", False)])
    def test_six_colours_capture_adjacent_colours_only(self, target, taken):
        """Six colours (white, red, yellow, green, blue, black): red captures yellow and white only."""
        st = capture_position(game(colours="six"), "red", target)
        assert (after_attack(st) != "") == taken

    @pytest.mark.parametrize("attacker, target, taken", [("red", "yellow", True), ("yellow", "red", False),
                                                         ("blue", "red", True), ("red", "green", False)])
    def test_four_colours_capture_one_way_round(self, attacker, target, taken):
        """Four colours: red > yellow > green > blue > red, one direction only."""
        st = capture_position(game(colours="four"), attacker, target)
        assert (after_attack(st, attacker) != "") == taken

    def test_the_largest_piece_left_of_the_colour_is_taken(self):
        """The capturer takes the largest piece of the target's colour left in the supply."""
        st = capture_position(game(), "red", "orange", supply={"orange": (0, 2, 5)})
        assert after_attack(st) == "or2"

    def test_nothing_is_taken_when_the_colour_has_no_supply(self):
        st = capture_position(game(), "red", "orange", supply={"orange": (0, 0, 0)})
        assert after_attack(st) == ""

    def test_a_player_captures_one_piece_of_each_colour_only(self):
        """Each player may only capture one piece of each colour."""
        st = capture_position(game(), "red", "orange", captured={"first": ["or1"]})
        assert after_attack(st) == "or1"

    def test_no_target_beyond_six_inches(self):
        """Attackers must be no more than 6 in away: exactly 6 counts, 6.5 does not."""
        assert after_attack(capture_position(game(), "red", "orange", gap=6)) == "or3"
        assert after_attack(capture_position(game(), "red", "orange", gap=6.5)) == ""

    def test_nothing_is_pointed_at_through_another_piece(self):
        """The first piece the line meets is the target: a cyan defender in between shields the orange."""
        st = capture_position(game(), "red", "orange", gap=4, between=("cy3", "3.5,0"))
        assert after_attack(st) == ""

    def test_a_line_along_an_edge_meets_nothing(self):
        """The line from the point must enter a piece: a defender whose edge lies on the line is not
        pointed at (its side at y = 0 along the line y = 0), one half an inch closer to the line is."""
        g = game()
        table = [("rd3", "0,0"), ("rd3", "0,-12"), ("or3", "4,0.5")]
        st = position(g, table, pending=["red"])
        assert after_attack(st) == ""
        table[2] = ("or3", "4,0.25")
        st = position(g, table, pending=["red"])
        assert after_attack(st) == "or3"

    def test_only_a_standing_piece_is_captured(self):
        """An attacker points at defenders: a lying orange piece first in the line is no target, and
        it shields the orange defender behind it."""
        g = game()
        table = [("rd3", "0,0"), ("rd3", "0,-12"), ("or3", "8,0"), ("or3", "4.625,0>e")]
        assert after_attack(position(g, table, pending=["red"])) == ""
        assert after_attack(position(g, table[:3], pending=["red"])) == "or3"


class TestHeuristic:
    @pytest.mark.parametrize("depth", [1, 2])
    def test_a_search_sees_its_capture_when_the_next_player_is_to_roll(self, depth):
        """The heuristic is a seat's colours against the best other collection, so a line that ends
        with the next player to roll still counts the capture made on the way (a count of the
        mover's own colours scored it as the next player's nothing, and alpha-beta took the capture
        only by chance): with one red to place, red takes yellow, and alpha-beta sees that."""
        st = capture_position(game(colours="four"), "red", "yellow")
        agent = make_agent(f"alphabeta:depth={depth}", seed=1)
        move = agent.choose(st)
        assert "value 1" in agent.reason
        st.push(move)
        assert re.search(r"captured\.first=(\S*)", st.text()).group(1) == "ye3"


class TestEnd:
    def test_one_piece_of_every_colour_wins(self):
        """The first player to capture one piece of each of the ten colours wins."""
        g = game()
        st = position(g, [("rd3", "0,0")], captured={"second": [CODES[c] + "1" for c in RINGS["ten"]]})
        o = st.outcome()
        assert o is not None and o.kind == "win" and o.player == 1

    def test_nine_colours_do_not_win(self):
        g = game()
        st = position(g, [("rd3", "0,0")], captured={"second": [CODES[c] + "1" for c in RINGS["ten"][:9]]})
        assert st.outcome() is None

    def test_the_game_ends_when_nothing_more_can_be_placed(self):
        """When no colour may be placed any more, the game is a draw (or, with scoring, ranked by
        the captured pieces: 3 a large, 2 a medium, 1 a small)."""
        g = game()
        empty = {c: (0, 0, 0) for c in RINGS["ten"]}
        st = position(g, [("rd3", "0,0")], supply=empty, captured={"first": ["or1"], "second": ["ye3"]})
        assert st.outcome().kind == "draw"
        scored = position(game(scoring=True), [("rd3", "0,0")], supply=empty,
                          captured={"first": ["or1", "gn1"], "second": ["ye3"]})
        assert scored.outcome().results == (0, 1)

    def test_the_ply_cap_ends_the_game(self):
        g = game(ply_cap=30)
        assert position(g, [("rd3", "0,0")], ply=29).outcome() is None
        assert position(g, [("rd3", "0,0")], ply=30).outcome().kind == "draw"


class TestPositions:
    def test_a_position_prints_and_reads_back(self):
        """Pieces on the table are written <piece>@<spot>, in the order they were placed."""
        g = game()
        st = position(g, [("rd3", "0,0"), ("rd3", "6,0"), ("rd3", "1.375,0>e")], pending=["red", "blue"])
        again = g.position(st.text())
        assert again.text() == st.text() and moves(again) == moves(st)

    @pytest.mark.parametrize("bad, says", [("rd3@0,0 rd3@0,0", "a spot holds one piece"),
                                           ("rd3@0,0>q", "not a spot on the table"),
                                           ("rd3-0,0", "<piece>@<spot>"),
                                           ("zz3@0,0", "is not a piece")])
    def test_a_bad_table_is_named(self, bad, says):
        with pytest.raises(ziggurat.GameError, match=says):
            game().position(f"first 3 | {bad} | die1=0 die2=0")

    def test_a_bad_placement_is_explained(self):
        g = game()
        st = position(g, [("cy3", "0,0")], pending=["red"])
        with pytest.raises(ziggurat.GameError):
            st.play("red@0,0")
        with pytest.raises(ziggurat.GameError, match="not a move of Chaos"):
            st.play("red@east")


class TestRefusals:
    """A refused spot says what it breaks (each used to say 'another piece is in the way')."""

    def refused(self, st, move) -> str:
        with pytest.raises(ziggurat.GameError) as e:
            st.play(move)
        return str(e.value)

    @pytest.mark.parametrize("move, says", [
        ("red@30,0", "too far from every piece: the nearest, at 0,0, is 30 in away (at most 6 in)"),
        ("red@6,1", "too far from every piece: the nearest, at 0,0, is 6.08 in away"),
        ("red@0.5,3", "off the lattice: a standing piece's centre is on the 1 in lattice (the nearest point is"),
        ("red@0,0", "it would overlap a piece on the table"),
        ("red@1.375,0>e", "a piece placed here stands: write the spot without a direction, as 1.375,0"),
    ])
    def test_a_defender(self, move, says):
        st = position(game(), [("cy3", "0,0")], pending=["red"])
        assert says in self.refused(st, move)

    def test_a_defender_too_near_its_own_colour(self):
        """Within 6 in of the cyan piece, but 3.61 in from the red one."""
        st = position(game(), [("rd3", "0,0"), ("cy3", "4,0")], pending=["red"])
        assert ("too near the piece at 0,0: 3.61 in away, and it must be at least 6 in from it"
                in self.refused(st, "red@2,3"))

    def test_off_the_finer_lattice_and_overlapping(self):
        st = position(game(pitch=4), [("cy3", "0,0")], pending=["red"])
        assert "on the 0.5 in lattice" in self.refused(st, "red@0.25,3")
        assert "it would overlap a piece on the table" in self.refused(st, "red@0.5,0")

    def test_an_attacker(self):
        st = position(game(), [("rd3", "0,0"), ("rd3", "6,0")], pending=["red"])
        assert "lies flush against a side of a piece, pointing away" in self.refused(st, "red@3,3")
        assert ("not lying flush against a side of a piece it may lie against, pointing straight away "
                "(the nearest of them is at 6,0)") in self.refused(st, "red@5,0>e")
        assert "not lying flush" in self.refused(st, "red@1.375,0>n")  # flush, but pointing along the side

    def test_an_attacker_off_the_places_along_a_side(self):
        st = position(game(offsets="centred"), [("rd3", "0,0"), ("rd3", "6,0")], pending=["red"],
                      supply={"red": (0, 3, 5)})
        assert ("flush against a side, but not at one of the places along it allowed here"
                in self.refused(st, "red@1.1875,0.1>e"))

    def test_an_attacker_with_no_room(self):
        st = position(game(), [("rd2", "0,0"), ("rd2", "6,0")], pending=["red"], supply={"red": (1, 3, 5)})
        assert "has room for its base (it would overhang)" in self.refused(st, "red@1.375,0>e")


class TestProperties:
    def test_the_engines_properties_hold_on_chaos(self):
        """ziggurat test's properties (undo, notation, conservation of the pieces, now with those on
        the table, invariants) hold on random Chaos games (it lost the table's pieces before)."""
        from ziggurat.proptest import run_properties

        report = run_properties("chaos", examples=3, max_plies=30, seed=0)
        assert report.failures == []
