"""Why a spot is not one of the table's spots: the reasons a refused placement is given.

A choice whose domain is made by `lattice(...)` or `flush(...)` is explained by the table itself
when the rules give no `else` text (python/explain.py): these functions take the same arguments
as the built-ins in geometry.py, and the refused spot, and say in words what the spot breaks:
off the lattice, too far from every piece, too near a piece it must keep away from, not lying
flush against a side. They are called only for a refused move, so they may take their time.
"""

from __future__ import annotations

from math import isqrt

from ..dsl.surface import UNITS_PER_INCH, centre, inches, spot, spot_text
from .geometry import CODE_BITS, _flush


def _about(d2: int) -> str:
    """A distance given by its square, in inches, to the hundredth (exact when it is whole)."""
    d = isqrt(d2)
    if d * d == d2:
        return inches(d) + " in"
    return f"{(d2 ** 0.5) / UNITS_PER_INCH:.2f}".rstrip("0").rstrip(".") + " in"


def _d2(a: tuple, b: tuple) -> int:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2


def lattice_reason(table: tuple, pitch: int, s: int, reach: int, avoid=(), gap: int = 0) -> str:
    """Why the standing spot s is not in `lattice(reach, avoid, gap)` on this table."""
    if s & 7:
        return f"a piece placed here stands: write the spot without a direction, as {spot_text(s & ~7)}"
    x, y = centre(s)
    if x % pitch or y % pitch:
        near = spot(round(x / pitch) * pitch, round(y / pitch) * pitch)
        return (f"off the lattice: a standing piece's centre is on the {inches(pitch)} in lattice "
                f"(the nearest point is {spot_text(near)})")
    if not table:
        return "the first piece goes to the origin, 0,0"
    spots = [e >> CODE_BITS for e in table]
    nearest = min(spots, key=lambda t: _d2(centre(t), (x, y)))
    d2 = _d2(centre(nearest), (x, y))
    if d2 > reach * reach:
        return (f"too far from every piece: the nearest, at {spot_text(nearest)}, is {_about(d2)} away "
                f"(at most {inches(reach)} in)")
    close = [a for a in avoid if _d2(centre(a), (x, y)) < gap * gap]
    if close:
        a = min(close, key=lambda t: _d2(centre(t), (x, y)))
        return (f"too near the piece at {spot_text(a)}: {_about(_d2(centre(a), (x, y)))} away, "
                f"and it must be at least {inches(gap)} in from it")
    return "not a spot on the lattice here"


def flush_reason(table: tuple, width: tuple, length: tuple, s: int, places) -> str:
    """Why the spot s is none of `flush(a, code, offsets)` for the (a, code, offsets) of `places`
    (one for `flush(...)` itself, one per anchor for a list of them)."""
    places = tuple(places)
    if not places:
        return "there is no piece here for it to lie against"
    offered = [t for a, code, n in places for t in _flush(table, width, length, a, code, n)]
    if not offered:
        return "no side of the pieces it may lie against has room for its base (it would overhang)"
    if not s & 7:
        return ("a piece placed here lies flush against a side of a piece, pointing away: write the way "
                f"it points, as {spot_text(offered[0])}")
    if any(n < 3 and s in _flush(table, width, length, a, code, 3) for a, code, n in places):
        return "flush against a side, but not at one of the places along it allowed here"
    at = centre(s)
    a = min((a for a, _, _ in places), key=lambda t: _d2(centre(t), at))
    return (f"not lying flush against a side of a piece it may lie against, pointing straight away "
            f"(the nearest of them is at {spot_text(a)})")


REASONS = {"_lattice_reason": lattice_reason, "_flush_reason": flush_reason}
