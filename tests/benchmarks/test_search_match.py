"""benchmarks/search_match.py without playing a match: its Wilson interval, and a game whose process
dies (OpenSpiel's MCTSBot can segfault) played again instead of ending the match."""

import importlib.util
import os
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

ROOT = Path(__file__).resolve().parent.parent.parent
_spec = importlib.util.spec_from_file_location("search_match", ROOT / "benchmarks" / "search_match.py")
search_match = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(search_match)


def test_wilson_interval_of_half_of_a_hundred():
    # p = 0.5, n = 100, z = 1.96: centre 0.5, half-width 1.96 * sqrt(0.0025 + 3.8416 / 40000) / 1.038416
    low, high = search_match.wilson(50, 100)
    assert low == pytest.approx(0.40383, abs=1e-4) and high == pytest.approx(0.59617, abs=1e-4)


def test_a_game_whose_process_dies_is_played_again(tmp_path, monkeypatch):
    tried = tmp_path / "tried"

    def dies_the_first_time(game, g, seconds, c, solve):
        if not tried.exists():
            tried.touch()
            os._exit(139)  # as a segfault leaves it: no score sent
        return 0.5

    monkeypatch.setattr(search_match, "play", dies_the_first_time)
    assert search_match.play_apart("breakthrough", 3, 0.1, 1.4, False) == (0.5, 1)


def test_a_game_that_always_dies_ends_the_match_saying_so(monkeypatch):
    monkeypatch.setattr(search_match, "play", lambda *args: os._exit(139))
    with pytest.raises(SystemExit, match="game 4: its process died 2 times"):
        search_match.play_apart("breakthrough", 3, 0.1, 1.4, False, tries=2)
