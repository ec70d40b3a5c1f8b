"""An after block's first list of cells kept across the candidate moves (native/after_cells.py):
`legal` computes the list's mask once, and each candidate evaluates the list's condition again on
the cells its effects reach only. Its moves are checked against Python's in plain Python by
test_native_zones.py (the after block of zones.rules is kept); here, what is kept and what not.
"""

import os
import re

import ziggurat
from ziggurat.interpreter.native import game as native_game

ZONES = os.path.join(os.path.dirname(__file__), "zones.rules")


def legal_of(text: str) -> str:
    return text[text.index("def legal("):text.index("@njit", text.index("def legal("))]


def test_a_list_reading_its_cell_and_the_neighbours_is_computed_once_a_legal():
    text = native_game._write(ziggurat.load(ZONES))[0]
    assert "def after_mask_0(s, mover):" in text
    assert "def after_0(s, out, n, head, o0, mover, ply, base, dirty):" in text
    legal = legal_of(text)
    assert legal.count("= after_mask_0(s, mover)") == 1  # once, at legal's position
    calls = [line for line in legal.splitlines() if "= after_0(" in line]
    # each candidate passes the mask and the cells its effects wrote
    passing = r"after_0\(s, out, n, \w+, \d+, mover, ply, _base\d+, _dirty\d+\)"
    assert calls and all(re.search(passing, c) for c in calls)
    assert "REACH0" in text


def test_a_list_reading_a_zone_or_a_cell_further_away_is_evaluated_on_every_cell(tmp_path):
    rules = open(ZONES).read()
    for changed in (rules.replace("height(c) == 1", "height(c) == 1 and count(pool) < 9"),  # a zone
                    rules.replace("for d in neighbours(c, orthogonal)", "for d in ray(c, orthogonal, 2)")):  # further
        assert changed != rules
        path = tmp_path / "changed.rules"
        path.write_text(changed)
        text = native_game._write(ziggurat.load(str(path)))[0]
        assert "after_mask" not in text
        assert "def after_0(s, out, n, head, o0, mover, ply):" in text
