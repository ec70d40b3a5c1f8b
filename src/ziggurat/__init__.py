"""Ziggurat: a rules language and engine for games of stackable pieces."""

__version__ = "0.1.0"

from .errors import GameError, RulesetError, ZigguratError
from .interpreter.games import load
from .interpreter.runtime import Game, LegalMoves, Outcome, State, divide, perft, random_playout

__all__ = ["load", "Game", "State", "LegalMoves", "Outcome", "perft", "divide", "random_playout",
           "ZigguratError", "RulesetError", "GameError"]
