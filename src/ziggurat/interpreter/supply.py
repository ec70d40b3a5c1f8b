"""The pieces a game has, all told, counted from its setup (see `Game.piece_supply`).

A game whose moves make no pieces has, at any position, at most the pieces its setup placed: the
bound positions read from text are held to. The setup is run (by the game) with a generator that
notes whether it draws: a setup that draws nothing gives each kind's number; a random one is run
with several seeds and the most pieces any draw placed are counted.
"""

from __future__ import annotations

import random
from typing import Callable, Optional

from attrs import frozen

SUPPLY_SEEDS = 16  # setups drawn to measure the supply of a game whose setup is random


@frozen
class PieceSupply:
    """The pieces a game has, all told (see `Game.piece_supply`)."""

    total: int  # the most pieces of the kinds counted, board and zones together
    counted: Optional[frozenset]  # the kinds the setup places (None: every kind)
    kinds: Optional[dict]  # piece -> its number, when each kind's number is fixed; else None


def count_supply(setup_pieces: Callable[[random.Random], dict], changes_pieces: bool,
                 seed: Optional[int]) -> PieceSupply:
    """The supply of a game whose moves make no pieces. `setup_pieces(rng)`: piece -> how many
    the setup places with that generator; `changes_pieces`: a move may turn a piece into another
    (then every kind is counted together); `seed`: the game's own seed option, drawn first."""
    rng = WatchedRandom(0)
    kinds = setup_pieces(rng)
    counted = None if changes_pieces else frozenset(kinds)
    if not rng.drawn:
        return PieceSupply(sum(kinds.values()), counted, None if changes_pieces else kinds)
    seeds = [s for s in (seed,) if isinstance(s, int)] + list(range(SUPPLY_SEEDS))
    draws = [setup_pieces(random.Random(s)) for s in seeds]
    if counted is not None:
        counted = frozenset(k for d in draws for k in d) | counted
    return PieceSupply(max(sum(d.values()) for d in draws + [kinds]), counted, None)


class WatchedRandom(random.Random):
    """A generator that remembers whether the setup drew from it."""

    drawn = False

    def random(self):
        self.drawn = True
        return super().random()

    def getrandbits(self, k):
        self.drawn = True
        return super().getrandbits(k)

    def shuffle(self, x):
        self.drawn = True
        return super().shuffle(x)
