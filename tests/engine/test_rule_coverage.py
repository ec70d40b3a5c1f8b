"""Rule coverage (ziggurat.proptest.coverage, `ziggurat test --coverage`): what each rules line
did over random games, and what never fired, on small rulesets written for it (tests/engine/design)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import ziggurat
from ziggurat.cli.main import cli
from ziggurat.proptest.coverage import Tracer, rule_coverage

HERE = Path(__file__).parent / "design"
DEAD, TAKE = str(HERE / "dead.rules"), str(HERE / "take.rules")


def rows_at(report, line: int) -> dict:
    return {r.construct: r for r in report.rows if r.line == line}


def test_a_dead_action_is_listed_as_never_legal():
    report = rule_coverage(DEAD, games=20, seed=1)
    jump = rows_at(report, 18)["action"]
    assert jump.counts == {"listed": 0, "played": 0}
    assert "dead action" in jump.never[0]
    take = rows_at(report, 13)["action"]
    assert take.counts["played"] == 4 * 20 and not take.never  # four stones, one a move, in each game
    assert "never held" in rows_at(report, 19)["when"].never[0]
    assert rows_at(report, 21)["line"].counts == {"ran": 0}  # the jump's effect


def test_an_ending_never_reached_is_listed():
    report = rule_coverage(DEAD, games=20, seed=1)
    (seven,) = [r for r in report.rows if r.construct.startswith("ending") and "seven" in r.construct]
    assert seven.line == 27 and seven.counts == {"ended": 0} and seven.never
    (lost,) = [r for r in report.rows if r.construct.startswith("ending") and "no stones" in r.construct]
    assert lost.counts == {"ended": 20} and not lost.never  # every game ends there
    never = {(r.line, r.construct) for r in report.never()}
    assert never == {(18, "action"), (19, "when"), (21, "line"), (26, "if"), (27, "ending (draw: seven)")}


def test_where_everything_fires_nothing_is_listed_as_never_fired():
    report = rule_coverage(TAKE, games=20, seed=1)
    assert report.never() == [] and report.complete
    where = rows_at(report, 17)
    assert where["where"].counts["held"] > 0 and where["where"].counts["refused"] > 0  # 2 refused with 1 stone left
    assert where["choice"].counts == {"values listed": 2, "values played": 2}
    assert report.games == 20 and report.unfinished == 0


def test_a_refusal_that_never_fires_is_listed():
    # With a pile of 20 and at most 2 plies a game, `n <= pile` is never false.
    report = rule_coverage(TAKE, games=5, seed=1, max_plies=2, options={"stones": 20})
    where = rows_at(report, 17)["where"]
    assert where.counts["refused"] == 0 and "never refused" in where.never[0]
    assert report.unfinished == 5


def test_what_runs_in_also_is_counted_too():
    def jump_position(game):  # a position the games never reach: the jump is listed there
        st = game.position("first 0 | | pile=12")
        assert game.legal(st) == [(0,), (1,)]

    report = rule_coverage(DEAD, games=0, also=[jump_position])
    assert rows_at(report, 18)["action"].counts == {"listed": 1, "played": 0}


def test_the_tracer_is_off_after_coverage_and_the_game_untouched():
    game = ziggurat.load(DEAD)
    legal = game.legal
    before = sys.gettrace()
    with Tracer(game) as tracer:
        game.legal(game.new())
    assert sys.gettrace() is before and game.legal is legal
    assert tracer.calls["legal"] == 1
    game.legal(game.new())
    assert tracer.calls["legal"] == 1  # nothing counted once it is off


def test_a_shipped_game_maps_its_rows_to_its_rules_lines():
    report = rule_coverage("tic-tac-toe", games=10, seed=2)
    text = Path(ziggurat.load("tic-tac-toe").spec.sources[0]).read_text().splitlines()
    for row in report.rows:
        assert text[row.line - 1].strip() == row.text
    assert {r.construct for r in report.rows if r.text.startswith("action mark")} == {"action"}


def test_the_command_prints_the_table_and_json():
    result = CliRunner().invoke(cli, ["test", DEAD, "--coverage", "-n", "10", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "dead.rules:18" in result.output and "never fired (5)" in result.output
    result = CliRunner().invoke(cli, ["test", TAKE, "--coverage", "-n", "10", "--seed", "1", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.output)["coverage"]
    assert data["never"] == [] and data["games"] == 10
    assert {"file", "line", "construct", "text", "counts", "never"} <= set(data["rows"][0])


def test_bad_counts_are_errors_not_tracebacks():
    with pytest.raises(ziggurat.GameError):
        rule_coverage(DEAD, games=-1)


def test_a_rule_fired_only_by_an_example_is_covered(tmp_path):
    # The random games never have a pile over 10: only the example's position lists and plays the jump
    # and reaches the draw at seven.
    path = tmp_path / "dead.rules"
    path.write_text(Path(DEAD).read_text() + '\nexample "a big pile":\n    position: "first 0 | | pile=12"\n'
                    '    legal: "jump"\n    outcome after "jump": draw "seven"\n')
    without = rule_coverage(str(path), games=5, seed=1, examples=False)
    assert rows_at(without, 18)["action"].counts == {"listed": 0, "played": 0}
    report = rule_coverage(str(path), games=5, seed=1)
    assert report.examples == 1
    jump = rows_at(report, 18)["action"]
    assert jump.counts["listed"] >= 1 and jump.counts["played"] >= 1 and not jump.never
    assert rows_at(report, 21)["line"].counts["ran"] >= 1
    assert rows_at(report, 27)["ending (draw: seven)"].counts["ended"] >= 1
    assert report.never() == [] and len(without.never()) == 5  # the example fired all dead.rules never did
    result = CliRunner().invoke(cli, ["test", str(path), "--coverage", "-n", "5", "--seed", "1", "--json"])
    data = json.loads(result.output)["coverage"]
    assert result.exit_code == 0 and data["examples"] == 1 and data["never"] == []
