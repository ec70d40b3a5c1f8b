"""One answer to "which cells does this move name?": `Game.move_cells`, read by the pictures (the
last move's outlines) and by the browser (the cells a move is clicked by, and the last move's
cells), for each kind of choice: cells, lists of cells, spots on the open table, an after
block's choices, and pieces placed from zones."""

from __future__ import annotations

import re

import pytest

import ziggurat
from ziggurat import render
from ziggurat.dsl import types as T
from ziggurat.dsl.surface import spot_text
from ziggurat.serve.clicks import clickable_moves, move_cells as clicked
from ziggurat.serve.tables import history


def outlined(state) -> list:
    """The cells the picture of `state` outlines as its last move's, by name, in drawing order."""
    return re.findall(r'id="last-([a-z]+\d+)"', render.svg(state))


def played(game, text: str, move_text: str):
    """The position `text` with the move `move_text` played; the move."""
    state = game.position(text)
    move = state.parse_move(move_text)
    state.push(move)
    return state, move


class TestCells:
    def test_a_move_names_its_cell_choices_in_order_and_no_other_choice(self):
        """Stacktics `b1:3-a2`: from and to, in that order; the level (3) is a number, not the cell
        numbered 3. The picture outlines those two, the browser clicks them in that order and
        marks them as the last move."""
        game = ziggurat.load("stacktics", {"size": 2, "pie": False})
        state = game.new(1)
        move = state.parse_move("b1:3-a2")
        name = game.world.cell_name
        assert [name(c) for c in game.move_cells(move)] == ["b1", "a2"]
        assert clicked(game, move) == ["b1", "a2"]
        assert {"text": "b1:3-a2", "action": "move", "cells": ["b1", "a2"]} in clickable_moves(state)
        state.push(move)
        assert sorted(outlined(state)) == ["a2", "b1"]
        assert history(state, None)[-1]["cells"] == ["b1", "a2"]


class TestListsOfCells:
    POSITION = "white 0 | c3=Wm d4=Bm f6=Bm | captured.white= captured.black= quiet=0"

    def test_a_multi_jump_names_every_landing_in_order(self):
        """Checkers c3 over d4 and f6: the start, then each landing of the list, in turn."""
        game = ziggurat.load("checkers")
        state = game.position(self.POSITION)
        move = next(m for m in state.moves() if clicked(game, m) == ["c3", "e5", "g7"])
        assert [game.world.cell_name(c) for c in game.move_cells(move)] == ["c3", "e5", "g7"]
        state.push(move)
        assert sorted(outlined(state)) == ["c3", "e5", "g7"]
        assert history(state, None)[-1]["cells"] == ["c3", "e5", "g7"]

    def test_a_cell_named_twice_is_given_twice_and_outlined_once(self):
        """A jump that comes back to a cell it named (a king's circle) is clicked on that cell
        twice, in order; the picture outlines it once (one `last-` id per cell)."""
        game = ziggurat.load("checkers")
        cell = game.world.cell
        jump = next(a.index for a in game.actions if a.name == "jump")
        c3, e5, c7 = cell(2, 2), cell(4, 4), cell(2, 6)
        move = (jump, c3, (e5, c7, e5))
        assert game.move_cells(move) == (c3, e5, c7, e5)
        assert clicked(game, move) == ["c3", "e5", "c7", "e5"]
        state = game.position(self.POSITION)
        assert re.findall(r'id="last-([a-z]+\d+)"', render.svg(state, last=move)) == ["c3", "e5", "c7"]


class TestSpots:
    def test_a_place_on_the_open_table_names_its_spot_which_is_not_clicked(self):
        """Chaos `blue@6,0`: the move names the spot it places on (a table game has no cells), and
        the picture outlines the piece there; the page, which has no table to click, offers the
        move as a button (no cells) and marks no cell for it."""
        game = ziggurat.load("chaos")
        state = game.new()
        for text in ("red+blue", "red@0,0"):
            state.play(text)
        move = state.parse_move("blue@6,0")
        assert game.world.ncells == 0
        spots = game.move_cells(move)
        assert [spot_text(s) for s in spots] == ["6,0"]
        assert clicked(game, move) == []
        assert all(m["cells"] == [] for m in clickable_moves(state))
        state.push(move)
        svg = render.svg(state)
        piece = re.search(r'<g id="piece-6,0">.*?</g>', svg, re.S).group(0)
        assert render.LAST_MOVE.lower() in piece.lower()
        assert history(state, None)[-1]["cells"] == []


class TestAfterBlock:
    # RGB at its default options: after the move e1-d2 the Child on f1 starves (an after block's
    # choice, a list of cells).
    POSITION = ("south 10 | b1=Sr3Sg3Sb3 d1=Sr1Sg1Sb1 e1=Sr1Sg1Sb1 f1=Sr1Sg1Sb1 b2=Sr3Sg3Sb3 b3=Sr2Sg2Sb2 "
                "c3=Sr2Sg2Sb2 e4=Sr2Sg2Sb2 b5=Nr2Ng2Nb2 g5=Nr2Ng2Nb2 e6=Nr3Ng3Nb3 a7=Nr3Ng3Nb3 h7=Nr3Ng3Nb3 "
                "d8=Nr1Ng1Nb1 e8=Nr1Ng1Nb1 f8=Ny1Ny1 | bank= reserve.south= reserve.north=")

    def test_an_after_blocks_cells_come_after_the_actions_and_are_not_clicked(self):
        """`e1-d2 starve f1:red`: the move names e1, d2, then the starving f1; the picture outlines
        all three and the page marks all three as the last move, but the move is clicked by
        e1 and d2 alone (the after block's choice is picked from a list)."""
        game = ziggurat.load("rgb")
        state, move = played(game, self.POSITION, "e1-d2 starve f1:red")
        name = game.world.cell_name
        assert [name(c) for c in game.move_cells(move)] == ["e1", "d2", "f1"]
        assert [name(c) for c in game.move_cells(move, after=False)] == ["e1", "d2"]
        assert sorted(outlined(state)) == ["d2", "e1", "f1"]
        assert history(state, None)[-1]["cells"] == ["e1", "d2", "f1"]
        state.pop()
        assert clicked(game, move) == ["e1", "d2"]
        offered = [m for m in clickable_moves(state) if m["text"] == "e1-d2 starve f1:red"]
        assert offered and offered[0]["cells"] == ["e1", "d2"]

    def test_an_after_block_the_move_does_not_make_names_nothing(self):
        """A move whose after block is not made (its choices None) names the action's cells alone."""
        game = ziggurat.load("rgb")
        state = game.new()
        move = state.parse_move("woman@c1")
        assert move[-2:] == (None, None)
        assert game.move_cells(move) == game.move_cells(move, after=False) == (game.world.cell(2, 0),)


class TestPiecesFromZones:
    def test_a_piece_placed_from_a_zone_names_only_the_cell(self):
        """RGB `woman@c1` places a stack from the reserve: the kind (a value numbered 2, as c1 is
        cell 2) names no cell; the move names c1 once."""
        game = ziggurat.load("rgb")
        state = game.new()
        move = state.parse_move("woman@c1")
        assert game.world.cell(2, 0) == 2 == move[1]  # the value and the cell share a number
        assert game.move_cells(move) == (2,)
        assert clicked(game, move) == ["c1"]
        state.push(move)
        assert outlined(state) == ["c1"]
        assert history(state, None)[-1]["cells"] == ["c1"]

    @pytest.mark.parametrize("name", ["kuhn-poker", "ryb"])
    def test_a_card_from_a_zone_names_no_cell(self, name):
        """A card dealt or played from a zone (a piece choice) names no cell: the move is a button."""
        game = ziggurat.load(name)
        state = game.new(3)
        moves = state.moves()
        cards = [m for m in moves if any(kind == T.PIECE for _, kind in game.actions[m[0]].choices)]
        assert cards, "a move choosing a piece at the start"
        for m in cards:
            assert game.move_cells(m) == ()
            assert clicked(game, m) == []
