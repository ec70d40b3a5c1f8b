"""A study's seeds in native code: the seed of game `index` of a study, as `ziggurat.lab.seeds`
derives it in Python (numpy's `SeedSequence([study seed, index, salt]).generate_state(2)`, its
`hashmix`, `mix` and `generate_state` ported word for word), for `study_chunk` (kernel_loops.py),
which derives each game's seed itself from the study's key.

A module of its own, not a part of the kernel text every native module repeats: compiled once per
machine (Numba's cache) and called by every module's loop, instead of typed and compiled again
with each module (1.3-1.5 CPU s of every cold compile).
"""

import numpy as np

from ziggurat.interpreter.native.numbacache import njit

# numpy's SeedSequence (its `hashmix`, `mix` and `generate_state`; see ziggurat.lab.seeds) on 32-bit
# words held in unsigned 64-bit ones, every product masked back to 32 bits.
SS_WORD = np.uint64(0xFFFFFFFF)
SS_INIT_A, SS_MULT_A = np.uint64(0x43B0D7E5), np.uint64(0x931E8875)
SS_INIT_B, SS_MULT_B = np.uint64(0x8B51F9DD), np.uint64(0x58F38DED)
SS_MIX_L, SS_MIX_R = np.uint64(0xCA01F9DD), np.uint64(0x4973F715)
SS_SHIFT, SS_HIGH = np.uint64(16), np.uint64(32)


@njit(cache=True, inline="always")
def seed_entropy(key, index, k):
    """Word k of a game's entropy: the study seed's words (key[2:]), the game's index, then the
    salt (key[0]); 0 past the end (SeedSequence pads its pool so)."""
    nk = key.shape[0] - 2
    if k < nk:
        return key[2 + k]
    if k == nk:
        return index
    if k == nk + 1:
        return key[0]
    return np.uint64(0)


@njit(cache=True, inline="always")
def seed_hashmix(value, const):
    value = (value ^ const) & SS_WORD
    const = (const * SS_MULT_A) & SS_WORD
    value = (value * const) & SS_WORD
    return value ^ (value >> SS_SHIFT), const


@njit(cache=True, inline="always")
def seed_mix(x, y):
    r = (SS_MIX_L * x - SS_MIX_R * y) & SS_WORD
    return r ^ (r >> SS_SHIFT)


@njit(cache=True)
def study_seed(key, index, pool):
    """The seed of game `index` (below 2**32) of a study: numpy's
    `SeedSequence([study seed, index, salt]).generate_state(2)` as one 64-bit word (first word
    high), where key is (salt, unused, the study seed's 32-bit words, least significant first:
    at least one); `pool` is room for SeedSequence's four words."""
    n = key.shape[0]  # entropy words: the seed's (n - 2), the index and the salt
    const = SS_INIT_A
    for k in range(4):
        h, const = seed_hashmix(seed_entropy(key, index, k), const)
        pool[k] = h
    for src in range(4):
        for dst in range(4):
            if src != dst:
                h, const = seed_hashmix(pool[src], const)
                pool[dst] = seed_mix(pool[dst], h)
    for src in range(4, n):
        for dst in range(4):
            h, const = seed_hashmix(seed_entropy(key, index, src), const)
            pool[dst] = seed_mix(pool[dst], h)
    const = SS_INIT_B
    out = np.uint64(0)
    for k in range(2):
        value = (pool[k] ^ const) & SS_WORD
        const = (const * SS_MULT_B) & SS_WORD
        value = (value * const) & SS_WORD
        out = (out << SS_HIGH) | (value ^ (value >> SS_SHIFT))
    return out
