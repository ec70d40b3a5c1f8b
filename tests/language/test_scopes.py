"""Scopes: a name bound twice, and the Python names bindings get.

The rule: within one action (its after block included), one block (setup, the end block), or one
def, a name is bound once where it is visible. A let, a loop or comprehension variable, a choice
or a repeat's variable whose name is already bound there (a choice, a let, a def's parameter, an
enclosing loop variable) is a check error at its name. A def is a scope of its own, so its
names never meet the caller's; names whose scopes do not overlap (two loops one after the other,
a loop of an earlier `do:` block and a later choice) may be spelled alike, and each binding keeps
its own value.
"""

import re

import pytest
from hypothesis import given, strategies as st

import ziggurat
from ziggurat.dsl.checks import check
from ziggurat.interpreter.python.exprs import pyname

HEAD = '''game "Scopes"

players white, black

board:
    files: 3
    ranks: 3

piece:
    owner: players

counter marks = 0

setup:
    place(piece(white), cells[1])

'''

END = '''
end:
    if no_moves:
        lose mover "no legal move"
'''


def errors(text: str) -> list:
    return [d for d in check("scopes.rules", text=text) if d.severity == "error"]


def play_only_move(text: str) -> tuple:
    """The one legal move's text, and the cells holding a piece after it."""
    assert errors(text) == [], errors(text)[0].render()
    game = ziggurat.load("scopes.rules", text=text)
    state = game.new()
    (move,) = state.moves()
    said = state.move_text(move)
    state.push(move)
    return said, sorted(game.world.cell_name(c) for c, s in enumerate(state.cells) if s)


# ---- finding 1: a loop variable named like a choice changed where the piece went ---------------------

class TestALoopVariableNamedLikeAChoice:
    def test_a_loop_in_an_earlier_do_block_leaves_the_choice_alone(self):
        """`for to in cells` in a `do:` block before the choice `to`: the piece lands where the
        move says (it landed on c3, the loop's last cell, while the move said b3)."""
        text = HEAD + '''action go "{from}{to}":
    from: cells where mine(from)
    do:
        for to in cells:
            marks += 0
    to: cells where empty(to) and to.rank == 3 and to.file == 2
    do:
        move(from, 1, to)
''' + END
        assert play_only_move(text) == ("a1b3", ["b3"])

    def test_a_loop_of_the_action_leaves_the_after_blocks_choice_alone(self):
        """The after block's choice `to` and a loop `for to` in the action's `do:` block."""
        text = HEAD + '''action go "{from}":
    from: cells where mine(from)
    do:
        for to in cells:
            marks += 0

after "{to}":
    to: cells where empty(to) and to.rank == 3 and to.file == 2
    do:
        place(piece(mover), to)
''' + END
        assert play_only_move(text) == ("a1 b3", ["a1", "b3"])

    def test_a_loop_that_hides_the_choice_is_an_error_at_the_loop_variable(self):
        """The tester's shape: `for to in ...` inside `do:` after the choice `to`."""
        text = HEAD + '''action go "{from}{to}":
    from: cells where mine(from)
    to: cells where empty(to) and to.rank == 3 and to.file == 2
    do:
        for to in cells where to.rank == 3 and to.file == 3:
            marks += 1
        move(from, 1, to)
''' + END
        (e,) = errors(text)
        assert (e.line, e.col, e.width) == (21, 13, 2)
        assert e.message == "the loop variable 'to' hides the choice 'to' of line 19"
        assert e.hint.startswith("rename the loop variable")
        assert "^^" in e.render() and "scopes.rules:21:13" in e.render()

    def test_loading_it_refuses_it_without_a_traceback(self):
        text = HEAD + '''action go "{from}{to}":
    from: cells where mine(from)
    to: cells where empty(to)
    do:
        for to in cells:
            marks += 1
        move(from, 1, to)
''' + END
        with pytest.raises(ziggurat.RulesetError, match="hides the choice 'to'"):
            ziggurat.load("scopes.rules", text=text)


# ---- every kind of binder hiding every kind of name -----------------------------------------------

HIDING = {
    "a let hides a let": ('''action go "{at}":
    at: cells where empty(at)
    let n = 1
    let n = 2
    do:
        place(piece(mover), at)
''', 20, 9, "the let 'n' hides the let 'n' of line 19", "rename the let"),
    "a choice hides a let": ('''action go "{at}":
    let at = cells[1]
    at: cells where empty(at)
    do:
        place(piece(mover), at)
''', 19, 5, "the choice 'at' hides the let 'at' of line 18", "rename the choice"),
    "a comprehension variable hides a choice": ('''action go "{at}":
    at: cells where empty(at)
    require any(empty(at) for at in cells)
    do:
        place(piece(mover), at)
''', 19, 31, "the loop variable 'at' hides the choice 'at' of line 18", "rename the loop variable"),
    "a loop variable hides an enclosing one": ('''action go "{at}":
    at: cells where empty(at)
    do:
        for c in cells:
            for c in cells where c == at:
                place(piece(mover), c)
''', 21, 17, "the loop variable 'c' hides the loop variable 'c' of line 20", "rename the loop variable"),
    "a let in do: hides a choice": ('''action go "{at}":
    at: cells where empty(at)
    do:
        let at = cells[2]
        place(piece(mover), at)
''', 20, 13, "the let 'at' hides the choice 'at' of line 18", "rename the let"),
    "a def's loop variable hides its parameter": ('''def crowd(c): count(occupied(c) for c in cells)

action go "{at}":
    at: cells where empty(at) and crowd(at) < 9
    do:
        place(piece(mover), at)
''', 17, 37, "the loop variable 'c' hides the parameter 'c' of def crowd()", "rename the loop variable"),
    "a def nothing calls hides its parameter all the same": ('''def crowd(c): count(occupied(c) for c in cells)

action go "{at}":
    at: cells where empty(at)
    do:
        place(piece(mover), at)
''', 17, 37, "the loop variable 'c' hides the parameter 'c' of def crowd()", "rename the loop variable"),
    "a repeat's variable hides a let": ('''action go "{from}{to}":
    from: cells where mine(from)
    let at = from
    repeat at = from:
        to: neighbours(at, orthogonal) where empty(to)
    do:
        move(from, 1, to[1])
''', 20, 12, "the repeat variable 'at' hides the let 'at' of line 19", "rename the repeat variable"),
}


@pytest.mark.parametrize("case", list(HIDING))
def test_a_name_bound_again_where_it_is_visible_is_an_error_at_its_name(case):
    body, line, col, message, hint = HIDING[case]
    found = errors(HEAD + body + END)
    assert [(e.line, e.col, e.message) for e in found] == [(line, col, message)], [e.render() for e in found]
    assert found[0].hint.startswith(hint)


def test_the_end_block_and_setup_follow_the_same_rule():
    text = HEAD.replace('''setup:
    place(piece(white), cells[1])''', '''setup:
    for c in cells:
        for c in cells where c.rank == 1:
            place(piece(white), c)''') + '''action go "{at}":
    at: cells where empty(at)
    do:
        place(piece(mover), at)

end:
    for p in players:
        let p = mover
''' + END.replace("end:\n", "")
    found = errors(text)
    assert [(e.line, e.col, e.message) for e in found] == [
        (16, 13, "the loop variable 'c' hides the loop variable 'c' of line 15"),
        (26, 13, "the let 'p' hides the loop variable 'p' of line 25"),
    ], [e.render() for e in found]


def test_names_whose_scopes_do_not_overlap_may_be_spelled_alike():
    """Two loops one after the other, comprehensions side by side, a def's loop variable named
    like the caller's: no error, and each keeps its own values."""
    text = HEAD + '''def crowd(c): count(occupied(x) for x in neighbours(c, adjacent))

action go "{from}{to}":
    from: cells where mine(from) and count(occupied(x) for x in cells) == 1
    to: cells where empty(to) and crowd(to) == 1 and all(x != to for x in [from])
    do:
        for x in cells where x == from:
            marks += 1
        for x in cells where x == to:
            marks += 10
        move(from, 1, to)
''' + END
    assert errors(text) == []
    game = ziggurat.load("scopes.rules", text=text)
    state = game.new()
    assert sorted(state.move_text(m) for m in state.moves()) == ["a1a2", "a1b1", "a1b2"]
    state.play("a1b2")
    assert state.counters == [11]


# ---- finding 2: a def's names never meet the caller's ------------------------------------------------

DEF_GAME = HEAD.replace("place(piece(white), cells[1])", "place(piece(white), cells[1])\n    place(piece(black), cells[9])") + '''
# The pieces standing on c: 1 where c holds one. The loop variable is named LOOP.
def stones(here): count(occupied(LOOP) and LOOP == here for LOOP in cells)

action go "{from}{to}":
    from: cells where mine(from)
    to: neighbours(from, orthogonal) where empty(to)
    do:
        move(from, 1, to)

end:
    for CALLER in cells where occupied(CALLER):
        if stones(CALLER) != 1:
            draw "a piece counted twice"
    if no_moves:
        lose mover "no legal move"
'''


@pytest.mark.parametrize("loop, caller", [
    ("x", "x"), ("c__1", "c__1"), ("x__size", "x"), ("x", "x__size"), ("_v1_x", "x"), ("x", "_v1_x"),
    ("v_x", "x"), ("x", "v_x"), ("_sv_x", "x"), ("c", "c__"), ("__", "___"), ("st", "m"), ("c", "here"),
])
def test_a_defs_loop_variable_never_captures_the_callers_name(loop, caller):
    """The def's loop variable named like the caller's loop variable (or like what the compiler
    makes of it): `stones` is 1 for every occupied cell, so the game does not end at once."""
    text = DEF_GAME.replace("LOOP", loop).replace("CALLER", caller)
    assert errors(text) == [], errors(text)[0].render()
    game = ziggurat.load("scopes.rules", text=text)
    plain = ziggurat.load("scopes.rules", text=DEF_GAME.replace("LOOP", "y").replace("CALLER", "z"))
    assert game.new().outcome() is None
    assert ziggurat.perft(game.new(), 4) == ziggurat.perft(plain.new(), 4) > 0


# ---- the Python names ------------------------------------------------------------------------------

RULES_NAME = st.from_regex(r"[A-Za-z_][A-Za-z_0-9]{0,8}", fullmatch=True)
PLAN_NAME = RULES_NAME | st.builds(lambda n, k: f"{n}#{k}", RULES_NAME, st.integers(1, 10_000))


@given(PLAN_NAME, PLAN_NAME)
def test_python_names_of_bindings_are_one_to_one(a, b):
    """A binding's plan name (a rules name, or `name#k` for a fresh one) becomes one Python
    name, `v_NAME` or `_vK_NAME`: two plan names never share one, and no Python name of a binding
    is one of the generated code's temporaries (`_o1`, `_unit`, ... start with `_` and a letter
    other than `v`, or are fixed lowercase words and capitals)."""
    assert (pyname(a) == pyname(b)) == (a == b)
    for n in (a, b):
        p = pyname(n)
        assert p.isidentifier()
        assert p.startswith("v_") or re.fullmatch(r"_v[0-9]+_[A-Za-z_][A-Za-z_0-9]*", p)


# ---- a local named like what the whole ruleset sees: a warning at its name ----------------------

SHADOW_HEAD = '''game "Shadows"
option reach: 1..3 = 1
players white, black
board:
    files: 3
    ranks: 3
piece:
    owner: players
    kind: stone, wall
counter n = 0
zone box
table worth:
    white: 1
    black: 2
setup:
    place(piece(white, stone), cells[1])
'''

# (the binding's line in an action, what it is, the name, what it hides)
SHADOWS = [
    ("    let n = 5", "let", "n", "the counter 'n' of line 10"),
    ("    let reach = 2", "let", "reach", "the option 'reach' of line 2"),
    ("    let box = 2", "let", "box", "the zone 'box' of line 11"),
    ("    let worth = 2", "let", "worth", "the table 'worth' of line 12"),
    ("    let black = 2", "let", "black", "the player 'black'"),
    ("    let wall = 2", "let", "wall", "the value 'wall' of 'kind'"),
    ("    let mover = 2", "let", "mover", "the built-in name 'mover'"),
    ("    let orthogonal = 2", "let", "orthogonal", "the built-in name 'orthogonal'"),
    ("    require all(n > 0 for n in [1, 2])", "loop variable", "n", "the counter 'n' of line 10"),
    ("    n: 1..2", "choice", "n", "the counter 'n' of line 10"),
]


@pytest.mark.parametrize("line, what, name, hidden", SHADOWS)
def test_a_local_that_hides_a_ruleset_name_is_a_warning_at_its_name(line, what, name, hidden):
    """`let n` where `counter n` is declared: inside the action `n` is the let, silently (item 16
    of issue 28). Now a warning at the binding's name, with a hint; the ruleset still loads."""
    text = SHADOW_HEAD + 'action go "{at}":\n    at: cells where empty(at)\n' + line + \
        "\n    do:\n        place(piece(white, stone), at)\n" + END
    if what == "choice":
        text = text.replace('"{at}"', '"{at}/{n}"')
    found = [d for d in check("scopes.rules", text=text) if d.severity == "warning" and "hides" in d.message]
    assert [d.message for d in found] == [f"the {what} {name!r} hides {hidden}"]
    (w,) = found
    row = text.splitlines()[w.line - 1]
    assert w.line == 19 and row[w.col - 1:w.col - 1 + len(name)] == name and w.width == len(name)
    assert w.hint.startswith(f"rename the {what}")
    assert errors(text) == []
    ziggurat.load("scopes.rules", text=text)


def test_a_defs_parameter_that_hides_a_counter_is_a_warning_at_the_parameter():
    text = SHADOW_HEAD + "def twice(n): n * 2\n" + 'action go "{at}":\n    at: cells where empty(at)\n' \
        "    do:\n        place(piece(white, stone), at)\n        n += twice(1)\n" + END
    (w,) = [d for d in check("scopes.rules", text=text) if "hides" in d.message]
    assert w.message == "the parameter 'n' hides the counter 'n' of line 10"
    assert (w.line, w.col) == (17, 11)


def test_the_language_server_shows_the_warning():
    pytest.importorskip("pygls")
    from ziggurat.editor.server import diagnostics

    text = SHADOW_HEAD + 'action go "{at}":\n    at: cells where empty(at)\n    let n = 5\n' \
        "    do:\n        place(piece(white, stone), at)\n" + END
    (d,) = [d for d in diagnostics("scopes.rules", text) if "hides" in d.message]
    assert d.severity == 2 and d.message.startswith("the let 'n' hides the counter 'n'")  # 2: a warning
    assert (d.range.start.line, d.range.start.character) == (18, 8)
    assert "hint: rename the let" in d.message
