"""Golden games: whole recorded games of every shipped ruleset, replayed exactly.

Each record in tests/golden/records/ was made by tests/golden/make_records.py (seeded random
play). A change in the engine or a ruleset that alters any of these games fails here: every move
must still be legal, and the result, scores and final position must be exactly the recorded ones.
Regenerate only after a reviewed rule change (see make_records.py).
"""

from pathlib import Path

import pytest

from ziggurat.dsl.loader import shipped_names
from ziggurat.records import load_record, result_text, scores_text, steps

RECORDS = sorted((Path(__file__).parent.parent / "golden" / "records").glob("*.zrec"))


class TestGoldenRecords:
    def test_every_shipped_ruleset_has_golden_games(self):
        """Each shipped ruleset has at least one golden record (add them with make_records.py)."""
        covered = {load_record(p).ruleset for p in RECORDS}
        missing = sorted(set(shipped_names()) - covered)
        assert not missing, f"no golden records for {missing}: run tests/golden/make_records.py {' '.join(missing)}"

    @pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
    def test_replays_exactly(self, path):
        """Every move is legal, and the final position, result and scores are as recorded."""
        record = load_record(path)
        played = 0
        for number, _, _, state in steps(record):  # raises RecordError at an illegal move
            played = number
        assert played == len(record.moves)
        assert state.text() == record.final
        assert result_text(state) == record.result
        assert scores_text(state) == record.scores
