"""From a failure inside generated code back to the rules line that produced it.

Every line the compiler writes for a rule ends with a `# rules:N` marker; the generated source
is registered in `linecache`, so a traceback can be read frame by frame. `rules_diagnostic`
finds the innermost generated frame, the nearest marker at or above its line, and the
declaration that covers that rules line, and turns the exception into a Diagnostic there.
"""

from __future__ import annotations

import re
import traceback
from typing import Optional

from contextlib import contextmanager

from ..errors import Diagnostic, RulesetError, ZigguratError

_MARKER = re.compile(r"# rules:(\d+)\s*$")
GENERATED: dict = {}  # generated filename -> Compiled


def register(compiled) -> None:
    GENERATED[compiled.filename] = compiled


def rules_line(compiled, generated_line: int) -> Optional[int]:
    """The rules line whose code holds generated line `generated_line` (1-based), if marked."""
    lines = compiled.source.splitlines()
    for i in range(min(generated_line, len(lines)) - 1, -1, -1):
        m = _MARKER.search(lines[i])
        if m:
            return int(m.group(1))
        if lines[i].startswith("def "):
            return None
    return None


@contextmanager
def rules_failures():
    """Turn an exception raised inside generated code into a RulesetError at the failing rule."""
    try:
        yield
    except ZigguratError:
        raise
    except Exception as exc:
        diagnostic = rules_diagnostic(exc)
        if diagnostic is None:
            raise
        raise RulesetError([diagnostic]) from None


def rules_diagnostic(exc: BaseException) -> Optional[Diagnostic]:
    """A Diagnostic at the rules line where `exc` was raised in generated code, or None."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename in GENERATED]
    if not frames:
        return None
    frame = frames[-1]
    compiled = GENERATED[frame.filename]
    line = rules_line(compiled, frame.lineno)
    if line is None:
        return None
    model = compiled.model
    reporter = None
    # The declaration that covers the line: search every file's reporter, most derived first.
    reporters = {id(r): r for r in model.owner.values()}.values()
    for rep in sorted(reporters, key=lambda r: -model.files.index(r.path) if r.path in model.files else 0):
        if rep.line_text(line).strip():
            reporter = rep
            break
    if reporter is None:
        return None
    text = reporter.line_text(line)
    col = len(text) - len(text.lstrip()) + 1
    from ..dsl.ast import Pos

    from .helpers import RepeatLimit

    if isinstance(exc, RepeatLimit):
        return reporter.make(Pos(line, col, len(text.rstrip()) + 1, line), f"this rule failed while the game ran: {exc}",
                             hint="each pass should change the board so that the chain ends; "
                                  "or end it with 'while'")
    return reporter.make(Pos(line, col, len(text.rstrip()) + 1, line),
                         f"this rule failed while the game ran: {type(exc).__name__}: {exc}",
                         hint="a rule looked at something that is not there here "
                              "(for example top() of an empty cell); guard it with a condition")
