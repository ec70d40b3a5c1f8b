"""A game under way, one action id at a time: what both bridges hold for a position.

`Progress` is a Ziggurat `State` plus the ids chosen so far of a move made of several ids (see
`actions`). It answers what a framework asks: who decides next (a side, nature, or nobody when the
game is over), which ids are legal (with their probabilities at nature's turn), what an id does,
and the returns at the end. Returns are the game's results (`Outcome.results`: 1 a win, 0 a loss,
1/2 a draw), as `2 * result - 1` for two players (zero-sum, -1 to 1), or the points of a game
whose results are points (`win P by K`, `win by NAME`: `Outcome.scores`), or a `payoff` function
of the final state when one is given. A game longer than `max_length` ids
(nature's included) is stopped there as a draw.
"""

from __future__ import annotations

from typing import Callable, Optional

from ..errors import GameError
from .actions import ActionSpace, Decisions

MAX_LENGTH = 1000  # ids in a game (nature's included) before it is stopped as a draw


class Progress:
    """A Ziggurat state and the move under way in it."""

    def __init__(self, space: ActionSpace, state, *, seed=None, payoff: Optional[Callable] = None,
                 max_length: int = MAX_LENGTH):
        self.space, self.state, self.seed = space, state, seed
        self.payoff, self.max_length = payoff, max_length
        self.prefix: list = []  # ids of the move under way
        self.length = 0  # ids applied since the start
        self._decisions: Optional[Decisions] = None
        self._outcome = self._chance = "unknown"
        # player -> the lines of its information state so far (State.information_state, kept up
        # to date move by move once asked for, instead of replaying the game at every question)
        self._seen: dict = {}

    def clone(self) -> "Progress":
        """An independent copy. Once every player's information state is kept here, the position
        is copied (`State.copy`, without its undo history, which nothing asks for then); before,
        the moves are replayed from the start so that the history is whole."""
        if len(self._seen) == len(self.space.game.players):
            st = self.state.copy()
        else:
            st = self.space.game.new(self.seed)
            for m in self.state.stack:
                st.push(m)
        out = Progress(self.space, st, seed=self.seed, payoff=self.payoff, max_length=self.max_length)
        out.prefix, out.length = list(self.prefix), self.length
        out._seen = {player: list(lines) for player, lines in self._seen.items()}
        return out

    def __deepcopy__(self, memo) -> "Progress":
        # pyspiel clones a Python state with copy.deepcopy: replay, never copy the compiled game.
        return self.clone()

    # ---- where the game is -------------------------------------------------------------------

    def outcome(self):
        if self._outcome == "unknown":
            self._outcome = self.state.outcome()
        return self._outcome

    def truncated(self) -> bool:
        return self.length >= self.max_length and self.outcome() is None

    def is_terminal(self) -> bool:
        return self.outcome() is not None or self.truncated()

    def _nature(self) -> bool:
        if self._chance == "unknown":
            self._chance = self.state.is_chance
        return self._chance

    def is_chance(self) -> bool:
        return not self.is_terminal() and self._nature()

    def mover(self) -> Optional[int]:
        """The side to decide, None for nature (ask `is_terminal` first)."""
        return None if self._nature() else self.state.side

    def decisions(self) -> Decisions:
        if self._decisions is None:
            if self._nature():
                outcomes = self.state.chance_outcomes()
                self._decisions = Decisions(self.space, [m for m, _ in outcomes], [p for _, p in outcomes])
            else:
                self._decisions = Decisions(self.space, self.state.moves())
        return self._decisions

    def legal_ids(self) -> list:
        if self.is_terminal():
            return []
        return list(self.decisions().next_ids(self.prefix))

    def chance_ids(self) -> list:
        """[(id, probability)] at nature's turn."""
        return self.decisions().chance_ids(self.prefix)

    def apply(self, i: int):
        """Choose id `i`: the move it completes is played (and returned), else None."""
        if self.is_terminal():
            raise GameError("the game is over: no action id is legal")
        move = self.decisions().step(self.prefix, i)
        self.length += 1
        if move is None:
            self.prefix.append(i)
            return None
        for player, lines in self._seen.items():
            lines.append(self.state.move_view(move, player))
        self.state.push(move)
        for player, lines in self._seen.items():
            lines.append(self.state.observation(player))
        self.prefix = []
        self._decisions, self._outcome, self._chance = None, "unknown", "unknown"
        return move

    # ---- what an id and the game are, for people and frameworks -----------------------------

    def id_text(self, i: int) -> str:
        """An id as text: the move it completes here when it does, else what it stands for."""
        if not self.is_terminal():
            d = self.decisions()
            prefix = tuple(self.prefix) + (i,)
            for m, code in zip(d.moves, d.codes):
                if code == prefix:
                    return self.state.move_text(m)
        return self.space.id_text(i)

    def pending_text(self) -> str:
        return " ".join(self.space.id_text(i) for i in self.prefix)

    def pending_action(self) -> Optional[int]:
        """The action index of the move under way, or None."""
        if not self.prefix:
            return None
        layout, _ = self.space._head(self.prefix[0])
        return layout.spec.index

    def pending_cells(self) -> list:
        """The cells among the ids chosen so far (each id after the head that stands for a cell)."""
        start = self.space._offsets.get("cell")
        n = self.space.game.world.ncells
        return [i - start for i in self.prefix[1:] if start is not None and start <= i < start + n]

    def observation_string(self, player: int) -> str:
        return self._with_pending(self.state.observation(player), player)

    def information_state_string(self, player: int) -> str:
        if player not in self._seen:
            self._seen[player] = self.state.information_state(player).split("\n")
        return self._with_pending("\n".join(self._seen[player]), player)

    def _with_pending(self, text: str, player: int) -> str:
        if self.prefix and not self._nature() and self.state.side == player:
            return f"{text}\nunder way: {self.pending_text()}"
        return text

    def returns(self) -> list:
        n = len(self.space.game.players)
        if not self.is_terminal():
            return [0.0] * n
        if self.payoff is not None:
            return [float(x) for x in self.payoff(self.state)]
        outcome = self.outcome()
        if self.space.game.points:  # results in points: the points are the returns (0 each when stopped)
            return [0.0] * n if outcome is None else [float(x) for x in outcome.scores]
        results = [0.5] * n if outcome is None else list(outcome.results)  # stopped at max_length: a draw
        if n == 2:
            return [2.0 * r - 1.0 for r in results]
        return [float(r) for r in results]
