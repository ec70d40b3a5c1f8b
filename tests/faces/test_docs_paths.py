"""Files the documentation names are in the project: a path written in backticks that starts at the
project's root (`src/...`, `tests/...`, `docs/...`, `benchmarks/...`) or goes up from its page
(`../...`) exists, and stays inside the project. (The RGB page named `shared/games/rgb.md`, a file
the project does not have.)"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
PAGES = sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]
PATH = re.compile(r"`((?:\.\./)+[\w./-]+|(?:src|tests|docs|benchmarks|shared)/[\w./-]+)`")


def named_paths():
    out = []
    for page in PAGES:
        for match in PATH.finditer(page.read_text(encoding="utf-8")):
            out.append((page.relative_to(ROOT).as_posix(), match.group(1)))
    return out


@pytest.mark.parametrize("page,path", named_paths())
def test_named_file_is_in_the_project(page, path):
    """The named file or folder exists inside the project."""
    base = (ROOT / page).parent if path.startswith("../") else ROOT
    target = (base / path.rstrip("/")).resolve()
    assert target.is_relative_to(ROOT), f"{page}: {path} is outside the project"
    assert target.exists(), f"{page}: {path} is not in the project"


def test_the_check_sees_the_old_rgb_link():
    """The sentence the RGB page had is caught by the pattern (so the check can fail)."""
    assert PATH.findall("as follows (the authority is `shared/games/rgb.md`).") == ["shared/games/rgb.md"]
    assert not (ROOT / "shared/games/rgb.md").exists()
