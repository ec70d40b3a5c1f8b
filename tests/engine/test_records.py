"""Game records: save, load, replay, rejection of records that do not replay, and `ziggurat replay`."""

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

import ziggurat
from ziggurat.cli.main import cli
from ziggurat.records import (RecordError, load_record, loads, make_record, replay, result_text,
                              save_record)

RULESET = "stacktics"


def run(*args, input=None):
    result = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output
    return result


def random_moves(name, seed, plies=None, options=None):
    """Seeded random moves from the seeded start (to the end, or `plies` of them)."""
    state = ziggurat.load(name, options).new(seed)
    rng = random.Random(seed)
    moves = []
    while (plies is None or len(moves) < plies) and (legal := state.moves()):
        move = rng.choice(legal)
        state.push(move)
        moves.append(move)
    return moves, state


@pytest.fixture
def finished(tmp_path):
    """A saved record of a whole seeded random game, the record and the game's final state."""
    moves, state = random_moves(RULESET, 4)
    record = make_record(RULESET, moves, seed=4, agents={"south": "random", "north": "random"})
    path = save_record(tmp_path / "game.zrec", record)
    return path, record, state


def tamper(path, number, new_line):
    """Replace move line `number` of the record at `path`."""
    lines = path.read_text().splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith(f"{number}. "))
    lines[index] = new_line
    path.write_text("\n".join(lines) + "\n")


class TestRoundTrip:
    def test_save_load_replay_same_final_position(self, finished):
        """save -> load -> replay ends at the position and result the game ended with."""
        path, _, state = finished
        loaded = load_record(path)
        final = replay(loaded)
        assert final.text() == state.text()
        assert result_text(final) == result_text(state) != "unfinished"

    def test_text_round_trips(self, finished):
        """A loaded record prints back to the same text."""
        path, record, _ = finished
        assert load_record(path).dumps() == record.dumps() == path.read_text()

    def test_header_fields(self, finished):
        """The header keeps the ruleset, every option, the seed, the agents and the outcome."""
        path, _, state = finished
        loaded = load_record(path)
        assert loaded.ruleset == RULESET
        assert set(loaded.options) == set(state.game.options)
        assert loaded.seed == 4
        assert loaded.agents == {"south": "random", "north": "random"}
        assert loaded.reason == state.outcome().reason

    def test_options_reach_the_replay(self, tmp_path):
        """A record of a size-2 game replays on the size-2 board."""
        moves, state = random_moves(RULESET, 2, plies=10, options={"size": "2"})
        record = make_record(RULESET, moves, options={"size": "2"}, seed=2)
        loaded = load_record(save_record(tmp_path / "g.zrec", record))
        assert loaded.options["size"] == "2"
        assert replay(loaded).text() == state.text()

    def test_unfinished_game_records_and_replays(self, tmp_path):
        """A game stopped early is recorded as unfinished and replays to the same position."""
        moves, state = random_moves(RULESET, 9, plies=7)
        record = make_record(RULESET, moves, seed=9)
        assert record.result == "unfinished"
        assert replay(load_record(save_record(tmp_path / "u.zrec", record))).text() == state.text()

    def test_record_from_a_position(self, tmp_path):
        """A record may start from a position text instead of the start."""
        start = "south 10 | a1=S2S1 b2=N1 e5=N3 | prisoners.south=N3N3N2 prisoners.north="
        state = ziggurat.load(RULESET).position(start)
        move = state.moves()[0]
        record = make_record(RULESET, [move], start=start)
        state.push(move)
        assert replay(load_record(save_record(tmp_path / "p.zrec", record))).text() == state.text()


class TestRejected:
    def test_illegal_move_names_its_number(self, finished):
        """A record with an illegal move is rejected, naming the move number and why."""
        path, record, _ = finished
        state = ziggurat.load(RULESET).new(4)
        for text in record.moves[:4]:
            state.play(text)
        bad = next(t for t in ("b1:3-b3", "c1:3-c3", "d1:3-d3", "a1:1-a2")
                   if not any(state.move_text(m) == t for m in state.moves()))
        tamper(path, 5, f"5. {record.sides[4]} {bad}")
        with pytest.raises(RecordError, match=r"move 5 .*is illegal"):
            replay(load_record(path))

    def test_wrong_side_names_the_move(self, finished):
        """A move credited to the side not on move is rejected with both sides named."""
        path, record, _ = finished
        other = "north" if record.sides[2] == "south" else "south"
        tamper(path, 3, f"3. {other} {record.moves[2]}")
        with pytest.raises(RecordError, match=rf"move 3 .*{other} moves.*{record.sides[2]}'s turn"):
            replay(load_record(path))

    def test_wrong_result(self, finished):
        """A record whose result is not the replay's is rejected, naming both."""
        path, record, _ = finished
        path.write_text(path.read_text().replace(f"result: {record.result}", "result: draw"))
        with pytest.raises(RecordError, match=rf"'draw'.*{record.result!r}"):
            replay(load_record(path))

    def test_wrong_final_position(self, finished):
        """A final position that differs from the replay's is rejected, showing both."""
        path, record, _ = finished
        path.write_text(path.read_text().replace(f"final: {record.final}", f"final: {record.final}x"))
        with pytest.raises(RecordError, match="final position differs"):
            replay(load_record(path))

    def test_bad_header_line_is_named(self):
        """A header line that is not key: value names its line number."""
        with pytest.raises(RecordError, match=r"<t>:2: .*not a header line"):
            loads("ruleset: stacktics\nthis is not a header\n", "<t>")

    def test_unknown_header_suggests(self):
        """A misspelt header key names itself and the likely one."""
        with pytest.raises(RecordError, match=r"unknown header 'reslt'.*'result'"):
            loads("ruleset: stacktics\nreslt: draw\n", "<t>")

    def test_misnumbered_move(self):
        """Move numbers must count from 1 without gaps."""
        with pytest.raises(RecordError, match="move number 3, expected 2"):
            loads("ruleset: stacktics\n\n1. south b1:1-a2\n3. north b5:1-a4\n", "<t>")

    def test_no_ruleset(self):
        """A record without a ruleset header says so."""
        with pytest.raises(RecordError, match="ruleset"):
            loads("seed: 3\n", "<t>")

    def test_missing_file(self, tmp_path):
        """A missing record file is a RecordError naming the path."""
        with pytest.raises(RecordError, match="cannot read record"):
            load_record(tmp_path / "nope.zrec")


class TestReplayCommand:
    def test_default_checks_and_shows_final_board(self, finished):
        """ziggurat replay FILE checks the whole game and prints the final board and result."""
        path, record, state = finished
        result = run("replay", path)
        assert result.exit_code == 0, result.output
        assert f"replayed {len(record.moves)} moves: every move legal" in result.output
        assert f"ply {state.ply}  game over" in result.output

    def test_step_with_piped_input_shows_boards(self, finished):
        """--step with piped Enters shows the board after each move, then stops at end of input."""
        path, record, _ = finished
        result = run("replay", path, "--step", input="\n\n\n")
        assert result.exit_code == 0, result.output
        for i in range(3):
            assert f"{i + 1}. {record.sides[i]} {record.moves[i]}" in result.output
        assert result.output.count("to move") == 4  # the start and three moves
        assert "end of input: stopped after move 3" in result.output

    def test_step_back(self, finished):
        """In --step, b takes back the last move and shows the board before it."""
        path, _, _ = finished
        result = run("replay", path, "--step", input="\n\nb\nq\n")
        assert "back to move 1" in result.output
        assert result.output.rstrip().endswith("stopped after move 1")

    def test_step_to_the_end_checks_the_result(self, finished):
        """Stepping through every move ends with the check of the result."""
        path, record, _ = finished
        result = run("replay", path, "--step", input="\n" * len(record.moves))
        assert result.exit_code == 0
        assert f"result {record.result} as recorded" in result.output

    def test_all_prints_every_position(self, finished):
        """--all prints the board after every move, without waiting."""
        path, record, _ = finished
        result = run("replay", path, "--all")
        assert result.exit_code == 0
        assert result.output.count("ply ") == len(record.moves) + 1

    def test_tampered_record_exits_1_naming_the_move(self, finished):
        """A record with an illegal move exits 1 and names the move, without a traceback."""
        path, record, _ = finished
        tamper(path, 2, f"2. {record.sides[1]} a1:9-a9")
        result = run("replay", path)
        assert result.exit_code == 1
        assert "move 2" in result.output

    def test_missing_file_exits_1(self, tmp_path):
        """A missing record file exits 1 with a message."""
        result = run("replay", tmp_path / "none.zrec")
        assert result.exit_code == 1
        assert "cannot read record" in result.output


def test_a_record_cut_before_its_moves_is_refused(tmp_path):
    whole = (Path(__file__).parent.parent / "golden" / "records" / "kuhn-poker-1.zrec").read_text()
    cut = whole[: whole.index("plies:")]
    with pytest.raises(RecordError, match="no 'plies:' header: the record is cut short"):
        loads(cut, "<cut>")
    assert len(loads(whole, "<whole>").moves) == 4


HUGE = "9" * 5000


@pytest.mark.parametrize("where, text", [
    ("seed", f"ruleset: pig\nseed: {HUGE}\nplies: 0\n"),
    ("header", f"ruleset: pig\nx{HUGE}\nplies: 0\n"),
    ("move number", f"ruleset: pig\nplies: 1\n\n{HUGE}. first roll\n"),
    ("move line", f"ruleset: pig\nplies: 1\n\n1. {HUGE}\n"),
])
def test_a_records_mistake_is_named_without_printing_megabytes(where, text):
    with pytest.raises(RecordError) as refused:
        loads(text, "<huge>")
    assert len(str(refused.value)) < 300 and "..." in str(refused.value)


def test_an_illegal_huge_move_is_named_in_a_short_line(tmp_path):
    path = tmp_path / "huge.zrec"
    path.write_text(f"ruleset: pig\nplies: 1\n\n1. first {HUGE}\n")
    result = run("replay", path)
    assert result.exit_code == 1 and "is illegal" in result.output
    assert max(len(line) for line in result.output.splitlines()) < 400
