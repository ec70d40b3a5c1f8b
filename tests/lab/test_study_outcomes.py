"""A study scores each game as the engine's `State.outcome()` says it ended: for every shipped
ruleset, the results kept per seat (and the wins, draws and losses counted from them) are those
of the same game replayed through the public API and read with `State.outcome()`. A `rank by`
gives the win to the one player at the top; players level at the top share it (1/k each: a draw
in the counts, not a win). The native backend's games are replayed in the Python backend and
scored the same way (a small test ruleset with `rank by` in the default suite; with
ZIGGURAT_SLOW=1 every shipped ruleset that compiles natively)."""

import os
import random

import pytest

import ziggurat
from ziggurat.agents import make_agent
from ziggurat.dsl.loader import shipped_names
from ziggurat.interpreter.games import small_options
from ziggurat.lab.stats import summarize
from ziggurat.lab.study import NATURE_SALT, SIM_CAP_REASON, StudySpec, derived_seed, run_study

SLOW = os.environ.get("ZIGGURAT_SLOW") == "1"
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RANK = os.path.join(HERE, "native", "rank.rules")  # three players, `rank by` with ties at the top

SHIPPED = shipped_names()  # what `ziggurat rulesets` lists
# Options that make a game short, and reach its `rank by` where it has one only in a variant.
OPTIONS = {"chaos": [{"scoring": True, "ply_cap": 30}, {"scoring": True, "ply_cap": 20, "players": 3}, {}]}
MAX_PLIES = {"chaos": 60, "ryb": 120, "lasca": 200}  # cut (scored as a draw) where random games run long


def cases():
    """(name, options): None for the ruleset's small options, found in the test (not when the
    tests are collected, which each worker of pytest-xdist does: that loaded every ruleset there)."""
    for name in SHIPPED:
        for opts in OPTIONS.get(name, [None]):
            yield pytest.param(name, opts, id=name + "".join(f"-{k}={v}" for k, v in (opts or {}).items()))


def expected_by_seat(state, n: int) -> tuple:
    """Per seat: the result `State.outcome()` gives the side that seat plays (a game cut at the
    study's max plies, which the rules have not ended, is a draw)."""
    outcome = state.outcome()
    per_side = outcome.results if outcome is not None else (0.5,) * n
    out = [None] * n
    for side, seat in enumerate(state.seats):
        out[seat] = per_side[side]
    return tuple(out), outcome


def replay(game, spec: StudySpec, record):
    """Game `record.index` of the study played again through the public API (the same agents
    and seeds), to its end by its rules or the study's max plies."""
    i, n = record.index, len(game.players)
    bots = [make_agent(spec.agents[j], derived_seed(spec.seed, i, j + 1)) for j in record.seat_agents]
    state = game.new(record.seed)
    nature = random.Random(derived_seed(spec.seed, i, NATURE_SALT))
    while state.outcome() is None and len(state.stack) < spec.max_plies:
        move = game.sample_chance(state, nature, game.legal(state))
        state.push(move if move is not None else bots[state.seats[state.side]].choose(state))
    return state


def tally(results: list) -> dict:
    return {"wins": sum(r == 1 for r in results), "losses": sum(r == 0 for r in results),
            "draws": sum(0 < r < 1 for r in results)}


def check_study(game, spec: StudySpec, records: list, expected: list) -> None:
    """Each record's results per seat are `expected`'s; the summary counts them as they are."""
    n = len(game.players)
    for r, (by_seat, outcome) in zip(records, expected):
        assert r.results_by_seat == pytest.approx(by_seat), f"game {r.index}: {outcome}"
        assert r.kind == (outcome.kind if outcome is not None else "draw")
        assert r.reason == (outcome.reason or outcome.kind if outcome is not None else SIM_CAP_REASON)
    summary = summarize(spec, records, game)
    for s in range(n):
        seat = summary["seats"][s]
        assert {k: seat[k] for k in ("wins", "draws", "losses")} == tally([e[0][s] for e in expected]), f"seat {s}"
    assert summary["draws"]["k"] == sum(1 for _, o in expected if o is None or o.kind == "draw")


@pytest.mark.parametrize("name, options", list(cases()))
def test_a_python_study_scores_games_as_state_outcome_does(name, options):
    options = small_options(name) if options is None else options
    game = ziggurat.load(name, options or None)
    n = len(game.players)
    spec = StudySpec(name, ("random",) * n, 4 if n == 2 else 6, options, seed=3, max_plies=MAX_PLIES.get(name, 400))
    records = run_study(spec, workers=1)
    expected = []
    for r in records:
        state = replay(game, spec, r)
        assert len(state.stack) == r.plies, f"game {r.index} replayed differently"
        expected.append(expected_by_seat(state, n))
    check_study(game, spec, records, expected)


def test_a_rank_by_study_has_one_winner_or_a_shared_first_place():
    """Othello ends with `rank by discs`: a game has one winner and one loser, or is a draw (was:
    every seat scored a win in every game)."""
    spec = StudySpec("othello", ("random", "random"), 6, {"board_size": 4}, seed=1, max_plies=400)
    records = run_study(spec, workers=1)
    for r in records:
        assert sorted(r.results_by_seat) in ([0, 1], [0.5, 0.5])
    summary = summarize(spec, records)
    assert sum(s["wins"] for s in summary["seats"]) + summary["draws"]["k"] == len(records)


NATIVE = [RANK] + (["othello", "green", "greener", "breakthrough", "clobber", "tic-tac-toe", "stacktics", "konane",
                    "lines-of-action", "pig", "amazons", "stacktics-3x5", "stacktics-ground-attack", "greenest", "rgb",
                    "checkers", "lasca", "liars-dice", "kuhn-poker", "leduc-poker", "ryb"] if SLOW else [])


@pytest.mark.parametrize("name", NATIVE, ids=lambda p: os.path.basename(p))
def test_a_native_study_scores_games_as_the_python_backend_does(name):
    """The native backend's games, replayed move by move in the Python backend and read with
    `State.outcome()`, give the results the native study kept."""
    pytest.importorskip("numba")
    from ziggurat.interpreter.native.game import native

    options = small_options(name)
    game = ziggurat.load(name, options or None)
    n = len(game.players)
    spec = StudySpec(name, ("random",) * n, 30 if name == RANK else 6, options, seed=5, max_plies=400,
                     backend="native")
    records = run_study(spec, workers=1)
    fast = native(game, ("playout",))
    expected = []
    for r in records:
        assert r.backend == "native"
        run = fast.playout(game.new(r.seed), derived_seed(spec.seed, r.index, 1), spec.max_plies)
        state = game.new(r.seed)
        for m in run.moves:
            state.push(m)
        expected.append(expected_by_seat(state, n))
    check_study(game, spec, records, expected)
    if name == RANK:  # the ruleset's point: shared first places happen, and are not wins
        assert any(0 < x < 1 for r in records for x in r.results_by_seat)


@pytest.mark.parametrize("adds, values", [
    (["+2", "+1", "+0", "+0", "+0", "+0"], ("win", "loss", "loss")),  # first alone at the top
    (["+1", "+1", "+0", "+0", "+0", "+0"], ("draw", "draw", "loss")),  # first and second level: a shared first place
])
def test_an_agent_values_the_end_of_a_rank_by_as_the_outcome_does(adds, values):
    """The agents' value of a finished game (alpha-beta, greedy, MCTS's playouts) follows
    `State.outcome()`: the one at the top wins, a shared first place is worth a draw, the rest lose
    (was: every seat valued a `rank by` end as its own win)."""
    from ziggurat.agents.base import WIN, Evaluator

    game = ziggurat.load(RANK)
    state = game.new()
    for text in adds:
        state.play(text)
    raw = game.outcome(state, game.legal(state))
    assert raw is not None
    ev = Evaluator(game)
    words = {WIN: "win", 0.0: "draw", -WIN: "loss"}
    assert tuple(words[ev.terminal(state, raw, seat)] for seat in range(3)) == values


def test_a_journal_written_before_rank_by_was_scored_is_not_resumed(tmp_path):
    """Journals of format 1 hold games scored with every seat a winner of a `rank by`: --resume
    refuses them, saying so, instead of mixing their results with the new ones."""
    import json

    from ziggurat.errors import GameError
    from ziggurat.lab.journal import JOURNAL_KIND, Journal, study_key

    spec = StudySpec("othello", ("random", "random"), 2, {"board_size": 4})
    path = tmp_path / "old.journal"
    head = {"journal": JOURNAL_KIND, "format": 1, "studies": [{**study_key(spec), "games": 2}]}
    game = {"index": 0, "results_by_seat": [1.0, 1.0], "results_by_side": [1.0, 1.0], "kind": "rank"}
    path.write_text(json.dumps(head) + "\n" + json.dumps({"study": 0, "game": game}) + "\n")
    with pytest.raises(GameError, match="format 1"):
        Journal(path, [spec]).read()
