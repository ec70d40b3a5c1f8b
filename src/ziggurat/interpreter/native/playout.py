"""One native random playout as the tools read it: its moves (packed), how it ended. Its own module so
that the loops of whole turns (turns.py) extend it without importing the game's loader (game.py),
which imports them."""

from __future__ import annotations

from typing import Optional

import numpy as np
from attrs import frozen

from .layout import Codec


@frozen
class Playout:
    """One native random playout: its moves, how it ended."""

    packed: np.ndarray  # the moves, packed (numpy int64)
    codec: Codec  # how they are packed
    plies: int
    kind: Optional[str]  # win / lose / draw, or None when cut at max plies
    who: Optional[int]
    reason: Optional[str]
    results: tuple  # per side (empty when cut)
    branching: int  # the legal moves summed over the positions played from
    final: object  # the position vector at the end
    scores: tuple = ()  # per side, the points of a game whose results are points (empty when cut)

    @property
    def moves(self) -> tuple:
        """The moves as the Python backend's tuples."""
        return tuple(self.codec.unpack_all(self.packed))

    def actions(self) -> list:
        """The action of each move."""
        return (self.packed & ((1 << self.codec.abits) - 1)).tolist()
