"""Monte Carlo tree search (UCT) for any number of players.

Each node keeps the visits and, per seat, the sum of the results of the playouts through it; a
playout's result vector (1 win, 0.5 draw, 0 loss per seat) is added all the way back to the root,
and a node's seat to move picks the child with the best UCB1 score for itself. A playout longer than
`rollout` plies is scored as a draw, or, when the ruleset declares a heuristic, as 0.75 for the
seats it puts ahead and 0.25 for the others (less than a real win, which is 1).

Chance: a position where chance decides (dice, a shuffle) gets a `ChanceNode`, whose children are
sampled by their probabilities instead of chosen by UCB1 (`Game.chance_outcomes`); playouts draw
nature's moves by their probabilities too. `choose` is never asked at a chance node: whoever runs
the game lets nature move there (`Game.sample_chance`).

Hidden information: in a game that hides anything, the search runs in `worlds` determinizations of
the position as the mover sees it (`State.determinized`: the pieces it cannot see dealt again at
random, the same way whatever they really are), so it never reads what its player cannot see.
A determinization agrees with what the mover sees now, not with all it remembers.

Native search (`mcts:rollouts=native`): the whole search runs in the native backend
(ziggurat.interpreter.native: the tree, its playouts and their scoring, in compiled code;
`native/search_kernel.py`), seeded from the agent's generator, with its own random moves
(SplitMix64), in slices of iterations between which the clock is read; it differs from the Python
tree in one way only: nature's outcomes are drawn by their probabilities from the first visit on.
With hidden information it is information-set MCTS (`native/search_ismcts.py`): one tree for what
the mover knows, the pieces it cannot see dealt anew at every iteration from them as a multiset (so
it never reads where they really are; `worlds` is the Python search's). A position the native
vectors cannot hold, or a ruleset whose heuristic the native backend cannot write, is searched by
the Python tree (its playouts native). The playouts are one interface with two implementations
(`rollouts.PythonRollouts`, `rollouts.NativeRollouts`). A game the native backend cannot compile is
an AgentError naming what it cannot compile.
"""

from __future__ import annotations

import math
import time
from typing import Optional

from .base import Agent, AgentError, Evaluator, mover_seat, native_search_failure
from .rollouts import NativeRollouts, PythonRollouts, RolloutEvaluator


class Node:
    """A decision node: the seat to move chooses among the children."""

    __slots__ = ("move", "parent", "children", "untried", "visits", "totals", "seat")

    def __init__(self, move, parent, seat: int, moves: list, nseats: int):
        self.move = move
        self.parent = parent
        self.children: list = []
        self.untried = moves
        self.visits = 0
        self.totals = [0.0] * nseats
        self.seat = seat


class ChanceNode(Node):
    """A chance node: `weights[i]` is the probability of `untried`/`children` outcome i."""

    __slots__ = ("weights",)


def _chance_outcomes(state, moves) -> Optional[list]:
    """[(outcome, probability)] when chance moves next, else None."""
    return state.game.chance_outcomes(state, moves) if moves else None


class MCTSAgent(Agent):
    """UCT with a budget of `iterations` playouts per move, or of `time` seconds when given."""

    name = "mcts"

    def __init__(self, seed=None, iterations: int = 200, time: Optional[float] = None,
                 c: float = 1.4, rollout: int = 200, worlds: int = 8, rollouts: str = "python",
                 rollout_policy: str = "whole"):
        super().__init__(seed)
        if iterations < 1:
            raise AgentError(f"mcts: iterations must be at least 1, not {iterations!r}")
        if time is not None and not (0 < time < float("inf")):  # nan fails too
            raise AgentError(f"mcts: time must be positive, not {time!r}")
        if rollout < 1:
            raise AgentError(f"mcts: rollout must be at least 1, not {rollout!r}")
        if worlds < 1:
            raise AgentError(f"mcts: worlds must be at least 1, not {worlds!r}")
        if rollouts not in ("python", "native"):
            raise AgentError(f"mcts: rollouts must be python or native, not {rollouts!r}")
        if rollout_policy not in ("whole", "parts"):
            raise AgentError(f"mcts: rollout_policy must be whole or parts, not {rollout_policy!r}")
        if rollout_policy == "parts" and rollouts != "native":
            raise AgentError("mcts: rollout_policy=parts is a policy of native playouts: add rollouts=native")
        self.rollouts, self.rollout_policy = rollouts, rollout_policy
        self._native: dict = {}  # id(game) -> its NativeGame
        self._searches: dict = {}  # id(game) -> its NativeSearch, or None where it cannot search natively
        self._python_tree: dict = {}  # id(game) -> why its native search could not be built
        self._playouts: dict = {}  # id(game) -> its RolloutEvaluator
        self.iterations, self.time, self.c, self.rollout = iterations, time, c, rollout
        self.worlds = worlds
        self._evaluators: dict = {}

    def spec(self) -> str:
        budget = f"time={self.time:g}" if self.time is not None else f"iterations={self.iterations}"
        return (f"mcts:{budget}" + (":rollouts=native" if self.rollouts == "native" else "")
                + (f":rollout_policy={self.rollout_policy}" if self.rollout_policy != "whole" else ""))

    def _new_node(self, st, move, parent, nseats):
        moves = list(st.game.legal(st))
        if st.game.outcome(st, moves) is not None:
            moves = []
        chance = _chance_outcomes(st, moves)
        if chance is not None:
            node = ChanceNode(move, parent, -1, [o for o, _ in chance], nseats)
            node.weights = [w for _, w in chance]
            return node
        return Node(move, parent, mover_seat(st), moves, nseats)

    def choose(self, state) -> tuple:
        game = state.game
        if self.rollout_policy == "parts" and game.whole_turns is not None:  # native/turns.py draws whole turns
            raise AgentError("mcts: rollout_policy=parts draws a move's choices one at a time; this game is "
                             "played in whole turns, each drawn among those listed (rollout_policy=whole)")
        root_moves = game.legal(state)
        if len(root_moves) == 1:
            self.reason = "the only legal move"
            return root_moves[0]
        ev = self._evaluators.get(id(game))
        if ev is None:
            ev = self._evaluators[id(game)] = Evaluator(game)
        search = self._native_search(game) if self.rollouts == "native" else None  # compiled before the clock
        deadline = None if self.time is None else time.perf_counter() + self.time
        if not game.has_secrets:
            visits = self._native_visits(search, state, root_moves, self.iterations, deadline)
            if visits is not None:
                best = max(visits.values())
                self.reason = (f"the most searched of {len(visits)} moves: {best} of {sum(visits.values())} "
                               f"playouts (native search)")
                return self.rng.choice([m for m in root_moves if visits.get(m, 0) == best])
            root = self._search(state.copy(), root_moves, ev, self.iterations, deadline)
            best = max(ch.visits for ch in root.children)
            self.reason = (f"the most searched of {len(root.children)} moves: {best} of {root.visits} playouts"
                           + self.fallback_words(game))
            return self.rng.choice([ch.move for ch in root.children if ch.visits == best])
        visits = self._native_visits(search, state, root_moves, self.iterations, deadline, informed=True)
        if visits is not None:
            best = max(visits.values())
            self.reason = (f"the most searched of {len(root_moves)} moves over hidden cards dealt anew each "
                           f"playout: {best} of {sum(visits.values())} playouts (native information-set search)")
            return self.rng.choice([m for m in root_moves if visits.get(m, 0) == best])
        visits = self._search_worlds(state, ev, deadline)
        best = max(visits.get(m, 0) for m in root_moves)
        self.reason = (f"the most searched of {len(root_moves)} moves over sampled hidden cards: {best} of "
                       f"{sum(visits.values())} visits" + self.fallback_words(game))
        return self.rng.choice([m for m in root_moves if visits.get(m, 0) == best])

    def _search_worlds(self, state, ev, deadline) -> dict:
        """Hidden information: the search never sees what the mover cannot. It runs in `worlds`
        determinizations (the pieces hidden from the mover dealt again at random among the zones
        they are in) with a share of the budget each, and adds up the visits of the mover's moves."""
        visits: dict = {}
        worlds = max(1, min(self.worlds, self.iterations))
        for k in range(worlds):
            world = state.determinized(state.side, self.rng)
            share = self.iterations // worlds + (1 if k < self.iterations % worlds else 0)
            until = None if deadline is None else time.perf_counter() + (deadline - time.perf_counter()) / (worlds - k)
            root = self._search(world, world.game.legal(world), ev, share, until)  # its own moves
            for ch in root.children:
                visits[ch.move] = visits.get(ch.move, 0) + ch.visits
        return visits

    def _search(self, st, root_moves, ev, iterations: int, deadline) -> Node:
        """UCT from `st` (a copy, changed and restored) for `iterations` playouts or until the
        deadline; the root, whose children hold the visits of each move."""
        game = st.game
        apply, undo = game.apply, game.undo
        nseats = len(game.players)
        rng = self.rng
        playouts = self._rollout_evaluator(game, ev)
        root = Node(None, None, mover_seat(st), list(root_moves), nseats)
        rng.shuffle(root.untried)
        log_c = self.c
        points, lo, hi = bool(game.points), 0.0, 0.0  # results in points: exploration scaled to their spread
        done = 0
        while True:
            if deadline is not None:
                if done and time.perf_counter() >= deadline:
                    break
            elif done >= iterations:
                break
            done += 1
            node, depth = root, 0
            # selection
            while not node.untried and node.children:
                if isinstance(node, ChanceNode):
                    node = rng.choices(node.children, weights=node.weights)[0]
                else:
                    seat, logn = node.seat, math.log(node.visits)
                    best, best_score = None, -math.inf
                    for ch in node.children:
                        score = ch.totals[seat] / ch.visits + log_c * math.sqrt(logn / ch.visits)
                        if score > best_score:
                            best, best_score = ch, score
                    node = best
                apply(st, node.move)
                depth += 1
            # expansion
            if node.untried:
                m = node.untried.pop()
                apply(st, m)
                depth += 1
                child = self._new_node(st, m, node, nseats)
                rng.shuffle(child.untried)
                node.children.append(child)
                node = child
            # simulation
            result = playouts.evaluate(st)
            if points:
                lo, hi = min(lo, *result), max(hi, *result)
                log_c = self.c * max(1.0, hi - lo)
            for _ in range(depth):
                undo(st)
            # backpropagation
            while node is not None:
                node.visits += 1
                totals = node.totals
                for i in range(nseats):
                    totals[i] += result[i]
                node = node.parent
        return root

    def _rollout_evaluator(self, game, ev) -> RolloutEvaluator:
        playouts = self._playouts.get(id(game))
        if playouts is None:
            playouts = PythonRollouts(game, ev, self.rollout, self.rng)
            if self.rollouts == "native":
                playouts = NativeRollouts(self._fast(game), ev, self.rollout, self.rng, playouts,
                                          self.rollout_policy == "parts")
            self._playouts[id(game)] = playouts
        return playouts

    def _fast(self, game):
        """The game's native functions (compiled once per process); AgentError when it cannot be."""
        fast = self._native.get(id(game))
        if fast is None:
            from ..errors import Unsupported
            from ..interpreter.native import native

            try:
                fast = self._native[id(game)] = native(game, ("playout",))
            except Unsupported as why:
                raise AgentError(f"mcts:rollouts=native: {why.line().replace('; using Python', '')}") from None
        return fast

    fallback = "the Python tree searches, its playouts native"

    def asks_native(self) -> bool:
        return self.rollouts == "native"

    def _native_search(self, game):
        """The game's native search (NativeSearch), or None where the native backend compiles the
        game but not its search (its heuristic, say): then the Python tree, with native playouts."""
        if id(game) not in self._searches:
            from ..errors import Unsupported
            from ..interpreter.native import NativeSearch

            fast = self._fast(game)  # an AgentError where the backend cannot compile the game (no Numba, ...)
            from numba.core.errors import NumbaError

            try:
                search = NativeSearch(fast)
                start = game.new()
                if start is not None and start.moves():  # compiled (or loaded) now, not in a move's time
                    (search.ismcts if game.has_secrets else search.mcts)(start, self.c, 1, 0, 1).run(1)
            except (Unsupported, NumbaError) as why:
                search = None
                self._python_tree[id(game)] = native_search_failure(why)
            self._searches[id(game)] = search
        return self._searches[id(game)]

    def _spread(self, state) -> float:
        """How far apart the points of 32 native playouts from `state` fall (from a world the
        mover cannot tell from it, where pieces are hidden), 1 at least: the native tree's
        exploration is scaled by it in a game of points, as the Python tree's is as it goes."""
        fast, st = self._fast(state.game), state
        if state.game.has_secrets:
            st = state.determinized(state.side, self.rng)
        lo = hi = 0.0
        for _ in range(32):
            run = fast.playout(st, self.rng.getrandbits(64), self.rollout, history=False)
            if run.scores:
                lo, hi = min(lo, *run.scores), max(hi, *run.scores)
        return max(1.0, hi - lo)

    def _native_visits(self, search, state, root_moves, iterations: int, deadline,
                       informed: bool = False) -> Optional[dict]:
        """{move: visits} of a native search from `state` (`iterations`, or until the deadline):
        UCT, or with `informed` information-set MCTS for the mover (hidden pieces dealt anew each
        iteration); None without a native search or where its vectors cannot hold a position met
        (the Python tree searches this one)."""
        if search is None:
            return None
        from numba.core.errors import NumbaError

        from ..errors import Unsupported

        try:
            make = search.ismcts if informed else search.mcts
            c = self.c * self._spread(state) if state.game.points else self.c
            tree = make(state, c, self.rollout, self.rng.getrandbits(64), iterations,
                        self.rollout_policy == "parts")
            if deadline is None:
                tree.run(iterations)
            else:
                n = 16
                while True:  # slices of about 10 ms (less near the deadline) between looks at the clock
                    began = time.perf_counter()
                    tree.run(n)
                    now = time.perf_counter()
                    left = deadline - now
                    if left <= 0:
                        break
                    n = max(1, min(1 << 16, int(n / max(now - began, 1e-6) * min(left, 0.01))))
        except (Unsupported, NumbaError):
            return None
        visits = {m: v for m, v, _ in tree.children()}
        if not visits or not set(visits) <= set(map(tuple, root_moves)):  # never expected: the backends agree
            return None
        return visits
