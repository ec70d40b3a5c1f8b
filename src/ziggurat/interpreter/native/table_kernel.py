"""The open table's built-ins, compiled: what `interpreter/geometry.py` is to the Python backend,
over the table region of the position vector (`layout`: TBL holds the count, then a spot and a
piece code an entry, in placing order).

Only a module of a game on the table holds this part (`table.table_kernel_text`, appended after
the kernel). Every answer is the Python backend's, in the same order: the lattice points disc by
disc, column by column (a point kept where it is first seen), less those strictly nearer than the
gap to a spot to avoid; the flush places side by side, end, middle, other end; the first piece
a point meets. All of it exact, in whole units: an integer square root, never a float. What the
vector cannot hold (a table past TCAP, more lattice points than a buffer holds) sets the OVER
flag (1): the loop stops and Python runs the position (a question about a piece the table could
not hold, asked before the loop sees the flag, is answered with none). A question Python answers
with an error (a spot where no piece lies, a place past the engine's table) raises one here too.
The position's hash (`hash_state`, defined again here) covers the table's slots as well.
"""

import numpy as np

from ziggurat.interpreter.native.numbacache import njit

# The generated part's and kernel.py's names, declared for linters (placeholders here).
OVER = TBL = TCAP = PITCH = 0
TWIDTH = TLENGTH = ZK = np.zeros(1, np.int64)


def hash_state(s):
    return 0


# ---- kernel: from here on, the same in every native module ----

kernel_hash_state = hash_state  # kernel.py's, of everything but the table


@njit(cache=True)  # type: ignore[no-redef]  # kernel.py's name, defined again
def hash_state(s):  # noqa: F811 (rebound: what every function of the module calls)
    """The position's hash (kernel.py's), the table's pieces too: two positions that differ only
    in where the pieces lie are told apart (alpha-beta's transposition table reads it)."""
    h = np.uint64(kernel_hash_state(s))
    for i in range(TBL, TBL + 1 + 2 * s[TBL]):
        h += np.uint64(s[i] + 1) * ZK[i]
    return np.int64(h)


TB_BIAS = 1 << 25  # dsl.surface.BIAS: coordinates from -TB_BIAS to TB_BIAS - 1 units
TB_YMASK = (1 << 26) - 1


@njit(cache=True, inline="always", internal=True)
def tb_x(sp):
    return (sp >> 29) - TB_BIAS


@njit(cache=True, inline="always", internal=True)
def tb_y(sp):
    return ((sp >> 3) & TB_YMASK) - TB_BIAS


@njit(cache=True, inline="always", internal=True)
def tb_spot(x, y, pose):
    return (((x + TB_BIAS) << 26) | (y + TB_BIAS)) << 3 | pose


@njit(cache=True, inline="always", internal=True)
def tb_half(sp, code, across):
    """Half the extent of a piece of kind `code` at spot sp across x (`across` 0) or y (1)."""
    w2, l2 = TWIDTH[code] >> 1, TLENGTH[code] >> 1
    d = (sp & 7) - 1
    if d < 0:
        return w2
    if d == 0 or d == 4:  # lying north or south: its length along y
        return w2 if across == 0 else l2
    return l2 if across == 0 else w2


@njit(cache=True, internal=True)
def tb_within(x, y, r):
    if not (-TB_BIAS <= x - r and x + r < TB_BIAS and -TB_BIAS <= y - r and y + r < TB_BIAS):
        raise LookupError("a place on the table more than 16,777 inches from the origin: the engine's table ends there")


@njit(cache=True, internal=True)
def tb_isqrt(n):
    """The integer square root of n >= 0 (Newton's, from a power of two above it)."""
    if n <= 0:
        return 0
    b, t = 0, n
    while t > 0:
        t >>= 1
        b += 1
    x = np.int64(1) << ((b + 1) // 2)
    while True:
        y = (x + n // x) >> 1
        if y >= x:
            return x
        x = y


@njit(cache=True, internal=True)
def tb_find(s, sp):
    """The index of the last entry at spot sp (as geometry's spot -> piece dict keeps it); -1."""
    for i in range(s[TBL] - 1, -1, -1):
        if s[TBL + 1 + 2 * i] == sp:
            return i
    return -1


@njit(cache=True, internal=True)
def tb_piece_at(s, sp):
    i = tb_find(s, sp)
    if i < 0:
        if s[OVER] != 0:  # the loop stops: a piece the table could not hold is not asked for
            return 0
        raise LookupError("piece_at(): no piece lies on that spot of the table")
    return s[TBL + 2 + 2 * i]


@njit(cache=True, internal=True)
def tb_on_table(s, sp):
    return tb_find(s, sp) >= 0


@njit(cache=True, internal=True)
def tb_dist2(a, b):
    if a == -1 or b == -1:
        raise LookupError("distance(): one of the spots is none")
    dx, dy = tb_x(a) - tb_x(b), tb_y(a) - tb_y(b)
    return dx * dx + dy * dy


@njit(cache=True, internal=True)
def tb_nearest(sp, spots, n):
    best, best_d = -1, -1
    for i in range(n):
        d = tb_dist2(sp, spots[i])
        if best_d < 0 or d < best_d:
            best, best_d = spots[i], d
    return best


@njit(cache=True, internal=True)
def tb_put(s, sp, code):
    """A piece onto the table, last in placing order (OVER 1 past TCAP)."""
    n = s[TBL]
    if n >= TCAP:
        s[OVER] = 1
        return
    s[TBL + 1 + 2 * n] = sp
    s[TBL + 2 + 2 * n] = code
    s[TBL] = n + 1


@njit(cache=True, internal=True)
def tb_overlaps(s, sp, code):
    """Whether a piece of kind `code` at sp would overlap one on the table (touching is not)."""
    x, y, hx, hy = tb_x(sp), tb_y(sp), tb_half(sp, code, 0), tb_half(sp, code, 1)
    for i in range(s[TBL]):
        o, oc = s[TBL + 1 + 2 * i], s[TBL + 2 + 2 * i]
        if abs(tb_x(o) - x) < tb_half(o, oc, 0) + hx and abs(tb_y(o) - y) < tb_half(o, oc, 1) + hy:
            return True
    return False


@njit(cache=True, internal=True)
def tb_hit(s, sp, reach):
    """The spot of the first piece the line from the point of the lying piece at sp meets
    within `reach` of the point; -1 (none) for none, or when the piece at sp stands."""
    me = -1
    for i in range(s[TBL]):
        if s[TBL + 1 + 2 * i] == sp:
            me = i
            break
    if me < 0:
        if s[OVER] != 0:  # the loop stops: a piece the table could not hold is not asked for
            return -1
        raise LookupError("hit(): no piece lies on that spot of the table")
    d = (sp & 7) - 1
    if d < 0:
        return -1
    mc = s[TBL + 2 + 2 * me]
    sx = 1 if d == 2 else -1 if d == 6 else 0
    sy = 1 if d == 0 else -1 if d == 4 else 0
    tx, ty = tb_x(sp) + sx * tb_half(sp, mc, 0), tb_y(sp) + sy * tb_half(sp, mc, 1)
    best, best_at = -1, reach + 1
    for i in range(s[TBL]):
        o, oc = s[TBL + 1 + 2 * i], s[TBL + 2 + 2 * i]
        if o == sp and oc == mc:
            continue
        ox, oy, ohx, ohy = tb_x(o), tb_y(o), tb_half(o, oc, 0), tb_half(o, oc, 1)
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
            best, best_at = o, at
    return best if best_at <= reach else -1


@njit(cache=True, internal=True)
def tb_flush(s, anchor, code, offsets, out):
    """The lying spots for a piece of kind `code` flush on a side of the piece at `anchor`, into
    out (at most 12); their count (geometry._flush, in its order)."""
    i = tb_find(s, anchor)
    if i < 0:
        if s[OVER] != 0:  # the loop stops: a piece the table could not hold is not asked for
            return 0
        raise LookupError("flush(): no piece lies on that spot of the table")
    if offsets < 1 or offsets > 3:
        raise LookupError("flush(): the offsets along a side are 1, 2 or 3")
    ac = s[TBL + 2 + 2 * i]
    x, y, hx, hy = tb_x(anchor), tb_y(anchor), tb_half(anchor, ac, 0), tb_half(anchor, ac, 1)
    w2, l2 = TWIDTH[code] >> 1, TLENGTH[code] >> 1
    pose = (anchor & 7) - 1
    n = 0
    along = np.empty(3, np.int64)
    for k in range(4):
        d = 2 * k
        if pose >= 0 and (d == pose or d == (pose + 4) % 8):
            continue  # a lying piece offers its long sides only
        sx = 1 if d == 2 else -1 if d == 6 else 0
        sy = 1 if d == 0 else -1 if d == 4 else 0
        half = hx if sx == 0 else hy
        if w2 > half:
            continue  # the base would overhang the side
        na = 0
        if offsets == 1:
            along[0] = 0
            na = 1
        elif offsets == 2:
            along[0], along[1] = half - w2, w2 - half
            na = 2
        else:
            along[0], along[1], along[2] = half - w2, 0, w2 - half
            na = 3
        bx, by = x + sx * (hx + l2), y + sy * (hy + l2)
        tb_within(bx, by, max(half, l2))
        for j in range(na):
            seen = False
            for q in range(j):
                if along[q] == along[j]:
                    seen = True
            if seen:
                continue
            a = along[j]
            out[n] = tb_spot(bx + a, by, d + 1) if sx == 0 else tb_spot(bx, by + a, d + 1)
            n += 1
    return n


@njit(cache=True, inline="always", internal=True)
def tb_any_within(spots, n, x, y, r2):
    """Whether a centre of spots[:n] is at most sqrt(r2) from (x, y)."""
    for i in range(n):
        dx, dy = tb_x(spots[i]) - x, tb_y(spots[i]) - y
        if dx * dx + dy * dy <= r2:
            return True
    return False


@njit(cache=True, internal=True)
def tb_lattice(s, reach, avoid, navoid, gap, out):
    """The standing lattice spots within `reach` of a piece on the table (centre to centre), at
    least `gap` from each of avoid[:navoid], into out; their count (geometry._lattice, in its
    order). More than out holds: OVER 1, and the count out holds."""
    cap = out.shape[0]
    if s[TBL] == 0:
        out[0] = tb_spot(0, 0, 0)
        return 1
    r2 = reach * reach
    r = tb_isqrt(r2)
    g2 = gap * gap - 1 if gap > 0 and navoid > 0 else -1  # strictly nearer than gap: at most gap^2 - 1
    if g2 >= 0:
        for a in range(navoid):
            tb_within(tb_x(avoid[a]), tb_y(avoid[a]), tb_isqrt(g2))
    nt = s[TBL]
    near = np.empty(nt, np.int64)  # the earlier discs that may share points with this one
    n = 0
    for e in range(nt):
        sp = s[TBL + 1 + 2 * e]
        cx, cy = tb_x(sp), tb_y(sp)
        tb_within(cx, cy, r)
        nn = 0
        for f in range(e):
            o = s[TBL + 1 + 2 * f]
            dx, dy = tb_x(o) - cx, tb_y(o) - cy
            if dx * dx + dy * dy <= 4 * r2:
                near[nn] = o
                nn += 1
        for i in range(-((r - cx) // PITCH), (cx + r) // PITCH + 1):
            x = i * PITCH
            rest = r2 - (x - cx) * (x - cx)
            if rest < 0:
                continue
            dy = tb_isqrt(rest)
            for j in range(-((dy - cy) // PITCH), (cy + dy) // PITCH + 1):
                y = j * PITCH
                if tb_any_within(near, nn, x, y, r2):
                    continue  # seen in an earlier piece's disc
                if g2 >= 0 and tb_any_within(avoid, navoid, x, y, g2):
                    continue  # nearer than the gap to a spot to avoid
                if n >= cap:
                    s[OVER] = 1
                    return n
                out[n] = tb_spot(x, y, 0)
                n += 1
    return n
