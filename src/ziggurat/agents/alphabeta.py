"""Alpha-beta search (negamax) with iterative deepening, for two-player (and one-player) games.

Leaves are valued by the ruleset's heuristic (or mobility; see `base`), finished games by their
result, a win being worth more the sooner it comes. A move after which the same seat moves again
(an extra turn) keeps the value's sign instead of negating it. The search deepens one ply at a time
until `depth` or until `time` seconds run out, and plays the best move of the deepest search it
finished, searching that move first at the next depth. Equal moves are broken by the seeded rng.
Where nature moves (dice), a position's value is its outcomes' values weighed by their
probabilities (expectimax), each searched with a full window.

Hidden information: in a game that hides anything, the search never reads what the mover cannot
see. It runs in `worlds` determinizations (default 4; the hidden pieces dealt again at random, see
`State.determinized`) and plays the move that is best in most of them (perfect-information Monte
Carlo). Two positions that differ only in what the mover cannot see give the same move for the same
seed.

Native search (`alphabeta:backend=native`): each depth of the deepening runs whole in the native
backend (ziggurat.interpreter.native, `native/search_kernel.py`): the same negamax and the same
values, with a transposition table that orders the moves and, where no repetition or chance is in
the rules, reuses what it found at the same depth; the clock is read between slices of nodes
(slices of nodes at the rate measured so far). A position the native vectors cannot hold, or a ruleset whose
heuristic the native backend cannot write, is searched in Python; a game it cannot compile at all
is an AgentError naming what it cannot compile.
"""

from __future__ import annotations

import time as _time
from typing import Optional

from .base import WIN, Agent, AgentError, Evaluator, mover_seat, native_search_failure, value_words


class _OutOfTime(Exception):
    pass


class AlphaBetaAgent(Agent):
    """Negamax alpha-beta to `depth` plies (iterative deepening), or within `time` seconds."""

    name = "alphabeta"

    def __init__(self, seed=None, depth: int = 3, time: Optional[float] = None, worlds: int = 4,
                 backend: str = "python"):
        super().__init__(seed)
        if backend not in ("python", "native"):
            raise AgentError(f"alphabeta: backend must be python or native, not {backend!r}")
        self.backend = backend
        self._searches: dict = {}  # id(game) -> its NativeSearch, or None where it cannot search natively
        self._python_tree: dict = {}  # id(game) -> why its native search could not be built
        self._rate = 200_000.0  # native nodes per second, as last measured (the slices' sizes)
        if worlds < 1:
            raise AgentError(f"alphabeta: worlds must be at least 1, not {worlds!r}")
        self.worlds = worlds
        if depth < 1:
            raise AgentError(f"alphabeta: depth must be at least 1, not {depth!r}")
        if time is not None and not (0 < time < float("inf")):  # nan fails too
            raise AgentError(f"alphabeta: time must be positive, not {time!r}")
        self.depth, self.time = depth, time
        self._evaluators: dict = {}
        self.nodes = 0

    def spec(self) -> str:
        budget = f"alphabeta:time={self.time:g}" if self.time is not None else f"alphabeta:depth={self.depth}"
        return budget + (":backend=native" if self.backend == "native" else "")

    def choose(self, state) -> tuple:
        game = state.game
        if len(game.players) > 2:
            raise AgentError(f"alphabeta plays one- and two-player games; {game.name} has {len(game.players)} players")
        ev = self._evaluators.get(id(game))
        if ev is None:
            ev = self._evaluators[id(game)] = Evaluator(game)
        moves = list(game.legal(state))
        if len(moves) == 1:
            self.reason = "the only legal move"
            return moves[0]
        if self.backend == "native":
            self._native_search(game)  # compiled (or loaded) before the clock starts
        deadline = None if self.time is None else _time.perf_counter() + self.time
        if not game.has_secrets or state.is_chance:  # nature's draws are not the mover's to guess
            move = self._deepen(state.copy(), moves, ev, deadline, source=state)
        else:
            move = self._vote(state, moves, ev, deadline)
        self.reason += self.fallback_words(game)
        return move

    def _vote(self, state, moves, ev, deadline) -> tuple:
        """Hidden information: the search never sees what the mover cannot. It searches `worlds`
        determinizations (`State.determinized`: the pieces hidden from the mover dealt again) and
        plays the move best in most of them (a share of a vote each when several tie)."""
        votes = dict.fromkeys(moves, 0.0)
        for k in range(self.worlds):
            world = state.determinized(state.side, self.rng)
            until = (None if deadline is None
                     else _time.perf_counter() + (deadline - _time.perf_counter()) / (self.worlds - k))
            best = self._deepen(world, list(moves), ev, until, every=True)
            for m in best:
                votes[m] += 1 / len(best)
        top = max(votes.values())
        each = f"to depth {self.depth}" if self.time is None else f"for a share of {self.time:g} s"
        self.reason = (f"the best in most of {self.worlds} worlds of hidden pieces dealt at random "
                       f"({top:g} of {self.worlds}), each searched {each}")
        return self.rng.choice([m for m in moves if votes[m] == top])

    def _deepen(self, st, moves, ev, deadline, every: bool = False, source=None):
        """Iterative deepening from `st` (changed and restored): the move to play (or, with
        `every`, all the moves tied best at the deepest search finished). `source`: the state st
        copies, whose move stack holds its history (the native search reads it)."""
        self.rng.shuffle(moves)
        max_depth = self.depth if self.time is None else 64
        best_move, best = moves[0], [moves[0]]
        self.reason = "out of time before one ply was searched"
        search = self._native_search(st.game) if self.backend == "native" else None
        for depth in range(1, max_depth + 1):
            try:
                found = None
                if search is not None:
                    found = self._root_native(search, source if source is not None else st, moves, depth, deadline)
                    if found is None:  # a position the native vectors cannot hold: Python from here on
                        search = None
                value, best = found if found is not None else self._root(st, ev, moves, depth, deadline)
            except _OutOfTime:
                break
            self.reason = f"searched {depth} pl{'y' if depth == 1 else 'ies'} deep: {value_words(value, depth)}"
            best_move = self.rng.choice(best)
            moves.remove(best_move)
            moves.insert(0, best_move)  # search the best move first next time: more cut-offs
            if value >= WIN - depth:  # a forced win found: no need to look deeper
                break
        return best if every else best_move

    fallback = "the Python search plays"

    def asks_native(self) -> bool:
        return self.backend == "native"

    def _native_search(self, game):
        """The game's native search (NativeSearch), or None where the native backend compiles the
        game but not its search; AgentError where it cannot compile the game."""
        if id(game) not in self._searches:
            from ..errors import Unsupported
            from ..interpreter.native import native
            from ..interpreter.native import NativeSearch

            try:
                fast = native(game, ())
            except Unsupported as why:
                raise AgentError(f"alphabeta:backend=native: {why.line().replace('; using Python', '')}") from None
            from numba.core.errors import NumbaError

            try:
                if game.points:  # the native negamax values wins and losses, not points: Python's searches
                    raise Unsupported("results in points")
                search = NativeSearch(fast)
                start = game.new()
                moves = start.moves() if start is not None and not start.is_chance else []
                if moves:  # compiled (or loaded) now, not in a move's time
                    search.alphabeta(start, moves, 1, WIN).run()
            except (Unsupported, NumbaError) as why:
                search = None
                self._python_tree[id(game)] = native_search_failure(why)
            self._searches[id(game)] = search
        return self._searches[id(game)]

    def _root_native(self, search, st, moves, depth, deadline) -> Optional[tuple]:
        """(best value, the moves tied best) of a native search to `depth`; None where the native
        vectors cannot hold a position met; _OutOfTime past the deadline (the search runs in slices
        of about 5 ms of nodes, at the rate measured so far, between looks at the clock)."""
        from numba.core.errors import NumbaError

        from ..errors import Unsupported

        run = None
        try:
            run = search.alphabeta(st, moves, depth, WIN)
            if deadline is None:
                run.run()
            else:
                while True:
                    began, nodes = _time.perf_counter(), run.nodes
                    if run.run(max(64, int(self._rate * 0.005))):
                        break
                    now = _time.perf_counter()
                    if now - began > 0.001:
                        self._rate = (run.nodes - nodes) / (now - began)
                    if now >= deadline:
                        raise _OutOfTime
        except (Unsupported, NumbaError):
            return None
        finally:
            if run is not None:
                self.nodes += run.nodes
        values = run.result()
        top = max(values)
        return top, [m for m, v in zip(moves, values) if v == top]

    def _root(self, st, ev, moves, depth, deadline):
        me = mover_seat(st)
        alpha, best_value, best = -2 * WIN, -2 * WIN, []
        for m in moves:
            v = self._after(st, m, me, ev, depth - 1, 1, alpha - 1, 2 * WIN, deadline)
            if v > best_value:
                best_value, best = v, [m]
            elif v == best_value:
                best.append(m)
            alpha = max(alpha, v)
        return best_value, best

    def _after(self, st, m, me, ev, depth, ply, alpha, beta, deadline) -> float:
        """The value for seat `me` of the position after move m, within (alpha, beta): negated
        when the other seat moves next, kept when `me` moves again (an extra turn)."""
        game = st.game
        game.apply(st, m)
        try:
            if mover_seat(st) == me:
                return self._negamax(st, ev, depth, ply, alpha, beta, deadline)
            return -self._negamax(st, ev, depth, ply, -beta, -alpha, deadline)
        finally:
            game.undo(st)

    def _negamax(self, st, ev, depth, ply, alpha, beta, deadline) -> float:
        """The value of `st` for the seat to move, within (alpha, beta)."""
        self.nodes += 1
        if deadline is not None and (self.nodes & 255) == 0 and _time.perf_counter() >= deadline:
            raise _OutOfTime
        game = st.game
        moves = game.legal(st) if depth > 0 or game.outcome_reads_moves else ()  # a leaf lists none if it can
        me = mover_seat(st)
        raw = game.outcome(st, moves)
        if raw is not None:
            return ev.terminal(st, raw, me, ply)
        if depth <= 0:
            return ev.value(st, me)
        chance = game.chance_outcomes(st, moves)
        if chance is not None:  # nature: the outcomes' values weighed by their probabilities
            return sum(p * self._after(st, m, me, ev, depth - 1, ply + 1, -2 * WIN, 2 * WIN, deadline)
                       for m, p in chance)
        best = -2 * WIN
        for m in moves:
            v = self._after(st, m, me, ev, depth - 1, ply + 1, alpha, beta, deadline)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best
