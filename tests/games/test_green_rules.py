"""Green, Greener and Greenest (rulesets/green*.rules) against the source's rules, one by one.

The source is /work/shared/seeds/001_983cbed8827344d8.txt; the project's rulings are in
docs/games/green.md. `Ref` below is a plain-Python reading of the same rules, written apart from
the engine: it computes the perft counts in tests/perft/green.perft and plays the golden games in
tests/golden/green/, which the engine must then agree with. Regenerate both (only after a reviewed
change of the rules) with

    python tests/games/test_green_rules.py
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import ziggurat
from ziggurat.dsl.checks import check
from ziggurat.proptest import run_properties

HERE = Path(__file__).resolve().parent.parent
PERFT_FILE = HERE / "perft" / "green.perft"
GOLDEN_DIR = HERE / "golden" / "green"


# ---- an independent reading of the rules ---------------------------------------------------------


class Ref:
    """The three games from the source text: boards as {cell: 'BGW...' bottom to top}."""

    PREY = {"B": "G", "G": "W", "W": "B"}  # Black captures Green, Green White, White Black
    PLAYERS = {"green": ("black", "green", "white"), "greener": ("black", "white"), "greenest": ("solver",)}

    def __init__(self, game: str, width: int = 6, height: int = 6, n: int | None = None):
        self.game, self.w, self.h = game, width, height
        self.n = n if n is not None else (width * height + 3) // 4
        self.players = self.PLAYERS[game]

    def name(self, c: int) -> str:
        return "abcdefghijkl"[c % self.w] + str(c // self.w + 1)

    def cell(self, name: str) -> int:
        return (int(name[1:]) - 1) * self.w + "abcdefghijkl".index(name[0])

    # The setup: the cells in the order random.Random(seed) shuffles them; Green and Greenest put
    # W*H//3 black pyramids on the first cells, then as many green, then as many white; Greener
    # puts n black, then n white, then green on every other cell.
    def setup(self, seed: int) -> dict:
        order = list(range(self.w * self.h))
        random.Random(seed).shuffle(order)
        if self.game == "greener":
            colours = "B" * self.n + "W" * self.n + "G" * (self.w * self.h - 2 * self.n)
        else:
            k = self.w * self.h // 3
            colours = "B" * k + "G" * k + "W" * k
        return {c: colour for c, colour in zip(order, colours)}

    def start(self, seed: int) -> tuple:
        return (self.setup(seed), 0, 0)  # (board, side to move, passes in succession)

    def parse(self, text: str) -> tuple:
        head, cells, *rest = [f.strip() for f in text.split("|")]
        side, _ply = head.split()
        board = {}
        for item in cells.split():
            name, stack = item.split("=")
            board[self.cell(name)] = stack
        passes = 0
        for item in (rest[0].split() if rest else []):
            key, value = item.split("=")
            if key == "passes":
                passes = int(value)
        return (board, self.players.index(side), passes)

    def controls(self, side: int, top: str) -> bool:
        if self.game == "greenest":
            return True  # the solver moves every stack
        return top == self.players[side][0].upper()  # Greener's green stacks: nobody's

    def beats(self, mover: str, victim: str) -> bool:
        return True if self.game == "greener" else self.PREY[mover] == victim

    def captures(self, state: tuple) -> list:
        board, side, _ = state
        out = []
        for c in sorted(board):
            top = board[c][-1]
            if not self.controls(side, top):
                continue
            x0, y0 = c % self.w, c // self.w
            for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                x, y = x0 + dx, y0 + dy
                while 0 <= x < self.w and 0 <= y < self.h:
                    t = y * self.w + x
                    if t in board:  # the first stack in line, and only that one
                        if self.beats(top, board[t][-1]):
                            out.append(f"{self.name(c)}-{self.name(t)}")
                        break
                    x, y = x + dx, y + dy
        return out

    def over(self, state: tuple) -> bool:
        board, _, passes = state
        if self.game == "greenest":
            return len(board) == 1 or not self.captures(state)
        return passes >= len(self.players)

    def moves(self, state: tuple) -> list:
        if self.over(state):
            return []
        caps = self.captures(state)
        return caps if caps or self.game == "greenest" else ["pass"]

    def play(self, state: tuple, move: str) -> tuple:
        board, side, passes = state
        nxt = (side + 1) % len(self.players)
        if move == "pass":
            return (board, nxt, passes + 1)
        a, b = (self.cell(x) for x in move.split("-"))
        board = dict(board)
        board[b] = board[b] + board.pop(a)  # the whole stack, on top
        return (board, nxt, 0)

    def perft(self, state: tuple, depth: int) -> int:
        if depth == 0:
            return 1
        return sum(self.perft(self.play(state, m), depth - 1) for m in self.moves(state))

    def scores(self, state: tuple) -> tuple:
        """(score, highest stack) per player."""
        board = state[0]
        out = []
        for p in self.players:
            mine = [s for s in board.values() if s[-1] == p[0].upper()]
            score = sum(s.count("G") for s in mine) if self.game == "greener" else sum(map(len, mine))
            out.append((score, max(map(len, mine), default=0)))
        return tuple(out)

    def result(self, state: tuple) -> str:
        """The outcome as a record's result line."""
        if self.game == "greenest":
            return "solver wins" if len(state[0]) == 1 else "solver loses"
        keys = self.scores(state)
        top = [p for p, k in zip(self.players, keys) if k == max(keys)]
        if len(top) == 1:
            return f"{top[0]} wins"
        return "draw" if len(top) == len(self.players) else "draw between " + ", ".join(top)

    def text(self, state: tuple, ply: int) -> str:
        board, side, passes = state
        cells = " ".join(f"{self.name(c)}={board[c]}" for c in sorted(board))
        captures = sum(map(len, board.values())) - len(board)
        return f"{self.players[side]} {ply} | {cells} | passes={passes} captures={captures}"


def ref_for(ruleset: str, options: dict) -> Ref:
    n = options.get("n")
    return Ref(ruleset, int(options.get("width", 6)), int(options.get("height", 6)),
               int(n) if n is not None else None)


# ---- helpers ----------------------------------------------------------------------------------------


def game(ruleset="green", **options):
    return ziggurat.load(ruleset, options)


def texts(state) -> set:
    return {state.move_text(m) for m in state.moves()}


def colours(state) -> dict:
    """Pyramids of each colour code on the board."""
    out: dict = {}
    for stack in state.cells:
        for p in stack:
            code = state.game.world.piece_text(p)
            out[code] = out.get(code, 0) + 1
    return out


# ---- the rules ----------------------------------------------------------------------------------------


class TestCapture:
    def test_passes_over_empty_cells_to_the_first_stack(self):
        """A stack slides over any number of empty cells and captures the first stack in line."""
        st = game(width=5, height=3).position("black 0 | a1=B e1=G")
        assert texts(st) == {"a1-e1"}

    def test_only_the_first_stack_in_line(self):
        """A stack behind another cannot be captured, even when it is prey."""
        st = game(width=5, height=3).position("black 0 | a1=B c1=W e1=G")
        assert texts(st) == {"pass"}

    def test_not_through_a_stack_of_prey_either(self):
        """Capturing the first prey in line does not reach the prey behind it."""
        st = game(width=5, height=3).position("black 0 | a1=B c1=G e1=G")
        assert texts(st) == {"a1-c1"}

    def test_only_orthogonal(self):
        """Prey on a diagonal cannot be captured."""
        st = game(width=3, height=3).position("black 0 | a1=B b2=G c3=G")
        assert texts(st) == {"pass"}

    def test_all_four_directions(self):
        """A stack captures along its row and its column, both ways."""
        st = game(width=3, height=3).position("black 0 | b2=B b3=G c2=G b1=G a2=G")
        assert texts(st) == {"b2-b3", "b2-c2", "b2-b1", "b2-a2"}

    @pytest.mark.parametrize("mover,prey,other", [("black", "G", "W"), ("green", "W", "B"), ("white", "B", "G")])
    def test_only_the_colour_in_the_cycle(self, mover, prey, other):
        """Black captures only Green, Green only White, White only Black (never its own colour)."""
        code = mover[0].upper()
        st = game(width=3, height=3).position(f"{mover} 0 | b2={code} b3={prey} b1={other} a2={code}")
        assert texts(st) == {f"b2-b3"}

    def test_stack_goes_on_top_whole(self):
        """The whole capturing stack lands on top of the captured one, in its order; its cell empties."""
        st = game(width=4, height=3).position("black 0 | a1=WGB d1=BG")
        st.play("a1-d1")
        assert st.text().split("|")[1].split() == ["d1=BGWGB"]

    def test_control_is_the_top_colour(self):
        """A stack moves for the colour on top, whatever lies below."""
        st = game(width=3, height=3).position("green 0 | a1=GGB b1=BBW")
        assert texts(st) == {"pass"}  # b1 is White's, a1 is Black's: nothing of Green's moves
        st = game(width=3, height=3).position("white 0 | a1=GGB b1=BBW")
        assert texts(st) == {"b1-a1"}

    def test_stacks_never_split(self):
        """In random games every capture moves the whole stack and the stack count falls by one."""
        g = game(width=4, height=4)
        rng = random.Random(5)
        for seed in range(6):
            st = g.new(seed)
            while st.moves():
                m = rng.choice(st.moves())
                before = list(st.cells)
                st.push(m)
                if st.move_text(m) != "pass":
                    _, a, b = m
                    assert st.cells[a] == () and st.cells[b] == before[b] + before[a]
                    assert sum(1 for s in st.cells if s) == sum(1 for s in before if s) - 1


class TestGreenerCapture:
    def test_captures_any_colour_even_its_own(self):
        """In Greener a stack captures the first stack in line whatever its colour."""
        st = game("greener", width=4, height=4, n=4).position("black 0 | b2=B b4=B c2=W b1=G a2=WB")
        assert texts(st) == {"b2-b4", "b2-c2", "b2-b1", "b2-a2", "a2-b2", "b4-b2"}

    def test_green_is_neutral(self):
        """Nobody controls a green-topped stack: it never moves, and scores for nobody."""
        st = game("greener", width=4, height=4, n=4).position("white 0 | a1=G b1=BG c1=W")
        assert texts(st) == {"c1-b1"}
        st = game("greener", width=4, height=4, n=4).position("black 0 | a1=WBG c3=G | passes=1")
        assert texts(st) == {"pass"}
        st.play("pass")
        assert st.outcome().scores == (0, 0)

    def test_still_first_in_line_only(self):
        """Greener captures only the first stack in line, over empty cells only."""
        st = game("greener", width=4, height=4, n=4).position("black 0 | a1=B c1=G d1=W")
        assert texts(st) == {"a1-c1"}


class TestTurns:
    def test_black_starts_and_turns_go_black_green_white(self):
        """Black moves first, then Green, then White, then Black again."""
        st = game(width=4, height=3).position("black 0 | a1=B a3=W")
        seen = []
        for _ in range(4):
            seen.append(st.mover_name)
            st.play(st.move_text(st.moves()[0]))
        assert seen == ["black", "green", "white", "black"]

    def test_must_capture_when_possible(self):
        """While a capture is legal, passing is not."""
        st = game(width=3, height=3).position("black 0 | a1=B a2=G")
        assert "pass" not in texts(st)
        with pytest.raises(ziggurat.GameError):
            st.play("pass")

    def test_pass_when_no_capture(self):
        """Without a capture the only move is to pass, and the game goes on."""
        st = game(width=3, height=3).position("green 0 | a1=B a2=G")
        assert texts(st) == {"pass"}
        st.play("pass")
        assert st.outcome() is None and st.mover_name == "white"

    def test_ends_when_all_players_pass_in_succession(self):
        """Three passes in a row end Green; two do not."""
        st = game(width=3, height=3).position("black 0 | a1=B c3=W")
        st.play("pass")
        st.play("pass")
        assert st.outcome() is None
        st.play("pass")
        assert st.outcome() is not None

    def test_a_capture_interrupts_the_succession(self):
        """Passes before a capture do not count toward the end."""
        st = game(width=3, height=3).position("black 0 | a1=B a3=G | passes=2")
        st.play("a1-a3")
        st.play("pass")
        st.play("pass")
        assert st.outcome() is None
        st.play("pass")
        assert st.outcome() is not None

    def test_greener_ends_after_two_passes(self):
        """In Greener both players passing in succession ends the game."""
        st = game("greener", width=4, height=4, n=4).position("black 0 | a1=B c3=W")
        st.play("pass")
        assert st.outcome() is None
        st.play("pass")
        assert st.outcome() is not None


class TestScores:
    def test_total_height_of_controlled_stacks_wins(self):
        """Green's score is the combined height of the stacks a player controls."""
        st = game(width=4, height=4).position("black 0 | a1=WB a3=GGB c1=G c3=BW d4=W | passes=3")
        out = st.outcome()
        assert out.scores == (5, 1, 3) and out.winners() == (0,)

    def test_tie_broken_by_highest_stack(self):
        """On equal scores the player with the highest single stack wins."""
        st = game(width=4, height=4).position("black 0 | a1=B c1=WGGB c3=GW d4=GBW | passes=3")
        out = st.outcome()
        assert out.scores == (5, 0, 5)
        assert out.kind == "win" and out.winners() == (0,)

    def test_full_tie_is_a_draw_between_the_tied(self):
        """Equal score and equal highest stack: a draw between those players, the rest lose."""
        st = game(width=4, height=4).position("black 0 | a1=WB a3=B c1=BW c3=W d4=G | passes=3")
        out = st.outcome()
        assert out.kind == "draw" and out.results == (0.5, 0, 0.5)

    def test_three_way_tie_shares_a_third(self):
        """Three players tied on both keys share the draw, a third each."""
        st = game(width=4, height=4).position("black 0 | a1=B a3=G c3=W | passes=3")
        assert st.outcome().results == pytest.approx((1 / 3, 1 / 3, 1 / 3))

    def test_greener_counts_green_pyramids_in_controlled_stacks(self):
        """Greener's score is the green pyramids inside the stacks a player controls."""
        st = game("greener", width=4, height=4, n=4).position(
            "black 0 | a1=GGWB a2=GGGG b3=GBW c4=WWWW | passes=2")
        out = st.outcome()
        assert out.scores == (2, 1)
        assert out.winners() == (0,)

    def test_greener_tie_broken_by_highest_stack(self):
        """Greener: equal green counts, the higher controlled stack wins."""
        st = game("greener", width=4, height=4, n=4).position("black 0 | a1=GB a2=GWWW | passes=2")
        out = st.outcome()
        assert out.scores == (1, 1) and out.winners() == (1,)


class TestSetup:
    @pytest.mark.parametrize("ruleset", ["green", "greener", "greenest"])
    def test_same_seed_same_setup(self, ruleset):
        """The same seed gives the same setup, by new(seed) and by the seed option."""
        assert game(ruleset).new(7).text() == game(ruleset).new(7).text()
        assert game(ruleset, seed=7).new().text() == game(ruleset).new(7).text()

    @pytest.mark.parametrize("ruleset", ["green", "greener", "greenest"])
    def test_different_seeds_differ(self, ruleset):
        """Different seeds give different setups."""
        setups = {game(ruleset).new(s).text() for s in range(10)}
        assert len(setups) == 10

    @pytest.mark.parametrize("width,height", [(6, 6), (7, 7), (6, 9), (3, 3), (4, 5), (12, 12)])
    def test_green_has_a_third_of_each_colour(self, width, height):
        """Green: floor(W*H/3) pyramids of each colour, one a cell, the rest of the cells empty."""
        st = game(width=width, height=height).new(3)
        k = width * height // 3
        assert colours(st) == {"B": k, "G": k, "W": k}
        assert all(len(s) <= 1 for s in st.cells)

    @pytest.mark.parametrize("width,height,n", [(6, 6, 9), (6, 6, 12), (5, 5, 7), (3, 4, 3)])
    def test_greener_has_n_black_n_white_and_green_elsewhere(self, width, height, n):
        """Greener: n black, n white and a green pyramid on every other cell."""
        st = game("greener", width=width, height=height, n=n).new(3)
        assert colours(st) == {"B": n, "W": n, "G": width * height - 2 * n}
        assert all(len(s) == 1 for s in st.cells)

    @pytest.mark.parametrize("n", [8, 13])
    def test_greener_n_between_a_quarter_and_a_third(self, n):
        """Greener refuses n below a quarter or above a third of the cells."""
        with pytest.raises(ziggurat.GameError):
            game("greener", n=n)

    def test_default_boards(self):
        """Green and Greener default to 6 x 6, Greener with 9 of each player's colour."""
        assert (game().world.files, game().world.ranks) == (6, 6)
        assert game("greener").options["n"] == 9

    @pytest.mark.parametrize("size", [2, 13])
    def test_board_size_limits(self, size):
        """Boards run from 3 x 3 to 12 x 12."""
        with pytest.raises(ziggurat.GameError):
            game(width=size)

    @pytest.mark.parametrize("ruleset", ["green", "greener", "greenest"])
    def test_setup_matches_the_reference_reading(self, ruleset):
        """The seeded setup is the one the independent reading computes."""
        for seed in (0, 1, 42):
            ref = Ref(ruleset, 5, 4)
            assert game(ruleset, width=5, height=4).new(seed).text() == ref.text(ref.start(seed), 0)


class TestGreenest:
    def test_one_player_moves_every_colour(self):
        """The solver may capture with any colour, following the Green cycle."""
        st = game("greenest", width=3, height=3).position("solver 0 | a1=B b1=G c1=W a3=W")
        assert texts(st) == {"a1-b1", "b1-c1", "a3-a1"}

    def test_same_colour_twice_in_a_row(self):
        """Captures come in any order: the same colour may capture again next."""
        st = game("greenest", width=3, height=3).position("solver 0 | a1=B a2=G a3=G")
        st.play("a1-a2")
        st.play("a2-a3")
        assert st.outcome().kind == "win"

    def test_win_with_a_single_stack(self):
        """A single stack left wins the puzzle."""
        st = game("greenest", width=3, height=3).position("solver 0 | a1=W b1=B c1=G")
        st.play("b1-c1")
        st.play("a1-c1")
        out = st.outcome()
        assert out.kind == "win" and out.results == (1,)

    def test_lose_when_stuck_with_several_stacks(self):
        """More than one stack and no capture loses."""
        st = game("greenest", width=3, height=3).position("solver 0 | a1=B c3=G")
        out = st.outcome()
        assert out.kind == "lose" and out.results == (0,)

    def test_no_pass(self):
        """Greenest has no pass: a stuck puzzle is over."""
        st = game("greenest", width=3, height=3).position("solver 0 | a1=B c3=G")
        assert st.moves() == []
        with pytest.raises(ziggurat.GameError):
            st.play("pass")


class TestNotation:
    @pytest.mark.parametrize("ruleset", ["green", "greener", "greenest"])
    def test_positions_round_trip(self, ruleset):
        """Position text reads back as the same position, for the start and after play."""
        g = game(ruleset)
        st = g.new(2)
        rng = random.Random(2)
        for _ in range(12):
            assert g.position(st.text()).text() == st.text()
            assert texts(g.position(st.text())) == texts(st)
            if not st.moves():
                break
            st.push(rng.choice(st.moves()))

    @pytest.mark.parametrize("ruleset", ["green", "greener", "greenest"])
    def test_piece_codes(self, ruleset):
        """Each game prints its pyramids B, G and W."""
        assert sorted(game(ruleset).world.piece_text(c) for c in range(game(ruleset).world.npieces)) == ["B", "G", "W"]


class TestInvariants:
    @pytest.mark.parametrize("ruleset", ["green", "greener", "greenest"])
    def test_invariants_hold_in_random_games(self, ruleset):
        """The declared invariants hold after every move of seeded random games."""
        g = game(ruleset, width=4, height=4)
        rng = random.Random(1)
        for seed in range(4):
            st = g.new(seed)
            while st.moves():
                st.push(rng.choice(st.moves()))
                assert st.invariant_failures() == []

    def test_invariant_sees_a_lost_pyramid(self):
        """The colour-count invariant fails on a position with a pyramid missing."""
        st = game(width=3, height=3).position("black 0 | a1=B b1=B c1=B a2=G b2=G c2=G a3=W b3=W")
        assert "the pyramids of each colour stay on the board" in st.invariant_failures()

    @pytest.mark.parametrize("ruleset,options", [("green", {"width": "4", "height": "4"}),
                                                 ("greener", {"width": "4", "height": "4"}),
                                                 ("greenest", {"width": "4", "height": "3"})])
    def test_property_runner_passes(self, ruleset, options):
        """`ziggurat test` finds no failing property."""
        report = run_properties(ruleset, options=options, examples=8, max_plies=40, seed=1)
        assert report.ok, "\n".join(f.render() for f in report.failures)


class TestChecks:
    @pytest.mark.parametrize("ruleset", ["green", "greener", "greenest"])
    def test_clean(self, ruleset):
        """`ziggurat check` reports nothing for the three rulesets."""
        assert check(ruleset) == []


# ---- the general constructs the games use ------------------------------------------------------------

BASE = (Path(ziggurat.__file__).parent / "rulesets" / "green.rules").read_text()


def errors_of(text: str) -> list:
    return [d for d in check("edited.rules", text) if d.severity == "error"]


class TestConstructs:
    def test_neutral_value_controls_nobody(self):
        """`colour: players, green`: a stack topped by the neutral value is controlled by nobody."""
        g = game("greener", width=4, height=3, n=3)
        colour = g.owner_attribute
        assert colour is not None and colour.name == "colour"
        assert colour.values == ("black", "white", "green")
        green = next(c for c in range(g.world.npieces) if g.world.piece_text(c) == "G")
        assert colour.value_name(g.world.attr_tables["colour"][green]) == "green"
        # A green-topped stack moves for nobody, whatever is under the green pyramid ...
        for under, mover in (("B", "black"), ("W", "white")):
            other = "W" if under == "B" else "B"
            assert texts(g.position(f"{mover} 0 | a1={under}G b1={other}")) == {"pass"}
        # ... and any player's stack may capture it.
        assert texts(g.position("white 0 | a1=BG b1=W")) == {"b1-a1"}
        assert texts(g.position("black 0 | a1=G b1=B")) == {"b1-a1"}

    def test_qualified_value_names(self):
        """`colour.green` and `players.green` name the value and the player."""
        text = BASE.replace("place(piece(green), spots[k + i])", "place(piece(colour.green), spots[k + i])")
        text = text.replace("place(piece(white), spots[2 * k + i])", "place(piece(players.white), spots[2 * k + i])")
        assert errors_of(text) == []

    def test_ambiguous_name_suggests_qualified_forms(self):
        """A value of two attributes is an error whose hint gives both qualified names."""
        text = BASE.replace("piece:\n", "piece:\n    shade: light, dark\n    tone: light, deep\n")
        text = text.replace("place(piece(black), spots[i])", "place(piece(black, light, deep), spots[i])")
        errs = errors_of(text)
        assert errs and "shade.light or tone.light" in (errs[0].hint or "")

    def test_player_and_value_clash_suggests_qualified_forms(self):
        """A name that is a player and another attribute's value must be qualified."""
        text = BASE.replace("piece:\n", "piece:\n    shade: white, dark\n")
        errs = errors_of(text)
        assert errs and "players.white" in (errs[0].hint or "") and "shade.white" in errs[0].hint

    def test_shuffled_only_in_setup(self):
        """shuffled() draws from the setup's random numbers and is refused in a move."""
        errs = errors_of(BASE.replace("from: cells where mine(from)", "from: shuffled(cells) where mine(from)"))
        assert errs and "setup" in errs[0].message

    def test_rank_needs_a_def_of_one_player(self):
        """`rank by` names defs of one player; anything else is reported with a hint."""
        errs = errors_of(BASE.replace("rank by score, highest", "rank by scor, highest"))
        assert errs and "score" in (errs[0].hint or "")

    def test_table_values_may_be_lists(self):
        """A table entry may be a list, tested with `in` (a colour that beats any of several)."""
        text = BASE.replace("    black: green\n    green: white\n    white: black\n",
                            "    black: [green]\n    green: [white, black]\n    white: [black]\n")
        text = text.replace("def beats(a, b): top(b).colour == prey[top(a).colour]",
                            "def beats(a, b): top(b).colour in prey[top(a).colour]")
        g = ziggurat.load("edited.rules", {"width": 3, "height": 3}, text=text)
        st = g.position("green 0 | a1=G a2=B b1=W")
        assert texts(st) == {"a1-a2", "a1-b1"}

    def test_neutral_table_key_needs_an_entry(self):
        """A table looked up by a colour that may be neutral needs an entry for the neutral value."""
        text = BASE.replace("players black, green, white", "players black, white")
        text = text.replace("colour: players", "colour: players, green").replace("    green: white\n", "")
        errs = errors_of(text)
        assert errs and "'green'" in errs[0].message


# ---- perft data and golden games, from the independent reading ---------------------------------------

PERFT_POSITIONS = [
    # id, ruleset, options, position, depths
    ("green-line-3x3", "green", {"width": 3, "height": 3}, "black 0 | a1=B c1=G", 5),
    ("green-blocked-5x3", "green", {"width": 5, "height": 3}, "black 0 | a1=B c1=W e1=G a3=G e3=B", 6),
    ("green-cross-4x4", "green", {"width": 4, "height": 4},
     "black 0 | b2=B b4=G d2=G b1=G a2=W c3=W d4=B a4=GW", 6),
    ("green-start-4x4-seed1", "green", {"width": 4, "height": 4, "seed": 1}, "start", 6),
    ("green-start-4x3-seed5", "green", {"width": 4, "height": 3, "seed": 5}, "start", 7),
    ("green-passes-3x3", "green", {"width": 3, "height": 3}, "white 5 | a1=BG c3=W | passes=2 captures=1", 3),
    ("greener-start-4x4-seed2", "greener", {"width": 4, "height": 4, "seed": 2}, "start", 4),
    ("greener-mixed-4x4", "greener", {"width": 4, "height": 4, "n": 4},
     "white 0 | a1=G a2=WB b2=G c2=BW d2=G b4=W c4=GGB d1=B", 5),
    ("greenest-start-3x3-seed0", "greenest", {"width": 3, "height": 3}, "start", 8),
    ("greenest-start-4x3-seed3", "greenest", {"width": 4, "height": 3, "seed": 3}, "start", 4),
]


def ref_state(ref: Ref, options: dict, position: str) -> tuple:
    if position == "start":
        return ref.start(int(options.get("seed", 0)))
    return ref.parse(position)


def write_perft() -> None:
    lines = ["# Green, Greener and Greenest perft data. Every count comes from `Ref` in",
             "# tests/games/test_green_rules.py (the rules read from the source, apart from the engine);",
             "# regenerate with `python tests/games/test_green_rules.py`. A finished game (all players",
             "# passed in succession; Greenest: one stack left, or no capture) has no moves below it.",
             "# Hand check of green-line-3x3: black a1-c1 (1); Green and White have no stack and pass",
             "# (1, 1); Black's c1=GB has nothing in line and passes (1): perft 4 is 1, and after",
             "# three passes in succession the game is over, so perft 5 is 0. green-passes-3x3:",
             "# White's c3 has nothing in line, passes, and that third pass ends the game.",
             ""]
    for pid, ruleset, options, position, depth in PERFT_POSITIONS:
        ref = ref_for(ruleset, options)
        state = ref_state(ref, options, position)
        lines += [f"id {pid}", f"ruleset {ruleset}",
                  "options " + " ".join(f"{k}={v}" for k, v in options.items()), f"position {position}"]
        lines += [f"perft {d} {ref.perft(state, d)}" for d in range(1, depth + 1)]
        lines.append("")
    PERFT_FILE.write_text("\n".join(lines))


GOLDEN_GAMES = [  # ruleset, options, setup seed, move-choice seed
    ("green", {"width": 6, "height": 6}, 11, 1),
    ("green", {"width": 5, "height": 4}, 12, 2),
    ("greener", {"width": 6, "height": 6, "n": 9}, 13, 3),
    ("greener", {"width": 4, "height": 5, "n": 6}, 14, 4),
    ("greenest", {"width": 4, "height": 3}, 15, 5),
    ("greenest", {"width": 6, "height": 6}, 16, 6),
]


def write_golden() -> None:
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for ruleset, options, seed, play_seed in GOLDEN_GAMES:
        ref = ref_for(ruleset, options)
        rng = random.Random(play_seed)
        state, moves = ref.start(seed), []
        while ref.moves(state):
            moves.append(rng.choice(ref.moves(state)))
            state = ref.play(state, moves[-1])
        lines = ["# Ziggurat game record (a golden game: played by Ref in tests/games/test_green_rules.py,",
                 "# uniformly random moves, not by the engine)",
                 f"ruleset: {ruleset}",
                 "options: " + " ".join(f"{k}={v}" for k, v in options.items()),
                 f"seed: {seed}", "start: start", f"result: {ref.result(state)}"]
        if ruleset != "greenest":
            lines.append("scores: " + " ".join(f"{p}={k[0]}" for p, k in zip(ref.players, ref.scores(state))))
        lines += [f"plies: {len(moves)}", f"final: {ref.text(state, len(moves))}", ""]
        side = 0
        for i, m in enumerate(moves):
            lines.append(f"{i + 1}. {ref.players[side]} {m}")
            side = (side + 1) % len(ref.players)
        (GOLDEN_DIR / f"{ruleset}-{'x'.join(str(options[k]) for k in ('width', 'height'))}-{seed}.zrec").write_text(
            "\n".join(lines) + "\n")


def read_golden(path: Path) -> dict:
    head, moves = {}, []
    for line in path.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        if line[0].isdigit():
            _, side, move = line.split(maxsplit=2)
            moves.append((side, move))
        else:
            key, _, value = line.partition(":")
            head[key] = value.strip()
    head["moves"] = moves
    return head


def perft_records() -> list:
    from perft_data import read
    return read(PERFT_FILE) if PERFT_FILE.exists() else []


class TestIndependentData:
    @pytest.mark.parametrize("record", perft_records(), ids=lambda r: r.id)
    def test_perft_file_agrees_with_reference(self, record):
        """Every count in green.perft is what the independent reading computes (the engine is
        checked against the same file by test_perft.py)."""
        ref = ref_for(record.ruleset, record.options)
        state = ref_state(ref, record.options, record.position)
        assert [ref.perft(state, d) for d, _ in record.counts] == [n for _, n in record.counts]

    @pytest.mark.parametrize("record", perft_records(), ids=lambda r: r.id)
    def test_engine_divide_agrees_with_reference(self, record):
        """The engine's moves after each first move agree with the reference, move by move."""
        ref = ref_for(record.ruleset, record.options)
        state = ref_state(ref, record.options, record.position)
        depth = min(3, max(d for d, _ in record.counts))
        engine = dict(ziggurat.divide(ziggurat.load(record.ruleset, record.options).position(record.position), depth))
        assert engine == {m: ref.perft(ref.play(state, m), depth - 1) for m in ref.moves(state)}

    @pytest.mark.parametrize("path", sorted(GOLDEN_DIR.glob("*.zrec")), ids=lambda p: p.stem)
    def test_golden_game_replays(self, path):
        """A golden game replays move by move with the engine and ends as recorded."""
        rec = read_golden(path)
        options = dict(kv.split("=") for kv in rec["options"].split())
        g = ziggurat.load(rec["ruleset"], options)
        st = g.new(int(rec["seed"]))
        for side, move in rec["moves"]:
            assert st.mover_name == side
            st.play(move)
        assert st.text() == rec["final"]
        out = st.outcome()
        assert out is not None
        winners = [g.players[i] for i, r in enumerate(out.results) if r == max(out.results)]
        expected = rec["result"]
        if expected.endswith(" wins"):
            assert out.kind == "win" and winners == [expected[:-5]]
        elif expected.endswith(" loses"):
            assert out.kind == "lose" and g.players[out.player] == expected[:-6]
        elif expected == "draw":
            assert out.kind == "draw" and len(winners) == len(g.players)
        else:
            assert out.kind == "draw" and winners == expected[len("draw between "):].split(", ")
        if "scores" in rec:
            assert " ".join(f"{p}={s}" for p, s in zip(g.players, out.scores)) == rec["scores"]

    def test_golden_games_exist(self):
        """There is a golden game for each entry of GOLDEN_GAMES."""
        assert len(list(GOLDEN_DIR.glob("*.zrec"))) == len(GOLDEN_GAMES)


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    write_perft()
    write_golden()
    print(f"wrote {PERFT_FILE} and {len(GOLDEN_GAMES)} games in {GOLDEN_DIR}")
