"""`ziggurat play` with seats of people and agents: whole games, hints, undo, saved records."""

import re
import sys

import pytest

from click.testing import CliRunner

import ziggurat
from ziggurat.cli.main import cli
from ziggurat.records import load_record, replay, result_text

RULESET = "stacktics"


def run(*args, input=None):
    result = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output
    return result


class TestAgentSeats:
    def test_random_against_random_plays_to_the_end(self):
        """--seats random,random finishes a game with no input at all."""
        result = run("play", RULESET, "--seats", "random,random", "--seed", 3, input="")
        assert result.exit_code == 0, result.output
        assert "game over:" in result.output
        assert "(you) to move" not in result.output

    def test_every_machine_move_is_followed_by_a_board(self):
        """After each agent move the board is drawn again (its status line)."""
        result = run("play", RULESET, "--seats", "random,random", "--seed", 3, input="")
        moves = result.output.count(" plays ")
        assert moves > 0
        assert result.output.count("ply ") == moves + 1  # the start, then one per move

    def test_agent_spec_with_parameters(self):
        """An agent spec with parameters sits in a seat and replies to the person."""
        state = ziggurat.load(RULESET).new()
        good = state.move_text(state.moves()[0])
        result = run("play", RULESET, "--seats", "human,mcts:iterations=20", "--seed", 1,
                     input=f"{good}\nquit\n")
        assert result.exit_code == 0, result.output
        assert "north plays" in result.output

    def test_same_seed_same_game(self):
        """Seeded agents: the same seed gives the same transcript."""
        args = ("play", RULESET, "--seats", "greedy,random", "--seed", 5)
        assert run(*args, input="").output == run(*args, input="").output

    def test_wrong_number_of_seats(self):
        """--seats with the wrong number of entries exits 2 and names the sides."""
        result = run("play", RULESET, "--seats", "human,random,random")
        assert result.exit_code == 2
        assert "3 seats given" in result.output and "south, north" in result.output

    def test_unknown_agent(self):
        """An unknown agent name exits 2 and lists the agents."""
        result = run("play", RULESET, "--seats", "human,rndom")
        assert result.exit_code == 2
        assert "unknown agent 'rndom'" in result.output

    def test_seats_and_as_together(self):
        """--seats and --as together is a usage error."""
        result = run("play", RULESET, "--seats", "human,random", "--as", "north")
        assert result.exit_code == 2
        assert "--seats or --as" in result.output


class TestPersonCommands:
    def test_hint_prints_a_legal_move(self):
        """hint names a move that is legal in the position."""
        state = ziggurat.load(RULESET).new()
        result = run("play", RULESET, "--seed", 2, input="hint\nquit\n")
        found = re.search(r"hint: greedy would play (\S+)", result.output)
        assert found, result.output
        assert state.parse_move(found.group(1)) in state.legal_moves

    def test_hint_by_another_agent(self):
        """--hint chooses the agent that answers."""
        result = run("play", RULESET, "--hint", "mcts:iterations=30", "--seed", 2, input="hint\nquit\n")
        assert "hint: mcts:iterations=30 would play" in result.output

    def test_hint_says_why(self):
        """hint gives the agent's reason after the move."""
        result = run("play", RULESET, "--seed", 2, input="hint\nquit\n")
        assert re.search(r"hint: greedy would play \S+ \(one ply ahead, by the ruleset's heuristic: ", result.output)

    def test_undo_between_two_people(self):
        """With two people, undo takes back the last move only (the last person's decision)."""
        state = ziggurat.load(RULESET).new()
        first = state.move_text(state.moves()[0])
        state.play(first)
        second = state.move_text(state.moves()[0])
        result = run("play", RULESET, "--seats", "human,human", input=f"{first}\n{second}\nundo\nquit\n")
        after = result.output.split("> undo", 1)[1]
        assert "ply 1  north to move" in after

    def test_no_undo_past_a_card_shown_since(self):
        """Leduc poker: both call, the public card is dealt from the hidden deck; an undo to the
        second player's call would let them call again knowing the card was in the deck."""
        result = run("play", "leduc-poker", "--seats", "human,human", "--seed", 1, input="call\ncall\nundo\nquit\n")
        after = result.output.split("> undo", 1)[1]
        assert after.lstrip().startswith("no take-back past a reveal") and "ply 3" not in after

    def test_undo_over_moves_that_showed_nothing_hidden(self):
        result = run("play", "leduc-poker", "--seats", "human,human", "--seed", 1, input="call\nundo\nquit\n")
        after = result.output.split("> undo", 1)[1]
        assert "no take-back" not in after and "ply 2  first to move" in after

    def test_help_lists_the_commands(self):
        """help names every command of the prompt."""
        result = run("play", RULESET, input="help\nquit\n")
        for word in ("moves", "hint", "undo", "help", "quit"):
            assert f"  {word}" in result.output


class TestSave:
    def test_saved_record_replays(self, tmp_path):
        """--save writes a record that replays to the game's end and result."""
        path = tmp_path / "game.zrec"
        result = run("play", RULESET, "--seats", "random,random", "--seed", 8, "--save", path, input="")
        assert result.exit_code == 0, result.output
        record = load_record(path)
        final = replay(record)
        assert record.result != "unfinished"
        assert result_text(final) == record.result
        assert record.agents == {"south": "random", "north": "random"}
        assert f"record saved to {path}" in result.output

    def test_left_game_is_saved_unfinished(self, tmp_path):
        """A game the person leaves is saved as unfinished, with the moves played so far."""
        state = ziggurat.load(RULESET).new()
        good = state.move_text(state.moves()[0])
        path = tmp_path / "left.zrec"
        run("play", RULESET, "--seed", 1, "--save", path, input=f"{good}\nquit\n")
        record = load_record(path)
        assert record.result == "unfinished"
        assert record.moves[0] == good and len(record.moves) == 2
        assert record.agents == {"south": "human", "north": "random"}
        assert replay(record).ply == 2


def test_tab_completes_commands_and_moves():
    """Tab completes the commands and the legal moves of the position (tests/faces/test_play_prompt.py
    types them at prompt_toolkit's prompt)."""
    from rich.console import Console

    from ziggurat.cli.play import COMMANDS, Session

    state = ziggurat.load("stacktics").new()
    session = Session(state, ["human", "human"], 1, Console())
    assert session.words() == list(COMMANDS) + [state.move_text(m) for m in state.moves()]
    state.play(state.moves()[0])
    assert session.words() == list(COMMANDS) + [state.move_text(m) for m in state.moves()]  # the new position's


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal is POSIX")
def test_a_terminal_gets_line_editing_and_tab_completion():
    """At a terminal, `q` then Tab completes to `quit` (prompt_toolkit), and the game is left."""
    import os
    import pty
    import select
    import subprocess
    import time

    main, sub = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "ziggurat", "play", "tic-tac-toe", "--seats", "human,human"],
                            stdin=sub, stdout=sub, stderr=sub, close_fds=True)
    os.close(sub)
    out, deadline, sent = b"", time.monotonic() + 30, False
    try:
        while time.monotonic() < deadline and b"game left unfinished" not in out:
            ready, _, _ = select.select([main], [], [], 0.2)
            if ready:
                try:
                    out += os.read(main, 4096)
                except OSError:
                    break
            if not sent and b"to move>" in out:  # prompt_toolkit draws the space as a cursor move
                os.write(main, b"q\t\r")
                sent = True
    finally:
        proc.kill()
        proc.wait()
        os.close(main)
    assert b"quit" in out and b"game left unfinished" in out, out[-500:]


class TestBoardAfterNature:
    def test_the_board_is_drawn_again_after_nature_moves_before_the_person_decides(self):
        """Cards dealt by nature show on a board before the person's prompt: RYB deals every hand
        before the first turn, so the board printed after the last deal and before al's first
        prompt holds al's hand (the board of the start, drawn before the deal, holds none)."""
        result = run("play", "ryb", "--set", "players=3", "--seats", "human,random,random", "--seed", 3,
                     input="quit\n")
        assert result.exit_code == 0, result.output
        before_prompt = result.output.split("chance: deal")[-1].split("al (you) to move>")[0]
        # RYB is drawn as a table of what it has: al's hand a card a line, between "hand" and "pool".
        mine = before_prompt.split("al (you)")[1].split("pool")[0].split("hand", 1)[1]
        cards = [line.split()[0] for line in mine.splitlines() if line.strip()]
        assert len(cards) == 5 and all(len(c) == 2 for c in cards), before_prompt  # five cards of two letters

    def test_the_board_command_draws_the_position_again(self):
        result = run("play", RULESET, "--seed", 3, input="board\nquit\n")
        assert result.exit_code == 0, result.output
        assert result.output.count("ply 0") == 2  # the start, then `board`
