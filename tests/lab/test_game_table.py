"""A study's games as a table (`ziggurat.lab.table.GameTable`): it gives back the records it was
made of, joins batches in game order, and its statistics are the plain counts of its records."""

from __future__ import annotations

import attrs

from ziggurat.lab.stats import summarize
from ziggurat.lab.study import StudySpec, run_study
from ziggurat.lab.table import GameTable


def _pig_records(n=12, seed=3):
    spec = StudySpec("pig", ("random", "greedy"), n, {}, seed=seed, max_plies=60)
    return spec, list(run_study(spec, workers=1))


def test_a_table_gives_back_the_records_it_was_made_of():
    _, records = _pig_records()
    odd = [attrs.evolve(records[0], index=100, statistics={"rolled": 3, "doubled": True}, backend="native",
                        actions={"hold": 1}),
           attrs.evolve(records[1], index=101, kind="draw", reason="a tie", results_by_seat=(0.5, 0.5),
                        results_by_side=(0.5, 0.5))]
    scored = [attrs.evolve(r, scores_by_seat=(2.0, -2.0), scores_by_side=(-2.0, 2.0)) for r in records[:4]]
    for made in (records, odd, records + odd, scored):
        assert list(GameTable.of_records(made, 2)) == made
    back = GameTable.of_records(records, 2)[3]
    assert back == records[3]
    assert all(type(x) is float for x in back.results_by_seat) and all(type(x) is int for x in back.seat_agents)


def test_batches_are_joined_in_game_order_with_their_endings_and_actions():
    _, records = _pig_records()
    late = [attrs.evolve(r, reason="late " + r.reason, actions={"late": 1, **r.actions}) for r in records[6:]]
    tables = [GameTable.of_records(late, 2), GameTable.of_records(records[:6], 2)]
    joined = GameTable.concat(tables, 2)
    assert list(joined.index) == sorted(r.index for r in records)
    assert list(joined) == records[:6] + late


def test_the_summary_is_the_plain_count_of_the_records():
    spec, records = _pig_records(n=30, seed=5)
    s = summarize(spec, GameTable.of_records(records, 2))
    for j, label in enumerate(["random", "greedy"]):
        mine = [r.results_by_seat[r.seat_agents.index(j)] for r in records]
        got = next(a for a in s["agents"] if a["agent"] == label)
        assert (got["wins"], got["losses"], got["draws"]) == (mine.count(1), mine.count(0),
                                                               len(mine) - mine.count(1) - mine.count(0))
    first = [r.results_by_seat[r.first_seat] for r in records]
    assert s["first_player"]["win_rate"]["k"] == first.count(1)
    counts: dict = {}
    for r in records:
        counts[r.kind, r.reason] = counts.get((r.kind, r.reason), 0) + 1
    assert [(e["kind"], e["reason"], e["games"]) for e in s["endings"]] == \
        [(k, why, c) for (k, why), c in sorted(counts.items(), key=lambda kv: -kv[1])]
    assert s["passes"]["total"] == sum(r.passes for r in records)
    assert s["length"]["max"] == max(r.plies for r in records)
    rolls = [r.actions.get("roll", 0) for r in records]
    got = next(a for a in s["actions"] if a["action"] == "roll")
    assert got["games"]["k"] == sum(1 for c in rolls if c) and abs(got["per_game"]["mean"] - sum(rolls) / 30) < 1e-12


def test_journal_lines_of_a_table_and_of_its_records_are_what_json_dumps_writes_points_included():
    """The journal writes its lines by hand, from a table's columns or from a record: the text
    json.dumps writes of the record, the points of a game of points included (they were left out,
    so a resumed study of points lost them)."""
    import json

    from ziggurat.lab.journal import Lines
    from ziggurat.lab.table import GameResult

    _, records = _pig_records()
    native = [attrs.evolve(r, backend="native") for r in records[:3]]
    scored = [attrs.evolve(r, scores_by_seat=(3.0, -3.0), scores_by_side=(-3.0, 3.0)) for r in records[3:7]]
    for made in (records, native, scored):
        want = [json.dumps({"study": 2, "game": r.as_json()}) for r in made]
        assert Lines().table_lines(2, GameTable.of_records(made, 2)) == want
        assert [Lines().line(2, r) for r in made] == want
        assert [GameResult.from_json(json.loads(line)["game"]) for line in want] == made


def test_the_native_tables_count_of_its_outcome_codes_is_numpys_unique():
    import numpy as np

    from ziggurat.lab.table import _small_unique

    rng = np.random.default_rng(5)
    for keys in (rng.integers(-9, 12, 500), np.array([7] * 40), np.array([], dtype=np.int64),
                 np.array([3, 10**6, -2, 3])):  # the last: keys too far apart to count, sorted instead
        got, want = _small_unique(keys), np.unique(keys, return_inverse=True)
        assert got[0].tolist() == want[0].tolist() and got[1].tolist() == want[1].tolist()
