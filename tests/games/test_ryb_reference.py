"""RYB against tests/reference/ryb_ref.py, a plain-Python RYB written apart from the ruleset, from the
rules text, the project's rulings and a description of how a turn is cut into moves (not from
ryb.rules): random games compared move by move (the legal moves, nature's outcomes and their
probabilities, the whole table after every move, the result) for every Variable rule and 2 to 5
players, and perft over nature's moves on positions reached by play. One game per setting in CI
(2, 3 and 5 players: 4 only with ZIGGURAT_SLOW=1, as 5 plays what 4 adds to 3, a hand of three
and more seats); five with ZIGGURAT_SLOW=1."""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

import ziggurat
from ziggurat.interpreter.runtime import perft

from reference import ryb_ref

RULES = ("reset", "balance", "tea_party", "recycle", "trade", "void")
SLOW = os.environ.get("ZIGGURAT_SLOW") == "1"
GAMES = 5 if SLOW else 1


def codes(text: str) -> list:
    return sorted(text[i:i + 2] for i in range(0, len(text), 2))


def summary(s) -> dict:
    """The reference's summary() of a Ziggurat state."""
    _, cells, rest = s.text().split(" | ")
    f = dict(t.split("=", 1) for t in rest.split())
    sides = s.game.players
    middle, done = {}, {}
    for token in cells.split():  # a goal, then its completer's marker (m1 for the first seat ...), then points
        name, stack = token.split("=")
        if stack[2:4].startswith("m"):
            done[name] = (stack[:2], int(stack[3]) - 1, stack.count("pt"))
        else:
            middle[name] = (stack[:2], stack.count("pt"))
    pools = [codes(f[f"pool.{p}"]) for p in sides]
    offered = [f["offered"][i:i + 2] for i in range(0, len(f["offered"]), 2)]
    if f["step"] == "11" and offered:  # a trade offer waits: the dice put forward are still their owners'
        pools[int(f["active"]) - 1].append(offered[0])
        pools[int(f["victim"]) - 1].append(offered[1])
    won = [sorted(code for code, owner, _ in done.values() if owner == i) for i in range(len(sides))]
    hands = [codes(f[f"hand.{p}"]) for p in sides]
    active = int(f["active"]) - 1
    hands[active] = sorted(hands[active] + codes(f["recycled"]))  # taken back by Recycle, to play now
    hands[active] = sorted(hands[active] + codes(f["proffered"]))  # a card offered in a trade, still its owner's
    return {
        "mover": s.side,
        "pools": [tuple(pool.count(d) for d in ("rd", "yd", "bd")) for pool in pools],
        "hands": hands,
        "won": won,
        "done": done,
        "middle": middle,
        "deck": codes(f["deck"]),
        "discard": codes(f["discard"]),
        "swiss": [(None if f[f"swiss_at.{p}"] == "-" else f[f"swiss_at.{p}"], int(f[f"swiss_points.{p}"]))
                  for p in sides],
    }


def compare_game(options: dict, seed: int, plies: int) -> int:
    """Play one random game (up to `plies`) in both; fail at the first difference. Returns plies."""
    game = ziggurat.load("ryb", options)
    ref = ryb_ref.RYB(**options)
    s, r = game.new(), ref.new()
    rng = random.Random(seed)
    for ply in range(plies):
        where = f"{options} seed {seed} ply {ply}: {s.text()[:200]}"
        assert summary(s) == ref.summary(r), where
        assert ref.mover(r) == s.side, where
        if s.is_terminal():
            out = s.outcome()
            assert ref.outcome(r) == (("win", out.player) if out.kind == "win" else ("draw",)), where
            return ply
        assert ref.outcome(r) is None, where
        assert s.is_chance == ref.is_chance(r), where
        if s.is_chance:
            ours = {s.move_text(m): p for m, p in s.chance_outcomes()}
            theirs = ref.outcomes(r)
            assert set(ours) == set(theirs), where
            for text, p in ours.items():
                assert p == pytest.approx(float(theirs[text])), (where, text)
            text = rng.choices(list(ours), weights=list(ours.values()))[0]
        else:
            ours = sorted(s.move_text(m) for m in s.moves())
            assert ours == sorted(ref.legal(r)), where
            text = rng.choice(ours)
        s.play(text)
        r = ref.play(r, text)
    return plies


@pytest.mark.parametrize("rule", RULES)
def test_random_games_agree_move_by_move_for_every_variable_rule(rule):
    for seed in range(GAMES):
        compare_game({"variable_card": rule}, seed, 3000)


@pytest.mark.parametrize("players", [2, 4, 5] if SLOW else [2, 5])
def test_random_games_agree_move_by_move_with_2_4_and_5_players(players):
    for seed in range(GAMES):
        compare_game({"players": players, "variable_card": RULES[(seed + players) % len(RULES)]}, 100 + seed, 3000)


@pytest.mark.parametrize("deepest", [2, 3])  # 3: the long suite (tests/long_suite.py)
def test_perft_over_nature_agrees_on_positions_reached_by_play(deepest):
    game, ref = ziggurat.load("ryb"), ryb_ref.RYB()
    rng = random.Random(5)
    s, r = game.new(), ref.new()
    checked = Counter()
    for ply in range(400):
        if ply % 37 == 0:
            depth = deepest if len(s.moves()) < 40 else 2
            assert perft(s, depth) == ryb_ref.perft(ref, r, depth), (ply, s.text()[:200])
            checked[depth] += 1
        if s.is_terminal():
            break
        moves = s.moves()
        text = s.move_text(rng.choice(moves))
        s.play(text)
        r = ref.play(r, text)
    assert sum(checked.values()) >= 8
    assert perft(game.new(), 2) == ryb_ref.perft(ref, ref.new(), 2)
