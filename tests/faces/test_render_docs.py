"""The documentation's pictures: every game page and the tutorial show a start position, drawn by
docs/gen_pictures.py; with ZIGGURAT_SLOW=1, every committed picture is the one drawn today."""

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ziggurat.dsl.loader import shipped_names

ROOT = Path(__file__).resolve().parent.parent.parent
GAMES = ROOT / "docs" / "games"
IMAGES = GAMES / "images"
SVG_NS = "{http://www.w3.org/2000/svg}"


# Pages whose picture is a golden record's position, not the start (docs/gen_pictures.py's
# GAME_RECORDS: an empty table shows nothing): page -> the ply it shows.
RECORD_PLY = {"chaos": 60}
RECORD_PLY["homeworlds"] = 7   # no system before the homeworlds are set up


def svg_texts(path):
    return {"".join(t.itertext()).strip() for t in ET.parse(path).getroot().iter(f"{SVG_NS}text")}


@pytest.mark.parametrize("page", sorted(p.stem for p in GAMES.glob("*.md") if p.stem in shipped_names()))
def test_game_page_shows_its_start(page):
    """The page links images/<game>.svg, a picture of that game (its title) at ply 0 (or at the
    ply of the golden record it shows, for a game whose start is an empty table)."""
    text = (GAMES / f"{page}.md").read_text(encoding="utf-8")
    assert f"](images/{page}.svg)" in text
    import ziggurat

    texts = svg_texts(IMAGES / f"{page}.svg")
    assert ziggurat.load(page).title in texts
    ply = RECORD_PLY.get(page, 0)
    assert any(re.search(rf"\bply {ply}\b", t) for t in texts)


def test_tutorial_shows_its_game():
    """The tutorial links the picture of Towers, the game it builds, with the command that draws it."""
    text = (ROOT / "docs" / "tutorial" / "first-game.md").read_text(encoding="utf-8")
    assert "](../games/images/towers.svg)" in text
    assert "ziggurat render towers.rules" in text
    assert "Towers" in svg_texts(IMAGES / "towers.svg")


@pytest.mark.skipif(os.environ.get("ZIGGURAT_SLOW") != "1", reason="long suite: set ZIGGURAT_SLOW=1")
def test_pictures_are_current():
    """gen_pictures.py --check: every picture is what the renderer draws today (about 10 s)."""
    result = subprocess.run([sys.executable, str(ROOT / "docs" / "gen_pictures.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_tall_stack_caption_sits_above_a_tall_stack():
    """The how-to's caption about a stack of seventeen is followed by a picture of one, drawn from
    the position its command gives (it stood above a Green setup with no stack)."""
    import ziggurat

    page = (ROOT / "docs" / "howto" / "records-and-pictures.md").read_text(encoding="utf-8")
    caption = page.index("a stack of seventeen")
    command = re.search(r'`ziggurat render (\S+) --position "([^"]+)" -o \S+`', page[caption:].replace("\n", " "))
    image = re.search(r"!\[[^\]]*\]\((images/[^)]+\.svg)\)", page[caption:])
    assert command and image
    state = ziggurat.load(command.group(1)).position(re.sub(r"\s+", " ", command.group(2)))
    tallest = max(range(len(state.cells)), key=lambda c: len(state.cells[c]))
    assert len(state.cells[tallest]) == 17
    cell = state.game.world.cell_name(tallest)
    svg = (ROOT / "docs" / "howto" / image.group(1)).read_text(encoding="utf-8")
    assert f'id="piece-{cell}-17"' in svg and f'id="piece-{cell}-18"' not in svg
