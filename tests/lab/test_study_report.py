"""The study page of an interrupted command names every study it asked for, the ones that
finished no game included (they have no column)."""

from __future__ import annotations

from click.testing import CliRunner

from ziggurat.cli.main import cli
from ziggurat.lab import study as study_module


def test_a_study_interrupted_before_its_first_game_is_named_on_the_page(tmp_path, monkeypatch):
    run = study_module._run_chunk

    def stop_at_the_second_study(ruleset, *args):
        if "tic-tac-toe" in str(ruleset):
            raise KeyboardInterrupt  # Ctrl-C before the second study's first game finished
        return run(ruleset, *args)

    monkeypatch.setattr(study_module, "_run_chunk", stop_at_the_second_study)
    page = tmp_path / "page.md"
    result = CliRunner().invoke(cli, ["simulate", "pig", "-n", "2", "--vs", "tic-tac-toe", "-w", "1",
                                      "--backend", "python", "--seed", "1", "--report", str(page)])
    assert result.exit_code == 130, result.output
    text = page.read_text()
    assert "| games | 2 |" in text  # pig's column, whole
    assert "**tic-tac-toe: partial: 0 of 2 games**" in text
    assert "no column below" in text


def test_a_whole_study_has_no_partial_note(tmp_path):
    page = tmp_path / "page.md"
    result = CliRunner().invoke(cli, ["simulate", "pig", "-n", "2", "--vs", "tic-tac-toe", "-w", "1",
                                      "--backend", "python", "--seed", "1", "--report", str(page)])
    assert result.exit_code == 0, result.output
    assert "partial" not in page.read_text()


def test_a_reason_that_ended_games_with_several_results_is_named_once():
    from ziggurat.lab.report import endings_text

    endings = [{"kind": "win", "reason": "every colour captured", "games": 198, "rate": 0.99},
               {"kind": "draw", "reason": "every colour captured", "games": 2, "rate": 0.01},
               {"kind": "draw", "reason": "max plies", "games": 1, "rate": 0.005}]
    assert endings_text(endings) == "every colour captured 200 (win 198, draw 2); max plies 1"
