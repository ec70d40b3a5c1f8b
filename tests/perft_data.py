"""Reading perft data files (tests/perft/*.perft): blank-line separated records.

    id size3-start
    ruleset stacktics
    options size=3
    position start
    perft 1 31
"""

from __future__ import annotations

from pathlib import Path

from ziggurat.proptest.perft_files import PerftRecord, read  # noqa: F401 (the tests' names)

PERFT_DIR = Path(__file__).parent / "perft"


def all_records() -> list:
    return [r for p in sorted(PERFT_DIR.glob("*.perft")) for r in read(p)]
