"""How the moves' writes are written in the native module, and that they do what the Python
backend does (the module run as plain Python, nothing compiled, counting perft):

- a single slot (a counter, the side to move): `s[i] = v` where the module keeps no hash (a
  `put` call there is that line, and each call inlined costs Numba's compile), `put(s, i, v)`
  where it keeps one; a zone's size read from its slot, not through `zone_len`;
- in a large module (`outline.second`: here every module, FROM_LINES 0), what runs once a move
  (do_N) calls the stack helpers' `called_K` twins and `change_piece`, not the inlined helpers;
  the moves' listing (`legal`) still inlines them.
"""

import re
from pathlib import Path

import pytest

import ziggurat
from ziggurat.interpreter.native import game as native_game
from ziggurat.interpreter.native import outline

from native_replay import assert_plain_perft

SLOTS = str(Path(__file__).parent / "slots.rules")
HELPERS = r"\b(put|move_stack|take_stack|place_piece|remove_piece|level_slot)\("


def functions(text: str, prefix: str) -> str:
    """The text of the module's functions whose names start with prefix, together."""
    out = []
    for m in re.finditer(rf"^def {prefix}\w*\(.*?(?=^@njit|^# ----)", text, re.M | re.S):
        out.append(m.group(0))
    return "".join(out)


@pytest.mark.parametrize("repetition", [False, True])
@pytest.mark.parametrize("large", [False, True])
def test_slot_and_stack_writes_count_pythons_perft(repetition, large, monkeypatch):
    if large:
        monkeypatch.setattr(outline, "FROM_LINES", 0)
    game = ziggurat.load(SLOTS, {"repetition": repetition})
    text, layout, _outcomes, hashing = native_game._write(game)
    assert hashing == repetition
    part = text.split("# ---- kernel.py")[0]
    assert "zone_len(" not in part
    dos, legal = functions(part, "do_"), functions(part, "legal")
    assert ("s[CNT + " in dos and "] = s[CNT + " in dos) != hashing  # `drops[mover] += 1` written directly
    if large:
        assert not re.search(HELPERS, dos)
        assert all(f"{h}(s, " in dos for h in ("called_take_stack", "called_move_stack", "called_remove_piece",
                                                "called_place_piece", "change_piece"))
        assert ("called_put(s, " in dos) == hashing
    else:
        assert "called_" not in part and "change_piece" not in part
        assert ("put(s, CNT + " in dos) == hashing
    assert re.search(HELPERS, legal) or "called_" not in legal  # the listing inlines what it writes
    assert_plain_perft(text, layout, game.new(), 7)  # a repetition first ends a game at 7
