"""`low_bit`, which the loops of a native module over occupancy words (occupancy.py) call: a module
of its own, imported by the written modules only, since it needs Numba (the writer does not)."""

from __future__ import annotations

import numpy as np
from numba.core.extending import overload
from numba.cpython.unsafe.numbers import trailing_zeros


def low_bit(b) -> int:
    """The index of the lowest set bit of b (above 0): trailing_zeros where compiled."""
    b = int(b)
    return (b & -b).bit_length() - 1


@overload(low_bit)
def _low_bit(b):
    def impl(b):
        return np.int64(trailing_zeros(b))
    return impl
