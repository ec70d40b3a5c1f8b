"""The cells a move names, in the order a player clicks them.

The page plays a move by clicks: a move's cells are those `Game.move_cells` gives for the
action's own choices, in their order (`from` before `to`; every cell of a repeated choice, a
multi-jump's landings, in turn). Clicking cells narrows the legal moves to those whose cells
begin with the clicks; the cells that may come next are highlighted; when the clicks are a whole
move's cells and several moves share them (a level of a stack, a promotion's piece, or choices
made by an `after` block, which are never clicked), the page offers those moves to pick from.
Moves that name no cell (`pass`, `swap`), and every move on the open table (its spots are not
cells the page can click), are offered as buttons. The last move is marked on the page by every
cell it names, its after block's too, as the picture outlines them. Only the public kernel is
read: `game.move_cells` and `world.cell_name`.
"""

from __future__ import annotations


def move_cells(game, move, after: bool = False) -> list:
    """The names of the cells `move` names, in click order (`after=True`: with its after block's
    choices, as the last move is marked); empty for a move without cells and on the open table."""
    if game.world.surface is not None:
        return []
    name = game.world.cell_name
    return [name(c) for c in game.move_cells(move, after=after)]


def clickable_moves(state) -> list:
    """Every legal move of `state` as {'text', 'action', 'cells'}, in the kernel's order."""
    game = state.game
    return [{"text": state.move_text(m), "action": game.actions[m[0]].name, "cells": move_cells(game, m)}
            for m in state.moves()]


__all__ = ["move_cells", "clickable_moves"]
