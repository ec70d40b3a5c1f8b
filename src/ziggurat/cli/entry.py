"""The console script: `ziggurat` starts here, so that Ctrl-C is one line and exit 130 from the
first moment. Importing the command line (click, rich, the commands) takes a tenth of a second or
more; a Ctrl-C then comes before `main.py`'s handlers exist, and Python would print a traceback."""

from __future__ import annotations

import sys

#: The exit status of a command stopped by Ctrl-C (128 + SIGINT): `main.EXIT_INTERRUPTED`, written
#: here too since this module may not import main before its handler is in place.
EXIT_INTERRUPTED = 130


def main(argv=None):
    """Import the command line, then run it; Ctrl-C during the import stops as it does later."""
    try:
        from .main import main as run
    except KeyboardInterrupt:
        sys.stderr.write("interrupted (Ctrl-C)\n")
        sys.exit(EXIT_INTERRUPTED)
    return run(argv)
