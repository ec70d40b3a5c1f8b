"""When the language server checks a document: once its edits pause, off the event loop, and only
for the text the editor holds when the check ends.

An editor sends a change per keystroke, and checking a large ruleset takes tenths of a second:
checked one by one, 30 quick edits kept the server busy for seconds after the typing stopped. So a
change (re)starts a short wait for its document (DELAY); when it runs out, the text of that moment
is checked in a worker thread while the server goes on reading the editor's messages (completion
is answered meanwhile). A document has one check at a time; a check whose document has changed
since it began publishes nothing, and the newer text is checked next.

The clock and the worker are given (an asyncio loop and a thread pool in the server), so a test
can drive them by hand.
"""

from __future__ import annotations

from typing import Callable, Optional

DELAY = 0.2  # seconds without a change before a document is checked


class CheckSchedule:
    """Debounced, one-at-a-time checks of documents by URI.

    - `snapshot(uri)`: (version, what to check) of the document now, or None when it is closed;
    - `check(what)`: the result (run by the pool, off the loop);
    - `publish(uri, version, result)`: called on the loop, only while `version` is current;
    - `clock`: `call_later(delay, fn, *args)` and `call_soon_threadsafe(fn, *args)`, as an asyncio loop;
    - `pool`: `submit(fn, *args)` -> a concurrent.futures.Future.
    """

    def __init__(self, snapshot: Callable, check: Callable, publish: Callable, clock, pool, delay: float = DELAY):
        self.snapshot, self.check, self.publish = snapshot, check, publish
        self.clock, self.pool, self.delay = clock, pool, delay
        self.timers: dict = {}  # uri -> the pending wait
        self.running: set = set()  # uris with a check under way
        self.again: set = set()  # uris whose wait ran out while their check was under way
        self.started = 0  # checks begun (for tests and logs)

    def changed(self, uri: str, delay: Optional[float] = None) -> None:
        """The document changed: check it once `delay` (DELAY) passes with no other change."""
        timer = self.timers.pop(uri, None)
        if timer is not None:
            timer.cancel()
        self.timers[uri] = self.clock.call_later(self.delay if delay is None else delay, self._due, uri)

    def closed(self, uri: str) -> None:
        timer = self.timers.pop(uri, None)
        if timer is not None:
            timer.cancel()
        self.again.discard(uri)

    def _due(self, uri: str) -> None:
        self.timers.pop(uri, None)
        if uri in self.running:
            self.again.add(uri)  # checked when the running check ends
            return
        now = self.snapshot(uri)
        if now is None:
            return
        version, what = now
        self.running.add(uri)
        self.started += 1
        future = self.pool.submit(self.check, what)
        future.add_done_callback(lambda f: self.clock.call_soon_threadsafe(self._done, uri, version, f))

    def _done(self, uri: str, version, future) -> None:
        self.running.discard(uri)
        now = self.snapshot(uri)
        try:
            if now is not None and now[0] == version:
                self.publish(uri, version, future.result())
        finally:
            if uri in self.again:
                self.again.discard(uri)
                if uri not in self.timers:  # else the pending wait checks it
                    self._due(uri)
