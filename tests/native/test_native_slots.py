"""The moves' writes of single slots (counters, the side to move) and the reads of a zone's size,
as the native module writes them: `s[i] = v` where the module keeps no hash (a `put` call there
is that line, and each call inlined costs Numba's compile), `put(s, i, v)` where it keeps one;
a zone's size read from its slot, not through `zone_len`. The module runs as plain Python
(nothing compiled) and counts the Python backend's perft, with the hash and without."""

from pathlib import Path

import pytest

import ziggurat
from ziggurat.interpreter.native import game as native_game

from native_replay import assert_plain_perft

SLOTS = str(Path(__file__).parent / "slots.rules")


def game_part(text: str) -> str:
    return text.split("# ---- kernel.py")[0]


@pytest.mark.parametrize("repetition", [False, True])
def test_slot_writes_count_pythons_perft_with_and_without_a_hash(repetition):
    game = ziggurat.load(SLOTS, {"repetition": repetition})
    text, layout, _outcomes, hashing = native_game._write(game)
    assert hashing == repetition
    part = game_part(text)
    assert "zone_len(" not in part
    assert ("put(s, CNT + " in part) == hashing
    assert ("s[CNT + " in part and "] = s[CNT + " in part) != hashing  # `drops[mover] += 1` written directly
    assert_plain_perft(text, layout, game.new(), 7)  # a repetition first ends a game at 7
