"""Actions in stages (choices after effects) and the end-of-turn `after` block, on tiny games
whose moves can be counted by hand."""

import re

import pytest

import ziggurat

# A queen move, then an arrow shot from where the queen landed (two decisions in one turn).
ARROWS = """\
players a, b
board:
    files: 4
    ranks: 1
piece:
    owner: players
    kind: queen, arrow
zone quiver per player
setup:
    place(piece(a, queen), cells[1])
    place(piece(b, queen), cells[4])
action shoot "{from}-{to}/{target}":
    from: cells where mine(from) and top(from).kind == queen
    to: ray(from, adjacent, unlimited) where empty(to)
    do:
        move(from, 1, to)
    target: ray(to, adjacent, unlimited) where empty(target)
    require piece(mover, arrow) in quiver[mover]
    do:
        put(quiver[mover], piece(mover, arrow), target)
end:
    if no_moves:
        lose mover
"""

# A step; then, at the end of every turn, the mover marks an empty corner while marks < 1.
MARKS = """\
players a, b
board:
    files: 3
    ranks: 1
piece:
    owner: players
counter marks = 0
setup:
    place(piece(a), cells[2])
action step "{from}-{to}":
    from: cells where mine(from)
    to: neighbours(from, orthogonal) where empty(to)
    do:
        move(from, 1, to)
after "mark {corner}":
    corner: cells where empty(corner) and corner(corner) and marks < 1
    do:
        marks += 1
end:
    if no_moves:
        draw
"""

# An after block without a choice but with a condition: a bonus is scored for every stone dropped
# once a1 is taken, and only such a move is written with "bonus".
BONUS = """\
players a, b
board:
    files: 3
    ranks: 2
piece:
    owner: players
counter bonus per player = 0
action drop "{at}":
    at: cells where empty(at)
    do:
        place(piece(mover), at)
after "bonus":
    require occupied(cells[1])
    do:
        bonus[mover] += 1
end:
    if no_moves:
        rank by bonus
"""


@pytest.fixture
def arrows(tmp_path):
    path = tmp_path / "arrows.rules"
    path.write_text(ARROWS)
    return ziggurat.load(str(path))


def with_quivers(game):
    """The start position with three arrows in each quiver (the setup leaves quivers empty)."""
    st = game.new()
    text = st.text()
    arrow_codes = {p: game.world.piece_text(next(c for c in range(game.world.npieces)
                                                 if game.world.attr_tables["owner"][c] == i
                                                 and game.world.attr_tables["kind"][c] == 1))
                   for i, p in enumerate(game.players)}
    for p, code in arrow_codes.items():
        text = text.replace(f"quiver.{p}=", f"quiver.{p}={code * 3}")
    return game.position(text)


class TestStages:
    def test_second_decision_sees_the_first(self, arrows):
        """From a1 with b at d1: to b1 (arrows a1, c1) or c1 (arrows b1, a1): 4 moves by hand."""
        st = with_quivers(arrows)
        assert sorted(st.move_text(m) for m in st.moves()) == ["a1-b1/a1", "a1-b1/c1", "a1-c1/a1", "a1-c1/b1"]

    def test_perft_counts_whole_turns_and_count_agrees(self, arrows):
        """perft(1) equals the hand count, and the counting twin of legal() agrees with it."""
        st = with_quivers(arrows)
        assert ziggurat.perft(st, 1) == 4
        assert arrows.count(st) == len(arrows.legal(st)) == 4

    def test_both_stages_apply_and_undo(self, arrows):
        """Playing a1-c1/a1 moves the queen and places an arrow from the quiver; pop restores."""
        st = with_quivers(arrows)
        before = st.text()
        st.play("a1-c1/a1")
        after = st.text()
        assert "c1=" in after and "a1=" in after and "quiver.a=" in after
        assert after.count("A") == before.count("A")  # pieces of a are conserved
        st.pop()
        assert st.text() == before

    def test_generation_leaves_the_state_untouched(self, arrows):
        """Generating moves applies the first stage temporarily and takes it back."""
        st = with_quivers(arrows)
        before = st.text()
        st.moves()
        assert st.text() == before and st.log == []

    def test_no_arrow_left_no_move(self, arrows):
        """With an empty quiver the second stage has no choice, so the whole move is illegal."""
        st = arrows.new()
        assert st.moves() == []

    def test_illegal_second_stage_is_explained(self, arrows):
        """Shooting at the square the queen came from is fine; at an occupied one is explained."""
        st = with_quivers(arrows)
        with pytest.raises(ziggurat.GameError, match="target"):
            st.play("a1-b1/d1")
        assert st.text() == with_quivers(arrows).text()


class TestAfter:
    def test_after_choice_is_part_of_the_move(self, tmp_path):
        """From b1 the step goes to a1 or c1; the after part then marks the other empty corner."""
        path = tmp_path / "marks.rules"
        path.write_text(MARKS)
        st = ziggurat.load(str(path)).new()
        assert sorted(st.move_text(m) for m in st.moves()) == ["b1-a1 mark c1", "b1-c1 mark a1"]

    def test_after_is_skipped_when_it_offers_nothing(self, tmp_path):
        """Once marks = 1 the after block offers no corner, and moves end without it."""
        path = tmp_path / "marks.rules"
        path.write_text(MARKS)
        st = ziggurat.load(str(path)).new()
        st.play("b1-a1 mark c1")
        assert "marks=1" in st.text()
        st2 = ziggurat.load(str(path)).position("a 2 | a1=A | marks=1")
        assert [st2.move_text(m) for m in st2.moves()] == ["a1-b1"]
        st2.play("a1-b1")
        assert "marks=1" in st2.text()

    def test_text_round_trips_with_and_without_after(self, tmp_path):
        """Both forms of move text parse back to the same move."""
        path = tmp_path / "marks.rules"
        path.write_text(MARKS)
        g = ziggurat.load(str(path))
        for text in ("a 0 | b1=A | marks=0", "a 2 | a1=A | marks=1"):
            st = g.position(text)
            for m in st.moves():
                assert st.parse_move(st.move_text(m)) == m

    def test_an_after_part_without_choices_is_written_only_where_it_applies(self, tmp_path):
        """An after block with a condition and no choice: the moves where the condition fails are
        the plain moves, written without its text and played as such (before, every move was
        written with "bonus", and the plain move was refused as not legal)."""
        path = tmp_path / "bonus.rules"
        path.write_text(BONUS)
        st = ziggurat.load(str(path)).new()
        assert sorted(st.move_text(m) for m in st.moves()) == ["a1 bonus", "a2", "b1", "b2", "c1", "c2"]
        with pytest.raises(ziggurat.GameError, match=re.escape("it must hold that occupied(cells[1])")):
            st.play("b1 bonus")
        st.play("b1")
        assert "bonus.a=0" in st.text()
        st.play("a1 bonus")
        assert "bonus.b=1" in st.text()
        with pytest.raises(ziggurat.GameError, match="must end with: bonus"):
            st.play("c1")
        st.play("c1 bonus")
        assert "bonus.a=1" in st.text()

    def test_an_after_part_without_choices_round_trips_through_text(self, tmp_path):
        path = tmp_path / "bonus.rules"
        path.write_text(BONUS)
        st = ziggurat.load(str(path)).new()
        while not st.is_terminal():
            moves = st.moves()
            for m in moves:
                assert st.parse_move(st.move_text(m)) == m
                assert st.explain(m) == "legal"
            st.push(moves[-1])
        assert st.outcome() is not None
        written = sum(st.move_text(m).endswith(" bonus") for m in st.stack)
        assert sum(st.counters) == written > 0  # the moves written with the bonus are those that scored it

    def test_an_after_part_without_choices_is_the_same_on_the_native_backend(self, tmp_path):
        """Both backends agree move for move on the after part without choices: perft, and
        every native playout replayed by the Python backend with the same bonuses."""
        pytest.importorskip("numba")
        from ziggurat.interpreter.native.game import native
        from ziggurat.interpreter.runtime import perft

        path = tmp_path / "bonus.rules"
        path.write_text(BONUS)
        game = ziggurat.load(str(path))
        fast = native(game)
        start = game.new()
        for d in range(5):
            assert fast.perft(start, d) == perft(start, d), f"depth {d}"
        for seed in range(10):
            p = fast.playout(start, seed, 50)
            st = game.new()
            written = 0
            for m in p.moves:
                assert m in st.moves()
                written += st.move_text(m).endswith(" bonus")
                st.push(m)
            assert fast.state(p.final).counters == st.counters
            assert sum(st.counters) == written  # a native move holds the after part only where it applied
            assert (st.outcome().kind, tuple(st.outcome().results)) == (p.kind, tuple(p.results))
