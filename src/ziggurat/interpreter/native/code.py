"""The page the native writer writes on: lines of Python, each with the rules line it comes from.

`Code` collects the lines of one generated function: each with its indentation, its text, and the
rules position of the step or statement it was written for (`with code.at(pos):`); fresh local
names; and the buffers allocated once at the function's top. `Code.text()` writes them out:

- a line whose rules line differs from the line before it (in its function) shows it as a
  trailing comment, `# game.rules:31` (a comment line, `# action move`, in brackets after
  it); a line without one belongs to the rule of the nearest such line above it in its function
  (`rules_line` reads this back);
- a line longer than `WIDTH` characters is broken inside its brackets (Python joins the lines of
  a bracket), one operand or argument a line, so that no line runs off a screen.

`numba_refusal` turns an error of Numba's, which names the generated file's line, into the
`Unsupported` that names the rules line that line was written for.
"""

from __future__ import annotations

import math

import os
import re
from contextlib import contextmanager
from typing import NoReturn, Optional

from ...dsl import ir
from ...errors import Unsupported

WIDTH = 120  # a generated line's code (its comment aside) is broken past this many characters
CONTINUATION = 8  # the indent of a broken statement's continuation lines, past its own
NESTED = 4  # the same for the parts of a part


SETTLED = re.compile(r"[\w\s+\-*()]*")  # numbers, names, arithmetic: no read of the position, no call


def settled(text: str) -> bool:
    """Whether an argument's text is numbers and names only (`4`, `v_card`, `(1 + mover)`): no
    read of the position (`s[...]`, a table) nor a call, so nothing a helper writes changes it and
    it needs no local of its own (a local is two more statements for Numba to type and lower)."""
    return SETTLED.fullmatch(text) is not None and re.search(r"\w\(", text) is None


def kept(text: str, stem: str, code, constants_only: bool = False) -> str:
    """An argument's value, read once before an effect writes anything: its text itself when it is
    `settled`, else a new local holding it. `constants_only`: settled and no name but the mover and
    the module's constants (the lines that take an effect back run after the steps below it, where
    a name may be bound again, an item of a `for` written out)."""
    if settled(text) and (not constants_only or all(w == "mover" or w.isupper()
                                                    for w in re.findall(r"[A-Za-z_]\w*", text))):
        return text
    t = code.fresh(stem)
    code(f"{t} = {text}")
    return t


def label(pos) -> Optional[str]:
    """`file.rules:LINE` of a rules position (its file's name), or None when it has none."""
    if pos is None or not getattr(pos, "line", 0):
        return None
    path = getattr(getattr(pos, "file", None), "path", None)
    name = os.path.basename(str(path)) if path else "rules"
    return "".join(c if c.isprintable() else "?" for c in f"{name}:{pos.line}")  # one line, whatever the name


class Code:
    """The lines of one generated function (see the module's docstring), and fresh local names."""

    def __init__(self, fresh=None, top=None):
        self.lines: list = []  # (depth, text, rules position or None)
        self.depth = 0
        self.pos = None  # the rules position of the lines written now
        self._fresh = fresh if fresh is not None else [0]
        self.top = top if top is not None else {}  # buffers allocated once, at the function's top

    def sub(self) -> "Code":
        """Lines written apart (to be pasted in later), sharing fresh names and buffers."""
        sub = Code(self._fresh, self.top)
        sub.pos = self.pos
        return sub

    def paste(self, sub: "Code", extra: int = 0) -> None:
        """The lines of `sub`, indented to this code's depth (and `extra` levels more)."""
        self.lines.extend((self.depth + extra + d, text, pos) for d, text, pos in sub.lines)

    def buffer(self, name: str, *shape: int) -> None:
        """A fixed int64 array `name` allocated once at the top of the function (not in a loop);
        the same name asked for again gets the larger shape."""
        old = self.top.get(name)
        self.top[name] = tuple(max(a, b) for a, b in zip(old, shape)) if old else tuple(max(1, s) for s in shape)

    def __call__(self, text: str) -> None:
        self.lines.append((self.depth, text, self.pos))

    @contextmanager
    def at(self, pos):
        """The lines written inside come from the rule at `pos` (kept as it is when pos has no line)."""
        saved = self.pos
        if pos is not None and getattr(pos, "line", 0):
            self.pos = pos
        try:
            yield
        finally:
            self.pos = saved

    def fresh(self, stem: str) -> str:
        self._fresh[0] += 1
        return f"_{stem}{self._fresh[0]}"

    def text(self) -> str:
        """The function's text; buffers go right after its `def` line (the second line). Two or
        more are views of one array, allocated once (an allocation costs Numba 40-75 ns, a view
        about a fifth of that, and legal runs once a ply)."""
        if len(self.top) < 2:
            alloc = [(1, f"{n} = np.empty({s[0] if len(s) == 1 else s}, np.int64)", None)
                     for n, s in sorted(self.top.items())]
            return render(self.lines[:2] + alloc + self.lines[2:])
        sizes = {n: math.prod(s) for n, s in self.top.items()}
        alloc, at = [(1, f"_pool = np.empty({sum(sizes.values())}, np.int64)", None)], 0
        for n, s in sorted(self.top.items()):
            view = f"_pool[{at}:{at + sizes[n]}]" + ("" if len(s) == 1 else f".reshape({s})")
            alloc.append((1, f"{n} = {view}", None))
            at += sizes[n]
        return render(self.lines[:2] + alloc + self.lines[2:])


def render(lines: list) -> str:
    """Lines (depth, text, pos) as text: each broken to WIDTH, the first of a rule's lines with its
    rules line as a comment."""
    out, shown = [], None
    for depth, text, pos in lines:
        note = label(pos)
        physical = wrap("    " * depth + text, WIDTH)
        if note is not None and note != shown:
            physical[0] += f" ({note})" if text.startswith("#") else f"  # {note}"  # a comment line: in brackets
            shown = note
        out.extend(physical)
    return "\n".join(out)


# ---- breaking long lines --------------------------------------------------------------------------

OPEN, CLOSE = "([{", ")]}"
# Where a bracket's contents may be broken, tried in this order: after its commas, else before its
# lowest operators. Generated code holds no strings, so these are found by scanning the text.
# A conditional expression is cut before its `if` and its `else` alike, so that no part holds the
# rest of it after a bracket.
SEPARATORS = ((", ",), (" or ",), (" and ",), (" if ", " else "), (" | ",), (" + ",), (" - ",), (" * ",),
              (" // ",), (" % ",), (" << ",), (" >> ",), (" == ",), (" != ",), (" <= ",), (" >= ",), (" < ",),
              (" > ",))


def _groups(text: str) -> list:
    """(open, close) indices of the brackets at the outermost level of a text."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in OPEN:
            if depth == 0:
                start = i
            depth += 1
        elif ch in CLOSE:
            depth -= 1
            if depth == 0:
                out.append((start, i))
    return out


def _split(inner: str) -> list:
    """The parts of a bracket's contents at its outermost level, split at the first kind of
    separator that splits them (commas stay at the end of their part, operators start theirs).
    The depth of each character is counted once; each kind's separators are found with str.find
    (a scan a character at a time, for each of the eighteen kinds, was a quarter of the time a
    large module took to write)."""
    top, depth = [], 0  # top[i]: whether character i is outside every bracket
    for ch in inner:
        if ch in OPEN:
            top.append(False)
            depth += 1
        elif ch in CLOSE:
            top.append(False)
            depth -= 1
        else:
            top.append(depth == 0)
    for seps in SEPARATORS:
        found = []  # (index, separator) at the outermost level, left to right, none inside another
        for sep in seps:
            i = inner.find(sep)
            while i >= 0:
                if top[i]:
                    found.append((i, sep))
                i = inner.find(sep, i + 1)
        if not found:
            continue
        cuts, end = [], 0
        for i, sep in sorted(found):
            if i >= end:  # a scan from the left takes a separator and goes on after it
                cuts.append(i)
                end = i + len(sep)
        parts, last = [], 0
        for c in cuts:
            if seps == (", ",):
                parts.append(inner[last:c + 1])
                last = c + 2
            else:
                parts.append(inner[last:c])
                last = c + 1
        parts.append(inner[last:])
        return parts
    return []


_STATEMENT = re.compile(r"^(\s*)(if |elif |while |return |[\w\[\], ]+? (?:[-+*/%|&^]|<<|>>|//)?= )(.*?)(:?)$")


def wrap(line: str, width: int = WIDTH, statement: bool = True) -> list:
    """A line of generated Python as one or more lines, broken inside its brackets where it is
    longer than `width`: the bracket's parts one a line, indented CONTINUATION more than the
    statement's line (NESTED more than the part they are in). `statement`: the line is a whole
    statement (not a part of one)."""
    if len(line) <= width:
        return [line]
    lead = len(line) - len(line.lstrip(" "))
    groups = _groups(line)
    m = _STATEMENT.match(line) if statement else None
    if m and not (len(groups) == 1 and re.fullmatch(r"\w*", line[len(m.group(1) + m.group(2)):groups[0][0]])
                  and groups[0][1] == len(line) - 1 - len(m.group(4))):
        # an expression not held in one bracket (or a call's) of its own: put it in one (the same expression)
        line = f"{m.group(1)}{m.group(2)}({m.group(3)}){m.group(4)}"
        groups = _groups(line)
    if not groups:
        return [line]
    start, end = max(groups, key=lambda g: g[1] - g[0])
    parts = _split(line[start + 1:end])
    indent = " " * (lead + (CONTINUATION if statement else NESTED))
    if len(parts) < 2:  # one part: break inside it instead
        inner = wrap(indent + line[start + 1:end], width, False)
        if len(inner) < 2:
            return [line]
        return [line[:start + 1]] + inner + [" " * lead + line[end:]]
    out = [line[:start + 1]]
    for part in parts:
        out.extend(wrap(indent + part.strip(), width, False))
    out.append(" " * lead + line[end:])
    return out


# ---- from the generated file back to the rules ------------------------------------------------------

_NOTES = (re.compile(r"  # (.+:\d+)$"), re.compile(r"^ *# .* \((.+:\d+)\)$"))  # after code; a comment line's


def rules_line(text: str, number: int) -> Optional[str]:
    """`file.rules:LINE` that line `number` (from 1) of a native module's text was written for: its
    comment, else that of the nearest commented line above it in its function; None outside the
    rules' code (the kernel, a function's first lines)."""
    lines = text.split("\n")
    for k in range(min(number, len(lines)) - 1, -1, -1):
        line = lines[k]
        for note in _NOTES:
            found = note.search(line)
            if found:
                return found.group(1)
        if line.startswith(("def ", "@", "#")) or (line and not line.startswith(" ")):
            return None  # the function's top: no rule above it
    return None


_WHERE = (re.compile(r'File "([^"]+)", line (\d+)'), re.compile(r"at (\S+) \((\d+)\)"))


def numba_refusal(error: Exception, text: str, path) -> Unsupported:
    """The Unsupported for an error Numba raised compiling a native module (`text`, written to
    `path`): naming the rules line of the innermost line of the module the error points to that
    was written for a rule, and Numba's own first words on what it refused."""
    message = str(error)
    name = os.path.basename(str(path))
    places = []
    for pattern in _WHERE:
        places += [(m.start(), int(m.group(2))) for m in pattern.finditer(message)
                   if os.path.basename(m.group(1)) == name]
    where = next((w for _, n in sorted(places) if (w := rules_line(text, n)) is not None), None)
    said = [ln.strip() for ln in message.splitlines()
            if ln.strip() and not ln.strip().startswith(("Failed in ", "During:"))]
    first = said[0] if said else type(error).__name__
    if first.endswith(":") and len(said) > 1:  # "... found for signature:" and the signature
        first += " " + said[1].lstrip("> ")
    at = f" for {where}" if where else ""
    return Unsupported(f"this ruleset (Numba refused the code written{at}: {first[:160]})")


# ---- refusing what this backend does not write --------------------------------------------------------


def fail(e, what: Optional[str] = None) -> NoReturn:
    raise Unsupported(what or describe(e), getattr(e, "pos", None))


def describe(e) -> str:
    kind = type(e).__name__
    if isinstance(e, ir.Call):
        return f"the built-in {e.fn}()"
    if isinstance(e, ir.Effect):
        return f"the effect {e.fn}()"
    return {"Comp": "this comprehension", "ListLit": "a list used as a value", "ListJoin": "a joined list",
            "Range": "a range used as a value", "Index": "an index into a list or zone", "TableGet": "this table",
            "Repeat": "a repeated part (repeat ... while)", "Stage": "effects followed by more choices",
            "AfterPart": "the after block", "Measure": "weight / seen by", "DirUnion": "a union of directions",
            }.get(kind, f"the construct {kind}")
