"""The open table at run time: where pieces lie, what overlaps, what a point meets.

A game on the table keeps its pieces in `st.table[0]`, a tuple of entries in the order they were
placed, each `(spot << CODE_BITS) | piece code` (spots: dsl.surface). The functions here are the
table's built-ins as generated modules call them, with the table tuple, the widths and lengths of
every kind of piece (WIDTH, LENGTH: units per piece code) and plain ints, like the rest of the
generated code. All measures are whole units: a footprint is the rectangle of a piece's half
extents around its centre, which are whole because every width and length is even.

Work is kept to what a question needs: the lattice points near the pieces are enumerated disc by
disc (never a scan of the plane) and kept for the questions that follow about the same table (the
end of a turn asks it of every colour), and overlap is asked of a bucket grid over the pieces,
built once per table (the table is an immutable tuple, so it is remembered by identity).
"""

from __future__ import annotations

from math import isqrt

from ..dsl.surface import BIAS, NONE, STEPS, centre, spot

CODE_BITS = 12  # a piece code fits in 12 bits (dsl.budgets: at most 4,096 kinds of piece)
CODE_MASK = (1 << CODE_BITS) - 1
SIDES = {-1: (0, 2, 4, 6), 0: (2, 6), 4: (2, 6), 2: (0, 4), 6: (0, 4)}  # pose's direction -> the sides offered


def extents(s: int, code: int, width: tuple, length: tuple) -> tuple:
    """(cx, cy, hx, hy): a piece's centre and half extents at a spot."""
    x, y = centre(s)
    d = (s & 7) - 1
    w2, l2 = width[code] >> 1, length[code] >> 1
    if d < 0:
        return x, y, w2, w2
    return (x, y, w2, l2) if d in (0, 4) else (x, y, l2, w2)


def entry(s: int, code: int) -> int:
    return (s << CODE_BITS) | code


class Index:
    """What questions about one table need: its pieces by spot, and a bucket grid of footprints."""

    __slots__ = ("table", "codes", "boxes", "buckets", "size")

    def __init__(self, table: tuple, width: tuple, length: tuple):
        self.table = table
        self.codes = {e >> CODE_BITS: e & CODE_MASK for e in table}
        self.boxes = [extents(e >> CODE_BITS, e & CODE_MASK, width, length) for e in table]
        self.size = max(max(width, default=1), max(length, default=1), 1)  # a box spans at most 2 buckets a side
        self.buckets: dict = {}
        for i, (x, y, hx, hy) in enumerate(self.boxes):
            for bx in range((x - hx) // self.size, (x + hx) // self.size + 1):
                for by in range((y - hy) // self.size, (y + hy) // self.size + 1):
                    self.buckets.setdefault((bx, by), []).append(i)

    def overlaps(self, x: int, y: int, hx: int, hy: int) -> bool:
        """Whether a box's interior meets the interior of a piece on the table (a piece seen in
        two buckets is tested twice: cheaper than remembering it)."""
        size, boxes, buckets = self.size, self.boxes, self.buckets
        for bx in range((x - hx) // size, (x + hx) // size + 1):
            for by in range((y - hy) // size, (y + hy) // size + 1):
                for i in buckets.get((bx, by), ()):
                    ox, oy, ohx, ohy = boxes[i]
                    if abs(ox - x) < ohx + hx and abs(oy - y) < ohy + hy:
                        return True
        return False


_last: list = [None]  # the index of the table asked about last


def index(table: tuple, width: tuple, length: tuple) -> Index:
    ix = _last[0]
    if ix is None or ix.table is not table:
        ix = _last[0] = Index(table, width, length)
    return ix


# ---- the built-ins --------------------------------------------------------------------------


def _placed(table: tuple) -> tuple:
    """The spots of the pieces on the table, in the order they were placed."""
    return tuple(e >> CODE_BITS for e in table)


_codes: list = [None, {}]  # the table asked about last, and its pieces by spot


def _piece_at(table: tuple, s: int) -> int:
    if _codes[0] is not table:
        _codes[0], _codes[1] = table, {e >> CODE_BITS: e & CODE_MASK for e in table}
    code = _codes[1].get(s)
    if code is None:
        raise LookupError("piece_at(): no piece lies on that spot of the table")
    return code


def _on_table(table: tuple, s: int) -> bool:
    if _codes[0] is not table:
        _codes[0], _codes[1] = table, {e >> CODE_BITS: e & CODE_MASK for e in table}
    return s in _codes[1]


def _dist2(a: int, b: int) -> int:
    """The square of the distance between two spots' centres, in units."""
    if a == NONE or b == NONE:
        raise LookupError("distance(): one of the spots is none")
    (ax, ay), (bx, by) = centre(a), centre(b)
    return (ax - bx) ** 2 + (ay - by) ** 2


def _nearest(s: int, spots) -> int:
    """The spot of `spots` whose centre is nearest s's (the first of those equally near); none for
    no spots."""
    best, best_d = NONE, -1
    for t in spots:
        d = _dist2(s, t)
        if best_d < 0 or d < best_d:
            best, best_d = t, d
    return best


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


class TableEdge(LookupError):
    """A place past the edge of the table the engine can write (dsl.surface.BIAS units, about
    16,777 inches, from the origin either way)."""


def _within(x: int, y: int, r: int) -> None:
    if not (-BIAS <= x - r and x + r < BIAS and -BIAS <= y - r and y + r < BIAS):
        raise TableEdge("a place on the table more than 16,777 inches from the origin: the engine's table ends there")


def _disc(cx: int, cy: int, r2: int, pitch: int):
    """The standing spots on the lattice whose centre is at most sqrt(r2) from (cx, cy), column by
    column (exact: integer square roots)."""
    r = isqrt(r2)
    _within(cx, cy, r)
    for i in range(_ceil_div(cx - r, pitch), (cx + r) // pitch + 1):
        rest = r2 - (i * pitch - cx) ** 2
        if rest < 0:
            continue
        dy = isqrt(rest)  # |y - cy| <= dy exactly when (y - cy)^2 <= rest, y a whole number
        x = i * pitch
        for j in range(_ceil_div(cy - dy, pitch), (cy + dy) // pitch + 1):
            yield spot(x, j * pitch)


_near: list = [None]  # (table, (reach, pitch), the lattice points near its pieces) asked about last


def _lattice(table: tuple, width: tuple, length: tuple, pitch: int, reach: int, avoid=(), gap: int = 0) -> tuple:
    """The standing spots on the lattice within `reach` of a piece on the table (centre to
    centre), and at least `gap` from every spot of `avoid`; the origin when the table is empty.
    Each piece's disc is walked column by column, so the work is the points found."""
    if not table:
        return (spot(0, 0),)
    near = _near[0]
    if near is None or near[0] is not table or near[1] != (reach, pitch):  # one table, many questions
        points: dict = {}
        for e in table:
            points.update(dict.fromkeys(_disc(*centre(e >> CODE_BITS), reach * reach, pitch)))
        near = _near[0] = (table, (reach, pitch), points)
    if gap <= 0 or not avoid:
        return tuple(near[2])
    found = dict(near[2])
    for a in avoid:
        for s in _disc(*centre(a), gap * gap - 1, pitch):  # strictly closer than gap
            found.pop(s, None)
    return tuple(found)


def _flush(table: tuple, width: tuple, length: tuple, anchor: int, code: int, offsets: int = 3) -> tuple:
    """The lying spots for a piece of kind `code` whose base lies flush on a side of the piece at
    `anchor`, pointing straight away from it: every side of a standing piece, the two long sides
    of a lying one; along the side, aligned with its one end, centred, aligned with its other end
    (offsets 3), the two ends (2) or centred only (1); never overhanging the side."""
    codes = index(table, width, length).codes
    if anchor not in codes:
        raise LookupError("flush(): no piece lies on that spot of the table")
    x, y, hx, hy = extents(anchor, codes[anchor], width, length)
    w2, l2 = width[code] >> 1, length[code] >> 1
    out: dict = {}
    for d in SIDES[(anchor & 7) - 1]:
        sx, sy = STEPS[d]
        half = hx if sx == 0 else hy  # half the side's length
        if w2 > half:
            continue  # the base would overhang the side
        along = {1: (0,), 2: (half - w2, w2 - half), 3: (half - w2, 0, w2 - half)}[offsets]
        bx, by = x + sx * (hx + l2), y + sy * (hy + l2)  # the centre, before any offset along the side
        _within(bx, by, max(half, l2))
        for a in along:
            s = spot(bx + a, by) if sx == 0 else spot(bx, by + a)
            out[s | (d + 1)] = None
    return tuple(out)


def _overlaps(table: tuple, width: tuple, length: tuple, s: int, code: int) -> bool:
    """Whether a piece of kind `code` at spot s would overlap a piece on the table (touching is
    not overlapping)."""
    if not table:
        return False
    return index(table, width, length).overlaps(*extents(s, code, width, length))


def _hit(table: tuple, width: tuple, length: tuple, s: int, reach: int) -> int:
    """The spot of the first piece the line from the point of the lying piece at s meets within
    `reach` of the point (the line must enter a footprint's inside: running along an edge is not
    meeting it); none when it meets none, or when the piece at s stands."""
    me = next((e for e in table if e >> CODE_BITS == s), None)
    if me is None:
        raise LookupError("hit(): no piece lies on that spot of the table")
    d = (s & 7) - 1
    if d < 0:
        return NONE
    x, y, hx, hy = extents(s, me & CODE_MASK, width, length)
    sx, sy = STEPS[d]
    tx, ty = x + sx * hx, y + sy * hy  # the point
    best, best_at = NONE, reach + 1
    for e in table:
        if e == me:
            continue
        ox, oy, ohx, ohy = extents(e >> CODE_BITS, e & CODE_MASK, width, length)
        if sx == 0:
            if not abs(ox - tx) < ohx:
                continue
            near, far = (oy - ohy - ty, oy + ohy - ty) if sy > 0 else (ty - oy - ohy, ty - oy + ohy)
        else:
            if not abs(oy - ty) < ohy:
                continue
            near, far = (ox - ohx - tx, ox + ohx - tx) if sx > 0 else (tx - ox - ohx, tx - ox + ohx)
        if far <= 0:
            continue  # behind the point
        at = max(near, 0)
        if at < best_at:
            best, best_at = e >> CODE_BITS, at
    return best if best_at <= reach else NONE


GEOMETRY = {"_placed": _placed, "_piece_at": _piece_at, "_on_table": _on_table, "_dist2": _dist2,
            "_lattice": _lattice, "_nearest": _nearest, "_flush": _flush, "_overlaps": _overlaps, "_hit": _hit}
