"""The start-position pictures of the documentation: one SVG per game page, and the tutorial's.

    python docs/gen_pictures.py          # write docs/games/images/<game>.svg (and towers.svg)
    python docs/gen_pictures.py --check  # exit 1, naming them, when a picture is missing or stale

Each page `docs/games/<name>.md` whose name is a shipped ruleset gets the start of that ruleset at
its default options (seed 0 for a random setup), drawn by `ziggurat.render` as `ziggurat render
<name> -o ...` draws it; the tutorial's game, Towers, is the complete ruleset written in
docs/tutorial/first-game.md (the code block that begins `# Towers`), so the picture always shows
the game the page teaches. Pictures are deterministic: the same position, the same bytes, so
`--check` can compare them with a fresh drawing.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

import ziggurat
from ziggurat import render
from ziggurat.dsl.loader import shipped_names

DOCS = Path(__file__).resolve().parent
IMAGES = DOCS / "games" / "images"
TUTORIAL = DOCS / "tutorial" / "first-game.md"
TOWERS = re.compile(r"^```rules\n(# Towers.*?)^```", re.M | re.S)


def tutorial_rules() -> str:
    """The complete Towers ruleset of the tutorial (its last `# Towers` code block)."""
    blocks = TOWERS.findall(TUTORIAL.read_text(encoding="utf-8"))
    if not blocks:
        raise SystemExit(f"{TUTORIAL}: no ```rules block starting '# Towers'")
    return blocks[-1]


def pictures() -> dict:
    """File name -> SVG text of every picture the documentation shows."""
    shipped = set(shipped_names())
    out = {}
    for page in sorted((DOCS / "games").glob("*.md")):
        if page.stem in shipped:
            out[f"{page.stem}.svg"] = render.svg(ziggurat.load(page.stem).new(0))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "towers.rules"
        path.write_text(tutorial_rules(), encoding="utf-8")
        out["towers.svg"] = render.svg(ziggurat.load(str(path)).new(0))
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only check that the pictures are current")
    args = parser.parse_args(argv)
    stale = []
    for name, text in pictures().items():
        path = IMAGES / name
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        if args.check:
            stale.append(name)
        else:
            IMAGES.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(DOCS.parent)}")
    if stale:
        print("stale or missing pictures (run python docs/gen_pictures.py): " + ", ".join(stale),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
