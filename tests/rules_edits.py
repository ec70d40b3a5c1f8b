"""Helpers of the language tests that edit a small ruleset's text and read the one error it gets."""

from __future__ import annotations

from ziggurat.dsl.checks import check


def replace_once(text: str, old: str, new: str) -> str:
    """text with `old`, which must occur exactly once, replaced by `new`."""
    assert text.count(old) == 1, old
    return text.replace(old, new)


def at(text: str, needle: str) -> tuple:
    """(line, column) of the first `needle` in text, both from 1 as the parser counts them."""
    i = text.index(needle)
    return text.count("\n", 0, i) + 1, i - (text.rfind("\n", 0, i) + 1) + 1


def the_error(text: str):
    """The one error `check` reports on text (the test fails on none or several)."""
    errs = [d for d in check("edited.rules", text=text) if d.severity == "error"]
    assert len(errs) == 1, "\n\n".join(d.render() for d in errs) or "no error reported"
    return errs[0]
