"""The kernel of whole turns, below the mark line: appended (after the constants `turns.py` writes)
only to the module of a game that declares `whole turns, at most N parts` (interpreter.whole_turns
is the reference, and the Python backend's listing). The modules of other games do not change.

- `legal_turns` lists the whole turns of a position as the Python backend lists them, in its order:
  depth first over the part-level `legal` and `apply` (a copy of the position a depth, N at most),
  a turn ending when another player is to move, at a chance node, where no part follows or where
  the end block ends the game. `keeping the most parts | NAME` keeps the turns of the highest
  value seen so far (a better one clears the list: the same turns, in the same order, as Python's
  filter after the walk). `one per position` merges turns by the position they reach (the first
  one found stands, replaced by one of fewer parts), and does not explore a position met before
  within the turn after as many parts. Positions are looked up by their hash (`hash_state`, the
  last move's mixed in where the rules read it), in open-addressed tables stamped with a
  generation number (no clearing between listings); an equal hash is confirmed by replaying the
  earlier turn's parts from the root and comparing the positions slot by slot, so that a hash
  collision merges nothing.
- `turn_perft` counts whole turns, nature's moves being moves as in the Python backend's perft.
- `turn_study_chunk` is `study_chunk` over whole turns: each of the player's turns drawn uniformly
  among the listed turns (one random word), nature's moves by their weights; a ply is a whole turn.
  The parts go into `moves_out`, each turn's number of parts into `lens_out`.

Codes as the other loops' (-1 too many moves or turns, -2 a stack past its room, -3 a move too long,
-4 an effect at a level a stack does not have), and -5: a turn longer than N parts (the Python
backend raises the ruleset's error at its declaration).
"""

import numpy as np

from ziggurat.interpreter.native.numbacache import njit

from .kernel import (AMASK, CAP, CHANCE, CHANCEACT, CNT, GOLDEN, HGT, HSH, LAST, MAXM, NC, NPLAYERS, OVER,
                     SEATS, SIDE, SIZE, STK, copy_state, hash_state, next_word)
from .kernel_loops import apply, chunk_columns, game_ended, legal, outcome, pick_chance

TURNPARTS = 2  # the generated constants, declared for linters
TURNMERGED = USESLAST = False
TURNKEEP = TURNSLOT = 0

# ---- kernel: from here on, the same in every native module ----

XBITS = 15  # the table of positions explored within a turn: 2**XBITS slots, half of them usable
EBITS = 15  # the table of the positions turns end at (more than MAXM turns: the loop stops)


@njit(cache=True, inline="always", internal=True)
def turn_key(s, depth):
    """The hash of a position (and of the last move, where the rules read it), mixed with a depth."""
    h = np.uint64(hash_state(s))
    if USESLAST:
        h += np.uint64(s[LAST] + 1) * GOLDEN
    return np.int64(h ^ (np.uint64(depth) * np.uint64(0xD6E8FEB86659FD93)))


@njit(cache=True, internal=True)
def same_position(a, b):
    """Whether two vectors hold the same position (what the hash covers: not the ply)."""
    if a[SIDE] != b[SIDE]:
        return False
    if USESLAST and a[LAST] != b[LAST]:
        return False
    for i in range(SEATS, HSH):
        if a[i] != b[i]:
            return False
    for c in range(NC):
        h = a[HGT + c]
        if h != b[HGT + c]:
            return False
        for k in range(h):
            if a[STK + c * CAP + k] != b[STK + c * CAP + k]:
                return False
    return True


@njit(cache=True, internal=True)
def reached_by(s0, parts, n, t, scratch):
    """Whether the n parts played from s0 reach t's position (a hash's confirmation)."""
    copy_state(scratch, s0)
    for k in range(n):
        apply(scratch, parts[k])
    return same_position(scratch, t)


@njit(cache=True, internal=True)
def zeroed(n):
    """np.zeros(n, np.int64), zeroed by a loop: np.zeros costs a compile of its own implementation
    (and of the functions it calls) per shape and type."""
    a = np.empty(n, np.int64)
    for i in range(n):
        a[i] = 0
    return a


@njit(cache=True, internal=True)
def turn_space():
    """The work arrays of `legal_turns`, allocated once a loop: positions and parts a depth, the
    parts played, the tables of explored and ending positions (stamped), the generation numbers."""
    n = TURNPARTS
    xpath = np.empty((1 << XBITS, n + 1), np.int64)
    for i in range(1 << XBITS):
        for k in range(n + 1):
            xpath[i, k] = 0
    return (np.empty((n + 1, SIZE), np.int64), np.empty((n + 1, MAXM), np.int64), zeroed(n + 1),
            zeroed(n + 1), zeroed(n), zeroed(1 << XBITS), zeroed(1 << XBITS), xpath,
            zeroed(1 << EBITS), zeroed(1 << EBITS), zeroed(1 << EBITS),
            zeroed(3), np.empty(SIZE, np.int64), np.empty(NPLAYERS + 1, np.float64), zeroed(1))


@njit(cache=True)
def legal_turns(s0, n, out, lens, space):
    """The whole turns from s0 into out (a row of parts each) and lens (their numbers of parts):
    their count, or a code below 0. The caller has listed s0's n > 0 parts into space[1][0], and
    s0 is no chance node and not over."""
    st, mv, idx, cnt, path, xkey, xstamp, xpath, ekey, estamp, eidx, gen, scratch, res, hist = space
    xmask = (1 << XBITS) - 1
    emask = (1 << EBITS) - 1
    gen[0] += 1  # a new listing: every stamp of the tables is old
    gen[1] += 1
    gen[2] = 0  # positions explored in this listing
    mover = s0[SIDE]
    copy_state(st[0], s0)
    cnt[0] = n
    idx[0] = 0
    total = 0
    best = 0
    d = 0
    while d >= 0:
        if idx[d] >= cnt[d]:
            d -= 1
            continue
        m = mv[d, idx[d]]
        idx[d] += 1
        path[d] = m
        t = st[d + 1]
        copy_state(t, st[d])
        apply(t, m)
        if t[OVER] != 0:
            return -1 - t[OVER]
        ends = t[SIDE] != mover
        nn = 0
        if not ends:
            nn = legal(t, mv[d + 1])
            if nn > MAXM:
                return -1
            ends = nn == 0 or (CHANCE and CHANCEACT[mv[d + 1, 0] & AMASK] != 0) or outcome(t, nn, res, hist, 0) != 0
            if t[OVER] != 0:
                return -1 - t[OVER]
        if ends:
            if TURNKEEP != 0:
                value = d + 1 if TURNKEEP == 1 else t[CNT + TURNSLOT]
                if total > 0 and value < best:
                    continue
                if total == 0 or value > best:
                    best = value
                    total = 0
                    gen[1] += 1  # the turns listed so far are dropped
            row = total
            if TURNMERGED:
                key = turn_key(t, 0)
                e = key & emask
                found = -1
                while estamp[e] == gen[1]:
                    if ekey[e] == key and reached_by(s0, out[eidx[e]], lens[eidx[e]], t, scratch):
                        found = eidx[e]
                        break
                    e = (e + 1) & emask
                if found >= 0:
                    if d + 1 >= lens[found]:
                        continue  # the turn listed first (or of fewer parts) stands for the position
                    row = found
                elif total >= MAXM:
                    return -1
                else:
                    estamp[e] = gen[1]
                    ekey[e] = key
                    eidx[e] = total
            elif total >= MAXM:
                return -1
            for k in range(d + 1):
                out[row, k] = path[k]
            lens[row] = d + 1
            if row == total:
                total += 1
            continue
        if d + 1 >= TURNPARTS:
            return -5  # the turn goes on past its declared parts
        if TURNMERGED:  # a position met before within the turn after as many parts is not explored again
            key = turn_key(t, d + 1)
            e = key & xmask
            seen = False
            while xstamp[e] == gen[0]:
                if xkey[e] == key and xpath[e, TURNPARTS] == d + 1 and reached_by(s0, xpath[e], d + 1, t, scratch):
                    seen = True
                    break
                e = (e + 1) & xmask
            if seen:
                continue
            gen[2] += 1
            if gen[2] > (1 << (XBITS - 1)):
                return -1  # too many positions within one turn: the Python backend lists it
            xstamp[e] = gen[0]
            xkey[e] = key
            for k in range(d + 1):
                xpath[e, k] = path[k]
            xpath[e, TURNPARTS] = d + 1
        d += 1
        cnt[d] = nn
        idx[d] = 0
    return total


@njit(cache=True)
def turns_of(s0, out, lens):
    """The moves of s0 as the Python backend lists them: its whole turns (a row of parts each),
    or, at a chance node, where no part is legal or where the game is over, its parts (one each)."""
    space = turn_space()
    mv = space[1]
    n = legal(s0, mv[0])
    if n > MAXM:
        return -1
    over = n == 0 or (CHANCE and CHANCEACT[mv[0, 0] & AMASK] != 0) or outcome(s0, n, space[13], space[14], 0) != 0
    if s0[OVER] != 0:
        return -1 - s0[OVER]
    if over:
        for k in range(n):
            out[k, 0] = mv[0, k]
            lens[k] = 1
        return n
    return legal_turns(s0, n, out, lens, space)


@njit(cache=True)
def turn_perft(s0, depth):
    """Leaves of the tree of whole turns (and nature's moves) to `depth`; a finished game counts 0
    below it; codes below 0 as `legal_turns`'."""
    if depth <= 0:
        return 1
    space = turn_space()
    mv, res, hist = space[1], space[13], space[14]
    states = np.empty((depth + 1, SIZE), np.int64)
    turns = np.empty((depth, MAXM, TURNPARTS), np.int64)
    lens = np.empty((depth, MAXM), np.int64)
    counts = zeroed(depth)
    idx = zeroed(depth)
    copy_state(states[0], s0)
    total = 0
    d = 0
    entering = True
    while True:
        if entering:
            entering = False
            s = states[d]
            n = legal(s, mv[0])
            if n > MAXM:
                return -1
            over = outcome(s, n, res, hist, 0) != 0
            if s[OVER] != 0:
                return -1 - s[OVER]
            if over:
                n = 0
            elif CHANCE and n > 0 and CHANCEACT[mv[0, 0] & AMASK] != 0:
                for k in range(n):
                    turns[d, k, 0] = mv[0, k]
                    lens[d, k] = 1
            elif n > 0:
                n = legal_turns(s, n, turns[d], lens[d], space)
                if n < 0:
                    return n
            if d == depth - 1:
                total += n
                d -= 1
                if d < 0:
                    return total
                continue
            counts[d] = n
            idx[d] = 0
        if idx[d] < counts[d]:
            i = idx[d]
            idx[d] += 1
            t = states[d + 1]
            copy_state(t, states[d])
            for k in range(lens[d, i]):
                apply(t, turns[d, i, k])
                if t[OVER] != 0:
                    return -1 - t[OVER]
            d += 1
            entering = True
        else:
            d -= 1
            if d < 0:
                return total


@njit(cache=True)
def turn_study_chunk(starts, seeds, maxplies, finals, moves_out, lens_out):
    """`study_chunk` over whole turns (see the module's text): the same columns; a ply is a whole
    turn or nature's move; `actions` counts each turn's first part's action, as the Python
    backend's studies count a move's. Game i's parts go into moves_out[i] and the number of
    parts of each of its turns into lens_out[i], when they have a row a game."""
    count = seeds.shape[0]
    plies, codes, results, branching, actions, seats = chunk_columns(count)
    space = turn_space()
    mv, hist = space[1], space[14]
    s = np.empty(SIZE, np.int64)
    turns = np.empty((MAXM, TURNPARTS), np.int64)
    lens = np.empty(MAXM, np.int64)
    res = np.empty(NPLAYERS + 1, np.float64)
    row = 0
    for i in range(count):
        if starts.shape[0] > 1:
            row = i
        for k in range(SIZE):
            s[k] = starts[row, k]
        for q in range(NPLAYERS + 1):
            res[q] = 0.0
        x = seeds[i]
        n = 0
        b = 0
        code = 0
        used = 0  # parts written into moves_out[i]
        while True:
            nm = legal(s, mv[0])
            if nm > MAXM:
                code = -1
                break
            code = outcome(s, nm, res, hist, 0)
            if s[OVER] != 0:
                code = -1 - s[OVER]
                break
            if code != 0 or n >= maxplies:
                break
            x, z = next_word(x)
            if CHANCE and CHANCEACT[mv[0, 0] & AMASK] != 0:  # nature's move, drawn by its weights
                turns[0, 0] = mv[0, pick_chance(s, mv[0], nm, z)]
                lens[0] = 1
                pick = 0
                nt = nm
            else:
                nt = legal_turns(s, nm, turns, lens, space)
                if nt < 0:
                    code = nt
                    break
                pick = np.int64(z % np.uint64(nt))
            for k in range(lens[pick]):
                m = turns[pick, k]
                if i < moves_out.shape[0] and used < moves_out.shape[1]:
                    moves_out[i, used] = m
                used += 1
                apply(s, m)
                if s[OVER] != 0:
                    break
            if s[OVER] != 0:
                code = -1 - s[OVER]
                break
            if i < lens_out.shape[0] and n < lens_out.shape[1]:
                lens_out[i, n] = lens[pick]
            actions[i, turns[pick, 0] & AMASK] += 1
            n += 1
            b += nt
        game_ended(i, n, code, b, res, s, finals, plies, codes, results, branching, seats)
    return plies, codes, results, branching, actions, seats
