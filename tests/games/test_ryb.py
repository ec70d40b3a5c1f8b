"""RYB (rulesets/ryb.rules) rule by rule, against the text (../shared/seeds, RYB) and the project's
rulings (docs/games/ryb.md): each test builds a position by hand, makes the moves the rule is
about, and checks what the text says happens. Chance moves are played by their text (`rolled
10,0,14`), so every outcome is chosen, not drawn."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import re
from pathlib import Path

import pytest

import ziggurat
from ziggurat.dsl.dice import showing, ways
from ziggurat.errors import GameError


@pytest.fixture(scope="module")
def ryb():
    return ziggurat.load("ryb")


def at(game, cells: str = "", side: str = "al", **fields) -> "ziggurat.interpreter.runtime.State":
    """The start position, at the start of a turn once the deal is done (step 0 unless given),
    with these cells (`a1=P1ptpt`) and zones and counters (`hand__al="DoGi"` sets hand.al; a value
    is written as in positions). The pieces put on cells or added to a zone come out of the zones
    not given (the deck, the bank, the marks): a position holds no more pieces than the game has."""
    fields.setdefault("step", 0)
    _, _, rest = game.new().text().split(" | ")
    tokens = dict(t.split("=", 1) for t in rest.split())
    start = dict(tokens)
    for key, value in fields.items():
        name = key.replace("__", ".")
        assert name in tokens, name
        tokens[name] = str(value)
    given = {k.replace("__", ".") for k in fields}
    extra = (Counter(_codes("".join(t.split("=", 1)[1] for t in cells.split())))
             + Counter(c for name in given for c in _codes(tokens[name]))
             - Counter(c for name in given for c in _codes(start[name])))
    for name in reversed([n for n in tokens if n not in given]):  # the supplies (bank, marks) first
        kept = []
        for code in _codes(tokens[name]):
            if extra[code] > 0:
                extra[code] -= 1  # taken out of this zone
            else:
                kept.append(code)
        if len(kept) < len(_codes(tokens[name])):
            tokens[name] = "".join(kept)
    return game.position(f"{side} 0 | {cells} | " + " ".join(f"{k}={v}" for k, v in tokens.items()))


def _codes(text: str) -> list:
    """The piece codes of a stack or zone as written (RYB's codes are two characters)."""
    return [text[i:i + 2] for i in range(0, len(text), 2)] if not text.lstrip("-").isdigit() else []


def moves(s) -> set:
    return {s.move_text(m) for m in s.moves()}


def play(s, *texts):
    for t in texts:
        s.play(t)
    return s


def field(s, name: str) -> str:
    """A zone or counter as written in the position (`pool.al` -> 'rdrdyd')."""
    tokens = dict(t.split("=", 1) for t in s.text().split(" | ")[2].split())
    return tokens[name]


def cell(s, name: str) -> str:
    cells = dict(t.split("=", 1) for t in s.text().split(" | ")[1].split())
    return cells.get(name, "")


def dice(s, side: str) -> tuple:
    pool = field(s, f"pool.{side}")
    return tuple(pool.count(d) for d in ("rd", "yd", "bd"))


# ---- the material, the deal, the hand ----------------------------------------------------------


def test_each_player_starts_with_two_dice_of_each_primary_and_the_whole_deck_to_deal(ryb):
    s = ryb.new()
    for side in ("al", "bruce", "cath"):
        assert dice(s, side) == (2, 2, 2) and field(s, f"hand.{side}") == ""
    assert field(s, "deck").count("") - 1 == 2 * 70  # 70 cards of two letters


def deal(s, pick=lambda outcomes: outcomes[0][0]):
    """Nature's moves until a player is to decide; the side dealt to at each, in order."""
    dealt = []
    while s.is_chance:
        dealt.append(s.side)
        s.play(s.move_text(pick(s.chance_outcomes())))
    return dealt


@pytest.mark.parametrize("players, size", [(2, 5), (3, 5), (5, 3)])
def test_every_player_is_dealt_a_full_hand_in_seat_order_before_anyone_moves(players, size):
    game = ziggurat.load("ryb", {"players": players})
    s = game.new()
    assert s.is_chance and {s.move_text(m).split()[0] for m, _ in s.chance_outcomes()} == {"deal"}
    dealt = deal(s)
    assert dealt == [p for p in range(players) for _ in range(size)]  # al's hand first, then bruce's ...
    assert all(len(field(s, f"hand.{name}")) == 2 * size for name in game.players)
    assert s.side == 0 and s.ply == players * size and moves(s) == {"refill", "dump"}
    play(s, "refill")
    assert not s.is_chance and field(s, "step") == "2"  # a full hand: nothing to draw, a card to play


def test_a_dealt_card_is_seen_only_by_its_receiver(ryb):
    s = ryb.new()
    move = s.moves()[0]
    assert s.move_view(move, 0) == s.move_text(move) and s.move_view(move, 1) == "<deal>"


def test_a_first_turn_dump_discards_the_dealt_hand(ryb):
    s = ryb.new()
    deal(s)
    hand = field(s, "hand.al")
    assert len(hand) == 2 * 5  # al holds the five cards dealt
    play(s, "dump")
    assert field(s, "discard") == hand and field(s, "hand.al") == "" and s.is_chance


def test_a_player_who_has_not_moved_yet_can_answer_the_first_card_with_denied(ryb):
    s = ryb.new()
    # al is dealt a Gimme! first, bruce a De-nied! first; the rest as the deck falls
    deal(s, lambda outcomes: next((o for o in outcomes if s.move_text(o[0]) == ("deal Gi" if s.side == 0 else "deal De")),
                                  outcomes[0])[0])
    play(s, "refill", "gimme bruce")
    assert s.mover_name == "bruce" and moves(s) == {"allow", "de-nied!"}


@pytest.mark.parametrize("players, size", [(2, 5), (3, 5), (4, 3), (5, 3)])
def test_a_hand_holds_five_cards_with_two_or_three_players_and_three_with_more(players, size):
    game = ziggurat.load("ryb", {"players": players})
    assert game.players == ("al", "bruce", "cath", "dee", "eve")[:players]
    s = play(at(game), "refill")  # an empty hand
    drawn = 0
    while s.is_chance:
        s.play(s.move_text(s.chance_outcomes()[0][0]))
        drawn += 1
    assert drawn == size and s.side == 0  # still al's turn: now the card to play


def test_a_draw_is_a_card_left_in_the_deck_as_likely_as_its_copies(ryb):
    s = play(at(ryb, deck="GiGiGiDe"), "refill")
    assert {s.move_text(m): p for m, p in s.chance_outcomes()} == {"draw Gi": 0.75, "draw De": 0.25}


def test_refill_tops_the_hand_up_and_a_full_hand_draws_nothing(ryb):
    s = play(at(ryb, hand__al="R1R1R2R2", deck="GiGi"), "refill")
    assert s.is_chance
    play(s, "draw Gi")
    assert not s.is_chance and field(s, "hand.al") == "R1R1R2R2Gi" and field(s, "deck") == "Gi"
    full = play(at(ryb, hand__al="R1R1R2R2R3"), "refill")
    assert not full.is_chance and "play R1" in moves(full)


def test_dump_discards_the_hand_draws_a_new_one_and_ends_the_turn(ryb):
    s = play(at(ryb, hand__al="R1DoGi", deck="K1K1K2K2K3K3"), "dump")
    assert field(s, "discard") == "R1DoGi"
    for card in ("K1", "K1", "K2", "K2", "K3"):
        s.play(f"draw {card}")
    assert field(s, "hand.al") == "K1K1K2K2K3" and s.mover_name == "bruce"


def test_the_discards_are_reshuffled_into_the_deck_when_it_runs_out(ryb):
    s = play(at(ryb, hand__al="R1R1R2R2", deck="", discard="GiDe"), "refill")
    assert {s.move_text(m) for m, _ in s.chance_outcomes()} == {"draw Gi", "draw De"}
    assert field(s, "discard") == ""


def test_two_players_never_reshuffle():
    two = ziggurat.load("ryb", {"players": 2})
    s = play(at(two, hand__al="R1R1R2R2", deck="", discard="GiDe"), "refill")
    assert not s.is_chance and field(s, "hand.al") == "R1R1R2R2"  # short a card, and playing on


# ---- play a card -----------------------------------------------------------------------------------


def test_playing_a_card_is_mandatory_and_do_over_and_denied_cannot_be_played(ryb):
    s = at(ryb, hand__al="DoDeR1", step=2)
    assert moves(s) == {"play R1"}
    stuck = at(ryb, hand__al="DoDe", step=2)
    assert moves(stuck) == {"no card to play"}


def test_a_goal_goes_face_up_to_the_middle(ryb):
    s = play(at(ryb, "a1=P1", hand__al="O2", step=2), "play O2")
    assert cell(s, "b1") == "O2" and field(s, "hand.al") == "" and "end" in moves(s)
    assert "O2" in s.observation(1)  # face up: everyone sees it


# ---- colour totals, attempts, banking ------------------------------------------------------------


def test_the_text_example_red_10_and_blue_14_make_10_purple_and_complete_a_purple_9(ryb):
    s = at(ryb, "a1=P1", pool__al="rdrdrdbdbdbdyd", step=5)
    assert "attempt a1 with 3,0,3" in moves(s)
    play(s, "attempt a1 with 3,0,3", "rolled 10,0,14")
    assert moves(s) == {"complete"}
    play(s, "complete")
    assert cell(s, "a1") == "P1m1" and field(s, "marks").count("m1") == 41  # al's marker on it


def test_a_secondary_colour_is_the_smaller_primary_and_black_the_smallest_of_three(ryb):
    short = play(at(ryb, "a1=P1", step=5), "attempt a1 with 2,0,2", "rolled 8,0,12")
    assert moves(short) == {"bank"}  # 8 purple: the 12 blue cannot make up for the red
    black = play(at(ryb, "a1=K1", step=5), "attempt a1 with 2,2,2", "rolled 12,9,12")
    assert moves(black) == {"complete"}
    black = play(at(ryb, "a1=K1", step=5), "attempt a1 with 2,2,2", "rolled 12,12,8")
    assert moves(black) == {"bank"}


def test_only_the_primaries_of_the_goal_are_rolled(ryb):
    s = at(ryb, "a1=G1", step=5)
    assert {m for m in moves(s) if m.startswith("attempt")} == {
        f"attempt a1 with 0,{y},{b}" for y in (1, 2) for b in (1, 2)}
    no_blue = at(ryb, "a1=G1", pool__al="rdrdydyd", step=5)
    assert not any(m.startswith("attempt") for m in moves(no_blue))


def test_a_roll_is_weighted_by_the_throws_of_the_dice(ryb):
    s = play(at(ryb, "a1=O1", step=5), "attempt a1 with 2,1,0")
    outcomes = {s.move_text(m): p for m, p in s.chance_outcomes()}
    assert len(outcomes) == 11 * 6
    assert outcomes["rolled 7,3,0"] == pytest.approx(ways(2, 6, 7) * ways(1, 6, 3) / 6 ** 3)
    assert sum(outcomes.values()) == pytest.approx(1)


def test_the_bank_never_runs_short_of_the_points_a_roll_banks(ryb):
    """The text counts a goal's banked points on a die, without a limit, and a roll short of the
    target banks its whole total: the bank of points at the start holds what every goal on the
    board could hold at once (each one point short of its target), so `bank` always banks the whole
    roll. With 400 points it could run short (up to 714 can lie banked)."""
    text = (Path(ziggurat.__file__).parent / "rulesets" / "ryb.rules").read_text()  # its table of cards
    rows = [(t, c) for t, c in re.findall(r"^    \w+?\d:\s+[01], [01], [01],\s+(\d+),\s+\d+, (\d)$", text, re.M)
            if int(t) > 0]  # the goals: the dice and the points have no target
    assert len(rows) == 21  # the seven colours' three goals
    most = sum(int(copies) * (int(target) - 1) for target, copies in rows)
    assert most == 714 and field(ryb.new(), "bank").count("pt") >= most


def test_a_short_roll_is_banked_on_the_goal_and_lowers_its_target(ryb):
    s = play(at(ryb, "a1=R2", hand__bruce="DeDeDeDe", deck="", step=5), "attempt a1 with 2,0,0", "rolled 11,0,0", "bank")
    assert cell(s, "a1") == "R2" + "pt" * 11
    bruce = play(s, "end", "refill", "no card to play", "attempt a1 with 1,0,0", "rolled 6,0,0")
    assert bruce.mover_name == "bruce" and moves(bruce) == {"bank"}   # 6 < 18 - 11
    again = play(at(ryb, "a1=R2" + "pt" * 11, side="bruce", step=5), "attempt a1 with 2,0,0", "rolled 7,0,0")
    assert moves(again) == {"complete"}
    play(again, "complete")
    assert cell(again, "a1") == "R2m2" and field(again, "bank").count("pt") == 714  # the 11 back to the bank


def test_one_attempt_a_turn_then_the_turn_ends(ryb):
    s = play(at(ryb, "a1=R1 b1=R1", step=5), "attempt a1 with 2,0,0", "rolled 3,0,0", "bank")
    assert moves(s) == {"end"}
    play(s, "end")
    assert s.mover_name == "bruce" and moves(s) == {"refill", "dump"}


# ---- winning ---------------------------------------------------------------------------------------


def test_three_colours_worth_more_than_100_win(ryb):
    s = play(at(ryb, "a1=K3" + "pt" * 20 + " b1=O3m1 c1=O3m1 d1=B3m1", step=5), "attempt a1 with 2,2,2",
             "rolled 12,12,12", "complete")
    assert s.is_terminal() and s.outcome().player == 0  # 30 + 30 + 15 + 45 = 120, three colours


def test_two_colours_or_100_points_do_not_win(ryb):
    two = play(at(ryb, "a1=K3" + "pt" * 20 + " b1=K3m1 c1=K1m1", step=5), "attempt a1 with 2,2,2",
               "rolled 12,12,12", "complete")
    assert not two.is_terminal()  # 45 + 45 + 15 = 105 points, one colour
    exactly = play(at(ryb, "a1=K3" + "pt" * 20 + " b1=O3m1 c1=O1m1 d1=R3m1", step=5), "attempt a1 with 2,2,2",
                   "rolled 12,12,12", "complete")
    assert not exactly.is_terminal()  # 30 + 10 + 15 + 45 = 100: not more than 100


# ---- action cards ----------------------------------------------------------------------------------


def test_gimme_takes_one_die_from_another_players_pool(ryb):
    s = at(ryb, hand__al="Gi", pool__bruce="bd", step=2)
    assert "gimme bruce" in moves(s) and "gimme al" not in moves(s)
    play(s, "gimme bruce")
    assert s.mover_name == "bruce" and moves(s) == {"allow"}  # no De-nied! in hand
    play(s, "allow", "take bd")
    assert dice(s, "al") == (2, 2, 3) and dice(s, "bruce") == (0, 0, 0) and field(s, "discard") == "Gi"


def test_denied_cancels_the_card_that_targets_its_holder(ryb):
    s = play(at(ryb, hand__al="Gi", hand__bruce="De", step=2), "gimme bruce")
    assert moves(s) == {"allow", "de-nied!"}
    play(s, "de-nied!")
    assert s.mover_name == "al" and dice(s, "al") == dice(s, "bruce") == (2, 2, 2)
    assert sorted([field(s, "discard")[:2], field(s, "discard")[2:]]) == ["De", "Gi"]
    assert "end" in moves(s)


def test_swap_of_10_or_less_exchanges_the_rolled_dice_for_as_many_of_the_targets(ryb):
    s = play(at(ryb, hand__al="Sw", pool__bruce="ydydyd", step=2), "swap 2,0,0")
    outcomes = {s.move_text(m): p for m, p in s.chance_outcomes()}
    assert outcomes["swap rolled 7"] == pytest.approx(6 / 36)
    play(s, "swap rolled 9")
    assert moves(s) == {"swap with bruce", "swap with cath", "keep the dice"}
    play(s, "swap with bruce", "allow")
    assert "take 0,2,0" in moves(s)
    play(s, "take 0,2,0")
    assert dice(s, "al") == (0, 4, 2) and dice(s, "bruce") == (2, 1, 0)


def test_swap_puts_the_rolled_dice_in_the_chosen_pool_first_then_takes_as_many_from_it(ryb):
    """The text's order: bruce holds one yellow die; al rolls two red ones and puts them in
    bruce's pool, which then holds two red and one yellow: al takes two of those three."""
    s = play(at(ryb, hand__al="Sw", pool__bruce="yd", step=2), "swap 2,0,0", "swap rolled 9")
    assert "swap with bruce" in moves(s)  # fewer dice than were rolled: the rolled ones go in first
    play(s, "swap with bruce", "allow")
    assert moves(s) == {"take 2,0,0", "take 1,1,0"}
    play(s, "take 1,1,0")
    assert dice(s, "al") == (1, 3, 2) and dice(s, "bruce") == (1, 0, 0)
    empty = play(at(ryb, hand__al="Sw", pool__cath="", step=2), "swap 0,0,1", "swap rolled 4",
                 "swap with cath", "allow")
    assert moves(empty) == {"take 0,0,1"}  # an empty pool: the swapper takes its own die back
    play(empty, "take 0,0,1")
    assert dice(empty, "al") == (2, 2, 2) and dice(empty, "cath") == (0, 0, 0)


def test_swap_of_more_than_10_does_nothing(ryb):
    s = play(at(ryb, hand__al="Sw", step=2), "swap 2,0,0", "swap rolled 11")
    assert dice(s, "al") == (2, 2, 2) and "end" in moves(s) and field(s, "discard") == "Sw"


def test_do_over_rerolls_the_dice_just_rolled(ryb):
    s = play(at(ryb, "a1=R1", hand__al="Do", step=5), "attempt a1 with 2,0,0", "rolled 2,0,0")
    assert moves(s) == {"bank", "do-over"}
    play(s, "do-over")
    assert s.is_chance and field(s, "discard") == "Do"
    play(s, "rolled 12,0,0")
    assert moves(s) == {"complete"}
    without = play(at(ryb, "a1=R1", step=5), "attempt a1 with 2,0,0", "rolled 2,0,0")
    assert moves(without) == {"bank"}


def test_red_rover_takes_every_die_of_the_target_that_shows_the_number(ryb):
    s = play(at(ryb, hand__al="Rr", step=2), "red rover 4 cath", "allow")
    outcomes = {s.move_text(m): p for m, p in s.chance_outcomes()}
    assert len(outcomes) == 27 and sum(outcomes.values()) == pytest.approx(1)
    assert outcomes["rover 0,0,0"] == pytest.approx(Fraction(5, 6) ** 6)
    assert outcomes["rover 2,1,0"] == pytest.approx(showing(2, 6, 2) * showing(2, 6, 1) * showing(2, 6, 0) / 6 ** 6)
    play(s, "rover 2,1,0")
    assert dice(s, "al") == (4, 3, 2) and dice(s, "cath") == (0, 1, 2)


def test_red_rover_may_name_a_player_with_no_dice_who_then_rolls_none(ryb):
    s = at(ryb, hand__al="Rr", pool__bruce="", step=2)
    assert {m for m in moves(s) if m.startswith("red rover 4")} == {"red rover 4 bruce", "red rover 4 cath"}
    play(s, "red rover 4 bruce", "allow")
    assert [(s.move_text(m), p) for m, p in s.chance_outcomes()] == [("rover 0,0,0", 1)]
    play(s, "rover 0,0,0")
    assert dice(s, "al") == (2, 2, 2) and field(s, "discard") == "Rr" and "end" in moves(s)


def test_gimme_and_shanghai_need_another_player_with_dice(ryb):
    s = at(ryb, hand__al="GiSh", pool__bruce="", pool__cath="rd", step=2)
    assert {m for m in moves(s) if m.startswith(("gimme", "shanghai"))} == {"gimme cath", "shanghai cath"}
    none = at(ryb, hand__al="GiSh", pool__bruce="", pool__cath="", step=2)
    assert moves(none) == {"no card to play"}


def test_shanghai_borrows_a_colour_for_the_attempt_and_returns_it_at_the_end(ryb):
    s = play(at(ryb, "a1=R3", hand__al="Sh", step=2), "shanghai bruce", "allow", "borrow rd")
    assert dice(s, "bruce") == (0, 2, 2) and dice(s, "al") == (2, 2, 2)
    assert "attempt a1 with 4,0,0" in moves(s)
    play(s, "attempt a1 with 4,0,0", "rolled 20,0,0", "bank", "end")
    assert dice(s, "bruce") == (2, 2, 2) and dice(s, "al") == (2, 2, 2)


def test_swiss_bank_points_count_only_for_its_owner(ryb):
    s = play(at(ryb, "a1=R2", hand__al="Sb", hand__bruce="DeDeDeDe", deck="", step=2), "swiss bank a1", "attempt a1 with 2,0,0",
             "rolled 10,0,0")
    assert moves(s) == {"bank", "bank on the swiss bank"}
    play(s, "bank on the swiss bank", "end")
    assert cell(s, "a1") == "R2"  # nothing banked on the goal itself
    bruce = play(s, "refill", "no card to play", "attempt a1 with 1,0,0", "rolled 6,0,0")
    assert moves(bruce) == {"bank"}  # bruce still needs 18
    mine = at(ryb, "a1=R2", attached__al="Sb", swiss_at__al="a1", swiss_points__al=10, step=5)
    play(mine, "attempt a1 with 2,0,0", "rolled 8,0,0")
    assert moves(mine) == {"complete"}  # 8 + 10 reaches 18 for al
    play(mine, "complete")
    assert field(mine, "attached.al") == "" and field(mine, "discard") == "Sb"


def test_a_swiss_bank_is_discarded_when_its_goal_is_completed_by_anyone(ryb):
    s = at(ryb, "a1=R1", side="bruce", attached__al="Sb", swiss_at__al="a1", swiss_points__al=5, step=5)
    play(s, "attempt a1 with 2,0,0", "rolled 9,0,0", "complete")
    assert field(s, "attached.al") == "" and field(s, "swiss_at.al") == "-" and field(s, "discard") == "Sb"


def test_raid_attempts_a_goal_another_player_completed(ryb):
    s = at(ryb, "b1=Y2m2", hand__al="Ra", step=2)
    assert not any(m.startswith("attempt") for m in moves(play(at(ryb, "b1=Y2m2", step=5))))  # no Raid
    play(s, "raid")
    assert "attempt b1 with 0,2,0" in moves(s)
    play(s, "attempt b1 with 0,2,0", "rolled 0,12,0")
    assert moves(s) == {"bank", "leave it"}  # 12 < 18: the raider may bank on it
    play(s, "bank")
    assert cell(s, "b1") == "Y2m2" + "pt" * 12  # still bruce's, 6 short now
    again = at(ryb, "b1=Y2m2" + "pt" * 12, side="cath", hand__cath="Ra", step=2)
    play(again, "raid", "attempt b1 with 0,1,0", "rolled 0,6,0")
    assert moves(again) == {"complete"}
    play(again, "complete")
    assert cell(again, "b1") == "Y2m3"  # cath's now; the banked points went back
    mine = at(ryb, "b1=Y2m1", hand__al="Ra", step=2)
    assert not any(m.startswith("attempt b1") for m in moves(play(mine, "raid")))  # not one's own


# ---- the Variable card, by option ------------------------------------------------------------------


def variable(rule: str):
    return ziggurat.load("ryb", {"variable_card": rule})


def test_variable_reset_returns_every_pool_to_two_of_each():
    g = variable("reset")
    s = play(at(g, hand__al="Va", pool__al="rdrdrdrd", pool__bruce="ydydydydbdbdbdbd", step=2), "variable: reset")
    assert all(dice(s, side) == (2, 2, 2) for side in ("al", "bruce", "cath"))


def test_variable_balance_the_target_gives_dice_of_its_choice_until_even():
    g = variable("balance")
    s = at(g, hand__al="Va", pool__al="rd", pool__bruce="ydydydydbd", step=2)
    assert {m for m in moves(s) if "balance" in m} == {"variable: balance bruce", "variable: balance cath"}
    play(s, "variable: balance bruce", "allow")
    assert s.mover_name == "bruce"  # the target chooses the dice
    assert moves(s) == {"give 0,2,0", "give 0,1,1"}  # (5 - 1) / 2 = 2 dice
    play(s, "give 0,1,1")
    assert dice(s, "al") == (1, 1, 1) and dice(s, "bruce") == (0, 3, 0) and s.mover_name == "al"


def test_variable_balance_may_name_a_player_with_no_more_dice_and_then_does_nothing():
    g = variable("balance")
    s = at(g, hand__al="Va", pool__al="rdrdydydbdbdbd", pool__bruce="rd", step=2)
    assert {m for m in moves(s) if "balance" in m} == {"variable: balance bruce", "variable: balance cath"}
    play(s, "variable: balance bruce", "allow")
    assert s.mover_name == "al" and "end" in moves(s)  # nothing owed: the card is obeyed as it is
    assert dice(s, "al") == (2, 2, 3) and dice(s, "bruce") == (1, 0, 0) and field(s, "discard") == "Va"
    even = play(at(g, hand__al="Va", step=2), "variable: balance cath", "allow")  # six dice each
    assert even.mover_name == "al" and "end" in moves(even) and field(even, "discard") == "Va"


def test_variable_void_may_name_a_player_with_no_dice_and_then_does_nothing():
    g = variable("void")
    s = at(g, hand__al="Va", pool__bruce="", step=2)
    assert {m for m in moves(s) if "void" in m} == {"variable: void bruce", "variable: void cath"}
    denied = play(at(g, hand__al="Va", pool__bruce="", hand__bruce="De", step=2), "variable: void bruce")
    assert moves(denied) == {"allow", "de-nied!"}  # named, so it may answer as any target
    play(s, "variable: void bruce", "allow")
    assert s.mover_name == "al" and "end" in moves(s) and field(s, "discard") == "Va"
    assert dice(s, "al") == dice(s, "cath") == (2, 2, 2)


def test_variable_tea_party_passes_every_pool_to_the_side_chosen():
    g = variable("tea_party")
    s = at(g, hand__al="Va", pool__al="rd", pool__bruce="yd", pool__cath="bd", step=2)
    assert {m for m in moves(s) if "tea" in m} == {"variable: tea party towards bruce",
                                                    "variable: tea party towards cath"}
    left = play(at(g, hand__al="Va", pool__al="rd", pool__bruce="yd", pool__cath="bd", step=2),
                "variable: tea party towards bruce")
    assert field(left, "pool.bruce") == "rd" and field(left, "pool.cath") == "yd" and field(left, "pool.al") == "bd"
    play(s, "variable: tea party towards cath")
    assert field(s, "pool.cath") == "rd" and field(s, "pool.al") == "yd" and field(s, "pool.bruce") == "bd"


def test_variable_recycle_plays_a_card_from_the_discard_at_once_but_not_do_over_denied_or_variable():
    g = variable("recycle")
    s = at(g, hand__al="VaR1", discard="DoDeGiO2Va", step=2)
    assert {m for m in moves(s) if "recycle" in m} == {"variable: recycle Gi", "variable: recycle O2"}
    play(s, "variable: recycle O2")
    assert moves(s) == {"play O2"}  # that card, now: not the R1 in hand
    play(s, "play O2")
    assert cell(s, "a1") == "O2" and field(s, "hand.al") == "R1"


def test_variable_recycle_takes_back_only_a_card_that_could_be_played_now():
    """A Swap needs a die of one's own to roll, a Gimme! or a Shanghai another player with dice: a
    Recycle does not waste itself on one that could not then be played."""
    g = variable("recycle")
    broke = at(g, hand__al="Va", pool__al="", discard="SwGiShRr", step=2)
    assert {m for m in moves(broke) if "recycle" in m} == {"variable: recycle Gi", "variable: recycle Sh",
                                                           "variable: recycle Rr"}
    alone = at(g, hand__al="Va", pool__al="rdrdydydbdbd" * 3, pool__bruce="", pool__cath="",
               discard="SwGiShRr", step=2)
    assert {m for m in moves(alone) if "recycle" in m} == {"variable: recycle Sw", "variable: recycle Rr"}
    play(alone, "variable: recycle Sw")
    assert "swap 1,0,0" in moves(alone) and "no card to play" not in moves(alone)


def test_variable_trade_lets_the_player_offer_and_the_other_consent():
    g = variable("trade")
    s = play(at(g, hand__al="VaR1", hand__bruce="K3", pool__bruce="bd", step=2), "variable: trade")
    assert "offer rd to bruce for bd" in moves(s) and "offer a card to bruce: R1" in moves(s)
    play(s, "offer rd to bruce for bd")
    assert s.mover_name == "bruce" and moves(s) == {"accept", "decline"}
    play(s, "accept")
    assert dice(s, "al") == (1, 2, 3) and dice(s, "bruce") == (1, 0, 0)
    play(s, "offer a card to bruce: R1")
    assert moves(s) == {"accept, giving K3", "decline"}
    assert "R1" not in s.observation(2)  # cath did not see which card was offered
    play(s, "decline")
    assert field(s, "hand.al") == "R1"
    play(s, "offer a card to bruce: R1", "accept, giving K3")
    assert field(s, "hand.al") == "K3" and field(s, "hand.bruce") == "R1"
    assert not any(m.startswith("offer") for m in moves(s))  # three offers made: time is up
    play(s, "end")
    assert field(s, "discard") == "Va"  # the Trade card leaves play at the end of the turn


def test_variable_void_makes_the_target_give_a_colour_away():
    g = variable("void")
    s = play(at(g, hand__al="Va", step=2), "variable: void bruce", "allow")
    assert moves(s) == {"void rd", "void yd", "void bd"}
    play(s, "void yd")
    assert s.mover_name == "bruce" and moves(s) == {"give yd to al", "give yd to cath"}
    play(s, "give yd to cath", "give yd to al")
    assert dice(s, "bruce") == (2, 0, 2) and dice(s, "cath") == (2, 3, 2) and dice(s, "al") == (2, 3, 2)
    assert s.mover_name == "al"


# ---- bad input and hidden hands -------------------------------------------------------------------


def test_a_bad_move_is_named_not_a_traceback(ryb):
    s = at(ryb, "a1=R1", step=5)
    with pytest.raises(GameError):
        s.play("attempt a1 with 3,0,0")  # two red dice only
    denied = play(at(ryb, hand__al="Gi", step=2), "gimme bruce")
    with pytest.raises(GameError, match="De-nied"):
        denied.play("de-nied!")  # bruce holds none
    with pytest.raises(GameError):
        play(at(ryb, step=5), "attempt a1 with 1,0,0")  # no goal there


def test_hands_and_draws_are_hidden_from_the_other_players(ryb):
    s = play(at(ryb, hand__bruce="K3K3", deck="GiGi"), "refill", "draw Gi")
    assert "hand.al=Gi" in s.observation(0) and "hand.al=?1" in s.observation(1)
    assert "K3" not in s.observation(0) and "K3" in s.observation(1)
    assert "draw Gi" not in s.information_state(1) and "draw Gi" in s.information_state(0)


def test_play_with_three_players_never_shows_another_hand():
    """`ziggurat play ryb --set players=3`: a person against two agents sees its own cards and the
    table, never the agents' hands or draws."""
    from click.testing import CliRunner

    from ziggurat.cli.main import cli
    for seed in range(3):
        result = CliRunner().invoke(cli, ["play", "ryb", "--set", "players=3", "--seats", "human,random,random",
                                          "--seed", str(seed)], input="dump\nquit\n")
        out = result.output
        assert result.exit_code == 0 and "Traceback" not in out, out
        assert "chance: deal" in out and "chance: <deal>" in out  # mine shown, theirs not
        # Drawn as a table of what it has: each player's hand on the first line under its name.
        lines, mine, others = out.splitlines(), [], []
        for i, line in enumerate(lines):
            if line.strip() in ("al (you)", "bruce", "cath"):
                hand = next(x for x in lines[i + 1:] if x.strip().startswith("hand")).split(None, 1)[1].strip()
                (mine if line.strip() == "al (you)" else others).append(hand)
        assert others and all(v == "none" or re.fullmatch(r"\d+ hidden", v) for v in others), others
        assert any(re.match(r"[A-Z][A-Za-z0-9] [a-z]", v) for v in mine), mine  # a card: its code and name


def test_bad_input_names_the_roll_the_card_or_the_window(ryb):
    rolled = play(at(ryb, "a1=R1", step=5), "attempt a1 with 2,0,0")
    with pytest.raises(GameError, match="rolled 13,0,0"):
        rolled.play("rolled 13,0,0")  # two dice make 2 to 12
    with pytest.raises(GameError, match="play K3"):
        at(ryb, hand__al="R1", step=2).play("play K3")  # not in al's hand
    with pytest.raises(GameError, match="there is nothing to answer now"):
        at(ryb, hand__al="De", step=5).play("de-nied!")  # nobody is targeting al


def test_no_view_of_a_played_game_shows_another_players_hand_or_draws():
    """Random games with every Variable rule: at every position each player's observation shows
    the other hands and the deck as counts only, every other player's draw (and a card traded
    between two others) as a bare `<...>`."""
    import random
    for rule in ("reset", "trade"):
        game = variable(rule)
        rng = random.Random(4)
        s = game.new()
        for _ in range(500):
            if s.is_terminal():
                break
            for p in range(3):
                obs = s.observation(p)
                for q, name in enumerate(game.players):
                    if q != p:
                        assert f"hand.{name}=?" in obs or f"hand.{name}= " in obs + " ", obs
                assert "deck=?" in obs or "deck= " in obs + " "
            moves = s.moves()
            move = rng.choice(moves)
            seen = game.seen_by(s, move)
            for p in range(3):
                view = s.move_view(move, p)
                if seen is not None and p not in seen:
                    assert view.startswith("<") and view.endswith(">"), view
                else:
                    assert view == s.move_text(move)
            s.push(move)
        assert s.ply > 100


def test_the_table_of_a_game_with_many_piles_leaves_out_empty_piles_and_bookkeeping(ryb):
    from click.testing import CliRunner

    from ziggurat.cli.main import cli
    s = play(at(ryb), "refill", "draw R1", "draw Gi", "draw De", "draw K2", "draw Sw", "play R1")
    out = CliRunner().invoke(cli, ["show", "ryb", "-p", s.text(), "--as", "al"]).output
    rows = [line.split()[0] for line in out.splitlines() if line.strip()]
    assert rows.count("hand") == 3 and rows.count("pool") == 3 and "turn" in rows
    assert "discard" not in rows and "held" not in rows  # empty piles are left out
    assert "step" not in rows and "active" not in rows  # bookkeeping: not shown (still in the position)
    assert "step=" in s.text()
    assert "ptx714" in out and "m1x42 m2x42 m3x42" in out  # long runs of one kind, written once
    small = CliRunner().invoke(cli, ["show", "kuhn-poker"]).output
    assert "hand" in small and "chips" in small and "bets" not in small


def test_mcts_plays_legal_moves_in_worlds_dealt_from_what_it_sees(ryb):
    """Its worlds deal the unseen cards among the deck and the other hands only: a completed goal's
    marker, a banked point or a die never lands in a hand (a world that did crashed or lied)."""
    import random

    from ziggurat.agents import make_agent
    rng = random.Random(2)
    s = ryb.new()
    while "m" not in s.text().split(" | ")[1] and not s.is_terminal():  # until a goal is completed
        s.push(ryb.sample_chance(s, rng) or rng.choice(s.moves()))
    assert not s.is_terminal()
    for seed in range(3):
        while s.is_chance:
            s.push(ryb.sample_chance(s, rng))
        world = s.determinized(s.side, random.Random(seed))
        for p, name in enumerate(ryb.players):
            if p != s.side:
                hand = world.text().split(f"hand.{name}=")[1].split()[0]
                assert all(hand[i].isupper() for i in range(0, len(hand), 2)), hand  # cards only
        move = make_agent("mcts:iterations=20:rollout=20", seed).choose(s)
        assert move in s.moves()
        s.push(move)


# ---- the documentation ------------------------------------------------------------------------------


def test_the_game_page_lists_the_whole_deck_as_the_ruleset_has_it(ryb):
    """docs/games/ryb.md lists every kind of card of the table `cards` with copies: its code, its
    colour (the primaries a goal mixes), target, value and copies, as in ryb.rules."""
    from pathlib import Path

    from ziggurat.dsl.loader import load_model
    page = (Path(__file__).resolve().parents[2] / "docs" / "games" / "ryb.md").read_text()
    listed = {}
    for line in page.splitlines():
        cols = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cols) == 6 and cols[1] in ryb.world.piece_by_text():
            listed[cols[0]] = cols[1:]
    world = ryb.world
    thing = next(a for a in world.attributes if a.name == "thing")
    code = {thing.value_name(world.attr_tables["thing"][p]): c for c, p in world.piece_by_text().items()}
    colours = {(1, 0, 0): "red", (0, 1, 0): "yellow", (0, 0, 1): "blue", (1, 1, 0): "orange",
               (0, 1, 1): "green", (1, 0, 1): "purple", (1, 1, 1): "black"}
    deck = {}
    for name, *values in load_model("ryb").tables["cards"].entries:
        red, yellow, blue, target, value, copies = (v.value for v in values)
        if copies:
            deck[name.id] = (code[name.id], colours.get((red, yellow, blue), "action"),
                             str(target) if target else "-", str(value) if target else "-", str(copies))
    shown = {name: (c, kind.split(":")[1].split()[0] if kind.startswith("goal:") else kind.split(":")[0],
                    target, value, copies) for name, (c, kind, target, value, copies) in listed.items()}
    assert shown == deck
    assert sum(int(c) for *_, c in deck.values()) == 70 and f"{70} in all" in page
