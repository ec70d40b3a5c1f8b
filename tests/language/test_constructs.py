"""The constructs added with the compiler's passes, each on a tiny game counted by hand:
counters that hold a cell, `previous(VAR)` and `earlier(x)` in a repeat, `insert` of a piece taken from a stack,
and `last` (the cells of the move just made) in the end block."""

import pytest

import ziggurat
from ziggurat.dsl.checks import check

KO = """\
players a, b
board:
    files: 4
    ranks: 1
piece:
    owner: players
counter left: cell = none          # the cell the last move left
setup:
    for c in cells:
        if c.file == 1:
            place(piece(a), c)
        elif c.file == 4:
            place(piece(b), c)
action step "{from}-{to}":
    from: cells where mine(from)
    to: neighbours(from, e + w) where empty(to) and to != left
    do:
        move(from, 1, to)
        left = from
end:
    if no_moves:
        lose mover
"""

WALK = """\
players a, b
board:
    files: 5
    ranks: 1
piece:
    owner: players
setup:
    for c in cells where c.file == 3:
        place(piece(a), c)
action walk "{from}:{to}":
    from: cells where mine(from)
    repeat at = from, may stop:
        to: neighbours(at, e + w) where to != previous(at)
        do:
            move(at, 1, to)
end:
    if ply >= 1:
        draw "one walk"
"""

UNDER = """\
players a, b
board:
    files: 2
    ranks: 1
piece:
    owner: players
    size: small = 1, large = 2
action under "{from}>{to}":
    from: cells where occupied(from)
    to: cells where to != from and occupied(to)
    do:
        insert(from, height(from), to, 1)
end:
    if ply >= 2:
        draw
"""

RING = """\
players a, b
board:
    files: 5
    ranks: 5
piece:
    owner: players
action hop "{from}x{to}":
    from: cells where mine(from)
    repeat at = from:
        to: list(step(at, d, 2) for d in diagonal
                 where on_board(step(at, d, 2)) and theirs(step(at, d)) and empty(step(at, d, 2)))
        let over = between(at, to)[1]
        require over not in earlier(over)
        do:
            move(at, 1, to)
end:
    if no_moves:
        lose mover
"""

MIDDLE = """\
players a, b
board:
    files: 3
    ranks: 1
piece:
    owner: players
action put "{at}":
    at: cells where empty(at)
    do:
        place(piece(mover), at)
end:
    for c in last:
        if occupied(c) and c.file == 2:
            win controller(c) "took the middle"
    if no_moves:
        draw
"""


def load(tmp_path, text, name="game"):
    path = tmp_path / f"{name}.rules"
    path.write_text(text)
    assert [d.render() for d in check(str(path)) if d.severity == "error"] == []
    return ziggurat.load(str(path))


class TestCellCounters:
    def test_a_cell_counter_forbids_stepping_back(self, tmp_path):
        """Each side has one move a turn, and at ply 3 b cannot go back to b1, which a just left:
        perft 1, 1, 1, 1 (2 at depth 4 without the rule: c1-b1 and c1-d1)."""
        game = load(tmp_path, KO)
        assert [ziggurat.perft(game.new(), d) for d in (1, 2, 3, 4)] == [1, 1, 1, 1]
        st = game.new()
        for m in ("a1-b1", "d1-c1", "b1-a1"):
            st.play(m)
        assert [st.move_text(m) for m in st.moves()] == ["c1-d1"]
        with pytest.raises(ziggurat.GameError, match="to != left"):
            st.play("c1-b1")

    def test_a_cell_counter_prints_and_reads_back(self, tmp_path):
        """The position text names the cell (`-` for none), and reading it back gives the same state."""
        game = load(tmp_path, KO)
        st = game.new()
        assert st.text().endswith("left=-")
        st.play("a1-b1")
        assert st.text().endswith("left=a1")
        again = game.position(st.text())
        assert again.text() == st.text() and again.counters == st.counters

    def test_a_bad_cell_in_position_text_is_refused(self, tmp_path):
        """A cell counter read from position text must name a cell of the board."""
        game = load(tmp_path, KO)
        with pytest.raises(ziggurat.GameError, match="holds a cell"):
            game.position("a 0 | a1=A | left=z9")

    def test_a_cell_counter_set_to_a_number_is_a_check_error(self, tmp_path):
        """A counter that holds a cell takes cells only."""
        text = KO.replace("left = from", "left = 3")
        errors = [d for d in check("ko.rules", text=text) if d.severity == "error"]
        assert len(errors) == 1 and "must be a cell, not a number" in errors[0].message


class TestPrevious:
    def test_previous_stops_a_walk_from_turning_back(self, tmp_path):
        """From c1 the walk goes west to b1 then a1, or east to d1 then e1, and may stop after
        any step: c1:b1, c1:b1:a1, c1:d1, c1:d1:e1; never back where it came from."""
        game = load(tmp_path, WALK)
        st = game.new()
        assert sorted(st.move_text(m) for m in st.moves()) == ["c1:b1", "c1:b1:a1", "c1:d1", "c1:d1:e1"]

    def test_a_move_that_turns_back_is_explained(self, tmp_path):
        """c1:b1:c1 is refused at its second step, in the rule's own words."""
        game = load(tmp_path, WALK)
        st = game.new()
        reason = st.explain((0, 2, (1, 2)))
        assert "to:" in reason and "previous(at)" in reason

    def test_previous_outside_a_repeat_is_a_check_error(self):
        """previous() names the variable of the repeat it stands in, nothing else."""
        text = WALK.replace("to != previous(at)", "to != previous(from)")
        errors = [d for d in check("walk.rules", text=text) if d.severity == "error"]
        assert len(errors) == 1 and "previous() takes the variable of the repeat" in errors[0].message


class TestEarlier:
    # a on a3 and four b pieces round c3; jumping takes nothing, so only earlier() ends a hop.
    RING_POSITION = "a 0 | a3=A b2=B d2=B b4=B d4=B |"

    def test_each_piece_is_jumped_once_round_the_ring(self, tmp_path):
        """From a3 the hop goes round the four pieces one way or the other and is back on a3,
        where the next jump would be over b4 or b2 again: two moves, each four jumps long."""
        game = load(tmp_path, RING)
        st = game.position(self.RING_POSITION)
        assert sorted(st.move_text(m) for m in st.moves()) == ["a3xc1xe3xc5xa3", "a3xc5xe3xc1xa3"]

    def test_without_earlier_the_hop_never_ends(self, tmp_path):
        """The same rules without the require go round for ever: the repeat's limit stops it."""
        game = load(tmp_path, RING.replace("        require over not in earlier(over)\n", ""))
        st = game.position(self.RING_POSITION)
        with pytest.raises(Exception, match="passes without coming to an end"):
            st.moves()

    def test_a_second_jump_over_one_piece_is_explained(self, tmp_path):
        """a3xc5xa3 jumps b4 twice: refused at the second jump, in the rule's words."""
        game = load(tmp_path, RING)
        st = game.position(self.RING_POSITION)
        with pytest.raises(ziggurat.GameError, match="earlier"):
            st.play("a3xc5xa3")
        st.play("a3xc5xe3xc1xa3")
        assert st.text().split("|")[1].split()[0] == "b2=B" and "a3=A" in st.text()

    def test_earlier_of_a_name_bound_outside_the_pass_is_a_check_error(self):
        """earlier() follows a name the pass binds; `from` is chosen once, before the repeat."""
        text = RING.replace("earlier(over)", "earlier(from)")
        errors = [d for d in check("ring.rules", text=text) if d.severity == "error"]
        assert len(errors) == 1 and "bound outside it" in errors[0].message


class TestInsertFromAStack:
    def test_the_top_piece_goes_under_the_other_stack(self, tmp_path):
        """insert(from, height(from), to, 1): a1's top piece leaves it and becomes b1's bottom one."""
        game = load(tmp_path, UNDER)
        st = game.position("a 0 | a1=A2B1 b1=B2 |")
        st.play("a1>b1")
        assert st.text().split("|")[1].split() == ["a1=A2", "b1=B1B2"]
        st.pop()
        assert st.text() == "a 0 | a1=A2B1 b1=B2 |"

    def test_a_single_stack_may_reorder_itself(self, tmp_path):
        """Taking from and putting into the same stack moves a piece within it."""
        text = UNDER.replace("to != from and occupied(to)", "occupied(to)")
        game = load(tmp_path, text)
        st = game.position("a 0 | a1=A2B1 |")
        st.play("a1>a1")
        assert st.text() == "b 1 | a1=B1A2 |"


class TestLast:
    def test_the_end_block_sees_the_cells_of_the_last_move(self, tmp_path):
        """Whoever puts a piece on b1 wins at once; a piece put elsewhere does not end the game."""
        game = load(tmp_path, MIDDLE)
        st = game.new()
        st.play("a1")
        assert st.outcome() is None
        st.play("b1")
        out = st.outcome()
        assert out.kind == "win" and game.players[out.player] == "b"

    def test_without_a_last_move_every_cell_counts(self, tmp_path):
        """A position read from text has no last move: `last` is every cell, so the win is seen."""
        game = load(tmp_path, MIDDLE)
        st = game.position("a 1 | b1=B |")
        out = st.outcome()
        assert out is not None and game.players[out.player] == "b"

    def test_undo_restores_the_last_move(self, tmp_path):
        """Taking a move back makes the move before it the last one again."""
        game = load(tmp_path, MIDDLE)
        st = game.new()
        st.play("a1")
        st.play("c1")
        st.pop()
        assert st.last == st.stack[-1] and st.move_text(st.last) == "a1"

    def test_perft_counts_the_early_wins(self, tmp_path):
        """3 first moves; after b1 the game is over (no leaves below), after a1 or c1 two more:
        perft(2) = 0 + 2 + 2 = 4; at depth 3, after a1 c1 (or c1 a1) b1 is the one move: 2, and
        after a1 b1 or c1 b1 the game is over: perft(3) = 2."""
        game = load(tmp_path, MIDDLE)
        assert [ziggurat.perft(game.new(), d) for d in (1, 2, 3)] == [3, 4, 2]
