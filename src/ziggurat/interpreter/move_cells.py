"""The places on the board a move names: the one answer pictures and the browser share.

A move `(action, value, ...)` names a place with each choice whose type is a cell (on the open
table, a spot: a table game has no cells) and each value of a choice that is a list of them (a
multi-jump's landings, a repeat's passes), in the order the action lists its choices and, within
a list, in the list's order. A place named twice (a king's jump back to where it began) is given
twice: the browser clicks it twice; a picture outlines it once. A choice of a piece (from a zone
or a stack), an attribute value (`red`, `large`), a number or a player names no place, even when
its value is a small number that is also a cell's. An `after` block's choices come after the
action's own (`after=False` leaves them out: the browser offers them from a list, it never has
them clicked); one the move does not make (`None`) names nothing.
"""

from __future__ import annotations

from ..dsl import types as T

PLACES = (T.CELL, T.SPOT)  # the types of choice that name a place on the board


def move_cells(game, move, after: bool = True) -> tuple:
    """The cells (on the open table, the spots) `move` names, in order (see the module's doc)."""
    if not move:
        return ()
    action = game.actions[move[0]]
    nbase = action.nbase if action.nbase is not None else len(action.choices)
    choices = action.choices if after else action.choices[:nbase]
    ncells = game.world.ncells
    out: list = []

    def take(kind, value) -> None:
        if isinstance(value, tuple):  # a list of places, or a choice made once per pass of a repeat
            for v in value:
                take(kind.elem if T.is_list(kind) else kind, v)
        elif isinstance(value, int) and not isinstance(value, bool) and value >= 0 and (
                kind == T.SPOT or (kind == T.CELL and value < ncells)):
            out.append(value)

    for (_, kind), value in zip(choices, move[1:]):
        if isinstance(kind, T.Type) and (kind in PLACES or (T.is_list(kind) and kind.elem in PLACES)):
            take(kind, value)
    return tuple(out)


__all__ = ["move_cells"]
