"""The seeds of a study's games: each a 64-bit word that numpy's SeedSequence makes of the study's
seed, the game's index and a salt (0 the setup, 1, 2, ... the agents, NATURE_SALT nature's rolls),
so a game depends on the study and its index alone, whichever worker plays it.

`derived_seed` asks SeedSequence for one seed (some 30 us); `derived_seeds` computes the same
seeds for a whole chunk of indices at once, with SeedSequence's own hashing (numpy's
bit_generator: its entropy mixed into a pool of four 32-bit words, two words drawn from the pool)
written over numpy arrays: the native backend plays a game in tens of microseconds, so a seed
made per game by SeedSequence would cost more than the game. tests/test_lab_seeds.py checks the
two against each other.
"""

from __future__ import annotations

import numpy as np

NATURE_SALT = 1 << 20  # the salt of nature's stream in a game (agents' salts are 1, 2, ...)

_WORD = 0xFFFFFFFF
_POOL = 4  # SeedSequence's default pool size, in 32-bit words
_INIT_A, _MULT_A = 0x43B0D7E5, 0x931E8875  # the hash of the entropy into the pool
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED  # the hash of the pool into the words drawn
_MIX_L, _MIX_R = 0xCA01F9DD, 0x4973F715
_SHIFT = np.uint32(16)


def derived_seed(*parts: int) -> int:
    """A 64-bit seed from the study seed, a game index and a salt (numpy's SeedSequence mixes them)."""
    words = np.random.SeedSequence([int(p) & 0xFFFFFFFFFFFFFFFF for p in parts]).generate_state(2)
    return int(words[0]) << 32 | int(words[1])


def derived_seeds(study_seed: int, indices, salt: int) -> np.ndarray:
    """derived_seed(study_seed, i, salt) for each i of `indices`, as a numpy uint64 array."""
    idx = np.asarray(indices, dtype=np.int64).reshape(-1)
    if idx.size == 0:
        return np.zeros(0, dtype=np.uint64)
    if idx.min() < 0 or idx.max() > _WORD:  # an index of two words (or a negative one): one at a time
        return np.array([derived_seed(study_seed, int(i), salt) for i in idx], dtype=np.uint64)
    n = idx.size
    columns = [np.full(n, w, dtype=np.uint32) for w in _words(study_seed)]
    columns.append(idx.astype(np.uint32))
    columns += [np.full(n, w, dtype=np.uint32) for w in _words(salt)]
    pool = _mix_entropy(columns)
    first, second = _draw(pool)
    return (first.astype(np.uint64) << np.uint64(32)) | second.astype(np.uint64)


def seed_key(study_seed: int, salt: int, setup_salt: int) -> np.ndarray:
    """What the native kernel derives a chunk's seeds from (`study_seeds.study_seed`): the salt
    of the games' seeds, that of their setups', then the study seed's 32-bit words."""
    return np.array([salt, setup_salt] + _words(study_seed), dtype=np.uint64)


def _words(value: int) -> list:
    """An int's 32-bit words, least significant first (SeedSequence's: at least one word)."""
    value = int(value) & 0xFFFFFFFFFFFFFFFF
    out = [value & _WORD]
    value >>= 32
    while value:
        out.append(value & _WORD)
        value >>= 32
    return out


class _Hash:
    """SeedSequence's `hashmix`: a constant that moves on with every word it hashes."""

    def __init__(self):
        self.const = _INIT_A

    def __call__(self, value: np.ndarray) -> np.ndarray:
        value = value ^ np.uint32(self.const)
        self.const = (self.const * _MULT_A) & _WORD
        value = value * np.uint32(self.const)
        return value ^ (value >> _SHIFT)


def _mix(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    result = np.uint32(_MIX_L) * x - np.uint32(_MIX_R) * y
    return result ^ (result >> _SHIFT)


def _mix_entropy(entropy: list) -> list:
    """SeedSequence's pool after its entropy (columns of 32-bit words, one row per seed)."""
    hashmix = _Hash()
    n = entropy[0].size
    zero = np.zeros(n, dtype=np.uint32)
    pool = [hashmix(entropy[i] if i < len(entropy) else zero) for i in range(_POOL)]
    for src in range(_POOL):
        for dst in range(_POOL):
            if src != dst:
                pool[dst] = _mix(pool[dst], hashmix(pool[src]))
    for src in range(_POOL, len(entropy)):
        for dst in range(_POOL):
            pool[dst] = _mix(pool[dst], hashmix(entropy[src]))
    return pool


def _draw(pool: list) -> tuple:
    """SeedSequence.generate_state(2): two 32-bit words from the pool."""
    const = _INIT_B
    out = []
    for word in pool[:2]:
        value = word ^ np.uint32(const)
        const = (const * _MULT_B) & _WORD
        value = value * np.uint32(const)
        out.append(value ^ (value >> _SHIFT))
    return tuple(out)
