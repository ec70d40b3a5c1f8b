"""The property runner catches broken rulesets and engines, so that passing means something.

Each test writes a changed copy of the shipped Stacktics ruleset (or breaks one function of a
loaded game) and checks that `run_properties` reports the break with a shrunk game that shows it.
"""

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ziggurat
from ziggurat.dsl.checks import check
from ziggurat.dsl.loader import find
from ziggurat.proptest import PropertyFailure, invariant_property, options_strategy, run_properties

STACKTICS = Path(find("stacktics")).read_text()
NEVER_A_CAPTURE = 'invariant "never a capture": pips(prisoners[south]) == 0\n'
# A second action written exactly like `move`: a one-step orthogonal shift of a friendly stack.
SHIFT = '''
action shift "{from}:{level}-{to}":
    from: cells where mine(from)
    level: 1..height(from)
    to: ray(from, orthogonal, 1)
    require empty(to) else "no landing there"
    do:
        move(from, level, to)
'''


def write(tmp_path: Path, text: str, name: str = "variant") -> str:
    path = tmp_path / f"{name}.rules"
    path.write_text(text)
    return str(path)


def replay(failure: PropertyFailure, ruleset: str) -> list:
    """The states along the failure's moves, from the start position to the failing one."""
    state = ziggurat.load(ruleset, failure.options).new(failure.setup_seed)
    states = [state.copy()]
    for text in failure.moves:
        state.play(text)
        states.append(state.copy())
    return states


def south_prisoners(state) -> tuple:
    zone = state.game.world.zone_names.index("prisoners.south")
    return state.zones[zone]


# Two stones walk a 5 x 5 board from a1 and e1; the pond (c3) is open to second only, so mirroring the
# files with the players exchanged is no symmetry once a stone stands beside the pond, its owner to move.
# That takes three steps of that stone (a1 or e1 to b3, c2, c4 or d3): six plies at the least.
POND = """game "Pond" "Walk your stone around; the pond in the middle is open to second only."

players first, second

board:
    files: 5
    ranks: 5

piece:
    owner: players
    kind: stone

setup:
    for c in cells where c.rank == 1 and (c.file == 1 or c.file == 5):
        place(piece(first if c.file == 1 else second, stone), c)

action step "{from}-{to}":
    from: cells where mine(from)
    to: neighbours(from, orthogonal) where empty(to)
    require mover == second or to.file != 3 or to.rank != 3 else "first may not enter the pond"
    do:
        move(from, 1, to)

symmetry "left and right, the players exchanged": mirror files, swap first second
"""
LEFT_RIGHT = "symmetry 'left and right, the players exchanged'"


class TestDeclaredSymmetry:
    def test_a_false_symmetry_is_shrunk_to_a_short_game(self, tmp_path):
        ruleset = write(tmp_path, POND, "pond")
        report = run_properties(ruleset, examples=30, max_plies=40, seed=1)
        assert [f.property for f in report.failures] == [LEFT_RIGHT] and report.rules_failures == []
        failure = report.failures[0]
        assert 6 <= len(failure.moves) <= 8  # shrunk: a random game of 40 plies reaches the pond's side later
        last = replay(failure, ruleset)[-1]
        assert last.text() == failure.position
        beside = {"b3", "c2", "c4", "d3"}
        assert any(last.game.world.cell_name(c) in beside and last.cells[c] for c in range(len(last.cells)))
        assert f"{ruleset}:24:1" in failure.message and "c3" in failure.message

    def test_a_symmetry_that_holds_fails_nothing(self, tmp_path):
        ruleset = write(tmp_path, POND.replace("mover == second or ", ""), "pond")  # the pond closed to both
        report = run_properties(ruleset, examples=10, max_plies=30, seed=1)
        assert report.ok and report.declared == (0, 1)


class TestFalseInvariant:
    def test_false_invariant_is_reported_with_the_capture_that_breaks_it(self, tmp_path):
        """A false declared invariant fails, with a shrunk game whose last move is south's capture."""
        ruleset = write(tmp_path, STACKTICS + NEVER_A_CAPTURE)
        # 12 plies: the capture is found and shrunk to the same 5-move game as at 20, at half the
        # replays' cost (each replay of the shrinker plays its game again)
        report = run_properties(ruleset, options={"size": "2"}, examples=10, max_plies=12, seed=0)
        assert not report.ok
        assert [f.property for f in report.failures] == [invariant_property("never a capture")]
        failure = report.failures[0]
        assert failure.moves, "the failing game has moves"
        states = replay(failure, ruleset)
        assert south_prisoners(states[-2]) == ()
        assert south_prisoners(states[-1]) != ()
        assert states[-1].text() == failure.position
        assert "never a capture" in failure.render()
        assert failure.position in failure.render() and failure.moves[-1] in failure.render()

    def test_fixed_options_are_kept_in_the_failure(self, tmp_path):
        """Options given to run_properties are the options of the failing game."""
        ruleset = write(tmp_path, STACKTICS + NEVER_A_CAPTURE)
        report = run_properties(ruleset, options={"size": "2", "pie": "false"}, examples=10,
                                max_plies=20, seed=1)
        assert not report.ok
        assert report.failures[0].options["size"] == 2
        assert report.failures[0].options["pie"] is False


class TestRandomSetup:
    def test_failure_in_a_random_setup_replays_from_its_setup_seed(self, tmp_path):
        """Without a seed option, a random setup's seed is drawn and the failure replays from it."""
        green = Path(find("green")).read_text()
        lines = [line for line in green.splitlines() if not line.startswith("option seed")]
        assert len(lines) == len(green.splitlines()) - 1
        ruleset = write(tmp_path, "\n".join(lines) + '\ninvariant "no capture yet": captures == 0\n')
        report = run_properties(ruleset, examples=10, max_plies=20, seed=0)
        assert [f.property for f in report.failures] == [invariant_property("no capture yet")]
        failure = report.failures[0]
        assert failure.setup_seed is not None
        assert replay(failure, ruleset)[-1].text() == failure.position


class TestNotationCollision:
    def test_notation_leaving_out_a_choice_is_rejected_by_check(self, tmp_path):
        """A move notation without one of its choices is an error of check, and of run_properties."""
        text = STACKTICS.replace('action move "{from}:{level}-{to}"', 'action move "{from}-{to}"')
        assert text != STACKTICS
        ruleset = write(tmp_path, text)
        errors = [d for d in check(ruleset) if d.severity == "error"]
        assert any("level" in d.message for d in errors)
        with pytest.raises(ziggurat.RulesetError):
            run_properties(ruleset, examples=5, max_plies=5)

    def test_two_actions_printed_alike_are_caught(self, tmp_path):
        """Two actions with the same notation are rejected by check or reported by run_properties."""
        at = STACKTICS.index("# The pie rule")
        ruleset = write(tmp_path, STACKTICS[:at] + SHIFT + "\n" + STACKTICS[at:])
        if any(d.severity == "error" for d in check(ruleset)):
            pytest.skip("check rejects the collision itself")
        report = run_properties(ruleset, examples=10, max_plies=10, seed=0)
        notation = [f for f in report.failures if f.property == "move notation"]
        assert notation, report.render()
        assert "print the same" in notation[0].message


class TestBrokenEngine:
    def test_an_undo_that_forgets_the_side_is_caught_and_shrunk(self, monkeypatch):
        """An undo that gets the side wrong from ply 2 on is reported after exactly two moves."""
        options = {"size": 3, "narrow": False, "loaded": 2, "pie": False, "repetition": True,
                   "ply_cap": 300}
        game = ziggurat.load("stacktics", options)
        undo = game.undo

        def broken_undo(state):
            undo(state)
            if state.ply >= 2:
                state.side = 1 - state.side

        monkeypatch.setattr(game, "undo", broken_undo)
        report = run_properties("stacktics", options=options, examples=10, max_plies=10, seed=0)
        assert [f.property for f in report.failures][:1] == ["undo"]
        assert len(report.failures[0].moves) == 2


class TestDrawnOptions:
    @given(data=st.data())
    def test_drawn_options_fit_their_declared_types(self, data):
        """Every drawn option value has its declared type and lies in its declared range."""
        game = ziggurat.load("stacktics")
        drawn = data.draw(options_strategy(game, {"size": 3}))
        assert "size" not in drawn
        for name, value in drawn.items():
            spec = game.option_specs[name]
            assert spec.kind in ("bool", "range")
            if spec.kind == "bool":
                assert isinstance(value, bool)
            else:
                lo, hi = {"loaded": (1, 6), "ply_cap": (0, 10000)}[name]
                assert (spec.low, spec.high) == (lo, hi)
                assert lo <= value <= hi


class TestBadInput:
    def test_broken_ruleset_raises_ruleset_error(self, tmp_path):
        """A ruleset that does not parse raises RulesetError, not a traceback of another kind."""
        ruleset = write(tmp_path, STACKTICS.replace("players south, north", "players south north ("))
        with pytest.raises(ziggurat.RulesetError):
            run_properties(ruleset, examples=5)

    def test_bad_option_raises_game_error(self):
        """An option value out of its range raises GameError naming the option."""
        with pytest.raises(ziggurat.GameError, match="size"):
            run_properties("stacktics", options={"size": "9"}, examples=5)


class TestCreation:
    def test_games_that_place_pieces_during_play_keep_what_they_have(self):
        """Othello places a disc every move; conservation then means no disc is ever lost, and holds."""
        report = run_properties("othello", examples=3, max_plies=20, seed=1)
        assert report.ok, report.render()


class TestChanceAndHiddenProperties:
    KUHN = Path(find("kuhn-poker")).read_text()

    def test_a_player_whose_moves_depend_on_the_hidden_card_is_caught(self, tmp_path):
        """A bet allowed only when the other player does not hold the King: the first player's
        moves then depend on a card it cannot see."""
        leaky = self.KUHN.replace('action bet "bet":\n', 'action bet "bet":\n'
                                  '    when all(card_of(q) != king for q in players where q != mover)\n')
        report = run_properties(write(tmp_path, leaky, "leaky"), examples=20, max_plies=6, seed=0)
        assert [f.property for f in report.failures] == ["hidden"]
        assert "moves depend on what it cannot see" in report.failures[0].message

    def test_the_shipped_hidden_game_has_the_property(self):
        report = run_properties("kuhn-poker", examples=20, max_plies=6, seed=0)
        assert report.ok, [f.render() for f in report.failures]

    def test_an_outcome_without_a_positive_weight_is_caught(self, tmp_path):
        """A die whose 1 has weight 0."""
        line = '    face: 1..sides else "the die has no such face"\n'
        pig = Path(find("pig")).read_text()
        assert line in pig
        pig = pig.replace(line, line + "    weight face - 1\n")
        report = run_properties(write(tmp_path, pig, "pig"), examples=10, max_plies=10, seed=0)
        assert [f.property for f in report.failures] == ["chance"]
        assert "weight 0" in report.failures[0].message
