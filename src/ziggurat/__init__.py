"""Ziggurat: a rules language and engine for games of stackable pieces."""

from .version import __version__
from .errors import GameError, RulesetError, ZigguratError
from .interpreter.games import load
from .interpreter.runtime import Game, LegalMoves, Outcome, State, divide, perft, random_playout


def _picture(kind: str):
    def draw(state):
        from . import render  # matplotlib: loaded only when a picture is wanted

        return getattr(render, kind)(state)
    return draw


from .interpreter import runtime as _runtime  # noqa: E402

_runtime.PICTURES.update(svg=_picture("svg"), png=_picture("png"))

__all__ = ["__version__", "load", "Game", "State", "LegalMoves", "Outcome", "perft", "divide", "random_playout",
           "ZigguratError", "RulesetError", "GameError"]
