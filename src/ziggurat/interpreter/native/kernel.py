"""The kernel, part 1: what every native module holds whatever the game, below the mark line:
helpers over the position vector (see `layout`), the position hash, and the random words.

This is a real file of the package, so that editors and linters read it as code; `module.py`
reads it as a resource and puts what follows the mark line at the end of each module, where the
generated part above it has defined the names declared here (the layout's constants, the game's
tables), which are left out. The whole loops are part 2, `kernel_loops.py`.

The small helpers are inlined where they are called (`inline="always"`, at Numba's level: a call
between compiled functions costs a call and the reference counts of its arrays). Every helper but
`hash_state` (which Python calls too) is `internal=True`: only compiled code calls it, so where it
is not inlined (into a function too large to inline into, `numbacache.BIG`) it is compiled without
Python's wrappers and linked into its callers, with no machine code of its own (`numbacache.njit`).

Where the rules ask about repetition, each position's hash goes into a history; moves keep it up
to date in the slot HSH as they write (`put` and the stack helpers), so that the loops read it
instead of hashing the whole position a ply. `effects.KEEPS_HASH` names the helpers that do; a
module whose moves write otherwise hashes each position from scratch (INCREMENTAL false).
"""

import numpy as np

from ziggurat.interpreter.native.numbacache import njit

# The generated part's names, declared for linters (their values here are placeholders).
SIDE = PLY = LAST = OVER = SEATS = NPLAYERS = NC = CAP = ZCAP = ZW = 0
CNT = ZON = HSH = HGT = STK = OCC = NW = SIZE = FILES = MAXM = AMASK = CELLMASK = NACTIONS = 0
HASHING = INCREMENTAL = CHANCE = False
CTRL = CHANCEACT = LASTCELLS = LASTN = LN = LNN = NB = NBN = NBM = np.zeros(1, np.int64)

# ---- kernel: from here on, the same in every native module ----

U = np.uint64  # U(i): an index known not to be below 0, which Numba reads without its test for a negative one


# Pieces numbered as the players who control them (a piece of each player, nothing neutral): a
# top's controller is its number, with no table read waiting on the slot's load.
CTRL_ID = bool(CTRL.shape[0] > 0 and (CTRL == np.arange(CTRL.shape[0])).all())
NEUTRAL = bool((CTRL < 0).any())  # some piece nobody controls (a flanked run ends at it)


@njit(cache=True, inline="always", internal=True)
def ctrl_piece(p):
    """The controller of piece p (not below 0)."""
    if CTRL_ID:
        return p
    return CTRL[U(p)]


@njit(cache=True, inline="always", internal=True)
def occ_fix(s, c):
    """Cell c's bit in the occupancy words (occupancy.py) made right after its stack changed: set
    in the word of its top's controller, clear in the others'. Nothing where there are none."""
    if NW == 0:
        return
    w = c >> 6
    bit = np.int64(1) << np.int64(c & 63)
    o = -1
    h = s[HGT + c]
    if h > 0:
        o = ctrl_piece(s[STK + c * CAP + h - 1])
    for p in range(NPLAYERS):
        if p == o:
            s[OCC + p * NW + w] |= bit
        else:
            s[OCC + p * NW + w] &= ~bit


@njit(cache=True, inline="always", internal=True)
def occ_near(s, ds, c, p):
    """Whether a first neighbour of cell c in a direction of set ds has a top another player than p
    controls (occupancy.flank_probe: the test before the flanked runs)."""
    for w in range(NW):
        x = np.uint64(0)
        for q in range(NPLAYERS):
            if q != p:
                x |= np.uint64(s[U(OCC + q * NW + w)])
        if np.uint64(NBM[U(ds), U(c), w]) & x != np.uint64(0):
            return True
    return False


@njit(cache=True, inline="always", internal=True)
def ctrl_of(s, c):
    h = s[U(HGT + c)]  # a cell is -1 at least
    if h == 0:
        return -1
    return ctrl_piece(s[U(STK + c * CAP + (h - 1 if CAP > 1 else 0))])  # one piece at most: its slot, read beside h


@njit(cache=True, inline="always", internal=True)
def theirs(s, c, mover):
    o = ctrl_of(s, c)
    return o != -1 and o != mover


@njit(cache=True, inline="always", internal=True)
def flank_len(s, c, d, p):
    for i in range(LNN[d, c]):
        x = LN[d, c, U(i)]  # a cell of the board: no index below is below 0
        h = s[U(HGT + x)]
        if CAP == 1:
            # one piece at most: the slot holds a piece's number even when the cell is empty (its
            # last, or 0), so it is read beside the height, and one branch a cell takes either way out
            # (h * ... is 0 where the cell is empty or p's; most walks end at their first cell)
            o = ctrl_piece(s[U(STK + x)])
            if h * (o - p) == 0:
                return i * h
        else:  # the height first, then the top's controller: no load waits on a branch twice
            if h == 0:
                return 0
            o = ctrl_piece(s[U(STK + x * CAP + h - 1)])
            if o == p:
                return i
        if NEUTRAL and o < 0:  # a stack nobody controls breaks the run (helpers._flanked)
            return 0
    return 0


@njit(cache=True, inline="always", internal=True)
def run_of(s, c, d, p):
    n = 0
    for i in range(LNN[d, c]):
        if ctrl_of(s, LN[d, c, i]) != p:
            break
        n += 1
    return n


@njit(cache=True, inline="always", internal=True)
def zone_len(s, z):
    return s[ZON + z * ZW]


@njit(cache=True, internal=True)
def zone_add(s, z, p):
    n = s[ZON + z * ZW]
    if n >= ZCAP:
        s[OVER] = 1
        return
    put(s, ZON + z * ZW + 1 + n, p)
    put(s, ZON + z * ZW, n + 1)


@njit(cache=True, inline="always", internal=True)
def last_count(s):
    """How many cells `last` holds: the cell choices of the last move, every cell before any."""
    m = s[LAST]
    if m < 0:
        return NC
    return LASTN[m & AMASK]


@njit(cache=True, inline="always", internal=True)
def last_cell(s, j):
    """Cell j of `last`."""
    m = s[LAST]
    if m < 0:
        return j
    return (m >> LASTCELLS[m & AMASK, j]) & CELLMASK


@njit(cache=True, inline="always", internal=True)
def off_level(s, k, h, into):
    """Whether level index k (from 0) is not one of a stack of height h (`into`: a level to slip
    a piece in at, h the top); then the OVER flag is 3, and Python runs the position and names the
    rule (helpers._level is the same test)."""
    if k < 0 or k > (h if into else h - 1):
        s[OVER] = 3
        return True
    return False


@njit(cache=True, inline="always", internal=True)
def move_stack(s, a, k, b):
    n = s[HGT + a] - k
    hb = s[HGT + b]
    if off_level(s, k, s[HGT + a], True):
        return
    if a == b:
        return
    if hb + n > CAP:
        s[OVER] = 1
        return
    h = np.uint64(s[HSH])
    for i in range(n):
        p = s[STK + a * CAP + k + i]
        s[STK + b * CAP + hb + i] = p
        if HASHING:
            h += np.uint64(p + 1) * (ZK[STK + b * CAP + hb + i] - ZK[STK + a * CAP + k + i])
    s[HGT + b] = hb + n
    s[HGT + a] = k
    occ_fix(s, a)
    occ_fix(s, b)
    if HASHING:
        s[HSH] = np.int64(h)


@njit(cache=True, inline="always", internal=True)
def take_stack(s, c, z):
    for i in range(s[HGT + c]):
        p = s[STK + c * CAP + i]
        zone_add(s, z, p)  # keeps the hash of the zone's slots
        if HASHING:
            s[HSH] = np.int64(np.uint64(s[HSH]) - np.uint64(p + 1) * ZK[STK + c * CAP + i])
    s[HGT + c] = 0
    occ_fix(s, c)


@njit(cache=True, inline="always", internal=True)
def place_piece(s, p, c):
    h = s[HGT + c]
    if h >= CAP:
        s[OVER] = 1
        return
    s[STK + c * CAP + h] = p
    s[HGT + c] = h + 1
    occ_fix(s, c)
    if HASHING:
        s[HSH] = np.int64(np.uint64(s[HSH]) + np.uint64(p + 1) * ZK[STK + c * CAP + h])


@njit(cache=True, inline="always", internal=True)
def level_slot(s, c, k):
    """The slot of level k (from 1) of the stack on c; a level the stack does not have (`off_level`)
    gives the stack's first slot, which the abandoned position may take."""
    if off_level(s, k - 1, s[HGT + c], False):
        return STK + c * CAP
    return STK + c * CAP + k - 1


@njit(cache=True, inline="always", internal=True)
def remove_piece(s, c, k, z):
    h = s[HGT + c]
    if off_level(s, k, h, False):
        return
    p = s[STK + c * CAP + k]
    zone_add(s, z, p)  # keeps the hash of the zone's slots
    hs = np.uint64(s[HSH]) - np.uint64(p + 1) * ZK[STK + c * CAP + k]
    for i in range(k, h - 1):
        q = s[STK + c * CAP + i + 1]
        s[STK + c * CAP + i] = q
        hs += np.uint64(q + 1) * (ZK[STK + c * CAP + i] - ZK[STK + c * CAP + i + 1])
    s[HGT + c] = h - 1
    occ_fix(s, c)
    if HASHING:
        s[HSH] = np.int64(hs)


@njit(cache=True, inline="always", internal=True)
def put(s, i, v):
    """s[i] = v, keeping the hash: the effects' writes outside the stacks go through here."""
    if HASHING:
        s[HSH] = np.int64(np.uint64(s[HSH]) + (np.uint64(v) - np.uint64(s[i])) * ZK[i])
    s[i] = v


# The helpers that write a stack or a slot, called instead of inlined: what a large module's
# functions run once a move (do_N, the end block) call (`Statements.call`). Numba inlines an
# inline="always" helper at every call, cold, for about 30 ms of CPU each; a call costs a few ns.
# Each calls its helper (inlines=False): the helper's one compiled copy, which a large `legal`
# (numbacache.BIG) calling the same helper shares, where inlined here it was compiled twice.
@njit(cache=True, internal=True, inlines=False)
def called_put(s, i, v):
    put(s, i, v)


@njit(cache=True, internal=True, inlines=False)
def called_move_stack(s, a, k, b):
    move_stack(s, a, k, b)


@njit(cache=True, internal=True, inlines=False)
def called_take_stack(s, c, z):
    take_stack(s, c, z)


@njit(cache=True, internal=True, inlines=False)
def called_place_piece(s, p, c):
    place_piece(s, p, c)


@njit(cache=True, internal=True, inlines=False)
def called_remove_piece(s, c, k, z):
    remove_piece(s, c, k, z)


@njit(cache=True, internal=True)
def change_piece(s, c, k, p):
    """The piece at level k (from 1) of the stack on c made p (`change`), the occupancy words made
    right (the top may change hands): one call where an inlined occ_fix after it cost Numba's work."""
    put(s, level_slot(s, c, k), p)
    occ_fix(s, c)


@njit(cache=True, inline="always", internal=True)
def copy_into(dst, src, n):
    """dst[:n] = src[:n], as a loop: Numba compiles an array-to-array slice assignment (with its
    broadcasting and its error messages) to several CPU seconds of work in each function that
    holds one, a loop to almost nothing."""
    for i in range(n):
        dst[i] = src[i]


@njit(cache=True, inline="always", internal=True)
def copy_state(dst, src):
    """dst = src, but for the slots above each stack's height (nothing reads them) when stacks
    may be tall; loops, which Numba compiles to much less than a slice assignment."""
    if CAP <= 8:  # short stacks: one straight copy costs less than a loop a cell
        for i in range(SIZE):
            dst[i] = src[i]
        return
    for i in range(STK):
        dst[i] = src[i]
    for c in range(NC):
        b = STK + c * CAP
        dst[b] = src[b]  # whatever the height: most stacks hold 0 or 1 piece, and a store costs less than a branch
        for k in range(1, src[HGT + c]):
            dst[b + k] = src[b + k]
    for i in range(OCC, SIZE):  # the occupancy words, if any
        dst[i] = src[i]


@njit(cache=True, internal=True)
def rank_results(keys, res):
    best = 0
    for q in range(1, NPLAYERS):
        for j in range(keys.shape[1]):
            if keys[q, j] != keys[best, j]:
                if keys[q, j] > keys[best, j]:
                    best = q
                break
    top = 0
    for q in range(NPLAYERS):
        same = True
        for j in range(keys.shape[1]):
            if keys[q, j] != keys[best, j]:
                same = False
                break
        res[q] = 1.0 if same else 0.0
        if same:
            top += 1
    if top > 1:
        for q in range(NPLAYERS):
            if res[q] > 0:
                res[q] = 1.0 / top
    res[NPLAYERS] = best if top == 1 else -1


@njit(cache=True)
def hash_state(s):
    """The position's hash for repetition, from scratch: the sum, over the slots that hold the
    position (the side, seats, counters, zones, and each stack up to its height; not the ply, the
    last move, nor a stack's slots above its height, which hold what it held before), of
    (value + 1) * ZK[slot], ZK a random word a slot (Zobrist's idea, made linear so that a write
    changes the sum by (new - old) * ZK[slot]). Moves keep it in the slot HSH as they write
    (`put` and the stack helpers)."""
    h = np.uint64(s[SIDE] + 1) * ZK[SIDE]
    for i in range(SEATS, HSH):
        h += np.uint64(s[i] + 1) * ZK[i]
    for c in range(NC):
        b = STK + c * CAP
        for k in range(s[HGT + c]):
            h += np.uint64(s[b + k] + 1) * ZK[b + k]
    return np.int64(h)


@njit(cache=True, inline="always", internal=True)
def repeats(hist, nhist):
    n = 0
    if nhist == 0:
        return 0
    h = hist[nhist - 1]
    for i in range(nhist):
        if hist[i] == h:
            n += 1
    return n


GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
S30, S27, S31 = np.uint64(30), np.uint64(27), np.uint64(31)
_z = np.arange(1, SIZE + 1, dtype=np.uint64) * GOLDEN  # SplitMix64's words 1, 2, ...: a random word a slot
_z = (_z ^ (_z >> S30)) * MIX1
_z = (_z ^ (_z >> S27)) * MIX2
ZK = _z ^ (_z >> S31)


@njit(cache=True, inline="always", internal=True)
def next_word(x):
    x = x + GOLDEN
    z = x
    z = (z ^ (z >> S30)) * MIX1
    z = (z ^ (z >> S27)) * MIX2
    return x, z ^ (z >> S31)


@njit(cache=True, internal=True)
def insert_piece(s, p, c, k):
    """Slip piece p into the stack on c so that it stands at level k + 1 (k = height: on top);
    the hash kept (the stack's slots from level k + 1 taken out of it, then put back)."""
    h = s[HGT + c]
    if off_level(s, k, h, True):
        return
    if h >= CAP:
        s[OVER] = 1
        return
    b = STK + c * CAP
    hs = stack_unhash(s, b, k, h)
    for i in range(h, k, -1):
        s[b + i] = s[b + i - 1]
    s[b + k] = p
    s[HGT + c] = h + 1
    occ_fix(s, c)
    stack_rehash(s, b, k, h + 1, hs)


@njit(cache=True, inline="always", internal=True)
def stack_unhash(s, b, k, h):
    """The hash without the stack slots b + k .. b + h - 1 (before they are rewritten)."""
    hs = np.uint64(s[HSH])
    if HASHING:
        for i in range(k, h):
            hs -= np.uint64(s[b + i] + 1) * ZK[b + i]
    return hs


@njit(cache=True, inline="always", internal=True)
def stack_rehash(s, b, k, h, hs):
    """Put the stack slots b + k .. b + h - 1 (rewritten) back into the hash hs, and keep it."""
    if HASHING:
        for i in range(k, h):
            hs += np.uint64(s[b + i] + 1) * ZK[b + i]
        s[HSH] = np.int64(hs)


@njit(cache=True, internal=True)
def step_k(s, c, d, k):
    """The cell k steps from c along direction d; -1 (off the board) past the edge."""
    if k == 0:
        return c
    if c < 0 or k < 0 or k > LNN[d, c]:
        return -1
    return LN[d, c, k - 1]


@njit(cache=True, internal=True)
def between_n(a, b):
    """How many cells lie strictly between a and b on one file, rank or diagonal (0: none)."""
    if a < 0 or b < 0:
        return 0
    df, dr = b % FILES - a % FILES, b // FILES - a // FILES
    if not (df == 0 or dr == 0 or abs(df) == abs(dr)):
        return 0
    return max(abs(df), abs(dr)) - 1


@njit(cache=True, internal=True)
def between_at(a, b, k):
    """The k-th cell (from 1, nearest a first) strictly between a and b."""
    df, dr = b % FILES - a % FILES, b // FILES - a // FILES
    sf = 1 if df > 0 else (-1 if df < 0 else 0)
    sr = 1 if dr > 0 else (-1 if dr < 0 else 0)
    return a + k * (sf + sr * FILES)


@njit(cache=True, internal=True)
def connected_cells(cells, n, ds, mark, todo):
    """Whether cells[:n] form one group through steps in the directions of ds (none: they do)."""
    if n == 0:
        return True
    for c in range(NC):
        mark[c] = 0
    for i in range(n):
        mark[cells[i]] = 1
    members = 0
    for c in range(NC):
        members += mark[c]
    mark[cells[0]] = 2
    todo[0] = cells[0]
    top = 1
    seen = 1
    while top > 0:
        top -= 1
        c = todo[top]
        for k in range(NBN[ds, c]):
            x = NB[ds, c, k]
            if mark[x] == 1:
                mark[x] = 2
                seen += 1
                todo[top] = x
                top += 1
    return seen == members


@njit(cache=True, internal=True)
def repeats_board(hist, nhist, s):
    """How many of the positions so far (this one included) match this one whoever is to move."""
    if nhist == 0:
        return 0
    zk = ZK[SIDE]  # the hash is linear: the side to move adds (side + 1) * ZK[SIDE] (loops.hash_state)
    base = np.uint64(hist[nhist - 1]) - np.uint64(s[SIDE] + 1) * zk
    n = 0
    for i in range(nhist):
        hi = np.uint64(hist[i])
        for q in range(NPLAYERS):
            if hi == base + np.uint64(q + 1) * zk:
                n += 1
    return n


@njit(cache=True, internal=True)
def zone_drop(s, z, p):
    """Take the first piece p out of zone z (those after it move up; the slot freed is 0)."""
    b = ZON + z * ZW
    n = s[b]
    for i in range(n):
        if s[b + 1 + i] == p:
            for j in range(i, n - 1):
                put(s, b + 1 + j, s[b + 2 + j])
            put(s, b + n, 0)
            put(s, b, n - 1)
            return


@njit(cache=True, internal=True)
def zone_has(s, z, p):
    b = ZON + z * ZW
    for i in range(s[b]):
        if s[b + 1 + i] == p:
            return True
    return False


@njit(cache=True, internal=True)
def lift_piece(s, c, k):
    """Take the piece at level k + 1 out of the stack on c (those above drop down); the hash kept."""
    h = s[HGT + c]
    if off_level(s, k, h, False):
        return
    b = STK + c * CAP
    hs = stack_unhash(s, b, k, h)
    for i in range(k, h - 1):
        s[b + i] = s[b + i + 1]
    s[HGT + c] = h - 1
    occ_fix(s, c)
    stack_rehash(s, b, k, h - 1, hs)
