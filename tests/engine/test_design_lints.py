"""Design lints (ziggurat.proptest.design, `ziggurat test --design`) on tiny games made for them
(tests/engine/design): a forced win, a game that cannot end, a rule without effect, a first move
that wins the games. Every lint is checked to find what is there and nothing where nothing is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import ziggurat
from ziggurat.cli.main import cli
from ziggurat.proptest.design import ablations, design_lints, wilson

HERE = Path(__file__).parent / "design"
TAKE, ENDLESS, REDUNDANT = (str(HERE / f"{n}.rules") for n in ("take", "endless", "redundant"))


def lint(ruleset, name, **kw):
    kw.setdefault("budget", 120.0)
    return design_lints(ruleset, lints=[name], seed=1, **kw)


def replay(ruleset, moves, **options):
    st = ziggurat.load(ruleset, options).new()
    for m in moves:
        st.play(m)
    return st


@pytest.mark.parametrize("stones, winner, plies", [(4, "first", 3), (3, "second", 2), (5, "first", 3)])
def test_a_forced_win_is_found_with_its_line(stones, winner, plies):
    # Take 1 or 2; who is left with no stones to take loses: a pile that is a multiple of 3 is lost
    # for the side to move, so first wins from 4 and 5 (taking down to 3), second from 3.
    report = lint(TAKE, "forced-win", options={"stones": stones}, plies=6)
    (found,) = report.findings
    assert found.data["side"] == winner and found.data["plies"] == plies
    st = replay(TAKE, found.data["line"], stones=stones)
    assert st.outcome().winners() == (["first", "second"].index(winner),)


def test_no_forced_win_within_fewer_plies_than_it_takes():
    report = lint(TAKE, "forced-win", options={"stones": 7}, plies=4)  # 7 -> 6 -> ... takes at least 5 plies
    assert report.findings == [] and "every line of up to 4 plies" in report.checked["forced-win"]


def test_a_game_that_cannot_end_is_found_with_its_loop():
    report = lint(ENDLESS, "cannot-end")
    (found,) = report.findings
    assert found.title == "the game cannot end: no reachable position ends it"
    data = found.data
    # Each move changes the level by one and passes the turn, so the level's parity gives the side to
    # move: level 0 and 2 with first to move, level 1 with second; and none of them can end.
    assert data["positions"] == 3 and data["stuck"] == 3
    st = replay(ENDLESS, data["reach"])
    start = st.text()
    for m in data["loop"]:
        st.play(m)
    assert data["loop"] and st.text().split()[0] == start.split()[0]  # the same side to move
    assert st.counters == replay(ENDLESS, data["reach"]).counters  # and the same level: the loop closes


def test_a_game_that_ends_has_no_cannot_end_finding():
    report = lint("tic-tac-toe", "cannot-end")
    assert report.findings == [] and "5,478" in report.checked["cannot-end"]  # tic-tac-toe's legal positions


def test_a_rule_that_never_changes_a_result_is_found():
    report = lint(REDUNDANT, "no-effect", random_games_n=20)
    lines = sorted(f.data["line"] for f in report.findings)
    assert lines == [24]  # `if pile < 0:` with its `lose`; each `when` and effect changes something
    assert report.findings[0].data["rule"] == "if pile < 0:"


def test_ablations_take_out_one_rule_with_its_block():
    text = Path(REDUNDANT).read_text()
    cut = dict(ablations(text))
    # the two `when`s, the two effects, and in the end block each `if` (with its block) and each `lose`
    assert set(cut) == {14, 16, 19, 21, 24, 25, 26, 27}
    assert "pile < 0" not in cut[24] and "\"a pile below zero\"" not in cut[24] and "pile == 0" in cut[24]
    assert len(cut[24].splitlines()) == len(text.splitlines())  # lines kept, so diagnostics stay in place


def test_a_first_move_that_wins_the_games_is_found():
    report = lint(TAKE, "first-move", agent="alphabeta:depth=6", games=12)
    (found,) = report.findings
    assert found.data["move"] == "1" and found.data["wins"] == found.data["games"] == 12
    lo, hi = found.data["interval"]
    assert lo > 0.5 and hi == pytest.approx(1.0)


def test_wilson_interval():
    # 7 of 10: 0.3968 to 0.8922 (the Wilson score interval at 95%, worked by hand).
    lo, hi = wilson(7, 10)
    assert lo == pytest.approx(0.3968, abs=1e-4) and hi == pytest.approx(0.8922, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_unknown_lint_and_bad_numbers_are_errors():
    with pytest.raises(ziggurat.GameError, match="no design lint"):
        design_lints(TAKE, lints=["nothing"])
    with pytest.raises(ziggurat.GameError):
        design_lints(TAKE, plies=0)


def test_the_command_prints_findings_and_json():
    result = CliRunner().invoke(cli, ["test", ENDLESS, "--design", "--seed", "1", "-n", "5", "--budget", "30",
                                      "--agent", "random"])
    assert result.exit_code == 0, result.output
    assert "cannot-end" in result.output and "checked forced-win" in result.output
    result = CliRunner().invoke(cli, ["test", TAKE, "--design", "--json", "--seed", "1", "-n", "5", "--budget", "30",
                                      "--agent", "alphabeta:depth=4"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)["design"]
    assert {f["lint"] for f in data["findings"]} >= {"forced-win", "first-move"}
    result = CliRunner().invoke(cli, ["test", TAKE, "--design", "--agent", "nobody"])
    assert result.exit_code != 0 and "unknown agent" in result.output and "Traceback" not in result.output


def test_a_game_with_too_many_positions_that_never_ends_is_found_by_random_games(tmp_path):
    # The level goes up without bound or down to 0, and only a level below 0 would end the game:
    # endless positions, and no game can end.
    text = Path(ENDLESS).read_text().replace("when level < 2\n", "when level >= 0\n")
    text = text.replace("if level == 5:", "if level < 0:")
    path = tmp_path / "climb.rules"
    path.write_text(text)
    report = design_lints(str(path), lints=["cannot-end"], budget=2.0, random_games_n=5, max_plies=40, seed=1)
    (found,) = report.findings
    assert found.title == "no random game ended: all 5 ran to 40 plies"
    assert "not all" in report.checked["cannot-end"]
    loop = found.data["loop"]
    ups, downs = loop.count("up"), loop.count("down")
    assert loop and ups == downs  # a loop comes back to the same level


def test_the_first_move_lint_uses_the_native_search_when_numba_is_there():
    pytest.importorskip("numba")
    report = lint(TAKE, "first-move", games=2)
    checked = report.checked["first-move"]
    assert checked.startswith("2 games of mcts:iterations=200:rollouts=native against itself")
    assert "the native MCTS (Numba), the default" in checked


def test_the_first_move_lint_falls_back_to_python_and_says_why(monkeypatch):
    import ziggurat.interpreter.native as native
    from ziggurat.agents import AgentError
    from ziggurat.proptest import design

    monkeypatch.setattr(native, "available", lambda: "no Numba here")
    assert design.first_move_agent(ziggurat.load(TAKE), None) == (
        "mcts:iterations=200", "the Python MCTS: Numba is not installed")
    monkeypatch.setattr(native, "available", lambda: None)

    def refuse(spec, **kw):  # as the native search refuses a game it cannot compile
        raise AgentError("mcts:rollouts=native: no native backend for this game")

    monkeypatch.setattr(design, "make_agent", refuse)
    agent, why = design.first_move_agent(ziggurat.load(TAKE), None)
    assert agent == "mcts:iterations=200" and "native search cannot run this game" in why
    assert design.first_move_agent(ziggurat.load(TAKE), "random") == ("random", "")
