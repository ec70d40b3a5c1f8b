"""The arithmetic of dice, shared by folding (constants) and generated modules (run time)."""

from __future__ import annotations

from functools import lru_cache
from math import comb


@lru_cache(maxsize=4096)
def ways(n: int, faces: int, total: int) -> int:
    """How many of the faces**n throws of n dice numbered 1..faces add up to `total` (1 way for
    no dice and a total of 0; 0 for anything impossible, negative counts included)."""
    if n < 0 or faces < 1:
        return 0
    if n == 0:
        return 1 if total == 0 else 0
    if not n <= total <= n * faces:
        return 0
    return sum(ways(n - 1, faces, total - f) for f in range(1, min(faces, total) + 1))


def showing(n: int, faces: int, k: int) -> int:
    """How many of the faces**n throws of n dice show one chosen face on exactly k of them:
    C(n, k) * (faces - 1)**(n - k) (0 for anything impossible)."""
    if faces < 1 or not 0 <= k <= n:
        return 0
    return comb(n, k) * (faces - 1) ** (n - k)
