"""How a game ended (interpreter/outcome.py): `Outcome.kind` is a `Kind`, a str enum that equals,
prints and writes as its text."""

import csv
import io
import json

import pytest

import ziggurat
from ziggurat.interpreter import runtime
from ziggurat.interpreter.outcome import Kind, Outcome, outcome_of, ranked


def finished(name: str, moves: list) -> ziggurat.State:
    st = ziggurat.load(name).new()
    for m in moves:
        st.play(m)
    return st


class TestKind:
    def test_a_finished_game_s_kind_is_the_enum_and_equals_its_text(self):
        """Tic-tac-toe, a row for x: the outcome's kind is Kind.WIN, which is "win"."""
        out = finished("tic-tac-toe", ["a1", "b1", "a2", "b2", "a3"]).outcome()
        assert out is not None and out.kind is Kind.WIN
        assert out.kind == "win" and "win" == out.kind and out.kind != "draw"
        assert out.kind in ("win", "lose") and {"win": 1}[out.kind] == 1  # same hash as its text

    @pytest.mark.parametrize("kind", list(Kind))
    def test_each_kind_prints_and_writes_as_its_text(self, kind):
        """str(), f-strings, JSON and CSV give the plain text (not `Kind.WIN`)."""
        assert str(kind) == f"{kind}" == kind.value
        assert json.dumps({"kind": kind}) == json.dumps({"kind": kind.value})
        out = io.StringIO()
        csv.writer(out).writerow([kind])
        assert out.getvalue().strip() == kind.value

    def test_the_kinds_are_win_lose_and_draw(self):
        assert [k.value for k in Kind] == ["win", "lose", "draw"]


class TestOutcomeOf:
    def test_raw_outcomes_become_outcomes_of_each_kind(self):
        """(kind, who, reason) from Game.outcome becomes the Kind and a result per side."""
        win, lose, draw = (outcome_of(("win", 1, "r"), 3), outcome_of(("lose", 1, "r"), 3),
                           outcome_of(("draw", None, "r"), 3))
        assert (win.kind, win.results) == (Kind.WIN, (0, 1, 0))
        assert (lose.kind, lose.results) == (Kind.LOSE, (1, 0, 1))
        assert (draw.kind, draw.results) == (Kind.DRAW, (0.5, 0.5, 0.5))

    def test_rank_by_gives_a_win_or_a_shared_draw(self):
        """One player alone at the top wins; two share the top: a draw, 1/2 each."""
        alone = ranked(((3, 0), (5, 1), (5, 0)), "most")
        assert (alone.kind, alone.player, alone.results, alone.scores) == (Kind.WIN, 1, (0, 1, 0), (3, 5, 5))
        shared = outcome_of(("rank", ((5, 1), (2, 0), (5, 1)), "most"), 3)
        assert (shared.kind, shared.player, shared.results) == (Kind.DRAW, None, (0.5, 0, 0.5))

    def test_an_outcome_made_with_text_holds_the_kind_and_refuses_other_text(self):
        assert Outcome("lose", 0, None, (0, 1)).kind is Kind.LOSE
        with pytest.raises(ValueError):
            Outcome("rank", 0, None, (0, 1))

    def test_the_old_names_still_reach_the_same_objects(self):
        """ziggurat.Outcome and the runtime's names are the outcome module's."""
        assert ziggurat.Outcome is Outcome
        assert runtime.Outcome is Outcome and runtime.outcome_of is outcome_of


class TestJudgedWithoutMoves:
    """`State.outcome()` lists the legal moves only where the end block reads them (`no_moves`):
    listing a ruleset's whole turns, or a large position's moves, only to judge an end that never
    looks at them cost more than the judging (the spec's `outcome_reads_moves`)."""

    @staticmethod
    def counted(game, monkeypatch) -> list:
        calls: list = []
        legal = game.legal

        def counting(st):
            calls.append(1)
            return legal(st)

        monkeypatch.setattr(game, "legal", counting)
        return calls

    def test_an_end_block_without_no_moves_is_judged_without_listing_them(self, monkeypatch):
        game = ziggurat.load("othello")  # ends when neither player can place (a def, not the moves)
        assert not game.outcome_reads_moves
        st = game.new()
        calls = self.counted(game, monkeypatch)
        assert st.outcome() is None and calls == []

    def test_an_end_block_reading_no_moves_lists_them_and_ends_on_none(self, monkeypatch):
        """Tic-tac-toe's full board without a row: `no_moves` makes it a draw."""
        st = finished("tic-tac-toe", ["a1", "b1", "c1", "b2", "a2", "a3", "c2", "c3", "b3"])
        assert st.game.outcome_reads_moves
        calls = self.counted(st.game, monkeypatch)
        out = st.outcome()
        assert out is not None and out.kind == "draw" and calls == [1]
