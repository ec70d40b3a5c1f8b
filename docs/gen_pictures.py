"""The start-position pictures of the documentation: one SVG per game page, and the tutorial's.

    python docs/gen_pictures.py          # write the pictures that are missing or out of date
    python docs/gen_pictures.py --check  # exit 1, naming them, when a picture is missing or stale

Each page `docs/games/<name>.md` whose name is a shipped ruleset gets the start of that ruleset at
its default options (seed 0 for a random setup), drawn by `ziggurat.render` as `ziggurat render
<name> -o ...` draws it; the tutorial's game, Towers, is the complete ruleset written in
docs/tutorial/first-game.md (the code block that begins `# Towers`), so the picture always shows
the game the page teaches. The how-to page on pictures (docs/howto/records-and-pictures.md) shows
the positions of HOWTO, each drawn as the command beside it on that page draws it. Pictures are
deterministic: the same position, the same bytes, so
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
HOWTO_IMAGES = DOCS / "howto" / "images"
RECORDS = DOCS.parent / "tests" / "golden" / "records"
TALL = "north 20 | c3=S3S2S1N3N2N1S3S2S1N3N2N1S3S2S1N3N2 d5=N1 |"
# The how-to's pictures: file -> (ruleset, seed, position) or (record file, ply).
HOWTO = {
    "stacktics-midgame.svg": ("stacktics-2.zrec", 36),
    "rgb-midgame.svg": ("rgb-1.zrec", 20),
    "stacktics-tall-stack.svg": ("stacktics", None, TALL),
    "green-start.svg": ("green", 1, "start"),
}
# Game pages whose start shows little (an empty table) show a position of a golden record instead,
# as `ziggurat render --record tests/golden/records/FILE --ply N` draws it.
GAME_RECORDS = {"chaos": ("chaos-1.zrec", 60)}
GAME_RECORDS["homeworlds"] = ("homeworlds-2.zrec", 7)   # the start has no system: both homeworlds set up
TUTORIAL = DOCS / "tutorial" / "first-game.md"
TOWERS = re.compile(r"^```rules\n(# Towers.*?)^```", re.M | re.S)


def tutorial_rules() -> str:
    """The complete Towers ruleset of the tutorial (its last `# Towers` code block)."""
    blocks = TOWERS.findall(TUTORIAL.read_text(encoding="utf-8"))
    if not blocks:
        raise SystemExit(f"{TUTORIAL}: no ```rules block starting '# Towers'")
    return blocks[-1]


def pictures() -> dict:
    """Path -> SVG text of every picture the documentation shows."""
    from ziggurat.cli.render import record_state

    shipped = set(shipped_names())
    out = {}
    for page in sorted((DOCS / "games").glob("*.md")):
        if page.stem in GAME_RECORDS:
            out[IMAGES / f"{page.stem}.svg"] = render.svg(record_state(RECORDS / GAME_RECORDS[page.stem][0],
                                                                       GAME_RECORDS[page.stem][1]))
        elif page.stem in shipped:
            out[IMAGES / f"{page.stem}.svg"] = render.svg(ziggurat.load(page.stem).new(0))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "towers.rules"
        path.write_text(tutorial_rules(), encoding="utf-8")
        out[IMAGES / "towers.svg"] = render.svg(ziggurat.load(str(path)).new(0))
    for name, how in HOWTO.items():
        if len(how) == 2:  # ziggurat render --record FILE --ply N
            state = record_state(RECORDS / how[0], how[1])
        else:  # ziggurat render RULESET [--seed S] [--position TEXT]
            game = ziggurat.load(how[0])
            state = game.new(how[1]) if how[2] == "start" else game.position(how[2])
        out[HOWTO_IMAGES / name] = render.svg(state)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only check that the pictures are current")
    args = parser.parse_args(argv)
    stale = []
    for path, text in pictures().items():
        name = path.relative_to(DOCS).as_posix()
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        if args.check:
            stale.append(name)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(DOCS.parent)}")
    if stale:
        print("stale or missing pictures (run python docs/gen_pictures.py): " + ", ".join(stale),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
