"""Results in points (`win P by K`, `lose P by K`, `win by NAME`): how they parse, each mistake at
its line and column with a hint, what each outcome is worth in both backends, and what reads them:
the agents (expected points), the studies (mean points with intervals) and the records."""

from __future__ import annotations

import os

import pytest
from rules_edits import at, replace_once, the_error

import ziggurat
from ziggurat.dsl import ast
from ziggurat.dsl.checks import check
from ziggurat.dsl.parser import parse

HERE = os.path.join(os.path.dirname(__file__), "points")
POINTS = os.path.join(HERE, "points.rules")
GAMBLE = os.path.join(HERE, "gamble.rules")
TEXT = open(POINTS).read()


def edit(old: str, new: str, text: str = TEXT) -> str:
    return replace_once(text, old, new)


def play(game, moves: list):
    st = game.new()
    for m in moves:
        st.play(st.parse_move(m))
    return st


# ---- the language -------------------------------------------------------------------------------


def test_win_and_lose_by_parse_to_their_points_and_win_by_to_a_scored_ranking():
    end = next(d for d in parse(TEXT).decls if isinstance(d, ast.End))
    found = [n for n in ast_walk(end.body) if isinstance(n, (ast.Outcome, ast.Rank))]
    win, lose, draw, by = found
    assert (win.kind, win.points.value) == ("win", 2)
    assert (lose.kind, lose.points.value) == ("lose", 3)
    assert (draw.kind, draw.points) == ("draw", None)
    assert by.scored and [k.id for k in by.keys] == ["points"] and by.reason == "every player has had two turns"


def ast_walk(stmts):
    for s in stmts:
        yield s
        for name in ("body", "orelse"):
            inner = getattr(s, name, None)
            if isinstance(inner, (list, tuple)):
                yield from ast_walk(inner)
        for part in getattr(s, "elifs", ()) or ():
            yield from ast_walk(part.body)


def test_the_test_games_check_clean():
    assert check(POINTS) == [] and check(GAMBLE) == []


def test_a_win_by_no_points_is_reported_at_the_points():
    text = edit("win p by 2", "win p by 0")
    d = the_error(text)
    assert (d.line, d.col) == at(text, "0 \"four\"")
    assert "a result is worth 1 point or more" in d.message


def test_points_that_are_not_a_number_are_reported():
    text = edit("lose p by 3", "lose p by p")
    d = the_error(text)
    assert (d.line, d.col) == at(text, "p \"nothing\"")
    assert "points of 'lose ... by'" in d.message


def test_win_by_an_unknown_name_suggests_the_def_meant():
    text = edit("win by points", "win by pionts")
    d = the_error(text)
    assert (d.line, d.col) == at(text, "pionts")
    assert "'win by' needs a def of one player" in d.message and "points" in d.hint


def test_win_by_outside_the_end_block_is_reported():
    text = edit("        turns += 1\n", "        turns += 1\n        win by points\n")
    d = the_error(text)
    assert (d.line, d.col) == at(text, "win by points\n")
    assert "'win by' ends the game, so it belongs in the end block" in d.message


def test_rank_by_in_a_game_of_points_is_reported_with_the_fix():
    text = edit('win by points "every', 'rank by points "every')
    d = the_error(text)
    assert (d.line, d.col) == at(text, "rank by points")
    assert "'rank by' in a game whose results are points" in d.message and "win by" in d.hint


def test_a_game_without_by_keeps_plain_results():
    text = edit("win p by 2", "win p").replace("lose p by 3", "lose p").replace('win by points "every',
                                                                               'rank by points "every')
    game = ziggurat.load(os.path.join(HERE, "plain.rules"), text=text)
    assert game.points is None
    out = play(game, ["+2", "+2", "+1", "+0", "+0", "+0"]).outcome()  # first 2, second 2, third 1
    assert not out.points and out.values() == out.results


# ---- what each outcome is worth, in both backends --------------------------------------------------

# Plies go first, second, third, first, second, third; the points are worked out by hand from the rules.
CASES = [
    (["+2", "+1", "+1", "+2", "+1", "+2"], "win", "four", (2, -1, -1)),  # first reaches 4: the others share -2
    (["+1", "+0", "+1", "+1", "+0", "+1"], "lose", "nothing", (1.5, -3, 1.5)),  # second at 0: the others share 3
    (["+1", "+1", "+1", "+1", "+1", "+1"], "draw", "all level", (0, 0, 0)),
    (["+2", "+1", "+1", "+1", "+1", "+1"], "win", "every player has had two turns", (3, 2, 2)),
    (["+1", "+2", "+2", "+1", "+1", "+0"], "win", "every player has had two turns", (2, 3, 2)),
]


@pytest.mark.parametrize("moves, kind, reason, scores", CASES)
def test_each_outcome_gives_its_points_in_the_python_backend(moves, kind, reason, scores):
    out = play(ziggurat.load(POINTS), moves).outcome()
    assert (out.kind, out.reason, out.scores, out.points) == (kind, reason, scores, True)


def test_win_by_points_wins_for_the_most_and_shares_a_tie():
    game = ziggurat.load(POINTS)
    assert play(game, CASES[3][0]).outcome().results == (1, 0, 0)
    assert play(game, ["+2", "+2", "+1", "+1", "+1", "+1"]).outcome().results == (0.5, 0.5, 0)  # 3, 3, 2


@pytest.mark.parametrize("name", [POINTS, "kuhn-poker"], ids=["points.rules", "kuhn-poker"])
def test_the_native_backend_gives_the_python_backends_points_and_results(name):
    """Native random playouts of the test game and of Kuhn poker, replayed in the Python backend:
    the same outcome, results and points for every one."""
    pytest.importorskip("numba")
    from ziggurat.interpreter.native.game import native

    game = ziggurat.load(name)
    fast = native(game, ("playout",))
    seen = set()
    for seed in range(60):
        run = fast.playout(game.new(0), seed, 100)
        st = game.new(0)
        for m in run.moves:
            st.push(m)
        out = st.outcome()
        assert (run.kind, run.reason, run.results) == (out.kind, out.reason, out.results), seed
        assert run.scores == tuple(float(x) for x in out.scores), seed
        seen.add(out.reason)
    assert len(seen) >= 2


# ---- what reads them --------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["alphabeta:depth=3", "mcts:iterations=400", "alphabeta:depth=3:backend=native",
                                  "mcts:iterations=400:rollouts=native"])
def test_agents_maximise_expected_points_not_the_chance_of_winning(spec):
    """In gamble.rules the coin is worth 1.5 points on average and the safe play 1: an agent that
    maximised its chance of winning would play safe (1 against 1/2)."""
    from ziggurat.agents import make_agent

    game = ziggurat.load(GAMBLE)
    st = game.new()
    picks = [st.move_text(make_agent(spec, seed).choose(st)) for seed in range(5)]
    assert picks == ["gamble"] * 5


@pytest.mark.parametrize("spec", ["mcts:iterations=400", "mcts:iterations=400:rollouts=native"])
def test_agents_pick_the_lesser_loss_when_every_result_is_below_minus_one(spec, tmp_path):
    """gamble.rules with every ending a loss: safe (listed first) loses by 50, the coin by 20 or 40
    (30 on average). Every move's value is below -1, the old floor of the search's best score, which
    left the first move chosen whatever its value."""
    from ziggurat.agents import make_agent

    text = open(GAMBLE).read()
    for old, new in [('win first by 1 "safe"', 'lose first by 50 "safe"'),
                     ('win first by 4 "heads"', 'lose first by 20 "heads"'),
                     ('lose first by 1 "tails"', 'lose first by 40 "tails"')]:
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / "losses.rules"
    path.write_text(text, encoding="utf-8")
    game = ziggurat.load(path)
    st = game.new()
    assert [st.move_text(m) for m in st.moves()][0] == "safe"
    picks = [st.move_text(make_agent(spec, seed).choose(st)) for seed in range(3)]
    assert picks == ["gamble"] * 3


def test_a_native_study_keeps_the_points_and_results_of_a_python_replay():
    """points.rules studied by the native backend: each game, replayed move by move in the Python
    backend (the native playout of its seed), ends with the points and results the study kept."""
    pytest.importorskip("numba")
    from ziggurat.agents.base import by_seat
    from ziggurat.interpreter.native.game import native
    from ziggurat.lab.seeds import derived_seed
    from ziggurat.lab.study import StudySpec, run_study

    game = ziggurat.load(POINTS)
    spec = StudySpec(POINTS, ("random",) * 3, 40, {}, seed=4, max_plies=100, backend="native")
    records = run_study(spec, workers=1)
    fast = native(game, ("playout",))
    kinds = set()
    for r in records:
        assert r.backend == "native"
        run = fast.playout(game.new(r.seed), derived_seed(spec.seed, r.index, 1), spec.max_plies)
        st = game.new(r.seed)
        for m in run.moves:
            st.push(m)
        out = st.outcome()
        assert r.scores_by_side == tuple(float(x) for x in out.scores)
        assert r.results_by_side == tuple(float(x) for x in out.results)
        assert r.scores_by_seat == by_seat(st, out.scores)
        kinds.add(r.reason)
    assert len(kinds) >= 3  # several kinds of ending met, `win by points` among them
    assert "every player has had two turns" in kinds


def test_a_study_gives_the_mean_points_with_their_interval_beside_the_win_rates():
    """Random play in Kuhn poker: the first player's expected chips are +1/8 (worked out from the
    five betting lines, each pass or bet equally likely: it gains 1 when the second folds, a
    quarter of the games, and loses 1 when it folds, an eighth; showdowns are even)."""
    from ziggurat.lab.stats import summarize
    from ziggurat.lab.study import StudySpec, run_study

    spec = StudySpec("kuhn-poker", ("random", "random"), 400, {}, seed=3, max_plies=100)
    records = run_study(spec, workers=1)
    summary = summarize(spec, records)
    first, second = summary["sides"]
    assert first["points"]["n"] == 400 and first["points"]["lo"] < 1 / 8 < first["points"]["hi"]
    assert first["points"]["mean"] == pytest.approx(-second["points"]["mean"])  # chips are zero-sum
    assert "win_rate" in first and "points" in summary["agents"][0]
    for r in records:  # each record's points are its game's: a win is worth 1 or 2 chips, the loss the same
        assert sorted(r.scores_by_side) in ([-1, 1], [-2, 2])
        assert (r.scores_by_side[0] > 0) == (r.results_by_side[0] == 1)


def test_a_game_record_keeps_the_points():
    from ziggurat.records import make_record, replay, scores_text

    st = play(ziggurat.load(POINTS), CASES[1][0])
    assert scores_text(st) == "first=1.5 second=-3 third=1.5"
    record = make_record(POINTS, CASES[1][0], date=None)
    assert record.scores == "first=1.5 second=-3 third=1.5"
    assert "scores: first=1.5 second=-3 third=1.5" in record.dumps()
    assert scores_text(replay(record)) == record.scores


def test_a_study_says_when_an_agent_asked_for_a_native_search_plays_with_the_python_one(tmp_path):
    """The native alpha-beta values wins and losses, not points: on a game of points the Python
    search plays. `search_note` says so, and so do a study's output and page (they said nothing)."""
    from click.testing import CliRunner

    from ziggurat.agents import make_agent
    from ziggurat.cli.main import cli

    game = ziggurat.load(GAMBLE)
    note = make_agent("alphabeta:depth=1:backend=native").search_note(game)
    assert note is not None and "results in points" in note and "the Python search plays" in note
    assert make_agent("alphabeta:depth=1").search_note(game) is None  # no native search was asked for
    page = tmp_path / "page.md"
    result = CliRunner().invoke(cli, ["simulate", GAMBLE, "-n", "2", "-w", "1", "--seed", "1", "--agents",
                                      "alphabeta:depth=1:backend=native,random", "--report", str(page)])
    assert result.exit_code == 0, result.output
    assert "note: alphabeta:depth=1:backend=native: the native backend cannot compile results in points" \
        in result.stderr
    assert "Note: alphabeta:depth=1:backend=native: the native backend cannot compile results in points" \
        in page.read_text()


def test_a_decision_and_a_game_in_the_terminal_say_the_python_search_chose_where_native_was_asked():
    """`play` and `serve` show an agent's reason, not a study's note: the reason of a decision made
    by the Python search where the native one was asked for says so and why, and `play` prints the
    agent's note once (they said nothing)."""
    from click.testing import CliRunner

    from ziggurat.agents import make_agent
    from ziggurat.cli.main import cli

    game = ziggurat.load(GAMBLE)
    native_asked = make_agent("alphabeta:depth=2:backend=native")
    native_asked.choose(game.new())
    assert "(Python search: the native backend cannot compile results in points" in native_asked.reason
    plain = make_agent("alphabeta:depth=2")
    plain.choose(game.new())
    assert "Python search" not in plain.reason and plain.reason.startswith("searched 2 plies deep")
    result = CliRunner().invoke(cli, ["play", GAMBLE, "--seats", "alphabeta:depth=1:backend=native,random",
                                      "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert result.output.count("note: alphabeta:depth=1:backend=native: the native backend cannot compile "
                               "results in points") == 1
