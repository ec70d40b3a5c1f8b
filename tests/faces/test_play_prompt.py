"""Terminal play's line reader (cli/prompt.py, prompt_toolkit), driven by keystrokes through
prompt_toolkit's pipe input: Tab completes commands and legal moves (whole lines: moves hold
spaces), Up recalls an earlier line, Ctrl-D ends the input; and a game of `play` is played and
left by keystrokes."""

import pytest

pytest.importorskip("prompt_toolkit")

from prompt_toolkit.input import create_pipe_input  # noqa: E402
from prompt_toolkit.output import DummyOutput  # noqa: E402
from rich.console import Console  # noqa: E402

import ziggurat  # noqa: E402
from ziggurat.cli.play import Session  # noqa: E402
from ziggurat.cli.prompt import LineReader  # noqa: E402

TAB, ENTER, UP, CTRL_D = "\t", "\r", "\x1b[A", "\x04"
WORDS = ["moves", "hint", "quit", "b1:1-a2", "b1:1-c2", "d1-a1 starve a1:red", "d1-a1 starve a1:green"]


def read_lines(keys: str, words=WORDS, n=1):
    """The lines read by n prompts from `keys` typed ahead."""
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        reader = LineReader(lambda: words, input=pipe, output=DummyOutput())
        return [reader.read("> ") for _ in range(n)]


def test_tab_writes_out_the_only_completion():
    assert read_lines("q" + TAB + ENTER) == ["quit"]


def test_tab_writes_the_part_all_completions_share():
    assert read_lines("b" + TAB + ENTER) == ["b1:1-"]


def test_a_move_with_spaces_completes_as_one_word():
    assert read_lines("d1-a1 starve a1:r" + TAB + ENTER) == ["d1-a1 starve a1:red"]


def test_completion_asks_for_the_words_at_each_tab():
    """The words are those of the moment (the legal moves change with the position)."""
    words = ["moves"]
    with create_pipe_input() as pipe:
        reader = LineReader(lambda: words, input=pipe, output=DummyOutput())
        pipe.send_text("m" + TAB + ENTER)
        first = reader.read("> ")
        words[:] = ["c3-c4"]
        pipe.send_text("c" + TAB + ENTER)
        assert (first, reader.read("> ")) == ("moves", "c3-c4")


def test_ctrl_d_ends_the_input():
    assert read_lines("moves" + ENTER + CTRL_D, n=2) == ["moves", None]


def test_up_recalls_the_lines_before():
    """Up brings back the last line, Up twice the one before (the keys are typed once the
    prompt runs, as a person types: keys typed ahead of a prompt come before its history)."""
    with create_pipe_input() as pipe:
        reader = LineReader(lambda: WORDS, input=pipe, output=DummyOutput())

        def typed(keys):
            reader.session.app.pre_run_callables.append(lambda: pipe.send_text(keys))
            return reader.read("> ")

        assert [typed("moves" + ENTER), typed("hint" + ENTER)] == ["moves", "hint"]
        assert typed(UP + ENTER) == "hint"  # a line like the last is not kept twice
        assert typed(UP + UP + ENTER) == "moves"
        assert reader.session.history.get_strings() == ["moves", "hint", "moves"]


def test_a_game_is_played_by_keystrokes():
    """At Stacktics' start: a prefix only one legal move has, then Tab and Enter, plays it; then
    `q`, Tab and Enter leaves the game."""
    state = ziggurat.load("stacktics").new()
    texts = [state.move_text(m) for m in state.moves()]
    target = texts[len(texts) // 2]
    prefix = next(target[:k] for k in range(1, len(target) + 1)
                  if [t for t in texts if t.startswith(target[:k])] == [target])
    session = Session(state, ["human", "human"], 1, Console(file=open("/dev/null", "w")))
    with create_pipe_input() as pipe:
        session.reader = LineReader(session.words, input=pipe, output=DummyOutput())
        pipe.send_text(prefix + TAB + ENTER)
        pipe.send_text("q" + TAB + ENTER)
        session.run()
    assert [state.move_text(m) for m in state.stack] == [target]
