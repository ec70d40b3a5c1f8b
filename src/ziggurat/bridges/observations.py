"""A position as one player sees it, as a flat tensor of numbers and as text.

The tensor is read from what the ruleset declares, so any game has one. Its parts, in order (each
a block of the flat float32 vector; `Observer.shapes` gives their shapes):

- `board` (npieces, levels + 1, ranks, files): 1 where a piece of that kind stands at that stack
  level (0 the bottom) on that cell; the last level counts the pieces of the kind above the first
  `levels` of the stack (they are cut off: `levels` is 8 unless given);
- `zones` (zone slots, npieces + 1): per zone slot, how many pieces of each kind it holds, then how
  many it holds in all. A zone hidden from the player (`Game.zone_viewers`) shows only its total,
  as `State.observation` writes it (`deck=?12`): what it cannot see is never in its tensor;
- `table` (pieces, npieces + 7), in a game on an open table (none otherwise): one row per piece on
  the table, in the order they were placed, up to the most pieces a position holds: its kind
  (one-hot), its centre's x and y in inches, its pose (one-hot: standing, or lying towards n, e, s,
  w); rows past the last piece are 0;
- `counters` (counter slots,): each counter's value (a cell counter: the cell's number + 1, 0
  for none);
- `mover` (players + 1,): 1 at the side to move, the last place for nature;
- `player` (players,): 1 at the observing player;
- `pending` (actions + cells + 1,): while the observing player is in the middle of a move made of
  several ids (see `actions`), 1 at its action and at each cell chosen so far, and the number of
  ids chosen; zero for everyone else, and always for nature's.

The strings are the engine's: `State.observation(player)` and `State.information_state(player)`,
each followed by the ids chosen so far of a move under way, for its player only.
"""

from __future__ import annotations

import numpy as np

from ..dsl import surface
from ..interpreter.notation import MAX_PIECES

LEVELS = 8  # stack levels given planes of their own; the pieces above are counted per kind


class Observer:
    """The observation tensor of a game (`shapes`, `size`) and how to fill it."""

    def __init__(self, game, levels: int = LEVELS):
        self.game, self.levels = game, levels
        world = game.world
        self.nplayers, self.npieces = len(game.players), world.npieces
        self.shapes = {
            "board": (world.npieces, levels + 1, world.ranks, world.files),
            "zones": (len(world.zone_names), world.npieces + 1),
            **({"table": (self._table_rows(game), world.npieces + 7)} if world.surface is not None else {}),
            "counters": (len(world.counter_names),),
            "mover": (self.nplayers + 1,),
            "player": (self.nplayers,),
            "pending": (len(game.actions) + world.ncells + 1,),
        }
        self.size = int(sum(np.prod(s) for s in self.shapes.values()))
        self.place = {}  # cell number -> (rank, file) in the board planes
        for f in range(world.files):
            for r in range(world.ranks):
                c = world.cell(f, r)
                if c >= 0:
                    self.place[c] = (r, f)
        self.cell_counters = [i for i, (name, per_player, kind) in enumerate(self._counter_slots()) if kind == "cell"]

    @staticmethod
    def _table_rows(game) -> int:
        supply = game.piece_supply()
        return supply.total if supply is not None else MAX_PIECES

    def _counter_slots(self) -> list:
        """(name, per player, kind) for each counter slot, in `state.counters` order."""
        out = []
        for name, per_player, kind in self.game.spec.counters:
            out.extend([(name, per_player, kind)] * (self.nplayers if per_player else 1)
                       * (self.game.world.ncells if kind == "set" else 1))  # a set: a 0/1 slot per cell
        return out

    def views(self, tensor: np.ndarray) -> dict:
        """The named, shaped views into a flat tensor of `size` numbers."""
        out, k = {}, 0
        for name, shape in self.shapes.items():
            n = int(np.prod(shape))
            out[name] = tensor[k:k + n].reshape(shape)
            k += n
        return out

    def fill(self, tensor: np.ndarray, progress, player: int) -> None:
        """Write into `tensor` the position of `progress` (a `progress.Progress`) as `player` sees it."""
        state = progress.state
        mover = None if progress.is_terminal() else progress.mover()
        tensor.fill(0)
        v = self.views(tensor)
        board = v["board"]
        for c, stack in enumerate(state.cells):
            if not stack or c not in self.place:
                continue
            r, f = self.place[c]
            for level, piece in enumerate(stack):
                board[piece, min(level, self.levels), r, f] += 1
        zones = v["zones"]
        viewers = self.game.zone_viewers
        for slot, pieces in enumerate(state.zones):
            zones[slot, -1] = len(pieces)
            seen = viewers[slot] is None or player in viewers[slot]
            if seen:
                for piece in pieces:
                    zones[slot, piece] += 1
        if "table" in v:
            table, n = v["table"], self.npieces
            for row, (piece, spot) in enumerate(state.on_table()[:len(table)]):
                x, y = surface.centre(spot)
                table[row, piece] = 1
                table[row, n] = x / surface.UNITS_PER_INCH
                table[row, n + 1] = y / surface.UNITS_PER_INCH
                pose = surface.pose(spot)  # 0 standing, 1 + the direction's number (n 0, e 2, s 4, w 6)
                table[row, n + 2 + (0 if pose == 0 else 1 + (pose - 1) // 2)] = 1
        counters = v["counters"]
        for slot, value in enumerate(state.counters):
            counters[slot] = (value + 1 if value is not None and value >= 0 else 0) \
                if slot in self.cell_counters else (value or 0)
        if not progress.is_terminal():
            v["mover"][self.nplayers if mover is None else mover] = 1
        v["player"][player] = 1
        if progress.prefix and mover == player:
            nactions = len(self.game.actions)
            v["pending"][progress.pending_action()] = 1
            for c in progress.pending_cells():
                v["pending"][nactions + c] = 1
            v["pending"][-1] = len(progress.prefix)
