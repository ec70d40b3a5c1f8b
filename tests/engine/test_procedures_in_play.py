"""Procedures and `direction(a, b)` in play, on both backends.

tests/engine/slide.rules calls procedures from its moves, its after block and its end block, and
steers by `direction(a, b)`. A procedure is written out where it is called, so the game must be
the same game as the one with every call written out by hand (WRITTEN_OUT below, a second
implementation): the same moves and perft counts. The native module must agree with Python.
"""

from pathlib import Path

import pytest
from native_replay import replay

import ziggurat
from ziggurat.dsl.world import DIRECTION_NAMES, World
from ziggurat.interpreter.runtime import perft

SLIDE = Path(__file__).with_name("slide.rules")
TEXT = SLIDE.read_text(encoding="utf-8")


def written_out() -> str:
    """Slide with no procedure: each call replaced by its body, arguments computed first."""
    text = TEXT
    start = text.index("procedure capture")
    text = text[:start] + text[text.index("setup:"):]
    start = text.index("procedure note")
    text = text[:start] + text[text.index("end:"):]
    calls = {
        "        carry(height(from), from, to)\n":
            "        let h = height(from)\n        move(from, 1, to)\n        carried[mover] += h\n",
        "            capture(beyond, mover)\n":
            "            take(beyond, captured[mover])\n            taken[mover] += 1\n",
        "        carry(1, from, to)\n": "        move(from, 1, to)\n        carried[mover] += 1\n",
        "        note(1)\n": "        marks += 1\n",
        "        judge(p)\n": "        if taken[p] >= 2:\n            win p\n        elif carried[p] >= 9:\n"
                            "            win p \"carried\"\n",
    }
    for call, body in calls.items():
        assert text.count(call) == 1, call
        text = text.replace(call, body)
    assert "\nprocedure" not in text
    return text


@pytest.fixture(scope="module")
def slide():
    return ziggurat.load(str(SLIDE))


def test_the_written_out_twin_has_no_procedure_left():
    text = written_out()
    assert "\nprocedure" not in text and "carry(" not in text and "judge(" not in text


def test_a_game_with_procedures_is_the_game_with_their_bodies_written_out(slide, tmp_path):
    twin_path = tmp_path / "slide_written_out.rules"
    twin_path.write_text(written_out(), encoding="utf-8")
    twin = ziggurat.load(str(twin_path))
    a, b = slide.new(), twin.new()
    assert [a.move_text(m) for m in a.moves()] == [b.move_text(m) for m in b.moves()]
    for d in range(1, 5):
        assert perft(a, d) == perft(b, d), f"depth {d}"


def test_the_first_moves_are_those_counted_by_hand(slide):
    """White's two-high stacks on a1 and b1 of a 4x4 board: a step to an empty neighbour (a1: a2,
    b2; b1: a2, b2, c2, c1), and a knight's jump to an empty cell off every line at distance 2
    (a1: c2, b3; b1: d2, a3, c3); each followed by the after block's mark (marks < 3 on ply 0)."""
    state = slide.new()
    assert sorted(state.move_text(m) for m in state.moves()) == sorted(
        ["a1>a2 mark", "a1>b2 mark", "b1>a2 mark", "b1>b2 mark", "b1>c2 mark", "b1>c1 mark",
         "a1~c2 mark", "a1~b3 mark", "b1~d2 mark", "b1~a3 mark", "b1~c3 mark"])


def test_arguments_are_computed_before_the_body_runs(slide):
    """carry(height(from), from, to) moves the stack, then adds h: the height before the move (2),
    not after it (0, had the argument been read again inside the body)."""
    state = slide.new()
    state.play("a1>a2 mark")
    assert "carried.white=2" in state.text()


def test_a_procedure_called_from_the_after_block_and_the_end_block_runs_there(slide):
    state = slide.new()
    state.play("a1>a2 mark")  # the after block's note(1)
    assert "marks=1" in state.text()
    # White carries 2 (a1>a2), 2 (b1>c1), 1 (a2~b4), 1 (b4~d3), 1 (c1~a2): 7, and the end block's
    # judge(white) says nothing yet; then d3>d2 carries 2 more, 9, and judge(white) declares the win.
    for move in ["d4~c2", "b1>c1 mark", "c4~b2", "a2~b4 mark", "c2~a3", "b4~d3", "a3~c4", "c1~a2", "c4~a3"]:
        state.play(move)
    assert "carried.white=7" in state.text() and state.outcome() is None
    state.play("d3>d2")
    outcome = state.outcome()
    assert (outcome.player, outcome.reason) == (0, "carried")


@pytest.mark.parametrize("a, b, expected", [
    ("a1", "c3", "ne"), ("c3", "a1", "sw"), ("b2", "b4", "n"), ("d1", "a1", "w"), ("a4", "d1", "se"),
    ("a1", "b3", None), ("c3", "c3", None),
])
def test_direction_is_the_line_from_one_cell_to_the_other(a, b, expected):
    """By hand on a 4x4 board: a1 to c3 is two steps north-east; a1 to b3 is a knight's jump, on
    no line; a cell has no direction to itself."""
    w = World(4, 4)
    cell = {w.cell_name(c): c for c in range(w.ncells)}
    got = w.DIRTO[cell[a]][cell[b]]
    assert (DIRECTION_NAMES[got] if got >= 0 else None) == expected


def test_the_native_module_agrees_with_python(slide):
    pytest.importorskip("numba")
    from ziggurat.interpreter.native.game import native

    fast = native(slide)
    start = slide.new()
    for d in range(5):
        assert fast.perft(start, d) == perft(start, d), f"depth {d}"
    for seed in range(12):
        p = fast.playout(start, seed, 200)
        state = replay(slide, p)
        outcome = state.outcome()
        if p.kind is None:
            assert outcome is None
        else:
            assert (outcome.kind, outcome.player, outcome.reason) == (p.kind, p.who, p.reason)
