"""The examples of docs/howto/openspiel-pettingzoo.md run as written, and say what the page says."""

import contextlib
import io
import re
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

PAGE = Path(__file__).resolve().parent.parent.parent / "docs" / "howto" / "openspiel-pettingzoo.md"
EXAMPLES = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)


def run(code: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(PAGE), "exec"), {"__name__": "example"})
    return out.getvalue()


def test_the_page_has_its_four_examples():
    assert len(EXAMPLES) == 4


def test_mcts_beats_random_in_the_example():
    wins = int(re.search(r"MCTS won (\d) of 5", run(EXAMPLES[0])).group(1))
    assert wins >= 3


def test_cfr_gives_the_same_value_on_both_kuhn_pokers():
    lines = run(EXAMPLES[1]).splitlines()
    values = [float(line.split()[-1]) for line in lines]
    assert len(values) == 2 and abs(values[0] - values[1]) < 1e-9 and abs(values[0] + 1 / 18) < 0.01


def test_the_pettingzoo_game_ends_with_a_reward_for_each_player():
    lines = run(EXAMPLES[2]).splitlines()
    rewards = {line.split()[0]: float(line.split()[1]) for line in lines}
    assert set(rewards) == {"south", "north"} and sum(rewards.values()) == 0


def test_the_gymnasium_example_ends_with_the_learners_reward():
    reward = float(run(EXAMPLES[3]).split(":")[-1])
    assert reward in (-1.0, 0.0, 1.0)
