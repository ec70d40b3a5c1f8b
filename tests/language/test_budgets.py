"""Budgets: a ruleset too large or too deep is refused by `check` and by the compiler with a
diagnostic at its rules line and column, quickly and in little memory, never with an internal
error or a hang (dsl/budgets.py holds the limits; docs/reference/language.md lists them).

Each test writes one hostile ruleset found by a tester, checks it in-process, and asserts where
the diagnostic points; the ones that once hung at run time also go through
the command line in a subprocess with a timeout.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import ziggurat
from ziggurat.dsl import budgets
from ziggurat.dsl.checks import check
from ziggurat.dsl.loader import find, shipped_names

HEAD = '''game "T"
players a, b
board:
    files: 3
    ranks: 3
piece:
    owner: players
'''
PLACE = "    do:\n        place(piece(mover), at)\n"
ACTION = 'action m "{at}":\n    at: cells where empty(at)\n' + PLACE


def errors(text: str, path: str = "hostile.rules") -> list:
    """The errors check finds in a text (each hostile text here once took minutes or gigabytes;
    that it is refused at its budget is what the tests assert: how fast, benchmarks/ measures)."""
    diags = check(path, text=text)
    for d in diags:
        assert d.render()
    return [d for d in diags if d.severity == "error"]


def only(errs: list):
    assert len(errs) == 1, [e.render() for e in errs]
    return errs[0]


def line_of(text: str, needle: str) -> tuple:
    """(line, col) of the first occurrence of needle, both from 1."""
    for number, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return number, line.index(needle) + 1
    raise AssertionError(needle)


def ziggurat_cli(*args, timeout: float = 300) -> subprocess.CompletedProcess:
    env = dict(os.environ, ZIGGURAT_CACHE_DIR="off")
    return subprocess.run([sys.executable, "-c", "from ziggurat.cli.main import main; main()", *args],
                          capture_output=True, text=True, timeout=timeout, env=env)


# ---- defs expanded in place ---------------------------------------------------------------------


def doubling_defs(n: int = 18) -> str:
    text = HEAD + "def d0(c): height(c)\n"
    text += "".join(f"def d{i}(c): d{i - 1}(c) + d{i - 1}(c)\n" for i in range(1, n))
    return text + f'action m "{{at}}":\n    at: cells where empty(at) and d{n - 1}(at) >= 0\n' + PLACE


def test_a_def_that_doubles_is_refused_at_its_use_naming_the_chain():
    # 18 defs each using the one before twice: 2^17 copies (was 299 s and 11 GB in check).
    text = doubling_defs()
    e = only(errors(text))
    assert (e.line, e.col) == line_of(text, "d17(at)")
    assert "d17() -> d16()" in e.message and f"{budgets.MAX_DEF_NODES:,} nodes" in e.message


def test_a_doubling_def_stops_the_command_line_quickly(tmp_path):
    path = tmp_path / "defs.rules"
    path.write_text(doubling_defs())
    run = ziggurat_cli("perft", str(path), "-d", "1")  # it ran for minutes: the timeout catches a hang
    assert run.returncode == 1, run.stderr
    assert f"{path}:{line_of(doubling_defs(), 'd17(at)')[0]}:" in run.stderr and "internal error" not in run.stderr


def test_a_def_used_a_few_times_is_within_budget():
    text = doubling_defs(6)  # 32 copies of height(c): fine
    assert errors(text) == []


def test_a_large_def_used_many_times_is_refused_at_the_use_that_goes_over_the_total():
    # Each use is under the per-use budget; 20 of them took 17 s to compile.
    body = "max(" + ", ".join(["height(c)"] * 1300) + ")"  # 2,602 nodes
    uses = " and ".join(["big(at) > 0"] * 20)
    text = HEAD + f"def big(c): {body}\n" + 'action m "{at}":\n    at: cells where empty(at)\n    when ' + uses + "\n" + PLACE
    e = only(errors(text))
    first_over = budgets.MAX_EXPANDED_NODES // 2602  # uses counted from 0
    line = text.splitlines()[e.line - 1]
    assert e.line == line_of(text, "when big")[0] and line[: e.col - 1].count("big(at)") == first_over
    assert f"more than {budgets.MAX_EXPANDED_NODES:,} nodes" in e.message


def test_defs_expanded_inside_one_another_too_deep_are_refused():
    text = HEAD + "def g0(c): height(c)\n" + "".join(f"def g{i}(c): g{i - 1}(c)\n" for i in range(1, 200))
    text += 'action m "{at}":\n    at: cells where empty(at) and g199(at) >= 0\n' + PLACE
    e = only(errors(text))
    assert (e.line, e.col) == line_of(text, "g199(at)")
    assert f"more than {budgets.MAX_DEF_DEPTH} deep" in e.message


def test_defs_each_nesting_deep_are_refused_without_recursing_through_them_all():
    # 30 defs each wrapping the one before in 35 nots: the budget's own count once overflowed.
    text = HEAD + "def g0(c): height(c) > 0\n"
    text += "".join(f"def g{i}(c): " + "not " * 35 + f"g{i - 1}(c)\n" for i in range(1, 31))
    text += 'action m "{at}":\n    at: cells where empty(at) and g30(at)\n' + PLACE
    e = only(errors(text))
    assert (e.line, e.col) == line_of(text, "g30(at)")
    assert f"more than {budgets.MAX_NESTING} levels" in e.message and "g30() -> g29()" in e.message


# ---- kinds of piece -----------------------------------------------------------------------------


def test_too_many_kinds_of_piece_are_refused_at_the_piece_block():
    # 6 attributes of 10 values: 2,000,000 kinds (was a MemoryError at 6 GB).
    attrs = "".join(f"    q{k}: " + ", ".join(f"v{k}x{j} = {j}" for j in range(10)) + "\n" for k in range(6))
    text = HEAD + attrs + 'action m "{at}":\n    at: cells where empty(at)\n    do:\n        place(piece(mover, '
    text += ", ".join(f"v{k}x0" for k in range(6)) + "), at)\n"
    e = only(errors(text))
    assert (e.line, e.col) == line_of(text, "piece:")
    assert "2,000,000 kinds of piece" in e.message and f"{budgets.MAX_PIECE_KINDS:,}" in e.message


# ---- ranges -------------------------------------------------------------------------------------


def test_a_choice_over_a_huge_range_is_refused_at_the_choice():
    # was 119 s and 3.9 GB
    text = HEAD + 'action m "{at}{n}":\n    at: cells where empty(at)\n    n: 1..100000000\n' + PLACE
    e = only(errors(text))
    assert (e.line, e.col) == line_of(text, "n: 1..100000000")
    assert "100,000,000 values" in e.message


def test_a_loop_over_a_huge_range_is_refused_at_the_range():
    text = HEAD + ACTION + "end:\n    for i in 1..50000000:\n        draw\n"
    e = only(errors(text))
    assert (e.line, e.col) == line_of(text, "1..50000000")


@pytest.mark.parametrize("kind", ["pieces", "choice"])
def test_the_command_line_stops_quickly_where_moves_once_ran_out_of_memory(tmp_path, kind):
    # `ziggurat moves` took 6 GB (pieces) and 119 s and 3.9 GB (choice) before.
    if kind == "pieces":
        attrs = "".join(f"    q{k}: " + ", ".join(f"v{k}x{j} = {j}" for j in range(10)) + "\n" for k in range(6))
        text, needle = HEAD + attrs + ACTION, "piece:"
    else:
        text = HEAD + 'action m "{at}{n}":\n    at: cells where empty(at)\n    n: 1..100000000\n' + PLACE
        needle = "n: 1..100000000"
    path = tmp_path / f"{kind}.rules"
    path.write_text(text)
    run = ziggurat_cli("moves", str(path))  # it ran for minutes: the timeout catches a hang
    line, col = line_of(text, needle)
    assert run.returncode == 1 and f"{path}:{line}:{col}: error" in run.stderr, run.stderr


def test_membership_in_a_huge_range_never_makes_the_range():
    # `5 in 1..3000000000` gave a MemoryError: it is folded, or compiled to two comparisons.
    text = HEAD + 'check 5 in 1..3000000000: "five"\n' + (
        'action m "{at}":\n    at: cells where empty(at) and ply in 1..3000000000 and 5 in 1..3000000000\n'
        + PLACE)
    assert errors(text) == []
    source = ziggurat.load("member.rules", text=text).source
    assert "in range(" not in source and "3000000000" in source
    assert "1 <= ply and ply <= 3000000000" in source


# ---- many declarations --------------------------------------------------------------------------


class CountedText(str):
    """A rules text that counts how often it is split into lines."""

    splits = 0

    def splitlines(self, *args, **kwargs):
        CountedText.splits += 1
        return str.splitlines(self, *args, **kwargs)


def work_of_check(text: str) -> tuple:
    """(function calls made, times the text was split into lines) by one check of `text`: counts,
    the same on any machine however loaded, where a clock is not."""
    calls = 0

    def count(frame, event, arg):
        nonlocal calls
        if event in ("call", "c_call"):
            calls += 1

    CountedText.splits = 0
    sys.setprofile(count)
    try:
        check("many.rules", text=CountedText(text))
    finally:
        sys.setprofile(None)
    return calls, CountedText.splits


def test_check_is_linear_in_the_number_of_declarations(monkeypatch):
    # Unused-def warnings each split the whole file into lines: 20k defs took 40 s, 40k 156 s.
    # The size budgets are lifted here, to see how check grows beyond them.
    monkeypatch.setattr(budgets, "MAX_SOURCE_BYTES", 10 ** 7)
    monkeypatch.setattr(budgets, "MAX_TOKENS", 10 ** 7)

    def many(n):
        return HEAD + "".join(f"def f{i}(c): 1\n" for i in range(n)) + ACTION
    work_of_check(many(10))  # the grammar loaded
    (small, small_splits), (big, big_splits) = work_of_check(many(200)), work_of_check(many(1600))
    assert small_splits <= 1 and big_splits <= 1  # the file split once, not once a warning
    assert big < 2 * 8 * small, (small, big)  # 8 times the defs: linear is 8 times the calls, quadratic 64
    assert len([d for d in check("many.rules", text=many(200)) if d.severity == "warning"]) == 200


def test_a_file_of_too_many_tokens_is_refused_at_the_first_one_past_the_limit():
    # A list of 32,000 numbers took 8 s to parse in a file under the size limit.
    text = HEAD + 'action m "{at}":\n    at: cells where empty(at) and count([' + "1," * 30000 + "1]) > 0\n" + PLACE
    e = only(errors(text))
    line, col = line_of(text, "count([")
    assert e.line == line and e.col > col and f"more than {budgets.MAX_TOKENS:,}" in e.message
    assert e.source_line[e.col - 1] in "1,"  # inside the list


def test_too_many_actions_are_refused_at_the_first_one_over():
    text = HEAD + "".join(f'action m{i} "x{i}{{at}}":\n    at: cells where empty(at)\n' + PLACE
                          for i in range(budgets.MAX_ACTIONS + 20))
    e = only(errors(text))
    assert (e.line, e.col) == line_of(text, f"action m{budgets.MAX_ACTIONS} ")
    assert f"{budgets.MAX_ACTIONS + 20} actions" in e.message


# ---- sizes of the text --------------------------------------------------------------------------


def test_a_file_too_large_is_refused_before_it_is_parsed(tmp_path):
    # A 5 MB string peaked at 1 GB.
    text = 'game "' + "x" * 5_000_000 + '"\n' + HEAD.split("\n", 1)[1] + ACTION
    e = only(errors(text))
    assert e.line == 0 and f"{budgets.MAX_SOURCE_BYTES:,} bytes" in e.message
    path = tmp_path / "big.rules"
    path.write_text(text)
    e = only(errors(None, path=str(path)))
    assert e.path == str(path) and "5,000," in e.message


def test_a_string_too_long_is_refused_at_the_string():
    text = 'game "T" "' + "x" * (budgets.MAX_STRING_CHARS + 1) + '"\n' + HEAD.split("\n", 1)[1] + ACTION
    e = only(errors(text))
    assert (e.line, e.col) == (1, 10) and f"{budgets.MAX_STRING_CHARS + 1:,} characters" in e.message


@pytest.mark.parametrize("digits", [19, 5000])
def test_a_number_with_too_many_digits_is_refused_at_the_number(digits):
    # 5000 digits was an internal error ("Exceeds the limit (4300 digits) ...").
    text = HEAD + 'action m "{at}":\n    at: cells where empty(at) and ' + "9" * digits + " > 0\n" + PLACE
    e = only(errors(text))
    assert (e.line, e.col) == line_of(text, "9999")
    assert f"{digits:,} digits" in e.message


def test_a_number_of_18_digits_is_fine_and_a_computed_one_beyond_64_bits_is_refused():
    ok = HEAD + 'action m "{at}":\n    at: cells where empty(at) and ply < 999999999999999999\n' + PLACE
    assert errors(ok) == []
    big = HEAD + 'action m "{at}":\n    at: cells where empty(at) and ply < 999999999 * 999999999 * 999999999\n' + PLACE
    e = only(errors(big))
    assert e.line == line_of(big, "999999999 * ")[0] and "64 bits" in e.message


def test_a_chain_of_extends_too_long_is_refused(tmp_path):
    (tmp_path / "v0.rules").write_text(HEAD + ACTION)
    for i in range(1, budgets.MAX_EXTENDS + 3):
        (tmp_path / f"v{i}.rules").write_text(f"extends v{i - 1}\n")
    e = only(errors(None, path=str(tmp_path / f"v{budgets.MAX_EXTENDS + 2}.rules")))
    assert f"longer than {budgets.MAX_EXTENDS} files" in e.message and e.line == 1


# ---- nesting ------------------------------------------------------------------------------------


def nested_choices(n: int) -> str:
    # On one cell: nine choices over nine cells would make 9^9 moves, past MAX_ESTIMATED_MOVES.
    head = HEAD.replace("files: 3\n    ranks: 3", "files: 1\n    ranks: 1")
    text = head + 'action m "' + "".join(f"{{c{i}}}" for i in range(n)) + '":\n'
    text += "".join(f"    c{i}: cells where empty(c{i})\n" for i in range(n))
    return text + "    do:\n        place(piece(mover), c0)\n"


def test_too_many_nested_choices_are_refused_at_the_first_too_deep():
    # 25 nested choices gave `SyntaxError: too many statically nested blocks` from the module.
    text = nested_choices(25)
    e = only(errors(text))
    limit = budgets.MAX_PYTHON_LOOPS // 2  # a choice counts two loops
    assert (e.line, e.col) == line_of(text, f"c{limit}: cells")
    assert "too many loops" in e.message


def test_as_many_nested_choices_as_allowed_compile():
    text = nested_choices(budgets.MAX_PYTHON_LOOPS // 2)
    assert errors(text) == []
    assert isinstance(ziggurat.load("choices.rules", text=text), ziggurat.Game)


def test_too_many_nested_loops_in_effects_are_refused_at_the_loop():
    body = "".join("    " * (i + 2) + f"for x{i} in cells:\n" for i in range(25)) + "    " * 27 + "place(piece(mover), at)\n"
    text = HEAD + 'action m "{at}":\n    at: cells where empty(at)\n    do:\n' + body
    e = only(errors(text))
    assert "too many loops" in e.message
    assert (e.line, e.col) == line_of(text, f"for x{budgets.MAX_PYTHON_LOOPS - 2} in")  # the choice is two


def test_ifs_nested_too_deep_are_refused_at_the_first_too_deep():
    # 120 nested ifs gave a RecursionError.
    body = "".join("    " * (i + 2) + f"if ply >= {i}:\n" for i in range(120)) + "    " * 122 + "place(piece(mover), at)\n"
    text = HEAD + 'action m "{at}":\n    at: cells where empty(at)\n    do:\n' + body
    e = only(errors(text))
    assert f"more than {budgets.MAX_NESTING} levels" in e.message
    # action (1), do: (2), the ifs from 3: the name in the condition of if number 36 (from 0) is at 41
    assert (e.line, e.col) == line_of(text, f"ply >= {budgets.MAX_NESTING - 4}:")


def test_a_thousand_brackets_are_fine_and_five_thousand_nots_are_refused():
    parens = HEAD + 'action m "{at}":\n    at: cells where empty(at) and ' + "(" * 1000 + "1" + ")" * 1000 + " > 0\n" + PLACE
    assert errors(parens) == []  # brackets alone make nothing nest (was a RecursionError)
    nots = HEAD + 'action m "{at}":\n    at: cells where empty(at) and ' + "not " * 5000 + "false\n" + PLACE
    e = only(errors(nots))
    assert e.line == 9 and f"more than {budgets.MAX_NESTING} levels" in e.message
    deep = HEAD + 'action m "{at}":\n    at: cells where empty(at) and ' + "(1 + " * 1000 + "1" + ")" * 1000 + " > 0\n" + PLACE
    assert e.line == only(errors(deep)).line


def test_rules_nested_just_within_the_limits_compile():
    """At the limits every pass (each recursive) still runs: a def nested to the limit, used in
    an expression nested almost to it, and ifs to the limit."""
    n = budgets.MAX_NESTING - 6
    text = HEAD + "def f(c): " + "(height(c) + " * n + "1" + ")" * n + "\n"
    text += 'action m "{at}":\n    at: cells where empty(at)\n    when ' + "(ply + " * n + "f(at)" + ")" * n + " >= 0\n"
    text += "    do:\n" + "".join("    " * (i + 2) + f"if ply >= {i}:\n" for i in range(n))
    text += "    " * (n + 2) + "place(piece(mover), at)\n"
    assert errors(text) == []
    game = ziggurat.load("deep.rules", text=text)
    assert len(game.new().moves()) == 9


def test_the_generated_code_is_checked_against_pythons_limits(monkeypatch):
    """Were the rules' estimate too generous, the compiler refuses the module at a rules line
    instead of handing Python code it cannot compile."""
    monkeypatch.setattr(budgets, "MAX_PYTHON_LOOPS", 10 ** 6)
    monkeypatch.setattr(budgets, "MAX_PYTHON_LEVELS", 10 ** 6)
    text = nested_choices(25)
    with pytest.raises(ziggurat.RulesetError) as info:
        ziggurat.load("choices.rules", text=text)
    e = only(info.value.diagnostics)
    assert "Python allows 20" in e.message and e.line == line_of(text, "c19: cells")[0]


# ---- the shipped rulesets -----------------------------------------------------------------------


@pytest.mark.parametrize("name", shipped_names())
def test_every_shipped_ruleset_is_within_every_budget(name):
    assert [d.render() for d in check(name) if d.severity == "error"] == []
    assert len(find(name).read_bytes()) < budgets.MAX_SOURCE_BYTES


# ---- the moves of one position ------------------------------------------------------------------

TWO_RANGES = HEAD + '''counter total = 0
action pick "{x}/{y}":
    x: 1..10000
    y: 1..10000
    do:
        total += x + y
'''


def test_choices_whose_values_multiply_past_the_estimate_are_refused_at_the_action():
    """Two choices of 1..10000 passed check, then `moves` grew to 5.5 GB (item 13 of issue 28):
    100,000,000 moves at every position."""
    e = only(errors(TWO_RANGES))
    assert (e.line, e.col) == line_of(TWO_RANGES, 'action pick')
    assert "about 100,000,000 moves at one position" in e.message
    assert f"{budgets.MAX_ESTIMATED_MOVES:,}" in e.message and e.hint
    with pytest.raises(ziggurat.RulesetError, match="100,000,000 moves"):
        ziggurat.load("ranges.rules", text=TWO_RANGES)


def test_choices_within_the_estimate_pass():
    text = TWO_RANGES.replace("1..10000", "1..100")
    assert errors(text) == []


# Ranges bounded only while the game runs: `total` x `total` moves, 100 at the start.
GROWING = HEAD + '''counter total = 10
action pick "{x}/{y}":
    x: 1..total
    y: 1..total
    do:
        total += 1
end:
    if ply >= 4:
        draw "done"
'''


@pytest.fixture
def fifty_moves(monkeypatch):
    """A position may have 50 moves (read by each game as it is loaded)."""
    monkeypatch.setattr(budgets, "MAX_MOVES", 50)


def test_a_position_past_the_move_limit_is_an_error_at_the_choice(fifty_moves):
    """A range bounded at run time grew perft to 8 GB; now the position with more moves than
    MAX_MOVES stops the game with an error at the choice that made them (moves, perft, play)."""
    from ziggurat.interpreter.runtime import perft

    assert errors(GROWING) == []
    state = ziggurat.load("growing.rules", text=GROWING).new()
    choices = [line_of(GROWING, "x: 1..total"), line_of(GROWING, "y: 1..total")]
    for run in (state.moves, lambda: perft(state, 1), lambda: perft(state, 2), lambda: state.play("1/1")):
        with pytest.raises(ziggurat.RulesetError) as info:
            run()
        e = only(info.value.diagnostics)
        assert (e.line, e.col) in choices  # the loop that met the limit first: 5 x 10 moves made, at x
        assert "more than 50 moves" in e.message and "1..total" in e.message and e.hint


def test_a_study_past_the_move_limit_names_the_choice(fifty_moves, tmp_path):
    from ziggurat.lab.study import StudySpec, run_study

    path = tmp_path / "growing.rules"
    path.write_text(GROWING)
    with pytest.raises(ziggurat.RulesetError) as info:
        run_study(StudySpec(str(path), ("random", "random"), 2, max_plies=10), workers=1)
    assert only(info.value.diagnostics).line in (line_of(GROWING, "x: 1..total")[0], line_of(GROWING, "y: 1..total")[0])


def test_the_move_limit_error_crosses_from_a_worker_process():
    """A study's worker sends its error pickled; the limit's error must survive it (it broke the
    worker pool before, which then said its workers had died)."""
    import pickle

    from ziggurat.interpreter.helpers import MoveLimit

    e = pickle.loads(pickle.dumps(MoveLimit("1..total", 50)))
    assert isinstance(e, MoveLimit) and "more than 50 moves" in str(e) and "1..total" in str(e)


def test_a_position_within_the_move_limit_is_played(fifty_moves):
    state = ziggurat.load("growing.rules", text=GROWING.replace("counter total = 10", "counter total = 7")).new()
    assert len(state.moves()) == 49


def test_native_perft_past_the_move_limit_falls_back_and_stops_at_the_choice(tmp_path):
    """The native loop holds 16,384 moves a position and gives the position to Python, which
    stops at MAX_MOVES: 1,001 x 1,001 moves (about 130 MB while they are made)."""
    pytest.importorskip("numba")
    path = tmp_path / "growing.rules"
    path.write_text(GROWING.replace("counter total = 10", "counter total = 1001"))
    result = ziggurat_cli("perft", str(path), "-d", "1", "--backend", "native", timeout=300)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    said = [f"growing.rules:{line}:{col}: error: this rule failed while the game ran: this position has more "
            f"than {budgets.MAX_MOVES:,} moves" for line, col in (line_of(GROWING, "x: 1..total"),
                                                                 line_of(GROWING, "y: 1..total"))]
    assert any(text in result.stderr for text in said), result.stderr
