"""The exact solvers on tiny hand-made rulesets whose answers are known by hand or by theory.

The rulesets here (a capture puzzle on a short board, Nim, a three-player race) are also used by
test_census.py and test_matches.py.
"""

import json

import pytest
from click.testing import CliRunner

import ziggurat
from ziggurat.cli.main import cli
from ziggurat.lab.solve import SearchLimitExceeded, position_key, solve_game, solve_puzzle

# A one-player capture puzzle: black takes green, green takes white, white takes black, along rows
# and columns to the first stack in line; leave one stack to win. The pieces are placed on the
# first cells, blacks first.
PUZZLE = '''
game "Toy capture puzzle"
option width: 1..6 = 3 "files"
option height: 1..4 = 1 "ranks"
option blacks: 0..8 = 1 "black pieces, placed first"
option greens: 0..8 = 1 "green pieces, placed next"
option whites: 0..8 = 1 "white pieces, placed last"
check blacks + greens + whites <= width * height: "more pieces than cells"
players solo
board:
    files: width
    ranks: height
piece:
    colour: black, green, white
control: solo
table beats:
    black: green
    green: white
    white: black
setup:
    for i in 1..blacks:
        place(piece(black), cells[i])
    for i in 1..greens:
        place(piece(green), cells[blacks + i])
    for i in 1..whites:
        place(piece(white), cells[blacks + greens + i])
action capture "{from}-{to}":
    from: cells where occupied(from)
    to: ray(from, orthogonal, unlimited) where occupied(to) and beats[top(from).colour] == top(to).colour
    do:
        move(from, 1, to)
end:
    if count(occupied(c) for c in cells) == 1:
        win solo "one stack left"
    if no_moves:
        lose solo "stuck"
'''

# Nim with one pile: take 1 to `most` counters; whoever cannot take loses.
NIM = '''
game "Toy Nim"
option start: 0..60 = 10 "counters at the start"
option most: 1..5 = 3 "most counters taken at once"
players first, second
board:
    files: 1
    ranks: 1
piece:
    owner: players
counter pile = start
action take "take {k}":
    k: 1..most where k <= pile
    do:
        pile -= k
end:
    if no_moves:
        lose mover "nothing left to take"
'''

# A game that never ends: each side in turn waits, and nothing changes.
LOOP = '''
game "Toy loop"
players first, second
board:
    files: 1
    ranks: 1
piece:
    owner: players
action wait "wait":
    do:
        extra_turn()
end:
    if no_moves:
        draw "nothing to do"
'''


@pytest.fixture
def rules(tmp_path):
    """Write a ruleset text to a file and return its path as text."""
    def write(text, name="toy"):
        path = tmp_path / f"{name}.rules"
        path.write_text(text)
        return str(path)
    return write


def replay_wins(state, line) -> bool:
    """Play a line of move texts with legality checks; True when it ends in the player's win."""
    st = state.game.position(state.text())
    for text in line:
        st.play(text)
    out = st.outcome()
    return out is not None and out.results[0] == 1


class TestPuzzle:
    def test_finds_a_solution_that_replays_to_a_win(self, rules):
        """A solvable start gets a line that, replayed with legality checks, leaves one stack."""
        game = ziggurat.load(rules(PUZZLE), {"width": 4, "blacks": 2})
        result = solve_puzzle(game.new())
        assert result.solvable
        assert len(result.solution) == 3  # four stacks, one capture each removes one
        assert replay_wins(game.new(), result.solution)

    def test_solution_on_a_two_rank_board(self, rules):
        """On a 2 x 2 board the solver's line also replays to a win."""
        game = ziggurat.load(rules(PUZZLE), {"width": 2, "height": 2, "blacks": 2})
        result = solve_puzzle(game.new())
        assert result.solvable and replay_wins(game.new(), result.solution)

    def test_proves_a_puzzle_without_white_unsolvable(self, rules):
        """Two blacks and two greens: only white takes black, so two black stacks always stay."""
        game = ziggurat.load(rules(PUZZLE), {"width": 4, "blacks": 2, "greens": 2, "whites": 0})
        state = game.position("solo 0 | a1=b b1=g c1=b d1=g |")
        assert state.moves()  # captures exist: the search has work to do
        result = solve_puzzle(state)
        assert not result.solvable
        assert result.solution == ()
        assert result.nodes > len(state.moves())

    def test_corner_trap_is_unsolvable(self, rules):
        """Black in a corner between two greens on a 2 x 2 board cannot reach the second green."""
        game = ziggurat.load(rules(PUZZLE), {"width": 2, "height": 2, "greens": 2, "whites": 0})
        assert not solve_puzzle(game.position("solo 0 | a1=b b1=g a2=g |")).solvable
        assert solve_puzzle(game.position("solo 0 | a1=b b1=g b2=g |")).solvable

    def test_state_is_left_unchanged(self, rules):
        """Solving does not move the caller's state."""
        game = ziggurat.load(rules(PUZZLE))
        state = game.new()
        before = state.text()
        solve_puzzle(state)
        assert state.text() == before and state.stack == []

    def test_refuses_a_two_player_game(self, rules):
        """A two-player game is not a puzzle: a GameError says so."""
        game = ziggurat.load(rules(NIM))
        with pytest.raises(ziggurat.GameError, match="one-player"):
            solve_puzzle(game.new())

    def test_progress_reports_the_final_count(self, rules):
        """The progress callback ends with the number of positions the result reports."""
        game = ziggurat.load(rules(PUZZLE), {"width": 4, "blacks": 2, "greens": 2, "whites": 0})
        calls = []
        result = solve_puzzle(game.new(), lambda n, s: calls.append(n))
        assert calls and calls[-1] == result.nodes

    def test_key_ignores_the_ply(self, rules):
        """The table key is the same for one arrangement at two plies, unless asked otherwise."""
        game = ziggurat.load(rules(PUZZLE))
        a = game.position("solo 0 | a1=b b1=g c1=w |")
        b = game.position("solo 7 | a1=b b1=g c1=w |")
        assert position_key(a) == position_key(b)
        assert position_key(a, ignore_ply=False) != position_key(b, ignore_ply=False)


class TestGame:
    @pytest.mark.parametrize("most", [2, 3])
    def test_nim_values_follow_the_theory(self, rules, most):
        """Taking 1..m, the side to move loses exactly when the pile is a multiple of m + 1."""
        path = rules(NIM)
        for start in range(0, 14):
            value = solve_game(ziggurat.load(path, {"start": start, "most": most}).new())
            expected = 0 if start % (most + 1) == 0 else 1
            assert value.value == expected, start
            assert value.verdict == ("loss" if expected == 0 else "win")

    def test_principal_variation_replays_to_the_value(self, rules):
        """The principal variation is legal and ends with the result the value promises."""
        game = ziggurat.load(rules(NIM), {"start": 9})
        value = solve_game(game.new())
        st = game.new()
        for text in value.pv:
            st.play(text)
        assert st.outcome() is not None
        assert st.outcome().results[value.player] == value.value
        assert value.pv[0] == "take 1"  # the only winning move from 9: leave a multiple of 4

    def test_node_limit_stops_with_a_clear_error(self, rules):
        """Beyond max_nodes the search stops with SearchLimitExceeded naming the limit."""
        game = ziggurat.load(rules(NIM), {"start": 40})
        with pytest.raises(SearchLimitExceeded, match="10 positions"):
            solve_game(game.new(), max_nodes=10)

    def test_repeating_game_is_refused(self, rules):
        """A game whose positions can repeat within a line is refused with a GameError."""
        game = ziggurat.load(rules(LOOP))
        with pytest.raises(ziggurat.GameError, match="never repeat"):
            solve_game(game.new())

    def test_refuses_a_puzzle(self, rules):
        """A one-player game is solved as a puzzle, not as a game."""
        with pytest.raises(ziggurat.GameError, match="puzzle"):
            solve_game(ziggurat.load(rules(PUZZLE)).new())


def run(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result


class TestCli:
    def test_solve_prints_a_winning_line(self, rules):
        """`ziggurat solve` on a solvable puzzle prints each move of a line that wins."""
        path = rules(PUZZLE)
        result = run("solve", path, "--set", "width=4", "--set", "blacks=2", "--json")
        assert result.exit_code == 0
        data = json.loads(result.output)
        assert data["solvable"] and replay_wins(ziggurat.load(path, {"width": 4, "blacks": 2}).new(),
                                                data["solution"])
        text = run("solve", path, "--set", "width=4", "--set", "blacks=2").output
        assert all(move in text for move in data["solution"])

    def test_solve_says_no_solution(self, rules):
        """An unsolvable position prints 'no solution' with the positions searched."""
        result = run("solve", rules(PUZZLE), "--set", "width=4", "--set", "blacks=2", "--set", "greens=2",
                     "--set", "whites=0", "--position", "solo 0 | a1=b b1=g c1=b d1=g |")
        assert result.exit_code == 0
        assert "no solution (" in result.output and "positions searched" in result.output

    def test_solve_game_prints_value_and_line(self, rules):
        """For a two-player game the value and a principal variation are printed."""
        result = run("solve", rules(NIM), "--set", "start=8")
        assert result.exit_code == 0
        assert "value: loss for first" in result.output
        assert "principal variation: take" in result.output

    def test_node_limit_is_an_error_not_a_traceback(self, rules):
        """--max-nodes too small exits 1 with a message naming the limit."""
        result = run("solve", rules(NIM), "--set", "start=40", "--max-nodes", "5")
        assert result.exit_code == 1
        assert "5 positions" in result.output
