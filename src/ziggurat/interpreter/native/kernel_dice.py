"""The kernel's arithmetic of dice (as `dsl.dice`, in int64): `ways(n, faces, total)` and
`showing(n, faces, k)` where the rules compute them when run. Appended to every native module
after `kernel.py` (see there; `module.KERNEL`).

Where a `ways` has a constant number of faces, the writer gives the module a table of its counts
for a few dice (`exprs.ways_table`: `WAYS_<faces>`) and the call reads it (`dice_ways_in`); other
calls, and dice past the table, count (`dice_ways`): by inclusion and exclusion, with no buffer, or
by one row of sums where a term of that sum could overflow.
"""

import numpy as np

from ziggurat.interpreter.native.numbacache import njit

# ---- kernel: from here on, the same in every native module ----


@njit(cache=True, inline="always", internal=True)
def dice_ways_in(table, cols, n, faces, total):
    """dice_ways(n, faces, total) read from `table` (its rows of `cols` totals one after the other,
    then the number of rows) where it has them."""
    if 0 <= n < table[table.shape[0] - 1] and 0 <= total < cols:
        return table[n * cols + total]
    return dice_ways(n, faces, total)


@njit(cache=True, internal=True)
def dice_ways(n, faces, total):
    """How many throws of n dice numbered 1..faces add up to total (as dsl.dice.ways), with no
    buffer: by inclusion and exclusion, the sum over k of (-1)**k C(n, k) C(t - faces k - 1, n - 1),
    on the nearer half (the count is symmetric about n (faces + 1) / 2). Where a term could pass
    2**62 / (n + 1), by one row of sums instead (`dice_ways_row`)."""
    if n < 0 or faces < 1:
        return 0
    if n == 0:
        return 1 if total == 0 else 0
    if not n <= total <= n * faces:
        return 0
    t = min(total, n * (faces + 1) - total)
    most = (1 << 62) // (n + 1)  # each term below it: their sum below 2**62
    acc = 0
    ck = 1  # C(n, k)
    k = 0
    while k <= n and t - faces * k >= n:
        c = binomial_below(t - faces * k - 1, n - 1, most)
        if c < 0 or c > most // ck:
            return dice_ways_row(n, faces, total)
        acc += ck * c if k % 2 == 0 else -(ck * c)
        if ck > most // (n - k + 1):
            return dice_ways_row(n, faces, total)
        ck = ck * (n - k) // (k + 1)
        k += 1
    return acc


@njit(cache=True, internal=True)
def binomial_below(m, r, most):
    """C(m, r) for 0 <= r <= m, or -1 where a step of it would pass `most`."""
    if r > m - r:
        r = m - r
    c = 1
    for i in range(r):
        if c > most // (m - i):
            return -1
        c = c * (m - i) // (i + 1)  # C(m, i + 1): exact
    return c


@njit(cache=True, internal=True)
def dice_ways_row(n, faces, total):
    """dice_ways by one row of sums, made die by die from the top down (one buffer)."""
    row = np.zeros(total + 1, np.int64)  # ways for the dice so far, by sum
    row[0] = 1
    for _ in range(n):
        for t in range(total, -1, -1):
            w = 0
            for f in range(1, min(faces, t) + 1):
                w += row[t - f]
            row[t] = w
    return row[total]


@njit(cache=True, internal=True)
def dice_showing(n, faces, k):
    """How many throws of n dice show one chosen face on exactly k of them (dsl.dice.showing)."""
    if faces < 1 or not 0 <= k <= n:
        return 0
    c = 1
    for i in range(k):
        c = c * (n - i) // (i + 1)
    for _ in range(n - k):
        c *= faces - 1
    return c
