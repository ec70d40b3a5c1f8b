"""Diagnostics for people: file:line:col, the line with a caret, what was expected, a hint."""

from __future__ import annotations

import difflib
from typing import Iterable, Optional

from attrs import define, field, frozen


@frozen
class Diagnostic:
    """One mistake in a ruleset, with everything needed to show it."""

    path: str
    line: int
    col: int
    message: str
    source_line: str = ""
    width: int = 1
    expected: Optional[str] = None
    hint: Optional[str] = None
    severity: str = "error"

    def render(self) -> str:
        where = f"{self.path}:{self.line}:{self.col}" if self.line else self.path
        out = [f"{where}: {self.severity}: {self.message}"]
        if self.line and self.source_line:
            gutter = f"{self.line:>4} | "
            text, caret_at, width = _window(self.source_line.rstrip("\n"), max(self.col - 1, 0), self.width)
            out.append(gutter + text)
            underline = "^" * max(1, min(width, len(text) - caret_at))
            out.append(" " * (len(gutter) - 2) + "| " + " " * caret_at + underline)
        if self.expected:
            out.append(f"  expected {self.expected}")
        if self.hint:
            out.append(f"  hint: {self.hint}")
        return "\n".join(out)

    def as_dict(self) -> dict:
        return {
            "path": self.path,
            "line": self.line,
            "col": self.col,
            "severity": self.severity,
            "message": self.message,
            "expected": self.expected,
            "hint": self.hint,
        }


SHOWN = 100  # characters of a source line shown around the caret; a longer line is cut with "..."


def _window(text: str, at: int, width: int) -> tuple:
    """(the part of a line to show, the caret's column in it, the underline's width): a long
    line is cut to SHOWN characters around the caret, the cuts marked with '...'."""
    if len(text) <= SHOWN:
        return text, at, width
    start = max(0, min(at - SHOWN // 3, len(text) - SHOWN))
    shown = text[start:start + SHOWN]
    head = "..." if start else ""
    tail = "..." if start + SHOWN < len(text) else ""
    return head + shown + tail, at - start + len(head), min(width, SHOWN - (at - start))


class ZigguratError(ValueError):
    """Base of every error Ziggurat reports to a person (never shown as a traceback)."""


class RulesetError(ZigguratError):
    """A ruleset failed to parse or check; ``diagnostics`` holds every mistake found."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__("\n\n".join(d.render() for d in self.diagnostics))

    def __reduce__(self):
        # Made again from its diagnostics, not from its message: a study's worker sends it to the
        # parent pickled (unpickled from the message, it failed, and the study said that its
        # workers had died instead of naming the ruleset's mistake).
        return (type(self), (self.diagnostics,))


class GameError(ZigguratError):
    """A bad move, position, option or command: the message names what is wrong."""


class AgentError(ZigguratError):
    """A bad agent specification (unknown agent, unknown or bad parameter)."""


class RecordError(GameError):
    """A record that cannot be read, or that does not replay as it says."""


MEMORY = "memory ran out"


class SearchLimitExceeded(ZigguratError):
    """The search visited more positions than the limit it was given."""

    def __init__(self, limit: int, why: str = "the node limit"):
        self.limit = limit
        self.why = why  # "the node limit", or MEMORY: memory ran out first
        super().__init__(f"gave up after {limit:,} positions ({why}); the game is too large "
                         "to solve this way, or raise the limit")

    def __reduce__(self):  # rebuilt from its fields in the process that solved in a worker
        return (type(self), (self.limit, self.why))


class Unsupported(Exception):
    """A construct or position the native backend does not compile or hold: what it is, and
    where the rules wrote it. Not a mistake of the person: the commands print `line()` and use
    the Python backend instead."""

    def __init__(self, what: str, pos=None):
        super().__init__(what)
        self.what, self.pos = what, pos

    def where(self) -> str:
        pos = self.pos
        if pos is None or not getattr(pos, "line", 0):
            return "?"
        path = getattr(getattr(pos, "file", None), "path", None)
        name = str(path).rsplit("/", 1)[-1] if path else "rules"
        return f"{name}:{pos.line}:{pos.col}"

    def line(self) -> str:
        """The one line a command prints when it falls back."""
        where = self.where()
        return f"the native backend cannot compile {self.what}{f' ({where})' if where != '?' else ''}; using Python"


def shown(value, limit: int = 60) -> str:
    """A value as a message shows it: text and numbers quoted as written, cut after `limit`
    characters (a record's line of megabytes is not printed whole); anything else by its type
    alone (its own repr is never called: it could say anything)."""
    if type(value) is str:
        return repr(value) if len(value) <= limit else repr(value[:limit]) + "..."
    if type(value) is int and value.bit_length() > 3 * limit:  # str() of it could be refused
        return f"a number of more than {limit} digits"
    if type(value) in (int, bool, float):
        return repr(value)
    return f"a value of type {type(value).__name__!r}"


def did_you_mean(word: str, candidates: Iterable[str]) -> Optional[str]:
    """A 'did you mean ...?' hint for a misspelt name, or None."""
    close = difflib.get_close_matches(word, sorted(set(candidates)), n=3, cutoff=0.6)
    if not close:
        return None
    return "did you mean " + " or ".join(repr(c) for c in close) + "?"


@define(eq=False)
class SourceFile:
    """One rules file's text: every position in the AST points at the file it came from, so a
    message can show the right line of the right file (a base ruleset's line, read through a
    variant, is shown from the base)."""

    path: str
    source: str = field(repr=False)
    _lines: Optional[list] = field(init=False, default=None, repr=False, eq=False)

    def line_text(self, line: int) -> str:
        """One line of the file; the text is split once, so that showing a line (every diagnostic,
        every snippet of rules text) costs the line, not the file (check stays linear)."""
        if self._lines is None:
            self._lines = self.source.splitlines()
        return self._lines[line - 1] if 0 < line <= len(self._lines) else ""

    def make(self, pos, message, *, expected=None, hint=None, width=None, severity="error") -> Diagnostic:
        line = getattr(pos, "line", 0) or 0
        col = getattr(pos, "col", 0) or 0
        end = getattr(pos, "end_col", 0) or 0
        if (getattr(pos, "end_line", 0) or line) != line:
            end = len(self.line_text(line)) + 1
        if width is None:
            width = max(1, end - col) if end > col else 1
        return Diagnostic(
            self.path, line, col, message, self.line_text(line), width, expected, hint, severity
        )

    def snippet(self, pos) -> str:
        """The source text of a node (first line only, for long ones)."""
        line = getattr(pos, "line", 0) or 0
        text = self.line_text(line)
        start = max((getattr(pos, "col", 1) or 1) - 1, 0)
        same = (getattr(pos, "end_line", 0) or line) == line
        end = (getattr(pos, "end_col", 0) or 0) - 1 if same else len(text)
        piece = text[start:end] if end > start else text[start:]
        return " ".join(piece.split()) + ("" if same else " ...")


@define(eq=False)
class Reporter(SourceFile):
    """A source file that also collects diagnostics; ``error`` builds them with the line filled in."""

    diagnostics: list = field(factory=list)

    def error(self, pos, message, **kw):
        self.diagnostics.append(self.make(pos, message, **kw))

    def warning(self, pos, message, **kw):
        self.diagnostics.append(self.make(pos, message, severity="warning", **kw))

    @property
    def errors(self):
        return [d for d in self.diagnostics if d.severity == "error"]


def diagnostic_at(pos, message, *, fallback: Optional[SourceFile] = None, **kw) -> Diagnostic:
    """A Diagnostic at a position, shown from the file the position belongs to."""
    file = getattr(pos, "file", None) or fallback
    if file is None:
        return Diagnostic("<rules>", getattr(pos, "line", 0) or 0, getattr(pos, "col", 0) or 0, message,
                          expected=kw.get("expected"), hint=kw.get("hint"),
                          severity=kw.get("severity", "error"))
    return file.make(pos, message, **kw)
