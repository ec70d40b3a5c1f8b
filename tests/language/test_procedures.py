"""Procedures (`procedure NAME(params):` and a block) and `direction(a, b)`: how they parse, and
each mistake found at its line and column, named, with a hint."""

import pytest
from rules_edits import at, replace_once, the_error

from ziggurat.dsl import ast
from ziggurat.dsl.checks import check
from ziggurat.dsl.parser import parse

GAME = """\
players white, black
board:
    files: 3
    ranks: 3
piece:
    owner: players
zone captured per player
counter taken per player = 0

procedure capture(c, p):
    take(c, captured[p])
    taken[p] += 1

setup:
    for c in cells where c.rank == 1:
        place(piece(white), c)
    for c in cells where c.rank == 3:
        place(piece(black), c)

action step "{from}-{to}":
    from: cells where mine(from)
    to: neighbours(from, adjacent) where not mine(to)
    do:
        if theirs(to):
            capture(to, mover)
        move(from, 1, to)

end:
    if taken[mover] >= 2:
        win mover
"""


def edit(old: str, new: str, text: str = GAME) -> str:
    return replace_once(text, old, new)


def test_a_procedure_parses_to_its_name_parameters_and_statements():
    rules = parse(GAME)
    proc = next(d for d in rules.decls if isinstance(d, ast.Procedure))
    assert (proc.name, proc.params) == ("capture", ("c", "p"))
    assert [type(s).__name__ for s in proc.body] == ["ExprStmt", "Assign"]
    assert proc.pos.line == at(GAME, "procedure")[0]


def test_a_procedure_without_parameters_parses():
    text = edit("procedure capture(c, p):\n    take(c, captured[p])\n    taken[p] += 1\n",
                "procedure tick():\n    taken[mover] += 1\n")
    text = edit("            capture(to, mover)\n", "            tick()\n", text)
    proc = next(d for d in parse(text).decls if isinstance(d, ast.Procedure))
    assert proc.params == ()
    assert [d for d in check("edited.rules", text=text) if d.severity == "error"] == []


def test_the_game_with_a_procedure_checks_clean():
    assert check("game.rules", text=GAME) == []


def test_a_wrong_number_of_arguments_is_reported_at_the_call_with_the_declaration():
    text = edit("capture(to, mover)", "capture(to)")
    d = the_error(text)
    assert (d.line, d.col) == at(text, "capture(to)")
    assert "capture() takes 2 arguments, not 1" in d.message
    assert "procedure capture(c, p) is on line 10" in d.hint


def test_an_unknown_procedure_suggests_the_one_meant():
    text = edit("capture(to, mover)", "captur(to, mover)")
    d = the_error(text)
    assert (d.line, d.col) == at(text, "captur(")
    assert "unknown effect 'captur'" in d.message and "capture" in d.hint


def test_a_procedure_calling_itself_is_reported_with_the_chain():
    text = edit("    taken[p] += 1\n", "    taken[p] += 1\n    capture(c, p)\n")
    d = the_error(text)
    assert (d.line, d.col) == (at(text, "    capture(c, p)")[0], 5)
    assert "capture() calls itself (capture() -> capture())" in d.message
    assert "cannot recurse" in d.message


def test_procedures_calling_each_other_back_are_reported():
    text = edit("    taken[p] += 1\n", "    taken[p] += 1\n    again(c, p)\n\nprocedure again(c, p):\n    capture(c, p)\n")
    d = the_error(text)
    assert "capture() calls itself (capture() -> again() -> capture())" in d.message


def test_a_procedure_used_as_a_value_is_reported_with_a_hint_to_write_a_def():
    text = edit("        move(from, 1, to)\n", "        let x = capture(to, mover)\n        move(from, 1, to)\n")
    d = the_error(text)
    assert (d.line, d.col) == at(text, "capture(to, mover)\n        move")
    assert "capture() is a procedure: it changes the game and gives no value" in d.message
    assert "def" in d.hint


def test_a_statement_out_of_place_in_a_procedure_names_the_call():
    text = edit("    taken[p] += 1\n", "    win p\n")
    d = the_error(text)
    assert (d.line, d.col) == at(text, "win p")
    assert "'win' ends the game" in d.message
    assert f"called on line {at(text, 'capture(to, mover)')[0]}" in d.message


def test_a_procedure_may_not_take_the_name_of_an_effect():
    text = edit("procedure capture(c, p)", "procedure take_(c, p)").replace("capture(to, mover)", "take_(to, mover)")
    text = text.replace("take_", "move")
    errs = [d for d in check("edited.rules", text=text) if d.severity == "error"]
    assert any("the procedure 'move' would hide the effect move()" in d.message
               and (d.line, d.col) == at(text, "move(c, p)") for d in errs)


def test_a_parameter_named_twice_is_reported():
    d = the_error(edit("procedure capture(c, p)", "procedure capture(c, c)"))
    assert "procedure 'capture' names the parameter 'c' twice" in d.message


def test_a_procedure_body_does_not_see_the_callers_names():
    text = edit("    take(c, captured[p])\n", "    take(to, captured[p])\n")
    d = the_error(text)
    assert (d.line, d.col) == at(text, "to, captured")
    assert "unknown name 'to'" in d.message


def test_a_let_in_a_procedure_may_not_hide_its_parameter():
    text = edit("    taken[p] += 1\n", "    let p = 1\n    taken[mover] += p\n")
    d = the_error(text)
    assert "hides the parameter 'p' of procedure capture()" in d.message


def test_an_unused_procedure_is_a_warning_and_its_unknown_names_an_error():
    text = edit("            capture(to, mover)\n", "            take(to, captured[mover])\n")
    found = check("edited.rules", text=text)
    assert [(d.severity, d.message) for d in found] == [("warning", "procedure 'capture' is never used")]
    broken = edit("    taken[p] += 1\n", "    taken[q] += 1\n", text)
    d = the_error(broken)
    assert (d.line, d.col) == at(broken, "q]")
    assert "unknown name 'q'" in d.message


def test_a_missing_colon_after_a_procedure_header_is_named():
    text = edit("procedure capture(c, p):", "procedure capture(c, p)")
    d = the_error(text)
    assert d.line == at(text, "procedure")[0]
    assert "':'" in d.expected


def test_procedures_nested_past_the_loop_budget_are_refused_at_the_rules():
    """A procedure's loops count where it is called: 19 procedures each looping and calling the
    next make 19 loops inside one another, over the 18 the compiled code may hold."""
    procs = "".join(f"procedure p{i}():\n    for c{i} in cells:\n        p{i + 1}()\n" for i in range(19))
    procs += "procedure p19():\n    taken[mover] += 1\n"
    text = edit("procedure capture(c, p):", procs + "procedure capture(c, p):")
    text = edit("        move(from, 1, to)\n", "        move(from, 1, to)\n        p0()\n", text)
    errs = [d for d in check("edited.rules", text=text) if d.severity == "error"]
    assert any("nests too many loops" in d.message for d in errs), [d.message for d in errs]


def test_procedures_doubling_at_each_level_are_refused_before_they_are_written_out():
    procs = "".join(f"procedure p{i}():\n    p{i + 1}()\n    p{i + 1}()\n" for i in range(30))
    procs += "procedure p30():\n    taken[mover] += 1\n"
    text = edit("procedure capture(c, p):", procs + "procedure capture(c, p):")
    text = edit("        move(from, 1, to)\n", "        move(from, 1, to)\n        p0()\n", text)
    errs = [d for d in check("edited.rules", text=text) if d.severity == "error"]
    assert len(errs) == 1 and "add up to more than 20,000 nodes" in errs[0].message


@pytest.mark.parametrize("expr, message", [
    ("direction(from)", "direction() takes 2 arguments, not 1"),
    ("direction(from, 3)", "argument 2 of direction() must be a cell, not a number"),
])
def test_direction_takes_two_cells(expr, message):
    text = edit("to: neighbours(from, adjacent) where not mine(to)",
                f"to: neighbours(from, adjacent) where not mine(to) and {expr} != n")
    d = the_error(text)
    assert message in d.message


def test_direction_is_a_direction_and_compares_with_none():
    text = edit("to: neighbours(from, adjacent) where not mine(to)",
                "to: cells where direction(from, to) != none and not mine(to)")
    assert [d for d in check("edited.rules", text=text) if d.severity == "error"] == []
    text = edit("to: neighbours(from, adjacent) where not mine(to)",
                "to: cells where direction(from, to) == 1")
    assert "comparing a direction with a number is always false" in the_error(text).message


def test_a_mistake_in_a_body_called_twice_is_one_error_naming_the_first_call():
    """capture() is called from two actions; its wrong line is one mistake, reported once."""
    text = edit("    taken[p] += 1\n", "    taken[p] += true\n")
    text = text.replace("end:\n", 'action jump "{from}*{to}":\n    from: cells where mine(from)\n'
                                  "    to: cells where theirs(to)\n    do:\n        capture(to, mover)\n\nend:\n")
    errs = [d for d in check("edited.rules", text=text) if d.severity == "error"]
    assert len(errs) == 1, [d.message for d in errs]
    assert errs[0].line == 12 and "a counter's value must be a number" in errs[0].message
    assert "called on line 25" in errs[0].message
