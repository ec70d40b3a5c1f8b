"""The kernel, part 2: the whole loops of every native module, below the mark line: `perft`,
`playout` (the searches' rollouts) and `study_chunk` (a chunk of games), over the game's `legal`, `apply`, `outcome`
and `pick_chance`.

A real file of the package read as a resource, as `kernel.py` (part 1) is: what is above the mark
declares the names the rest of the module defines, for linters, and is left out.

The loops are iterative (an explicit stack of positions, one vector a ply): Numba's on-disk cache
has crashed on recursive functions (Numba issue 6061), so nothing here calls itself; `apply` stays
a call (inlined, each loop would compile every move again).

The random generator is SplitMix64 (Steele, Lea and Flood, 2014), on unsigned 64-bit words: a
playout seeded with `seed` draws word after word from it, and plays, at each ply, the legal move
of index `word mod n` in the native generator's order; where nature moves (`by chance`) and its
outcomes have weights, the word's top 53 bits, as a fraction of the weights' sum, pick the
outcome (`pick_chance`). It is not Python's `random`: a native playout and a Python one from the
same seed are different games (both legal). Game i of `study_chunk(starts, seeds, ...)` is the playout seeded with
`seeds[i]`, or, given a study's `key`, with the seed a study derives from its seed and the game's index
(`study_seed` in study_seeds.py, compiled once per machine: numpy's SeedSequence, as `ziggurat.lab.seeds`
computes it, ported word for word).

The rollout policy: uniform over whole turns by default (`parts` false), as above. With `parts`
true a turn is drawn part by part (`draw_parts`, over the generated `legal_parts`: see
`parts.py`): the first part uniformly among those with at least one completion, then the next
among the values left, and so on; nature's moves are drawn as before. It is a different random
process (a part with few completions is as likely as one with many) from the same seed; the
`branching` it counts is the first parts offered, not the moves. Whole turns stay the default.

`parts` is None (whole turns, the default), False (whole turns too) or True. The loops test it as
`parts is not None and parts`, a test Numba decides while compiling where `parts` is None: it
drops the branch it cannot take (its dead-branch pruning of None arguments), so the loops
compiled for None never compile `legal_parts` (a second copy of the moves' code), and those for
a bool (the policy asked for) are a separate compiled entry, made at their first call.
"""

import numpy as np

from ziggurat.interpreter.native.numbacache import njit

from .kernel import (AMASK, CHANCE, CHANCEACT, HASHING, HSH, INCREMENTAL, MAXM, NACTIONS, NPLAYERS, OVER, SEATS,
                     SIZE, copy_into, copy_state, hash_state, next_word)
from .study_seeds import study_seed


def legal(s, out):  # the generated part's functions, declared for linters
    return 0


def apply(s, m):
    pass


def outcome(s, nmoves, res, hist, nhist):
    return 0


def pick_chance(s, buf, n, z):
    return 0


def legal_parts(s, out, depth, fixed):
    return 0


PFINAL = np.zeros(1, np.int64)


# ---- kernel: from here on, the same in every native module ----


@njit(cache=True)
def draw_parts(s, buf, n, z, x):
    """A move drawn part by part (the rollout policy `parts`): buf holds the n > 0 first parts
    (`legal_parts(s, buf, 0, 0)`), z the random word of the first draw; each later draw takes
    one word more from x. (move, x); move -1 where a part's list does not fit (OVER says why, or
    more than MAXM)."""
    m = buf[np.int64(z % np.uint64(n))]
    depth = 0
    while depth < PFINAL[m & AMASK]:
        depth += 1
        n = legal_parts(s, buf, depth, m)
        if n > MAXM or s[OVER] != 0:
            return -1, x
        x, z = next_word(x)
        m = buf[np.int64(z % np.uint64(n))]
    return m, x


@njit(cache=True)
def perft(s0, depth, hist0, nhist0):
    """Leaves of the move tree to `depth`; -1: a position with more than MAXM moves; -2: a
    stack deeper than CAP or a zone fuller than ZCAP; -3: a move too long to pack; -4: an effect at a
    level its stack does not have."""
    if depth <= 0:
        return 1
    states = np.empty((depth + 1, SIZE), np.int64)
    moves = np.empty((depth, MAXM), np.int64)
    counts = np.empty(depth, np.int64)  # np.empty zeroed by a loop: np.zeros or a slice compile more
    idx = np.empty(depth, np.int64)
    for k in range(depth):
        counts[k] = idx[k] = 0
    hist = np.empty(nhist0 + depth + 1, np.int64)
    copy_into(hist, hist0, nhist0)
    res = np.empty(NPLAYERS + 1, np.float64)
    copy_into(states[0], s0, SIZE)
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
def playout(s, x, maxplies, moves_out, res, hist, nhist0, buf, parts=None):
    """Random moves from s (changed in place) until the end or maxplies: (plies, outcome code,
    moves seen at the positions played from, generator state). Code 0: cut at maxplies; -1:
    too many moves; -2: a stack deeper than CAP or a zone fuller than ZCAP; -3: a move too long
    to pack. The moves go into moves_out. `parts`: the rollout policy (see the module's text)."""
    plies = 0
    branching = 0
    while True:
        if parts is not None and parts:
            n = legal_parts(s, buf, 0, 0)
        else:
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
            if parts is not None and parts:
                n = legal(s, buf)
            m = buf[pick_chance(s, buf, n, z)]
        elif parts is not None and parts:
            m, x = draw_parts(s, buf, n, z, x)
            if m < 0:
                return plies, -1 - s[OVER] if s[OVER] != 0 else -1, branching, x
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


@njit(cache=True, inline="always")
def chunk_columns(count):
    """The columns of a chunk of `count` games (see `study_chunk`), zeroed by loops (np.zeros
    costs a compile of its own implementation per shape and type): plies, codes, results,
    branching, actions, seats."""
    plies = np.empty(count, np.int64)
    codes = np.empty(count, np.int64)
    results = np.empty((count, NPLAYERS + 1), np.float64)
    branching = np.empty(count, np.int64)
    actions = np.empty((count, NACTIONS), np.int64)
    seats = np.empty((count, NPLAYERS), np.int64)
    for i in range(count):
        plies[i] = codes[i] = branching[i] = 0
        for k in range(NPLAYERS + 1):
            results[i, k] = 0.0
        for k in range(NACTIONS):
            actions[i, k] = 0
        for k in range(NPLAYERS):
            seats[i, k] = 0
    return plies, codes, results, branching, actions, seats


@njit(cache=True, inline="always")
def game_ended(i, n, code, b, res, s, finals, plies, codes, results, branching, seats):
    """Game i of a chunk has ended at `s` after n plies, with outcome code `code`, results `res`
    and b moves seen: its row of the chunk's columns (and of finals, when it has a row a game)."""
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


@njit(cache=True)
def study_chunk(starts, seeds, maxplies, finals, moves_out, key, setups, parts=None):
    """A chunk of a study's random games: game i from starts[i] (starts[0] for every game when
    starts has one row), its moves drawn as `playout` draws them from seeds[i] (the same loop,
    written out here: a loop that calls `playout` compiles it again inside itself, several
    seconds more). Per game: plies, outcome code (as `playout`'s), results (count x players + 1:
    the last column is the side an outcome names, -1 for none), the moves seen at the positions played from, the moves
    of each action (count
    x NACTIONS), the seats at the end (count x players), the last position into finals[i]
    when finals has a row a game, and its moves into moves_out[i] when moves_out has a row a game
    (as many as it has columns). One position and one history serve every game of the chunk.
    `key` empty: seeds[i] is game i's seed. Else seeds[i] is game i's index in a study (below
    2**32), and key (salt, setup salt, the study seed's 32-bit words): game i is seeded with
    `study_seed` of its index and the salt, and setups[i] (where setups has a row a game) is given
    the seed of its setup (the same with the setup salt), as a study derives them in Python.
    `parts`: the rollout policy. `NativeGame` plays its `playout` and `playouts` with it too:
    one compiled loop for the three (each loop compiled costs the optimisation and machine code
    of `legal`, `apply` and `outcome` again, linked into it)."""
    count = seeds.shape[0]
    plies, codes, results, branching, actions, seats = chunk_columns(count)
    s = np.empty(SIZE, np.int64)
    buf = np.empty(MAXM, np.int64)
    hist = np.empty(maxplies + 2, np.int64)
    res = np.empty(NPLAYERS + 1, np.float64)
    pool = np.empty(4, np.uint64)
    setkey = key.copy()
    if key.shape[0] > 1:
        setkey[0] = key[1]
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
        if key.shape[0] > 0:
            if setups.shape[0] > i:
                setups[i] = study_seed(setkey, x, pool)
            x = study_seed(key, x, pool)
        n = 0
        b = 0
        code = 0
        while True:  # `playout`'s loop
            if parts is not None and parts:
                nm = legal_parts(s, buf, 0, 0)
            else:
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
                if parts is not None and parts:
                    nm = legal(s, buf)
                m = buf[pick_chance(s, buf, nm, z)]
            elif parts is not None and parts:
                m, x = draw_parts(s, buf, nm, z, x)
                if m < 0:
                    code = -1 - s[OVER] if s[OVER] != 0 else -1
                    break
            else:
                m = buf[np.int64(z % np.uint64(nm))]
            if i < moves_out.shape[0] and n < moves_out.shape[1]:
                moves_out[i, n] = m
            apply(s, m)
            if s[OVER] != 0:
                code = -1 - s[OVER]
                break
            actions[i, m & AMASK] += 1
            n += 1
            b += nm
            if HASHING:
                hist[nhist0 + n - 1] = s[HSH] if INCREMENTAL else hash_state(s)
        game_ended(i, n, code, b, res, s, finals, plies, codes, results, branching, seats)
    return plies, codes, results, branching, actions, seats
