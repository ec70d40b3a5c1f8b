"""From a failure inside generated code back to the rules line that produced it.

Every compiled game keeps a line map: for each line of its module, the rules file, line and
column it was written for (see GameSpec.linemap). `rules_diagnostic` finds the innermost frame of
generated code in a traceback, looks its line up, and turns the exception into a Diagnostic at
that rule, shown from the right file (a base ruleset's line through a variant is shown from the
base). Generated modules that live only in memory are registered in `linecache`, so tracebacks
show their text too.
"""

from __future__ import annotations

import bisect
import linecache
import traceback
from contextlib import contextmanager
from pathlib import Path
from typing import Optional

from ..errors import Diagnostic, RulesetError, SourceFile, ZigguratError
from .helpers import MoveLimit, RepeatLimit

GENERATED: dict = {}  # generated module filename -> GameSpec


def register(filename: str, source: str, spec) -> None:
    GENERATED[filename] = spec
    if filename.startswith("<"):
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)


def rules_position(spec, generated_line: int) -> Optional[tuple]:
    """(path, line, col, end col) of the rule generated line `generated_line` (from 1) was
    written for, or None."""
    entries = spec.linemap
    starts = [e[0] for e in entries]
    i = bisect.bisect_right(starts, generated_line) - 1
    if i < 0:
        return None
    _, source, line, col, end = entries[i]
    if source < 0 or not line or source >= len(spec.sources):
        return None
    return spec.sources[source], line, col, end


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


def native_fault(exc: BaseException) -> Optional[str]:
    """What to say of an arithmetic fault (a division by zero) raised by a ruleset's native code,
    which keeps no map back to the rules' lines (the Python backend's does), or None for
    anything else: the exception's innermost frame is the native backend's (it called the code)."""
    if not isinstance(exc, ArithmeticError):
        return None
    frames = traceback.extract_tb(exc.__traceback__)
    innermost = frames[-1].filename if frames else ""
    cause = exc.__cause__  # raised in a worker process: its traceback's text (concurrent.futures)
    if cause is not None and type(cause).__name__ == "_RemoteTraceback":
        files = [line for line in str(cause).splitlines() if line.strip().startswith('File "')]
        innermost = files[-1] if files else ""
    innermost = innermost.replace("\\", "/")
    if "/interpreter/native/" not in innermost and "<direct wrappers of " not in innermost:
        return None
    return (f"a rule failed while the game ran in the native backend: {exc}; the native code does not "
            "know the rules' lines: run the same command with --backend python to see the rule")


def rules_diagnostic(exc: BaseException) -> Optional[Diagnostic]:
    """A Diagnostic at the rules line where `exc` was raised in generated code, or None."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename in GENERATED]
    if not frames:
        return None
    frame = frames[-1]
    found = rules_position(GENERATED[frame.filename], frame.lineno) if frame.lineno is not None else None
    if found is None:
        return None
    path, line, col, end = found
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = ""
    file = SourceFile(path, text)
    line_text = file.line_text(line)
    if not end:
        end = len(line_text.rstrip()) + 1
    from ..dsl.ast import Pos

    where = Pos(line, col, end, line)
    if isinstance(exc, MoveLimit):
        return file.make(where, f"this rule failed while the game ran: {exc}",
                         hint="give the choice fewer values (a range with a smaller bound), or make the "
                              "decision in stages: one choice, its effects, then the next")
    if isinstance(exc, RepeatLimit):
        return file.make(where, f"this rule failed while the game ran: {exc}",
                         hint="each pass should change the board so that the chain ends; or end it with 'while'")
    return file.make(where, f"this rule failed while the game ran: {type(exc).__name__}: {exc}",
                     hint="a rule looked at something that is not there here "
                          "(for example top() of an empty cell); guard it with a condition")
