"""Agents at a served table: a capped budget, and their search off the request path.

An agent's search runs in a daemon thread of its own (`Thought`), on a copy of the position, so
no request waits on it while holding a worker thread or a table's lock: a view of the table asked
for meanwhile answers at once, its status `thinking`; a request to step the table waits for the
move without holding a thread (`await thought.wait()`); stopping the server releases every such
wait (`release`), and the searching threads, daemons, end with the process.

A served agent's budget per move is capped (LIMITS, in docs/howto/serve.md): a seat asking for
more is refused with the limit, before the game starts.
"""

from __future__ import annotations

import asyncio
import threading

from ..agents import parse_spec
from ..errors import GameError

# agent parameter -> (the most a served agent may ask for, what it counts)
LIMITS = {
    "time": (10.0, "seconds a move"),
    "iterations": (20_000, "playouts a move"),
    "depth": (6, "plies"),
    "rollout": (1_000, "plies a playout"),
    "worlds": (32, "worlds of hidden pieces"),
}


def check_budget(spec: str) -> None:
    """GameError when the agent `spec` asks for more than a served agent may (LIMITS)."""
    name, params = parse_spec(spec)
    for key, value in params.items():
        if key in LIMITS and value > LIMITS[key][0]:
            most, unit = LIMITS[key]
            raise GameError(f"agent {spec.strip()!r}: {key}={value:g} is over this server's limit of "
                            f"{most:g} {unit} (a served agent's budget is capped: ask for {key}={most:g} "
                            f"or less, or play it with `ziggurat play`)")


class Thought:
    """One agent's search for a move, in a daemon thread, on `state` (a copy the agent may
    change); `finish(move, error)` is called in that thread when it ends."""

    def __init__(self, agent, state, finish):
        self.done = threading.Event()
        self.lock = threading.Lock()
        self.waiters: list = []  # (event loop, future) of the requests waiting for the move
        self.played = None  # the move's text, as the table's viewer sees it, once it is played
        self.error = None  # what the search raised, for the request waiting for it
        self.thread = threading.Thread(target=self._run, args=(agent, state, finish), daemon=True,
                                       name=f"ziggurat agent {agent.spec()}")

    def start(self) -> "Thought":
        self.thread.start()
        return self

    def _run(self, agent, state, finish) -> None:
        try:
            move, error = agent.choose(state), None
        except Exception as e:  # given to the next request, which names it
            move, error = None, e
        try:
            finish(move, error)
        finally:
            self.release()

    def release(self) -> None:
        """Wake every request waiting for this move (the move is made, or the server stops)."""
        with self.lock:
            self.done.set()
            waiters, self.waiters = self.waiters, []
        for loop, future in waiters:
            loop.call_soon_threadsafe(_resolve, future)

    async def wait(self) -> None:
        """Until the move is made (or `release`), without holding a thread."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        with self.lock:
            if self.done.is_set():
                return
            self.waiters.append((loop, future))
        await future


def _resolve(future) -> None:
    if not future.done():
        future.set_result(None)


__all__ = ["LIMITS", "check_budget", "Thought"]
