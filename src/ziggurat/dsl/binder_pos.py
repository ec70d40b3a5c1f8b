"""Where a binder's name is written in the rules text: checks point at the name, not the line's
start (`for x in ...`, `let x = ...`, a choice, a procedure's name)."""

from __future__ import annotations

import re

from .ast import Pos

_WORD = r"(?<![A-Za-z0-9_]){}(?![A-Za-z0-9_])"


def name_pos(pos, name: str):
    """Where the name a binder binds is written: the first whole word `name` from `pos` on its
    line (`for x in ...`, `let x = ...`), or pos itself when the line is not known."""
    file = getattr(pos, "file", None)
    if file is None or not getattr(pos, "line", 0):
        return pos
    found = re.compile(_WORD.format(re.escape(name))).search(file.line_text(pos.line), max(pos.col - 1, 0))
    if found is None:
        return pos
    return Pos(pos.line, found.start() + 1, found.end() + 1, pos.line, file)
