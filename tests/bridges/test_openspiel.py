"""Cross-checks of the classic rulesets against OpenSpiel, an independently written C++ engine.

Each shipped classic ruleset is mapped to its OpenSpiel game. A *turn* is what one player does
before the other moves: one Ziggurat move, and one OpenSpiel action or several actions of the same
player (an Amazons turn is three; a Checkers jump chain is one action a jump). Positions are translated by replaying the same turns in both engines, matched
by their notation. The checks:

- perft by whole turns (a finished game counts 0 below it), split by first move, from the start
  and from positions reached by seeded random play, for several depths and board sizes;
- whole random games in which the two engines offer the same turns at every ply and agree on the
  result.

The tests skip, saying why, when `pyspiel` is not installed (`pip install -e '.[test]'`).
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

import ziggurat
import ziggurat.dsl.loader

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install open-spiel, part of the '.[test]' extra): "
                      "the cross-checks against it are skipped")


# ---- how each ruleset maps onto its OpenSpiel game ------------------------------------------------


class Spec:
    """One ruleset and its OpenSpiel game: the game's parameters from Ziggurat's options, and the
    translation of OpenSpiel's action strings into Ziggurat's move notation."""

    multi_action = False  # several OpenSpiel actions make one turn

    def __init__(self, ruleset: str, openspiel: str):
        self.ruleset, self.openspiel = ruleset, openspiel

    def params(self, game) -> dict:
        return {}

    def load(self, options: dict):
        """(Ziggurat game, OpenSpiel game) at these options."""
        zg = ziggurat.load(self.ruleset, options)
        return zg, pyspiel.load_game(self.openspiel, self.params(zg))

    def text(self, zg, texts: list) -> str:
        """Ziggurat's notation for the OpenSpiel action strings of one turn."""
        return texts[0]

    def turns(self, zg, state) -> list:
        """[(Ziggurat move text, OpenSpiel state after the turn)] for every turn from `state`."""
        if state.is_terminal():
            return []
        out = []
        player = state.current_player()

        def expand(st, texts):
            for a in st.legal_actions():
                child = st.child(a)
                more = texts + [st.action_to_string(a)]
                if self.multi_action and not child.is_terminal() and child.current_player() == player:
                    expand(child, more)
                else:
                    out.append((self.text(zg, more), child))

        expand(state, [])
        return out


class Breakthrough(Spec):
    def params(self, zg):
        return {"rows": zg.world.ranks, "columns": zg.world.files}


class Clobber(Spec):
    def params(self, zg):
        return {"rows": zg.world.ranks, "columns": zg.world.files}


class Amazons(Spec):
    """OpenSpiel splits a turn into three actions: 'X From (r, c)', 'X To (r, c)', 'X Shoot: (r, c)',
    rows counted from the top."""

    multi_action = True

    def params(self, zg):
        return {"board_size": zg.world.files}

    def text(self, zg, texts):
        cells = []
        for t in texts:
            r, c = map(int, re.search(r"\((\d+), (\d+)\)", t).groups())
            cells.append(zg.world.cell_name((zg.world.ranks - r) * zg.world.files + c - 1))
        return "{}-{}/{}".format(*cells)


class Othello(Spec):
    """OpenSpiel writes row 1 at the top; Ziggurat's rank 1 is at the bottom, so the same game is
    the mirror image: d3 there is d6 here."""

    def text(self, zg, texts):
        t = texts[0]
        m = re.fullmatch(r"([a-h])([1-8])", t)
        return f"{m.group(1)}{9 - int(m.group(2))}" if m else t


class LinesOfAction(Spec):
    pass


class Checkers(Spec):
    """OpenSpiel takes a jump chain as one action a jump ('c3e5', then 'e5g7' by the same player);
    Ziggurat writes the chain as one move, c3xe5xg7, and a step as c3-d4. OpenSpiel always starts
    three ranks of men each."""

    multi_action = True

    def params(self, zg):
        return {"rows": zg.world.ranks, "columns": zg.world.files}

    def text(self, zg, texts):
        hops = [re.fullmatch(r"([a-z]\d+)([a-z]\d+)", t).groups() for t in texts]
        if len(hops) == 1 and abs(ord(hops[0][0][0]) - ord(hops[0][1][0])) == 1:
            return "-".join(hops[0])
        return hops[0][0] + "".join("x" + to for _, to in hops)


class TicTacToe(Spec):
    """OpenSpiel writes a mark 'x(r,c)', row 0 at the top. The default board is its `tic_tac_toe`;
    other sizes and lengths are its `mnk` game (m columns, n rows, k in a row)."""

    def load(self, options):
        zg = ziggurat.load(self.ruleset, options)
        size = {"m": zg.world.files, "n": zg.world.ranks, "k": zg.options["k"]}
        og = pyspiel.load_game("tic_tac_toe") if size == {"m": 3, "n": 3, "k": 3} else pyspiel.load_game("mnk", size)
        return zg, og

    def text(self, zg, texts):
        r, c = map(int, re.search(r"\((\d+),(\d+)\)", texts[0]).groups())
        return zg.world.cell_name((zg.world.ranks - 1 - r) * zg.world.files + c)


SPECS = {s.ruleset: s for s in (
    Breakthrough("breakthrough", "breakthrough"),
    Clobber("clobber", "clobber"),
    Amazons("amazons", "amazons"),
    Othello("othello", "othello"),
    LinesOfAction("lines-of-action", "lines_of_action"),
    Checkers("checkers", "checkers"),
    TicTacToe("tic-tac-toe", "tic_tac_toe"),
)}


# ---- the two engines side by side ---------------------------------------------------------------


def os_divide(spec, zg, state, depth) -> Counter:
    """OpenSpiel's perft by whole turns, split by first turn (keyed by Ziggurat's notation)."""

    def perft(st, d):
        if st.is_terminal():
            return 0
        turns = spec.turns(zg, st)
        if d == 1:
            return len(turns)
        return sum(perft(child, d - 1) for _, child in turns)

    out = Counter()
    for text, child in spec.turns(zg, state):
        out[text] += 1 if depth == 1 else perft(child, depth - 1)
    return out


def zg_divide(state, depth) -> Counter:
    out = Counter()
    for text, n in ziggurat.divide(state, depth):
        out[text] += n
    return out


def replay(spec, options, plies, seed):
    """Ziggurat and OpenSpiel states after `plies` turns of seeded random play (fewer if the game
    ends), the same turns in both; at every ply the two must offer the same turns."""
    zg, og = spec.load(options)
    zs, os_state = zg.new(), og.new_initial_state()
    rng = random.Random(seed)
    for ply in range(plies):
        turns = dict(spec.turns(zg, os_state))
        ours = [zs.move_text(m) for m in zs.moves()]
        assert sorted(ours) == sorted(turns), f"ply {ply}, position {zs.text()}"
        if not ours:
            break
        text = rng.choice(sorted(ours))
        zs.play(text)
        os_state = turns[text]
    return zg, zs, os_state


def results(os_state) -> tuple:
    """OpenSpiel's returns (-1 / 0 / 1) as Ziggurat's results (0 / 1/2 / 1)."""
    return tuple((r + 1) / 2 for r in os_state.returns())


# ---- the cases ----------------------------------------------------------------------------------

# (ruleset, options, depth): perft from the start, compared split by first turn.
START = [
    ("breakthrough", {"width": 8, "height": 8}, 3),
    ("breakthrough", {"width": 5, "height": 6}, 4),
    ("breakthrough", {"width": 3, "height": 4}, 6),
    ("clobber", {"width": 6, "height": 5}, 3),
    ("clobber", {"width": 4, "height": 4}, 5),
    ("clobber", {"width": 5, "height": 3}, 5),
    ("amazons", {"board_size": 6}, 2),
    ("amazons", {"board_size": 8}, 1),
    ("amazons", {"board_size": 10}, 1),
    ("othello", {}, 5),
    ("lines-of-action", {}, 2),
    ("checkers", {}, 6),
    ("checkers", {"width": 6, "height": 8}, 5),
    ("checkers", {"width": 10, "height": 10}, 4),
    ("tic-tac-toe", {}, 6),
    ("tic-tac-toe", {"width": 4, "height": 3, "k": 3}, 5),
    ("tic-tac-toe", {"width": 5, "height": 5, "k": 4}, 3),
]

# (ruleset, options, plies of random play, seeds, depth): perft from positions reached by play.
PLAYED = [
    ("breakthrough", {"width": 8, "height": 8}, 20, (1, 2, 3), 3),
    ("breakthrough", {"width": 5, "height": 5}, 8, (4, 5), 4),
    ("clobber", {"width": 6, "height": 5}, 10, (1, 2), 3),
    ("clobber", {"width": 5, "height": 4}, 6, (3, 4), 4),
    ("amazons", {"board_size": 6}, 6, (1, 2), 2),
    ("amazons", {"board_size": 8}, 10, (3,), 1),
    ("othello", {}, 20, (1, 2, 3), 4),
    ("othello", {}, 45, (4, 5), 4),
    ("lines-of-action", {}, 16, (1, 2), 2),
    ("checkers", {}, 20, (1, 2, 3), 4),
    ("checkers", {}, 40, (4, 5, 6), 4),
    ("checkers", {"width": 10, "height": 10}, 30, (7,), 3),
    ("tic-tac-toe", {}, 3, (1, 2, 3), 6),
    ("tic-tac-toe", {"width": 4, "height": 4, "k": 3}, 5, (4, 5), 4),
]

# (ruleset, options, games): whole random games compared ply by ply, with their results.
GAMES = [
    ("breakthrough", {"width": 8, "height": 8}, 20),
    ("breakthrough", {"width": 4, "height": 5}, 20),
    ("clobber", {"width": 6, "height": 5}, 20),
    ("clobber", {"width": 4, "height": 3}, 20),
    ("amazons", {"board_size": 6}, 4),
    ("othello", {}, 30),  # 30 games include a dozen passes
    ("lines-of-action", {}, 4),
    ("checkers", {}, 40),  # chains of two and more jumps, crowning, and the forty-move draw
    ("checkers", {"width": 6, "height": 8}, 20),
    ("tic-tac-toe", {}, 60),  # wins along every line and draws
    ("tic-tac-toe", {"width": 5, "height": 4, "k": 4}, 20),
]


def shipped(name):
    return name in ziggurat.dsl.loader.shipped_names()


def case_id(case):
    return "-".join([case[0]] + [f"{k}{v}" for k, v in case[1].items()] + [f"d{case[-1]}"])


def present(cases):
    return [c for c in cases if shipped(c[0])]


class TestPerftFromTheStart:
    @pytest.mark.parametrize("case", present(START), ids=case_id)
    def test_perft_split_by_first_turn_matches(self, case):
        """Perft by whole turns from the start equals OpenSpiel's for every first turn."""
        name, options, depth = case
        spec = SPECS[name]
        zg, og = spec.load(options)
        ours = zg_divide(zg.new(), depth)
        assert ours == os_divide(spec, zg, og.new_initial_state(), depth)
        assert sum(ours.values()) > 0


class TestPerftFromPlayedPositions:
    @pytest.mark.parametrize("case", present(PLAYED), ids=case_id)
    def test_perft_after_random_play_matches(self, case):
        """After seeded random play (same turns in both engines), perft split by first turn agrees."""
        name, options, plies, seeds, depth = case
        spec = SPECS[name]
        for seed in seeds:
            zg, zs, os_state = replay(spec, options, plies, seed)
            assert zg_divide(zs, depth) == os_divide(spec, zg, os_state, depth), f"seed {seed}: {zs.text()}"


class TestWholeGames:
    @pytest.mark.parametrize("case", present(GAMES), ids=lambda c: "-".join(
        [c[0]] + [f"{k}{v}" for k, v in c[1].items()]))
    def test_random_games_agree_ply_by_ply_and_on_the_result(self, case):
        """Random games to the end: the same turns at every ply, both over together, same result."""
        name, options, games = case
        spec = SPECS[name]
        for seed in range(games):
            zg, zs, os_state = replay(spec, options, 10_000, 1000 + seed)
            assert zs.is_terminal() and os_state.is_terminal(), f"seed {seed}: {zs.text()}"
            assert zs.outcome().results == results(os_state), f"seed {seed}: {zs.text()}"


class TestHarness:
    def test_every_classic_ruleset_is_cross_checked(self):
        """Every shipped ruleset with an OpenSpiel counterpart has cases in all three checks."""
        for name in SPECS:
            if shipped(name):
                for cases in (START, PLAYED, GAMES):
                    assert any(c[0] == name for c in cases), name

    def test_a_wrong_rule_is_caught(self, tmp_path):
        """Breakthrough with straight captures allowed differs from OpenSpiel within three plies."""
        text = ziggurat.dsl.loader.find("breakthrough").read_text()
        wrong = text.replace("neighbours(from, diagonal) where", "neighbours(from, adjacent) where")
        assert wrong != text
        path = tmp_path / "breakthrough.rules"
        path.write_text(wrong)
        spec = SPECS["breakthrough"]
        zg = ziggurat.load(str(path), {"width": 3, "height": 4})
        og = pyspiel.load_game("breakthrough", spec.params(zg))
        assert zg_divide(zg.new(), 3) != os_divide(spec, zg, og.new_initial_state(), 3)
