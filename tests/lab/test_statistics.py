"""`statistic "text": EXPR`: what a study measures on the last position of each game, declared in
the ruleset; and the moves by action that `simulate` counts for every ruleset."""

from __future__ import annotations

import pytest

import ziggurat
from ziggurat.dsl.checks import check
from ziggurat.lab.stats import mean_interval, summarize
from ziggurat.lab.study import StudySpec, run_study

# One counter climbs by 1 or 2 a move; the game ends when it reaches 4 or more.
CLIMB = """\
players a, b
board:
    files: 1
    ranks: 1
piece:
    owner: players
counter height = 0
action one "one":
    do:
        height += 1
action two "two":
    do:
        height += 2
end:
    if height >= 4:
        win mover "over the top"
statistic "the height": height
statistic "overshot": height == 5
"""


def write(tmp_path, text):
    path = tmp_path / "climb.rules"
    path.write_text(text)
    return str(path)


def test_statistics_are_read_on_a_position_as_numbers_and_truths(tmp_path):
    game = ziggurat.load(write(tmp_path, CLIMB))
    s = game.new()
    for move in ("two", "one", "two"):
        s.play(move)
    assert s.statistics() == {"the height": 5, "overshot": True}
    assert game.statistic_texts == ["the height", "overshot"]


@pytest.mark.parametrize("line, message", [
    ('statistic "where": none', "a statistic is a number or a truth, not a cell"),
    ('statistic "the height": height + 1', "statistic 'the height' is declared twice"),
])
def test_a_statistic_must_be_a_number_or_a_truth_and_named_once(tmp_path, line, message):
    found = [d.message for d in check(write(tmp_path, CLIMB + line + "\n")) if d.severity == "error"]
    assert any(message in m for m in found), found


def test_a_study_reports_each_statistic_and_the_moves_of_each_action(tmp_path):
    spec = StudySpec(write(tmp_path, CLIMB), ("random", "random"), 60, seed=3)
    records = run_study(spec, workers=1)
    summary = summarize(spec, records)
    heights = [r.statistics["the height"] for r in records]
    assert set(heights) <= {4, 5} and all(sum(r.actions.values()) == r.plies for r in records)
    by_text = {s["statistic"]: s for s in summary["statistics"]}
    assert by_text["the height"]["mean"] == pytest.approx(sum(heights) / 60)
    overshot = sum(1 for h in heights if h == 5)
    assert by_text["overshot"]["mean"] == pytest.approx(overshot / 60)
    assert 0 <= by_text["overshot"]["lo"] <= by_text["overshot"]["hi"] <= 1  # a rate: Wilson's interval
    moves = {a["action"]: a for a in summary["actions"]}
    assert moves["one"]["per_game"]["mean"] == pytest.approx(sum(r.actions.get("one", 0) for r in records) / 60)
    assert moves["two"]["games"]["k"] == sum(1 for r in records if r.actions.get("two"))


def test_a_mean_interval_stays_within_the_values_seen():
    m = mean_interval([0, 0, 0, 0, 1])
    assert m["mean"] == pytest.approx(0.2) and m["lo"] == 0 and 0.2 < m["hi"] <= 1
    assert mean_interval([3, 3, 3]) == {"n": 3, "mean": 3.0, "lo": 3.0, "hi": 3.0}
