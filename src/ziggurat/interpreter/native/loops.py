"""The part of every native module that does not depend on the game: helpers over the position
vector, the position hash, the random generator, and the whole loops (perft, playouts).

The loops are iterative (an explicit stack of positions, one vector a ply): Numba's on-disk cache
has crashed on recursive functions (Numba issue 6061), so nothing here calls itself.

The random generator is SplitMix64 (Steele, Lea and Flood, 2014), on unsigned 64-bit words: a
playout seeded with `seed` draws word after word from it, and plays, at each ply, the legal move
of index `word mod n` in the native generator's order; where nature moves (`by chance`) and its
outcomes have weights, the word's top 53 bits, as a fraction of the weights' sum, pick the
outcome (`pick_chance`). It is not Python's `random`: a native
playout and a Python one from the same seed are different games (both legal). Playout `i` of
`playouts(n, seed)` is the playout seeded with `seed + i`; game i of `study_chunk(starts, seeds, ...)`
is the playout seeded with `seeds[i]` (a study derives them from its seed and the game's index).

The small helpers, like each move's `do_N`, are inlined where they are called (`inline="always"`,
at Numba's level: a call between compiled functions costs a call and the reference counts of its
arrays); `apply` stays a call, else each loop would compile every move again.

Where the rules ask about repetition, each position's hash goes into a history; moves keep it up
to date in the slot HSH as they write (`put` and the stack helpers), so that the loops read it
instead of hashing the whole position a ply. `keeps_hash` checks that every write a move makes
goes through those; a module with another write (a construct added later, say) hashes each
position from scratch instead (INCREMENTAL false), which is slower but never wrong.
"""

import re

KEEPS_HASH = ("put", "move_stack", "take_stack", "place_piece", "remove_piece",  # write through the hash
              "insert_piece", "lift_piece", "stack_rehash")
UNHASHED = ("s[PLY]", "s[LAST]", "s[OVER]", "s[HSH]")  # slots outside the hash


def assigned(line: str):
    """The target of the assignment a line of Python makes (plain or augmented), or None."""
    code = line.strip()
    if code.startswith(("if ", "elif ", "while ", "for ", "return", "assert ", "def ", "@")):
        return None
    depth = 0
    for i, ch in enumerate(code):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "=" and depth == 0:
            after, before = code[i + 1:i + 2], code[i - 1:i]
            if after == "=" or (before in ("=", "!", "<", ">") and code[i - 2:i] not in ("<<", ">>")):
                return None  # a comparison
            return code[:i].rstrip(" +-*/%&|^<>")
    return None


def keeps_hash(text: str) -> bool:
    """Whether every write to the position that `apply` makes, in the functions it calls too,
    keeps the hash slot up to date (goes through `KEEPS_HASH`, or writes an unhashed slot)."""
    bodies: dict = {}
    name = None
    for line in text.splitlines():
        m = re.match(r"def (\w+)\(", line)
        if m:
            name = m.group(1)
            bodies[name] = []
        elif name is not None and (line.startswith(" ") or not line.strip()):
            bodies[name].append(line)
        else:
            name = None
    seen, todo = set(), ["apply"]
    while todo:
        fn = todo.pop()
        if fn in seen or fn not in bodies or fn in KEEPS_HASH:
            continue
        seen.add(fn)
        for line in bodies[fn]:
            target = assigned(line)
            if target is not None and re.search(r"(?<![\w.])s\[", target) and target not in UNHASHED:
                return False
            todo.extend(re.findall(r"(?<![\w.])(\w+)\(", line))
    return True


TEMPLATE = '''
# ---- helpers (the same in every native module) ----------------------------------------------


@njit(cache=True, inline="always")
def ctrl_of(s, c):
    h = s[HGT + c]
    if h == 0:
        return -1
    return CTRL[s[STK + c * CAP + h - 1]]


@njit(cache=True, inline="always")
def theirs(s, c, mover):
    o = ctrl_of(s, c)
    return o != -1 and o != mover


@njit(cache=True, inline="always")
def flank_len(s, c, d, p):
    for i in range(LNN[d, c]):
        o = ctrl_of(s, LN[d, c, i])
        if s[HGT + LN[d, c, i]] == 0:
            return 0
        if o == p:
            return i
        if o == -1:
            return 0
    return 0


@njit(cache=True, inline="always")
def run_of(s, c, d, p):
    n = 0
    for i in range(LNN[d, c]):
        if ctrl_of(s, LN[d, c, i]) != p:
            break
        n += 1
    return n


@njit(cache=True, inline="always")
def zone_len(s, z):
    return s[ZON + z * ZW]


@njit(cache=True)
def zone_add(s, z, p):
    n = s[ZON + z * ZW]
    if n >= ZCAP:
        s[OVER] = 1
        return
    put(s, ZON + z * ZW + 1 + n, p)
    put(s, ZON + z * ZW, n + 1)


@njit(cache=True, inline="always")
def last_count(s):
    """How many cells `last` holds: the cell choices of the last move, every cell before any."""
    m = s[LAST]
    if m < 0:
        return NC
    return LASTN[m & AMASK]


@njit(cache=True, inline="always")
def last_cell(s, j):
    """Cell j of `last`."""
    m = s[LAST]
    if m < 0:
        return j
    return (m >> LASTCELLS[m & AMASK, j]) & CELLMASK


@njit(cache=True, inline="always")
def move_stack(s, a, k, b):
    n = s[HGT + a] - k
    hb = s[HGT + b]
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
    if HASHING:
        s[HSH] = np.int64(h)


@njit(cache=True, inline="always")
def take_stack(s, c, z):
    for i in range(s[HGT + c]):
        p = s[STK + c * CAP + i]
        zone_add(s, z, p)  # keeps the hash of the zone's slots
        if HASHING:
            s[HSH] = np.int64(np.uint64(s[HSH]) - np.uint64(p + 1) * ZK[STK + c * CAP + i])
    s[HGT + c] = 0


@njit(cache=True, inline="always")
def place_piece(s, p, c):
    h = s[HGT + c]
    if h >= CAP:
        s[OVER] = 1
        return
    s[STK + c * CAP + h] = p
    s[HGT + c] = h + 1
    if HASHING:
        s[HSH] = np.int64(np.uint64(s[HSH]) + np.uint64(p + 1) * ZK[STK + c * CAP + h])


@njit(cache=True, inline="always")
def remove_piece(s, c, k, z):
    h = s[HGT + c]
    p = s[STK + c * CAP + k]
    zone_add(s, z, p)  # keeps the hash of the zone's slots
    hs = np.uint64(s[HSH]) - np.uint64(p + 1) * ZK[STK + c * CAP + k]
    for i in range(k, h - 1):
        q = s[STK + c * CAP + i + 1]
        s[STK + c * CAP + i] = q
        hs += np.uint64(q + 1) * (ZK[STK + c * CAP + i] - ZK[STK + c * CAP + i + 1])
    s[HGT + c] = h - 1
    if HASHING:
        s[HSH] = np.int64(hs)


@njit(cache=True, inline="always")
def put(s, i, v):
    """s[i] = v, keeping the hash: the effects' writes outside the stacks go through here."""
    if HASHING:
        s[HSH] = np.int64(np.uint64(s[HSH]) + (np.uint64(v) - np.uint64(s[i])) * ZK[i])
    s[i] = v


@njit(cache=True, inline="always")
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


@njit(cache=True)
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


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def next_word(x):
    x = x + GOLDEN
    z = x
    z = (z ^ (z >> S30)) * MIX1
    z = (z ^ (z >> S27)) * MIX2
    return x, z ^ (z >> S31)


# ---- the whole loops ------------------------------------------------------------------------


@njit(cache=True)
def perft(s0, depth, hist0, nhist0):
    """Leaves of the move tree to `depth`; -1: a position with more than MAXM moves; -2: a
    stack deeper than CAP or a zone fuller than ZCAP; -3: a move too long to pack."""
    if depth <= 0:
        return 1
    states = np.empty((depth + 1, SIZE), np.int64)
    moves = np.empty((depth, MAXM), np.int64)
    counts = np.zeros(depth, np.int64)
    idx = np.zeros(depth, np.int64)
    hist = np.empty(nhist0 + depth + 1, np.int64)
    hist[:nhist0] = hist0[:nhist0]
    res = np.empty(NPLAYERS + 1, np.float64)
    states[0, :] = s0
    total = 0
    d = 0
    entering = True
    while True:
        if entering:
            entering = False
            n = legal(states[d], moves[d])
            if n > MAXM:
                return -1
            if outcome(states[d], n, res, hist, nhist0 + d) != 0:
                n = 0
            if states[d, OVER] != 0:
                return -1 - states[d, OVER]
            if d == depth - 1:
                total += n
                d -= 1
                if d < 0:
                    return total
                continue
            counts[d] = n
            idx[d] = 0
        if idx[d] < counts[d]:
            m = moves[d, idx[d]]
            idx[d] += 1
            copy_state(states[d + 1], states[d])
            apply(states[d + 1], m)
            if states[d + 1, OVER] != 0:
                return -1 - states[d + 1, OVER]
            if HASHING:
                hist[nhist0 + d] = states[d + 1, HSH] if INCREMENTAL else hash_state(states[d + 1])
            d += 1
            entering = True
        else:
            d -= 1
            if d < 0:
                return total


@njit(cache=True)
def playout(s, x, maxplies, moves_out, res, hist, nhist0, buf):
    """Random moves from s (changed in place) until the end or maxplies: (plies, outcome code,
    moves seen at the positions played from, generator state). Code 0: cut at maxplies; -1:
    too many moves; -2: a stack deeper than CAP or a zone fuller than ZCAP; -3: a move too long
    to pack. The moves go into moves_out."""
    plies = 0
    branching = 0
    while True:
        n = legal(s, buf)
        if n > MAXM:
            return plies, -1, branching, x
        code = outcome(s, n, res, hist, nhist0 + plies)
        if s[OVER] != 0:
            return plies, -1 - s[OVER], branching, x
        if code != 0:
            return plies, code, branching, x
        if plies >= maxplies:
            return plies, 0, branching, x
        x, z = next_word(x)
        if CHANCE and CHANCEACT[buf[0] & AMASK]:  # nature's move, drawn by its weights
            m = buf[pick_chance(s, buf, n, z)]
        else:
            m = buf[np.int64(z % np.uint64(n))]
        if plies < moves_out.shape[0]:
            moves_out[plies] = m
        apply(s, m)
        if s[OVER] != 0:
            return plies, -1 - s[OVER], branching, x
        plies += 1
        branching += n
        if HASHING:
            hist[nhist0 + plies - 1] = s[HSH] if INCREMENTAL else hash_state(s)


@njit(cache=True)
def playouts(s0, count, seed, maxplies, hist0, nhist0):
    """`count` playouts from s0, playout i seeded with seed + i: results (count x players + 1:
    the last column is the side an outcome names, -1 for none), plies, outcome codes."""
    results = np.zeros((count, NPLAYERS + 1), np.float64)
    plies = np.zeros(count, np.int64)
    codes = np.zeros(count, np.int64)
    s = np.empty(SIZE, np.int64)
    buf = np.empty(MAXM, np.int64)
    none = np.empty(0, np.int64)
    hist = np.empty(nhist0 + maxplies + 1, np.int64)
    hist[:nhist0] = hist0[:nhist0]
    res = np.empty(NPLAYERS + 1, np.float64)
    for i in range(count):
        s[:] = s0
        res[:] = 0.0
        n, code, _b, _x = playout(s, seed + np.uint64(i), maxplies, none, res, hist, nhist0, buf)
        results[i, :] = res
        plies[i] = n
        codes[i] = code
    return results, plies, codes


@njit(cache=True)
def study_chunk(starts, seeds, maxplies, finals):
    """A chunk of a study's random games: game i from starts[i] (starts[0] for every game when
    starts has one row), its moves drawn as `playout` draws them from seeds[i] (the same loop,
    written out here: a loop that calls `playout` compiles it again inside itself, several
    seconds more). Per game: plies, outcome code (as `playout`'s), results (count x players + 1,
    as `playouts`), the moves seen at the positions played from, the moves of each action (count
    x NACTIONS), the seats at the end (count x players), and the last position into finals[i]
    when finals has a row a game. One position and one history serve every game of the chunk."""
    count = seeds.shape[0]
    plies = np.zeros(count, np.int64)
    codes = np.zeros(count, np.int64)
    results = np.zeros((count, NPLAYERS + 1), np.float64)
    branching = np.zeros(count, np.int64)
    actions = np.zeros((count, NACTIONS), np.int64)
    seats = np.zeros((count, NPLAYERS), np.int64)
    s = np.empty(SIZE, np.int64)
    buf = np.empty(MAXM, np.int64)
    hist = np.empty(maxplies + 2, np.int64)
    res = np.empty(NPLAYERS + 1, np.float64)
    row = 0
    for i in range(count):
        if starts.shape[0] > 1:
            row = i
        for k in range(SIZE):
            s[k] = starts[row, k]
        nhist0 = 0
        if HASHING:  # the start's hash, kept in its slot HSH
            hist[0] = s[HSH]
            nhist0 = 1
        for q in range(NPLAYERS + 1):
            res[q] = 0.0
        x = seeds[i]
        n = 0
        b = 0
        code = 0
        while True:  # `playout`'s loop
            nm = legal(s, buf)
            if nm > MAXM:
                code = -1
                break
            code = outcome(s, nm, res, hist, nhist0 + n)
            if s[OVER] != 0:
                code = -1 - s[OVER]
                break
            if code != 0 or n >= maxplies:
                break
            x, z = next_word(x)
            if CHANCE and CHANCEACT[buf[0] & AMASK]:  # nature's move, drawn by its weights
                m = buf[pick_chance(s, buf, nm, z)]
            else:
                m = buf[np.int64(z % np.uint64(nm))]
            apply(s, m)
            if s[OVER] != 0:
                code = -1 - s[OVER]
                break
            actions[i, m & AMASK] += 1
            n += 1
            b += nm
            if HASHING:
                hist[nhist0 + n - 1] = s[HSH] if INCREMENTAL else hash_state(s)
        plies[i] = n
        codes[i] = code
        branching[i] = b
        for q in range(NPLAYERS + 1):
            results[i, q] = res[q]
        for q in range(NPLAYERS):
            seats[i, q] = s[SEATS + q]
        if finals.shape[0] > i:
            for k in range(SIZE):
                finals[i, k] = s[k]
    return plies, codes, results, branching, actions, seats
'''
