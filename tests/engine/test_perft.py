"""The compiled engine against the perft data files.

Every count in tests/perft/*.perft comes from independent reasoning: hand counts on small
positions, plain-Python implementations written apart from the engine (tests/reference and
benchmarks/handwritten_stacktics.py), and published tables (English draughts); see the header of
each file. Counts up to half a million leaves run in the default suite (no record loses a count below
depth 4); the deeper ones (Stacktics at depth 4 on boards of size 3 to 5 and depth 5
on size 2, English draughts at depth 8, Chaos with ten pieces at depth 4: 30 CPU seconds
together, measured) only with ZIGGURAT_SLOW=1, up to 100 million leaves.
"""

import os

import pytest

import ziggurat
from perft_data import all_records

LIMIT = 100_000_000 if os.environ.get("ZIGGURAT_SLOW") else 500_000

CASES = [(r, depth, leaves) for r in all_records() for depth, leaves in r.counts]


@pytest.mark.parametrize("record,depth,leaves", CASES,
                         ids=[f"{r.file}:{r.id}:d{d}" for r, d, _ in CASES])
def test_perft_matches_independent_count(record, depth, leaves):
    """perft(depth) from the record's position equals the independently computed count."""
    if leaves > LIMIT:
        pytest.skip(f"{leaves} leaves: run with ZIGGURAT_SLOW=1")
    game = ziggurat.load(record.ruleset, record.options)
    state = game.position(record.position)
    assert ziggurat.perft(state, depth) == leaves
