"""The cells a move names, in the order a player clicks them.

The page plays a move by clicks: a move's cells are the values of the action's own cell choices
in their order (`from` before `to`; every cell of a repeated choice, a multi-jump's landings, in
turn). Clicking cells narrows the legal moves to those whose cells begin with the clicks; the
cells that may come next are highlighted; when the clicks are a whole move's cells and several
moves share them (a level of a stack, a promotion's piece, or choices made by an `after` block,
which are never clicked), the page offers those moves to pick from. Moves
that name no cell (`pass`, `swap`) are offered as buttons. Only the public kernel is read:
`game.actions` (each choice's name and type, `nbase`) and `world.cell_name`.
"""

from __future__ import annotations


def _is_cell(kind) -> bool:
    return getattr(kind, "name", kind) == "cell"


def _is_cell_list(kind) -> bool:
    return getattr(kind, "name", kind) == "list" and _is_cell(getattr(kind, "elem", None))


def move_cells(game, move) -> list:
    """The names of the cells `move` names, in click order (empty for a move without cells)."""
    action = game.actions[move[0]]
    name = game.world.cell_name
    out = []
    nbase = action.nbase if action.nbase is not None else len(action.choices)
    for (_, kind), value in zip(action.choices[:nbase], move[1:1 + nbase]):
        if _is_cell(kind) and isinstance(value, int):
            out.append(name(value))
        elif isinstance(value, tuple) and (_is_cell_list(kind) or _is_cell(kind)):
            out.extend(name(v) for v in value if isinstance(v, int))
    return out


def clickable_moves(state) -> list:
    """Every legal move of `state` as {'text', 'action', 'cells'}, in the kernel's order."""
    game = state.game
    return [{"text": state.move_text(m), "action": game.actions[m[0]].name, "cells": move_cells(game, m)}
            for m in state.moves()]


__all__ = ["move_cells", "clickable_moves"]
