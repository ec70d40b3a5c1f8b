"""The `ziggurat` command line, driven through click's CliRunner.

Expected numbers come from the public API in each test (never copied from an earlier run), except
the 31 opening moves of Stacktics, which were counted by hand.
"""

import json
import subprocess
import sys
import types

import pytest
from click.testing import CliRunner

import ziggurat
from ziggurat.cli.main import cli
from ziggurat.dsl.loader import find, shipped_names

RULESET = "stacktics"
BROKEN_LINE = "        if theirs(to):"
NEAR_WIN = "south 10 | a1=S2S1 b2=N1 e5=N3 | prisoners.south=N3N3N2 prisoners.north="


def run(*args, input=None):
    result = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output
    return result


@pytest.fixture
def broken(tmp_path):
    """A copy of the shipped ruleset with one misspelt function, and where the mistake is."""
    text = find(RULESET).read_text()
    assert BROKEN_LINE in text
    lines = text.splitlines()
    line = lines.index(BROKEN_LINE) + 1
    col = BROKEN_LINE.index("theirs") + 1
    path = tmp_path / "broken.rules"
    path.write_text(text.replace(BROKEN_LINE, BROKEN_LINE.replace("theirs", "theirz")))
    return path, line, col


class TestCheck:
    def test_clean_ruleset_passes(self):
        """A shipped ruleset checks clean: exit 0 and 'ok'."""
        result = run("check", RULESET)
        assert result.exit_code == 0
        assert "ok" in result.output

    def test_broken_ruleset_shows_where_and_fails(self, broken):
        """A mistake exits 1 and shows file:line:col, the line and a caret under the mistake."""
        path, line, col = broken
        result = run("check", path)
        assert result.exit_code == 1
        assert f"{path}:{line}:{col}" in result.output
        caret_line = next(x for x in result.output.splitlines() if x.strip().startswith("|") and "^" in x)
        source_line = next(x for x in result.output.splitlines() if "theirz" in x and " | " in x)
        assert caret_line.index("^") == source_line.index("theirz")

    def test_json_lists_each_diagnostic(self, broken):
        """--json prints a list of diagnostics with the line and column of the mistake."""
        path, line, col = broken
        result = run("check", path, "--json")
        assert result.exit_code == 1
        data = json.loads(result.output)
        assert [(d["line"], d["col"], d["severity"]) for d in data] == [(line, col, "error")]

    def test_one_broken_file_fails_the_run(self, broken):
        """With several files, one broken file makes the exit code 1 and the clean one is still reported."""
        result = run("check", RULESET, broken[0])
        assert result.exit_code == 1
        assert f"{RULESET}: ok" in result.output

    def test_bad_option_value_is_an_error(self):
        """check --set with a value out of range reports the option and exits 1."""
        result = run("check", RULESET, "--set", "size=99")
        assert result.exit_code == 1
        assert "'size'" in result.output and "99" in result.output

    def test_options_that_contradict_a_check_fail(self):
        """check --set with options that break the ruleset's own `check` line reports it and exits 1."""
        with pytest.raises(ziggurat.GameError) as e:
            ziggurat.load(RULESET, {"narrow": "true"})
        result = run("check", RULESET, "--set", "narrow=true")
        assert result.exit_code == 1
        assert str(e.value).split(": ")[-1] in result.output


class TestMoves:
    def test_start_has_31_moves(self):
        """The Stacktics start lists 31 moves (hand-counted), one per line, and says so."""
        result = run("moves", RULESET)
        assert result.exit_code == 0
        lines = result.output.strip().splitlines()
        assert lines[-1] == "31 moves"
        assert len(lines[:-1]) == 31

    def test_json_is_the_move_list(self):
        """--json prints the legal moves as the API writes them."""
        state = ziggurat.load(RULESET).new()
        result = run("moves", RULESET, "--json")
        assert json.loads(result.output) == [state.move_text(m) for m in state.moves()]

    def test_set_changes_the_game(self):
        """--set size=2 lists the moves of the size-2 game."""
        state = ziggurat.load(RULESET, {"size": "2"}).new()
        result = run("moves", RULESET, "--set", "size=2", "--json")
        assert result.exit_code == 0
        assert json.loads(result.output) == [state.move_text(m) for m in state.moves()]

    def test_position_option(self):
        """--position lists the moves of that position."""
        state = ziggurat.load(RULESET).position(NEAR_WIN)
        result = run("moves", RULESET, "--position", NEAR_WIN, "--json")
        assert json.loads(result.output) == [state.move_text(m) for m in state.moves()]

    def test_bad_position_names_the_problem(self):
        """A position with a cell off the board names the cell and exits 1."""
        result = run("moves", RULESET, "--position", "south 0 | z9=S1")
        assert result.exit_code == 1
        assert "error: bad --position" in result.output and "'z9'" in result.output


class TestPerft:
    def test_depth_2_matches_the_api(self):
        """perft --depth 2 prints the leaf count that ziggurat.perft gives."""
        leaves = ziggurat.perft(ziggurat.load(RULESET).new(), 2)
        result = run("perft", RULESET, "--depth", 2)
        assert result.exit_code == 0
        assert str(leaves) in result.output
        assert "leaves/s" in result.output

    def test_divide_splits_by_first_move(self):
        """--divide --json gives one count per first move, as ziggurat.divide does, summing to the total."""
        expected = ziggurat.divide(ziggurat.load(RULESET).new(), 2)
        data = json.loads(run("perft", RULESET, "-d", 2, "--divide", "--json").output)
        assert [(d["move"], d["leaves"]) for d in data["divide"]] == expected
        assert data["leaves"] == sum(n for _, n in expected)

    def test_depth_is_required(self):
        """Without --depth, click reports the missing option and exits 2."""
        result = run("perft", RULESET)
        assert result.exit_code == 2
        assert "--depth" in result.output


class TestOptions:
    def test_value_out_of_range(self):
        """--set size=9 says the size must be in its range, exit 1."""
        result = run("moves", RULESET, "--set", "size=9")
        assert result.exit_code == 1
        assert "'size'" in result.output and "9" in result.output

    def test_unknown_option_suggests_a_name(self):
        """--set sise=3 names the unknown option and suggests 'size'."""
        result = run("moves", RULESET, "--set", "sise=3")
        assert result.exit_code == 1
        assert "'sise'" in result.output and "did you mean 'size'" in result.output

    def test_missing_value(self):
        """--set size (no '=') is a usage error naming the item."""
        result = run("moves", RULESET, "--set", "size")
        assert result.exit_code == 2
        assert "'size' is not NAME=VALUE" in result.output


class TestRulesetNames:
    def test_unknown_name_suggests_a_close_one(self):
        """A misspelt ruleset name exits 1 and suggests the shipped one."""
        result = run("moves", RULESET[:-1] + "x")
        assert result.exit_code == 1
        assert f"did you mean {RULESET!r}" in result.output

    def test_rulesets_lists_titles_and_options(self):
        """`rulesets` lists each shipped ruleset with its title and every option's name and doc."""
        result = run("rulesets")
        assert result.exit_code == 0
        for name in shipped_names():
            game = ziggurat.load(name)
            assert game.title in result.output
            for opt in game.option_specs:
                assert opt in result.output

    def test_rulesets_json_gives_default_values(self):
        """`rulesets --json` gives each option's resolved default value."""
        data = {r["name"]: r for r in json.loads(run("rulesets", "--json").output)}
        game = ziggurat.load(RULESET)
        assert {o["name"]: o["value"] for o in data[RULESET]["options"]} == game.options

    def test_path_works_like_a_name(self):
        """A ruleset given by path gives the same moves as by name."""
        by_name = run("moves", RULESET, "--json").output
        assert run("moves", find(RULESET), "--json").output == by_name


class TestCompile:
    def test_show_prints_the_generated_source(self):
        """compile --show prints game.source (plain when not a terminal), which defines legal."""
        result = run("compile", RULESET, "--show")
        assert result.exit_code == 0
        assert "def legal" in result.output
        assert ziggurat.load(RULESET).source in result.output

    def test_compile_names_the_module_file_it_wrote(self):
        """Without --show, compile says where the module is: a file holding exactly the source."""
        result = run("compile", RULESET)
        assert result.exit_code == 0
        path = result.output.split(" in ", 1)[1].split(" (use --show")[0]
        with open(path, encoding="utf-8") as f:
            assert f.read() == ziggurat.load(RULESET).source

    def test_broken_ruleset_renders_diagnostics(self, broken):
        """Compiling a broken ruleset prints each diagnostic (file:line:col) and exits 1."""
        path, line, col = broken
        result = run("compile", path, "--show")
        assert result.exit_code == 1
        assert f"{path}:{line}:{col}" in result.output


class TestShow:
    def test_draws_every_stack(self):
        """show draws each occupied cell's stack, bottom to top, and whose turn it is."""
        state = ziggurat.load(RULESET).new()
        result = run("show", RULESET)
        assert result.exit_code == 0
        world = state.game.world
        for stack in state.cells:
            if stack:
                assert "".join(world.piece_text(p) for p in stack) in result.output
        assert f"{state.mover_name} to move" in result.output


class TestPlay:
    def illegal(self):
        """An illegal first move and the GameError the API gives for it."""
        state = ziggurat.load(RULESET).new()
        text = "b1:3-b3"
        with pytest.raises(ziggurat.GameError) as e:
            state.play(text)
        return text, str(e.value), state.move_text(state.moves()[0])

    @staticmethod
    def ending(state, move):
        """The move's text and the outcome right after it (None while the game goes on)."""
        state.push(move)
        outcome = state.outcome()
        state.pop()
        return state.move_text(move), outcome

    def test_illegal_move_is_explained_and_play_goes_on(self):
        """An illegal move prints the reason; the next legal move is played and the machine replies."""
        bad, why, good = self.illegal()
        result = run("play", RULESET, "--seed", 1, input=f"{bad}\n{good}\nquit\n")
        assert result.exit_code == 0
        assert why in result.output
        assert "north plays" in result.output

    def test_quit_exits_cleanly(self):
        """quit leaves the game with exit 0."""
        result = run("play", RULESET, input="quit\n")
        assert result.exit_code == 0
        assert "left unfinished" in result.output

    def test_end_of_input_exits_cleanly(self):
        """End of input (an empty pipe) ends the game with exit 0."""
        result = run("play", RULESET, input="")
        assert result.exit_code == 0
        assert "end of input" in result.output

    def test_moves_lists_the_legal_moves(self):
        """Typing `moves` lists every legal move and their number."""
        state = ziggurat.load(RULESET).new()
        result = run("play", RULESET, input="moves\nquit\n")
        texts = [state.move_text(m) for m in state.moves()]
        shown = result.output.split("> moves", 1)[1].split(f"({len(texts)} moves)", 1)[0]
        assert sorted(shown.split()) == sorted(texts)  # each whole, none left out, in columns

    def test_moves_are_grouped_by_action_and_never_broken(self):
        """With more than one action the list is grouped under each action's name with its count,
        and a move with spaces (RGB's `b1-a1 starve a1:red`) stays on one line."""
        from collections import Counter

        st = ziggurat.load("rgb").new()
        names = lambda: Counter(st.game.actions[m[0]].name for m in st.moves())  # noqa: E731
        while len(names()) < 2 or not any(" " in st.move_text(m) for m in st.moves()):
            st.push(st.moves()[0])
        result = run("play", "rgb", "--seats", "human,human", "--position", st.text(), input="moves\nquit\n")
        lines = result.output.split("> moves", 1)[1].splitlines()
        for name, k in names().items():
            assert f"{name} ({k}):" in lines
        spaced = [st.move_text(m) for m in st.moves() if " " in st.move_text(m)]
        assert all(any(t in line for line in lines) for t in spaced)

    def test_undo_takes_back_a_full_round(self):
        """undo after one move and the reply returns to ply 0 with the person to move."""
        _, _, good = self.illegal()
        result = run("play", RULESET, "--seed", 3, input=f"{good}\nundo\nquit\n")
        after_undo = result.output.split("> undo", 1)[1]
        assert "ply 0  south to move" in after_undo

    def test_same_seed_same_replies(self):
        """The random mover is seeded: the same seed gives the same transcript."""
        _, _, good = self.illegal()
        first = run("play", RULESET, "--seed", 7, input=f"{good}\nquit\n").output
        assert run("play", RULESET, "--seed", 7, input=f"{good}\nquit\n").output == first

    def test_machine_moves_first_when_you_play_second(self):
        """--as north: the machine plays south's first move before asking."""
        result = run("play", RULESET, "--as", "north", "--seed", 1, input="quit\n")
        assert result.output.index("south plays") < result.output.index("north (you) to move")

    def test_unknown_side(self):
        """--as with a side the game lacks names the sides and exits 1."""
        result = run("play", RULESET, "--as", "nort", input="quit\n")
        assert result.exit_code == 1
        assert "did you mean 'north'" in result.output

    def test_outcome_is_announced(self):
        """A winning move ends the game and prints who won and why."""
        state = ziggurat.load(RULESET).position(NEAR_WIN)
        endings = [self.ending(state, m) for m in state.moves()]
        text, outcome = next(e for e in endings if e[1] is not None)
        assert outcome.kind == "win"
        result = run("play", RULESET, "--position", NEAR_WIN, input=f"{text}\n")
        assert result.exit_code == 0
        assert f"{state.game.players[outcome.player]} wins" in result.output
        assert outcome.reason in result.output


class FakeReport:
    def __init__(self, failures):
        self.ok, self.failures, self.examples, self.positions = not failures, failures, 5, 40


class FakeFailure:
    def render(self):
        return "invariant 'x' failed at some position"


class TestPropertyTest:
    @pytest.fixture
    def calls(self, monkeypatch):
        """A stand-in ziggurat.proptest that records its calls and fails when options ask it to."""
        calls = []

        def run_properties(ruleset, *, options=None, examples=50, max_plies=60, seed=None, progress=None):
            calls.append(dict(ruleset=ruleset, options=options, examples=examples, max_plies=max_plies, seed=seed))
            progress(1)
            return FakeReport([FakeFailure()] if options and options.get("fail") else [])

        module = types.ModuleType("ziggurat.proptest")
        module.run_properties = run_properties
        monkeypatch.setitem(sys.modules, "ziggurat.proptest", module)
        return calls

    def test_passes_arguments_and_exits_0_when_ok(self, calls):
        """test passes the ruleset, options, examples, max plies and seed through; ok exits 0."""
        result = run("test", RULESET, "--examples", 5, "--max-plies", 9, "--seed", 2, "--set", "size=2")
        assert result.exit_code == 0
        assert calls == [dict(ruleset=RULESET, options={"size": "2"}, examples=5, max_plies=9, seed=2)]

    def test_failure_is_rendered_and_exits_1(self, calls):
        """A failed property is printed with render() and the exit code is 1."""
        result = run("test", RULESET, "--set", "fail=1")
        assert result.exit_code == 1
        assert FakeFailure().render() in result.output

    def test_missing_engine_is_an_error_not_a_crash(self, monkeypatch):
        """Without ziggurat.proptest the command says so and exits 1."""
        monkeypatch.setitem(sys.modules, "ziggurat.proptest", None)
        result = run("test", RULESET)
        assert result.exit_code == 1
        assert "ziggurat.proptest" in result.output

    def test_real_engine_on_a_shipped_ruleset(self):
        """With the real ziggurat.proptest, a few short games of a shipped ruleset pass (exit 0)."""
        pytest.importorskip("ziggurat.proptest")
        result = run("test", RULESET, "--examples", 2, "--max-plies", 6, "--seed", 1)
        assert result.exit_code == 0, result.output
        assert result.output.startswith("ok:")


class TestErrors:
    def test_version(self):
        """--version prints the package version."""
        result = run("--version")
        assert result.exit_code == 0
        assert ziggurat.__version__ in result.output

    def test_unexpected_exception_is_an_internal_error(self, monkeypatch):
        """A bug inside a command prints 'internal error' with the type and exits 3, no traceback."""
        def boom(state, depth):
            raise RuntimeError("kaput")

        monkeypatch.setattr(ziggurat, "perft", boom)
        result = run("perft", RULESET, "--depth", 1)
        assert result.exit_code == 3
        assert "internal error: RuntimeError: kaput" in result.output

    def test_missing_file_for_check(self, tmp_path):
        """check on a file that does not exist names it and exits 1."""
        missing = tmp_path / "nothing.rules"
        result = run("check", missing)
        assert result.exit_code == 1
        assert str(missing) in result.output



class TestStartUp:
    def test_help_imports_no_heavy_library(self):
        """`ziggurat --help` starts without scipy, matplotlib, dask or hypothesis: the commands that
        need them import them when they run."""
        code = ("import sys\n"
                "from ziggurat.cli.main import main\n"
                "try:\n"
                "    main(['--help'])\n"
                "except SystemExit:\n"
                "    pass\n"
                "heavy = {'scipy', 'matplotlib', 'dask', 'distributed', 'hypothesis', 'numpy'}\n"
                "print(sorted(heavy & {m.split('.')[0] for m in sys.modules}))\n")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        assert out.stdout.strip().splitlines()[-1] == "[]"


FINISHED = "south 20 | c3=S3S2S1N3N2N1S3S2S1N3N2N1S3S2S1N3N2 d5=N1 |"  # south controls nothing


def test_moves_and_show_of_a_finished_game_say_who_won_and_why():
    """South has no stack to move, so it loses: both commands say so, not just 'game over'."""
    moves = run("moves", "stacktics", "--position", FINISHED)
    assert moves.exit_code == 0 and "0 moves (game over: south loses, no legal move)" in moves.output
    show = run("show", "stacktics", "--position", FINISHED)
    assert show.exit_code == 0 and "game over: south loses (no legal move)" in show.output


def test_a_move_typed_short_is_answered_with_the_moves_it_starts():
    """`b1:1-c` is the start of the legal `b1:1-c2`; a near miss (`b1:1c2`) is answered with the
    closest legal texts; a word that is no move at all still gets the forms of the moves."""
    state = ziggurat.load("stacktics").new()
    with pytest.raises(ziggurat.ZigguratError, match=r"is not a move here; did you mean 'b1:1-c2'\?$"):
        state.play("b1:1-c")
    with pytest.raises(ziggurat.ZigguratError, match=r"did you mean 'b1:1-c2'"):
        state.play("b1:1c2")
    with pytest.raises(ziggurat.ZigguratError, match="is not a move of Stacktics: moves are written"):
        state.play("zzz")
