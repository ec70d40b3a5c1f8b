"""An after block's first list of cells kept across the candidate moves (native/after_cells.py):
`legal` computes the list's mask once, and each candidate evaluates the list's condition again on
the cells its effects reach only, and calls the after block only where the list is not empty (the
block requires it). Its moves are checked against Python's in plain Python by
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
    assert "def after_list_0(s, mover, base, dirty):" in text
    assert "def after_0(s, out, n, head, o0, mover, ply, mask):" in text
    legal = legal_of(text)
    assert legal.count("= after_list_0(s, mover, 0, -1)") == 1  # once, at legal's position
    lines = legal.splitlines()
    calls = [i for i, line in enumerate(lines) if "= after_0(" in line]
    assert calls and "REACH0" in text
    for i in calls:  # each candidate: the mask from legal's and the cells its effects wrote, then
        mask = re.search(r"(_mask\d+) = after_list_0\(s, mover, _base\d+, _dirty\d+\)", lines[i - 2])
        assert mask is not None, lines[i - 2]
        assert lines[i - 1].strip() == f"if {mask[1]} != 0:"  # the after block only where the list has cells
        call, j = lines[i].strip(), i
        while call.count("(") > call.count(")"):  # a call broken over lines (its head a long expression)
            j += 1
            call += " " + lines[j].strip()
        assert re.sub(r",? +\)$", ")", call.replace("( ", "(")).endswith(f"mover, ply, {mask[1]})"), call


def test_a_list_reading_the_mover_is_kept_too(tmp_path):
    rules = open(ZONES).read()
    changed = rules.replace("mine(c) and height(c) == 1", "controller(c) == mover and height(c) == 1")
    assert changed != rules
    path = tmp_path / "changed.rules"
    path.write_text(changed)
    assert "def after_list_0(s, mover, base, dirty):" in native_game._write(ziggurat.load(str(path)))[0]


def test_a_list_reading_a_zone_or_a_cell_further_away_is_evaluated_on_every_cell(tmp_path):
    rules = open(ZONES).read()
    for changed in (rules.replace("height(c) == 1", "height(c) == 1 and count(pool) < 9"),  # a zone
                    rules.replace("for d in neighbours(c, orthogonal)", "for d in ray(c, orthogonal, 2)")):  # further
        assert changed != rules
        path = tmp_path / "changed.rules"
        path.write_text(changed)
        text = native_game._write(ziggurat.load(str(path)))[0]
        assert "after_list" not in text
        assert "def after_0(s, out, n, head, o0, mover, ply):" in text
