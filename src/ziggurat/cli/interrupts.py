"""Ctrl-C and SIGTERM while a long command runs (`simulate`, `test`): both stop it as a
KeyboardInterrupt, `received` says which came, and the previous handlers come back afterwards.

Some libraries run callbacks where an exception is only printed as 'Exception ignored' and the
run goes on (Hypothesis's gc timing): so the signal is also remembered, `check()` raises it again
at the caller's next step, and those printouts are dropped.
"""

from __future__ import annotations

import signal
import sys
import threading

EXIT_CODES = {"Ctrl-C": 130, "SIGTERM": 143}  # 128 + the signal's number, as shells report it


class Interrupts:
    """A context manager: while inside, SIGINT and SIGTERM raise KeyboardInterrupt."""

    def __init__(self):
        self.received = None
        self.previous: dict = {}
        self.hook = None

    def check(self) -> None:
        """Raise the interrupt again if one came (and a callback swallowed it)."""
        if self.received is not None:
            raise KeyboardInterrupt

    def _handler(self, name):
        def handle(signum, frame):
            self.received = name
            raise KeyboardInterrupt

        return handle

    def _unraisable(self, info) -> None:
        if self.received is not None and issubclass(info.exc_type, KeyboardInterrupt):
            return  # check() raises the interrupt again; nothing to report
        self.hook(info)

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():  # signals go to the main thread only
            for sig, name in ((signal.SIGINT, "Ctrl-C"), (signal.SIGTERM, "SIGTERM")):
                self.previous[sig] = signal.signal(sig, self._handler(name))
        self.hook, sys.unraisablehook = sys.unraisablehook, self._unraisable
        return self

    def __exit__(self, *exc):
        for sig, handler in self.previous.items():
            signal.signal(sig, handler)
        sys.unraisablehook = self.hook
        return False
