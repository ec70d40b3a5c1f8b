"""Outcomes of unequal weight: `weight EXPR` on a chance action, `ways(n, faces, total)` for the
sums of dice, draws from a zone holding equal pieces; the zone effects `add` and `transfer`."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

import ziggurat
from ziggurat.dsl.checks import check
from ziggurat.dsl.dice import showing, ways
from ziggurat.errors import GameError
from ziggurat.interpreter.runtime import perft

# Two dice thrown as one outcome, their sum, weighted by how many throws make it; the thrower
# then keeps or passes. `dice` is an option, so the weights are folded or computed at run time.
SUMS = """\
option dice: 1..4 = 2
players a, b
board:
    files: 1
    ranks: 1
piece:
    owner: players
counter total = 0
counter thrown = 0
action throw "{sum}":
    by chance
    when thrown == 0
    sum: dice..dice * 6
    weight ways(dice, 6, sum)
    do:
        total = sum
        thrown = 1
        extra_turn()
action keep "keep":
    when thrown == 1
    do:
        thrown = 2
end:
    if thrown == 2:
        win a "kept"
"""

# A bag of three red and one blue marble: a draw is one outcome per colour, weighted by copies.
BAG = """\
players a, b
board:
    files: 1
    ranks: 1
piece:
    colour: red, blue
zone bag hidden
zone drawn
setup:
    add(bag, [piece(red), piece(red), piece(blue)])
    add(bag, piece(red))
action draw "{marble}":
    by chance
    when count(drawn) < 2
    marble: bag
    weight count(x == marble for x in bag)
    do:
        transfer(bag, marble, drawn)
end:
    if count(drawn) == 2:
        draw "two drawn"
"""


def load(tmp_path, text, options=None, name="game"):
    path = tmp_path / f"{name}.rules"
    path.write_text(text)
    assert [d.render() for d in check(str(path)) if d.severity == "error"] == []
    return ziggurat.load(str(path), options or {})


def errors(tmp_path, text):
    path = tmp_path / "bad.rules"
    path.write_text(text)
    return [d for d in check(str(path)) if d.severity == "error"]


# ---- ways ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("n,faces", [(1, 6), (2, 6), (3, 6), (2, 10), (4, 4)])
def test_ways_counts_every_throw_by_its_sum(n, faces):
    """Against enumeration of all faces**n throws."""
    by_sum = Counter(sum(t) for t in itertools.product(range(1, faces + 1), repeat=n))
    for total in range(-1, n * faces + 2):
        assert ways(n, faces, total) == by_sum.get(total, 0)


def test_ways_of_no_dice_is_one_way_to_make_nothing():
    assert ways(0, 6, 0) == 1 and ways(0, 6, 3) == 0 and ways(-1, 6, 0) == 0


@pytest.mark.parametrize("n,faces", [(0, 6), (1, 6), (3, 6), (4, 4), (2, 10)])
def test_showing_counts_the_throws_where_exactly_k_dice_show_a_face(n, faces):
    """Against enumeration: throws of n dice with exactly k of them showing the face 4 (any one face)."""
    by_k = Counter(sum(1 for f in t if f == 4) for t in itertools.product(range(1, faces + 1), repeat=n))
    for k in range(-1, n + 2):
        assert showing(n, faces, k) == by_k.get(k, 0)


def test_showing_weights_a_chance_action_folded_or_at_run_time(tmp_path):
    text = SUMS.replace("    sum: dice..dice * 6\n    weight ways(dice, 6, sum)",
                        "    sum: 0..dice\n    weight showing(dice, 6, sum) * showing(total + 1, 2, 1)")
    game = load(tmp_path, text, {"dice": 3})
    outcomes = {game.new().move_text(m): p for m, p in game.new().chance_outcomes()}
    assert outcomes == pytest.approx({str(k): showing(3, 6, k) / 6 ** 3 for k in range(4)})


# ---- weighted outcomes --------------------------------------------------------------------------


@pytest.mark.parametrize("dice", [1, 2, 3])
def test_weighted_outcomes_have_the_probabilities_of_their_weights(tmp_path, dice):
    game = load(tmp_path, SUMS, {"dice": dice})
    outcomes = game.new().chance_outcomes()
    assert [game.new().move_text(m) for m, _ in outcomes] == [str(s) for s in range(dice, 6 * dice + 1)]
    for m, p in outcomes:
        assert p == pytest.approx(ways(dice, 6, m[1]) / 6 ** dice)
    assert sum(p for _, p in outcomes) == pytest.approx(1)


def test_each_weighted_outcome_is_one_ply_of_perft(tmp_path):
    st = load(tmp_path, SUMS).new()
    assert [perft(st, d) for d in (1, 2, 3)] == [11, 11, 0]


def test_sampling_follows_the_weights(tmp_path):
    game = load(tmp_path, SUMS)
    st, rng = game.new(), random.Random(5)
    draws = Counter(game.sample_chance(st, rng)[1] for _ in range(36000))
    # 1000 expected per way: 7 (6 ways) about 6000, 2 and 12 (1 way) about 1000; 5 sigma is loose.
    for s in range(2, 13):
        expected = 36000 * Fraction(ways(2, 6, s), 36)
        sigma = (float(expected) * (1 - ways(2, 6, s) / 36)) ** 0.5
        assert abs(draws[s] - float(expected)) < 5 * sigma


def test_random_playouts_at_weighted_nodes_follow_the_weights(tmp_path):
    from ziggurat.interpreter.runtime import random_playout
    game = load(tmp_path, SUMS, {"dice": 2})
    rng, seen = random.Random(11), Counter()
    for _ in range(3600):
        st = game.new()
        random_playout(st, rng)
        seen[st.stack[0][1]] += 1
    assert seen[7] > 3 * seen[2] and seen[7] > 3 * seen[12]


def test_a_draw_from_equal_pieces_is_one_outcome_per_kind_weighted_by_copies(tmp_path):
    game = load(tmp_path, BAG)
    st = game.new()
    assert st.text().split("| ")[-1].startswith("bag=rrbr drawn=")
    outcomes = {st.move_text(m): p for m, p in st.chance_outcomes()}
    assert outcomes == pytest.approx({"r": 0.75, "b": 0.25})
    st.play("b")
    assert st.chance_outcomes() == [(st.parse_move("r"), 1.0)]
    assert perft(game.new(), 2) == 3  # r then r or b; b then r


def test_add_and_transfer_are_undone_exactly(tmp_path):
    game = load(tmp_path, BAG)
    st = game.new()
    before = st.text()
    st.play("r")
    assert "bag=rbr drawn=r" in st.text()
    st.play("b")
    assert "bag=rr drawn=rb" in st.text()
    st.pop()
    st.pop()
    assert st.text() == before


def test_a_weight_that_is_not_positive_is_named_with_its_outcome(tmp_path):
    game = load(tmp_path, SUMS.replace("weight ways(dice, 6, sum)", "weight sum - 2"))
    with pytest.raises(GameError, match=r"the chance outcome '2' has weight 0: a weight must be positive"):
        game.new().chance_outcomes()


# ---- checks -------------------------------------------------------------------------------------


def test_weight_belongs_to_chance_actions(tmp_path):
    bad = SUMS.replace("    by chance\n", "")
    [e] = errors(tmp_path, bad)
    assert "player's choice, so its moves have no weight" in e.message and e.line == 13


def test_a_weight_is_a_number(tmp_path):
    [e] = errors(tmp_path, SUMS.replace("weight ways(dice, 6, sum)", "weight sum == 7"))
    assert "a weight" in e.render() and "number" in e.render()


def test_weight_is_said_once(tmp_path):
    [e] = errors(tmp_path, SUMS.replace("    weight ways(dice, 6, sum)\n", "    weight 1\n    weight 2\n"))
    assert "says 'weight' twice" in e.message


def test_seen_by_names_players(tmp_path):
    bad = BAG.replace("    weight count", "    seen by 3\n    weight count")
    [e] = errors(tmp_path, bad)
    assert "'seen by' (a player or a list of players)" in e.render()


def test_ways_takes_three_numbers(tmp_path):
    [e] = errors(tmp_path, SUMS.replace("ways(dice, 6, sum)", "ways(dice, sum)"))
    assert "ways() takes 3 arguments" in e.message
