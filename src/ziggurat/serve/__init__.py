"""`ziggurat serve`: a board in the browser, served on this machine (127.0.0.1) only.

One page (static/index.html, its script and style, shipped in the package: no CDN) talks JSON to
a small Starlette app (app.py). The app keeps the tables being played and the records being
stepped through in memory (tables.py); a view of either is the picture `ziggurat render` draws,
the legal moves with the cells each one names (clicks.py), the history and the result, all as
one seat sees them when the game hides anything. Agents and nature move one ply per request, so
the page plays a game against agents, lets two people share the screen, or watches agents play
by asking for the next ply while it shows the last.

Starlette and uvicorn are the optional extra `serve` (`pip install 'ziggurat[serve]'`).
"""

from __future__ import annotations


def create_app(ruleset: str | None = None, options: dict | None = None):
    """The web app; `ruleset` and `options` are what the page offers first (a shipped name or a
    path given on the command line, which then may also be played)."""
    from .app import create_app as make

    return make(ruleset, options)


__all__ = ["create_app"]
