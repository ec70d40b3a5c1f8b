"""Inks readable on a piece's fill: the edge around it and the pips and letters drawn on it. Shared
by every drawing of a position (render: pictures; render_places: games drawn as tables; layout: the
colours the browser's page is sent)."""

from __future__ import annotations


def luminance(colour) -> float:
    """How light a matplotlib colour is, from 0 (black) to 1 (white)."""
    from matplotlib.colors import to_rgb

    r, g, b = to_rgb(colour)
    return 0.299 * r + 0.587 * g + 0.114 * b


def edge_colour(fill) -> str:
    """The outline of a piece of this fill."""
    return "#111111" if luminance(fill) > 0.35 else "#000000"


def pip_colour(fill) -> str:
    """Pips and letters on a piece of this fill."""
    return "#222222" if luminance(fill) > 0.55 else "#ffffff"
