"""`repeat`: a part of a move made once or more, each pass from where the last one ended, on tiny
games whose moves are worked out by hand (Checkers, its main user, has its own tests)."""

import pytest

import ziggurat
from ziggurat.dsl.checks import check

# One rank of seven cells. A's piece on a1 hops over the next piece (anyone's) onto the empty cell
# beyond, taking it, and hops again while it can; then it names a number k, and `landed` grows by
# k times the file where it stopped.
HOPS = """\
option stop: bool = false          "the chain ends on e1"
players a, b
board:
    files: 7
    ranks: 1
piece:
    owner: players
zone pile
counter landed = 0
def hops(c): list(step(c, d, 2) for d in [e, w] where on_board(step(c, d, 2)) and occupied(step(c, d)) and empty(step(c, d, 2)))
setup:
    place(piece(a), cells[1])
    place(piece(b), cells[2])
    place(piece(b), cells[4])
    place(piece(b), cells[6])
action hop "{from}>{to}/{k}":
    from: cells where mine(from)
    repeat at = from while not (stop and to == cells[5]):
        to: hops(at)
        do:
            take(between(at, to)[1], pile)
            move(at, 1, to)
    k: 1..2
    do:
        landed += k * at.file
end:
    if no_moves:
        lose mover
"""


def hops_game(tmp_path, text=HOPS, **options):
    path = tmp_path / "hops.rules"
    path.write_text(text)
    return ziggurat.load(str(path), options)


class TestPasses:
    def test_the_chain_goes_as_far_as_it_can(self, tmp_path):
        """a1 hops b1 to c1, d1 to e1, f1 to g1 (b1 is gone, so no way back): one chain, two k's."""
        state = hops_game(tmp_path).new()
        assert sorted(state.move_text(m) for m in state.moves()) == ["a1>c1>e1>g1/1", "a1>c1>e1>g1/2"]

    def test_while_ends_the_chain(self, tmp_path):
        """With `stop`, the pass that lands on e1 is the last: the chain is a1>c1>e1."""
        state = hops_game(tmp_path, stop=True).new()
        assert sorted(state.move_text(m) for m in state.moves()) == ["a1>c1>e1/1", "a1>c1>e1/2"]

    def test_counting_agrees_with_the_list_of_moves(self, tmp_path):
        """perft(1) (the counting twin of the generator) counts the same two moves."""
        assert ziggurat.perft(hops_game(tmp_path).new(), 1) == 2
        assert ziggurat.perft(hops_game(tmp_path, stop=True).new(), 1) == 2

    def test_every_pass_takes_effect_and_the_rest_sees_where_it_ended(self, tmp_path):
        """After a1>c1>e1>g1/2: the piece is on g1, b1 d1 f1 are taken, and landed = 2 * 7."""
        game = hops_game(tmp_path)
        state = game.new()
        state.play("a1>c1>e1>g1/2")
        assert [game.world.cell_name(c) for c, s in enumerate(state.cells) if s] == ["g1"]
        assert len(state.zones[0]) == 3
        assert state.counters == [14]

    def test_undo_restores_the_position(self, tmp_path):
        """Pushing a chain and popping it gives back the start, text for text."""
        state = hops_game(tmp_path).new()
        before = state.text()
        state.play("a1>c1>e1>g1/1")
        state.pop()
        assert state.text() == before

    def test_the_move_text_reads_back(self, tmp_path):
        """Each move's text parses to the same move."""
        state = hops_game(tmp_path).new()
        for m in state.moves():
            assert state.parse_move(state.move_text(m)) == m


MAY_STOP = HOPS.replace("repeat at = from while not (stop and to == cells[5]):",
                        "repeat at = from while not (stop and to == cells[5]), may stop:")


class TestMayStop:
    def test_the_move_may_end_after_any_pass(self, tmp_path):
        """With `may stop`, the chain may end on c1, e1 or g1: three chains, two k's each."""
        state = hops_game(tmp_path, MAY_STOP).new()
        assert sorted(state.move_text(m) for m in state.moves()) == [
            "a1>c1/1", "a1>c1/2", "a1>c1>e1/1", "a1>c1>e1/2", "a1>c1>e1>g1/1", "a1>c1>e1>g1/2"]
        assert ziggurat.perft(state, 1) == 6

    def test_while_still_bounds_the_chain(self, tmp_path):
        """`while` ends the chain on e1 even when the player may stop earlier."""
        state = hops_game(tmp_path, MAY_STOP, stop=True).new()
        assert sorted(state.move_text(m) for m in state.moves()) == ["a1>c1/1", "a1>c1/2", "a1>c1>e1/1", "a1>c1>e1/2"]
        with pytest.raises(ziggurat.GameError, match="goes on only while"):
            state.play("a1>c1>e1>g1/1")

    def test_a_short_chain_plays_and_undoes(self, tmp_path):
        """a1>c1/1 takes b1 only, and undo gives the start back."""
        game = hops_game(tmp_path, MAY_STOP)
        state = game.new()
        before = state.text()
        state.play("a1>c1/1")
        assert [game.world.cell_name(c) for c, s in enumerate(state.cells) if s] == ["c1", "d1", "f1"]
        state.pop()
        assert state.text() == before


class TestWithAnAfterBlock:
    def test_the_end_of_turn_part_follows_the_chain(self, tmp_path):
        """An after block (mark an empty cell on file a or b) follows each whole chain: 2 x 2 moves,
        written with both parts, read back, and applied."""
        text = HOPS.replace("end:\n", 'after "mark {spot}":\n    spot: cells where empty(spot) and spot.file < 3\n'
                                      "    do:\n        landed += 100\nend:\n")
        state = hops_game(tmp_path, text).new()
        texts = sorted(state.move_text(m) for m in state.moves())
        assert texts == ["a1>c1>e1>g1/1 mark a1", "a1>c1>e1>g1/1 mark b1",
                         "a1>c1>e1>g1/2 mark a1", "a1>c1>e1>g1/2 mark b1"]
        assert all(state.parse_move(t) in state.moves() for t in texts)
        state.play("a1>c1>e1>g1/2 mark b1")
        assert state.counters == [114]


class TestRefusals:
    def test_a_chain_that_stops_early_is_refused(self, tmp_path):
        """a1>c1/1 stops where the chain can go on: refused, saying it must go on."""
        state = hops_game(tmp_path).new()
        with pytest.raises(ziggurat.GameError, match="does not end there"):
            state.play("a1>c1/1")

    def test_a_pass_outside_its_domain_is_refused(self, tmp_path):
        """a1>e1: e1 is not a hop from a1."""
        state = hops_game(tmp_path).new()
        with pytest.raises(ziggurat.GameError, match="to must be in hops"):
            state.play("a1>e1>g1/1")

    def test_a_pass_after_the_while_failed_is_refused(self, tmp_path):
        """With `stop`, a1>c1>e1>g1 goes on after e1, where the chain ends."""
        state = hops_game(tmp_path, stop=True).new()
        with pytest.raises(ziggurat.GameError, match="goes on only while"):
            state.play("a1>c1>e1>g1/1")

    def test_a_chain_that_never_ends_is_stopped_at_the_repeat(self, tmp_path):
        """Hops that take nothing could bounce a1-c1-a1... for ever: an error at the repeat's line."""
        text = HOPS.replace("            take(between(at, to)[1], pile)\n", "")
        game = hops_game(tmp_path, text)
        with pytest.raises(ziggurat.RulesetError) as err:
            game.new().moves()
        d = err.value.diagnostics[0]
        assert d.line == text.splitlines().index("    repeat at = from while not (stop and to == cells[5]):") + 1
        assert "200 passes" in d.message


class TestChecks:
    def errors(self, text):
        return [d for d in check("hops.rules", text=text) if d.severity == "error"]

    def test_two_choices_in_a_repeat_are_refused(self):
        """A repeat makes one choice a pass; a second one is reported at the repeat."""
        text = HOPS.replace("        to: hops(at)\n", "        to: hops(at)\n        j: 1..2\n").replace(
            '"{from}>{to}/{k}"', '"{from}>{to}/{j}/{k}"')
        errs = self.errors(text)
        assert len(errs) == 1 and "one choice a pass" in errs[0].message
        assert errs[0].line == text.splitlines().index("    repeat at = from while not (stop and to == cells[5]):") + 1

    def test_a_start_of_another_type_is_refused(self):
        """Each pass starts where the last ended, so START must have the type of the choice."""
        text = HOPS.replace("repeat at = from while not (stop and to == cells[5]):", "repeat at = from:").replace(
            "        to: hops(at)\n", "        to: [1, 2]\n").replace(
            "            take(between(at, to)[1], pile)\n            move(at, 1, to)\n", "            landed += to\n")
        errs = self.errors(text)
        assert len(errs) == 1 and "starts from a cell" in errs[0].message and "is a number" in errs[0].message
        assert errs[0].line == text.splitlines().index("    repeat at = from:") + 1

    def test_the_repeat_name_must_not_be_a_choice(self):
        """`repeat k = ...` where k is also a choice of the action is reported."""
        text = HOPS.replace("repeat at = from", "repeat k = from").replace("hops(at)", "hops(k)").replace(
            "between(at, to)", "between(k, to)").replace("move(at, 1, to)", "move(k, 1, to)").replace(
            "k * at.file", "k")
        errs = self.errors(text)
        assert any("has the name of a choice" in d.message for d in errs)

    def test_repeat_without_a_start_is_a_syntax_error(self):
        """`repeat at while ...` misses `= START`; the error points at the line."""
        text = HOPS.replace("repeat at = from while", "repeat at while")
        errs = self.errors(text)
        assert len(errs) == 1
        assert errs[0].line == text.splitlines().index("    repeat at while not (stop and to == cells[5]):") + 1
