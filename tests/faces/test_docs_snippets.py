"""What the docs show is what the user gets: a page that says its snippets are complete rulesets
holds no fragment (each passes `ziggurat check`), and a documented `ziggurat show` of a shipped
game runs, printing the output the page shows after it. (Commands are only parsed in
test_docs_commands.py; the rules blocks are lexed in test_editor_lexer.py.)"""

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from ziggurat.cli.main import cli
from ziggurat.dsl.checks import check
from ziggurat.dsl.loader import shipped_names

ROOT = Path(__file__).resolve().parent.parent.parent
PAGES = sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)
CLAIM = re.compile(r"every\s+snippet\s+below\s+is\s+a\s+complete\s+ruleset", re.I)


def complete_snippets():
    """(page:line, text) of every ```rules block after a page's claim that its snippets are complete."""
    out = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        claim = CLAIM.search(text)
        if claim is None:
            continue
        for m in FENCE.finditer(text):
            if m.group(1) == "rules" and m.start() > claim.start():
                line = text.count("\n", 0, m.start()) + 1
                out.append((f"{page.relative_to(ROOT).as_posix()}:{line}", m.group(2)))
    return out


@pytest.mark.parametrize("where,text", complete_snippets(), ids=lambda x: x if ".md:" in x else None)
def test_a_snippet_said_to_be_complete_is_a_ruleset(where, text, tmp_path):
    """`ziggurat check` accepts it as a whole file (a fragment has no game line, players, board...)."""
    errors = [d.render() for d in check(str(tmp_path / "snippet.rules"), text) if d.severity == "error"]
    assert not errors, f"{where}: the page says this snippet is a complete ruleset:\n" + "\n".join(errors)


def test_the_tutorial_makes_the_claim():
    """The check above has snippets to check (the tutorial says every snippet is complete)."""
    assert len([w for w, _ in complete_snippets() if w.startswith("docs/tutorial/")]) >= 4


def shows():
    """(page:line, command words, the output shown or None) for every documented `ziggurat show` of
    a shipped ruleset: in a ```console block the lines after the command up to the next prompt are
    its output."""
    out = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            lang, lines = m.group(1), m.group(2).splitlines()
            if lang not in ("", "sh", "bash", "console", "shell"):
                continue
            for i, raw in enumerate(lines):
                line = raw.strip().removeprefix("$ ").strip()
                if not line.startswith("ziggurat show "):
                    continue
                words = shlex.split(line, comments=True)
                if len(words) < 3 or words[2] not in shipped_names():
                    continue
                shown = None
                if lang == "console":
                    rest = lines[i + 1:]
                    end = next((j for j, r in enumerate(rest) if r.startswith("$ ")), len(rest))
                    shown = rest[:end]
                where = f"{page.relative_to(ROOT).as_posix()}:{text.count(chr(10), 0, m.start()) + i + 2}"
                out.append((where, words[1:], shown))
    return out


@pytest.mark.parametrize("where,words,shown", shows(), ids=lambda x: x if isinstance(x, str) and ".md:" in x else "")
def test_a_documented_show_runs_and_prints_what_the_page_shows(where, words, shown):
    result = CliRunner().invoke(cli, words)
    assert result.exit_code == 0, f"{where}: {' '.join(words)}\n{result.output}"
    if shown is not None:
        got = [line.rstrip() for line in result.output.rstrip("\n").splitlines()]
        assert got == [line.rstrip() for line in shown], f"{where}: the page shows other output than the command prints"


def test_the_docs_show_positions():
    """The check above has documented positions to run, and at least one with its output."""
    found = shows()
    assert len(found) >= 4 and any(shown for _, _, shown in found)
