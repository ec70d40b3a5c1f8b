"""The open table's measures and places, as exact whole numbers.

Games of the Icehouse family are played on a table, not a board. Lengths on the table are
whole numbers of a fixed unit, 1/2000 of an inch, so that every measure the rules write in
inches with up to four decimals (`1.375in`, `0.6in`) and half of it (a centre) is exact: no
length is ever a float. A *spot* is where a piece lies on the table: the centre of its
footprint and its pose (standing, or lying with its point towards n, e, s or w), packed into
one int so that moves and positions hold it like any other value. The rules never see the
packing: they read spots through the table's functions (`standing`, `piece_at`, ...).
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Optional

UNITS_PER_INCH = 2000  # a length of 1in is 2000 units
LENGTH_UNITS = {"in": UNITS_PER_INCH}  # the suffixes a length may be written with

# Poses: 0 standing; a lying piece 1 + the number of the direction its point faces (n 0, e 2,
# s 4, w 6 in dsl.model.BUILTIN_DIRECTIONS' order).
STANDING = 0
POINTING = {"n": 0, "e": 2, "s": 4, "w": 6}  # a lying piece's direction -> its direction number
STEPS = {0: (0, 1), 2: (1, 0), 4: (0, -1), 6: (-1, 0)}  # direction number -> unit step (x, y)
BIAS = 1 << 25  # coordinates from -BIAS to BIAS - 1 units (about 16,777 inches either way)
NONE = -1  # no spot (`none`)


def length_units(text: str) -> int:
    """The units of a length literal (`1.375in` -> 2750); ValueError when it is not a whole
    number of units."""
    m = re.fullmatch(r"([0-9]+(?:\.[0-9]+)?)([a-z]+)", text)
    if m is None or m.group(2) not in LENGTH_UNITS:
        raise ValueError(f"{text!r} is not a length: write a number and 'in', as 1.375in")
    value = Fraction(m.group(1)) * LENGTH_UNITS[m.group(2)]
    if value.denominator != 1:
        raise ValueError(f"{text} is not a whole number of the table's unit (1/{UNITS_PER_INCH} of an inch)")
    return int(value)


def spot(x: int, y: int, pose: int = STANDING) -> int:
    """The spot with its centre at (x, y) units and this pose."""
    return (((x + BIAS) << 26) | (y + BIAS)) << 3 | pose


def centre(s: int) -> tuple[int, int]:
    """(x, y) of a spot's centre, in units."""
    return ((s >> 29) - BIAS, ((s >> 3) & ((1 << 26) - 1)) - BIAS)


def pose(s: int) -> int:
    return s & 7


def direction(s: int) -> int:
    """The direction number a lying spot's point faces (-1 for a standing one)."""
    return (s & 7) - 1


def inches(units: int) -> str:
    """A length in inches with as few decimals as exact: 2750 -> '1.375', -800 -> '-0.4'."""
    sign = "-" if units < 0 else ""
    whole, part = divmod(abs(units), UNITS_PER_INCH)
    if not part:
        return f"{sign}{whole}"
    digits = str(part * 10**4 // UNITS_PER_INCH)  # exact: 10**4 is a multiple of UNITS_PER_INCH
    return f"{sign}{whole}." + digits.rjust(4, "0").rstrip("0")


NAMES = {v: k for k, v in POINTING.items()}
SPOT_PATTERN = r"-?[0-9]+(?:\.[0-9]+)?,-?[0-9]+(?:\.[0-9]+)?(?:>[nesw])?"


def spot_text(s: int) -> str:
    """'X,Y' for a standing spot, 'X,Y>D' for a lying one, in inches."""
    x, y = centre(s)
    d = direction(s)
    return f"{inches(x)},{inches(y)}" + (f">{NAMES[d]}" if d >= 0 else "")


def parse_spot(text: str) -> Optional[int]:
    """The spot a text names, or None when it is not one (see spot_text)."""
    m = re.fullmatch(r"(-?[0-9]+(?:\.[0-9]{1,4})?),(-?[0-9]+(?:\.[0-9]{1,4})?)(?:>([nesw]))?", text)
    if m is None:
        return None
    x, y = (Fraction(v) * UNITS_PER_INCH for v in m.group(1, 2))
    if x.denominator != 1 or y.denominator != 1 or not (-BIAS <= x < BIAS and -BIAS <= y < BIAS):
        return None
    return spot(int(x), int(y), POINTING[m.group(3)] + 1 if m.group(3) else STANDING)
