"""The solver's memory is bounded: `ziggurat solve` searches at most a budget of positions
(DEFAULT_MAX_NODES unless --max-nodes says otherwise, checked) and stops at it with one line saying
so and how to raise it; memory running out is reported the same way, never as a MemoryError."""

from __future__ import annotations

import pickle

import pytest
from click.testing import CliRunner

import ziggurat
import ziggurat.lab.solve as solve_module
from ziggurat.cli.main import cli
from ziggurat.errors import GameError
from ziggurat.lab.solve import (DEFAULT_MAX_NODES, MAX_NODES_LIMIT, MEMORY, SearchLimitExceeded, solve_game,
                            solve_puzzle)


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_solve_on_a_big_tree_stops_at_its_budget_with_one_line_naming_it_and_how_to_raise_it():
    result = run("solve", "breakthrough", "--max-nodes", "2000")
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output
    assert "budget of 2,000 positions" in lines[0] and "--max-nodes N" in lines[0]
    assert f"at most {MAX_NODES_LIMIT:,}" in lines[0]


def test_without_max_nodes_solve_searches_within_the_default_budget(monkeypatch):
    seen = {}

    def fake(state, progress=None, max_nodes=None, **kw):
        seen["max_nodes"] = max_nodes
        raise SearchLimitExceeded(max_nodes)

    monkeypatch.setattr(solve_module, "solve_game", fake)
    result = run("solve", "breakthrough")
    assert seen["max_nodes"] == DEFAULT_MAX_NODES
    assert result.exit_code == 1 and f"budget of {DEFAULT_MAX_NODES:,} positions" in result.output


def test_the_default_budget_is_in_the_help():
    result = run("solve", "--help")
    assert result.exit_code == 0 and f"{DEFAULT_MAX_NODES:,}" in result.output and "--max-nodes" in result.output


def test_the_library_searches_within_the_default_budget_too():
    assert solve_game.__defaults__[-1] == DEFAULT_MAX_NODES  # solve_game(state, progress, max_nodes)
    assert solve_puzzle.__kwdefaults__["max_nodes"] == DEFAULT_MAX_NODES


@pytest.mark.parametrize("value", ["0", "-5", str(MAX_NODES_LIMIT + 1), "lots"])
def test_max_nodes_is_checked(value):
    result = run("solve", "tic-tac-toe", "--max-nodes", value)
    assert result.exit_code == 2 and "--max-nodes" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("value", [0, -1, MAX_NODES_LIMIT + 1, True, 2.5])
def test_the_library_checks_the_budget(value):
    game = ziggurat.load("tic-tac-toe")
    with pytest.raises(GameError, match="node budget"):
        solve_game(game.new(), max_nodes=value)


def test_a_budget_reached_in_the_library_raises_search_limit_exceeded():
    with pytest.raises(SearchLimitExceeded) as e:
        solve_game(ziggurat.load("breakthrough").new(), max_nodes=500)
    assert e.value.limit == 500 and e.value.why != MEMORY
    puzzle = ziggurat.load("greenest", {"width": 4, "height": 4, "seed": 2})
    with pytest.raises(SearchLimitExceeded):
        solve_puzzle(puzzle.new(), max_nodes=10)


def test_a_small_game_is_solved_within_the_default_budget():
    result = run("solve", "tic-tac-toe")
    assert result.exit_code == 0 and "value: draw" in result.output
    assert solve_game(ziggurat.load("tic-tac-toe").new(), max_nodes=None).verdict == "draw"  # None: no limit


def test_memory_running_out_is_reported_as_the_budget_reached(monkeypatch):
    calls = {"n": 0}
    key = solve_module.position_key

    def hungry(state, ignore_ply=True):
        calls["n"] += 1
        if calls["n"] > 50:
            raise MemoryError
        return key(state, ignore_ply)

    monkeypatch.setattr(solve_module, "position_key", hungry)
    with pytest.raises(SearchLimitExceeded) as e:
        solve_game(ziggurat.load("breakthrough").new())
    assert e.value.why == MEMORY
    calls["n"] = 0
    result = run("solve", "breakthrough")
    assert result.exit_code == 1 and "MemoryError" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "memory ran out" in lines[0] and "--max-nodes" in lines[0]


def test_census_checks_its_budget_the_same_way():
    result = run("census", "greenest", "--set", "width=4", "--set", "height=4", "--seeds", "2", "--max-nodes", "0")
    assert result.exit_code == 2 and "--max-nodes" in result.output


def test_census_stops_at_its_budget_with_one_line_even_with_workers():
    for workers in ("1", "2"):
        result = run("census", "greenest", "--set", "width=4", "--set", "height=4", "--seeds", "2",
                     "--max-nodes", "5", "--workers", workers)
        lines = result.output.strip().splitlines()
        assert result.exit_code == 1 and "Traceback" not in result.output
        assert lines[-1].startswith("error: a setup: the search reached its budget of 5 positions")


def test_the_budget_error_survives_a_trip_between_processes():
    e = pickle.loads(pickle.dumps(SearchLimitExceeded(123, MEMORY)))
    assert (e.limit, e.why, str(e)) == (123, MEMORY, str(SearchLimitExceeded(123, MEMORY)))
