"""Syntax errors a person can act on: what Lark found unexpected, said in the language's words
(its terminals named, the keywords that could come next), with a hint matched from examples of
common mistakes. `parser` calls `syntax_diagnostic` with its grammar's parse function."""

from __future__ import annotations

from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from . import ast
from ..errors import Diagnostic, Reporter

# Friendly names for the grammar's terminals, used in "expected ..." lines.
_TERMINAL_NAMES = {
    "NAME": "a name",
    "INT": "a number",
    "LENGTH": "a length",
    "STRING": 'a "string"',
    "_NL": "the end of the line",
    "_INDENT": "an indented block",
    "_DEDENT": "the end of the block",
    "COLON": "':'",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "COMMA": "','",
    "EQUAL": "'='",
    "COMP_OP": "a comparison",
    "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '//' or '%'",
    "$END": "the end of the file",
}

_DECLARATION_KEYWORDS = (
    "game extends option check players board surface piece control zone counter directions table "
    "def procedure setup action end invariant statistic heuristic remove override example symmetry"
).split()


_BLOCK_KEYWORDS = ("board surface piece table setup action end invariant statistic do if elif else for override "
                   "repeat procedure example").split()


def _expected_text(expected) -> str:
    names = []
    for t in sorted(expected):
        if t in _TERMINAL_NAMES:
            names.append(_TERMINAL_NAMES[t])
        elif t.isupper() and not t.startswith("_") and t.lower() in _DECLARATION_KEYWORDS + [
            "if", "else", "elif", "for", "in", "where", "let", "when", "require", "do",
            "win", "lose", "draw", "and", "or", "not", "per", "otherwise", "priority", "by", "chance", "weight", "seen",
            "hidden", "bookkeeping", "repeat", "while", "may", "stop", "decline",
            "bool", "int", "one", "of", "as",
        ]:
            names.append(repr(t.lower()))
        elif t.startswith("ANON") or t.startswith("__"):
            continue
        else:
            names.append(t.lower().replace("_", " "))
    names = list(dict.fromkeys(names))
    if len(names) > 8:
        names = names[:8] + ["..."]
    return ", ".join(names) if names else "something else"


# Common mistakes, named: lark's match_examples picks the closest one.
_EXAMPLES = {
    "a block header needs ':' at the end of the line": [
        "setup\n    place(x, y)\n",
        "action move\n    from: cells\n",
        "end\n    draw\n",
        "board\n    files: 3\n",
    ],
    "an option needs a default value: option NAME: TYPE = DEFAULT": [
        "option size: 2..5\n",
        "option size\n",
    ],
    "'=' compares nothing: write '==' to compare": [
        "check size = 2: \"x\"\n",
    ],
    "only a counter is marked 'bookkeeping' (counter NAME = 0 bookkeeping); a zone is shown, or 'hidden'": [
        "zone bank bookkeeping\n",
        "zone hand per player bookkeeping\n",
    ],
    "a block must be indented under its header": [
        "setup:\nplace(x, y)\n",
        "end:\ndraw\n",
    ],
}


# The parser's stack is deeper for a declaration after the first, and after a leading blank or
# comment line: match each example in every such place.
_EXAMPLES = {label: [p + c for p in ("", "players a\n", "\n", "\nplayers a\n") for c in cases]
             for label, cases in _EXAMPLES.items()}


def syntax_diagnostic(err: UnexpectedInput, text: str, path: str, parse) -> Diagnostic:
    rep = Reporter(path, text)
    line = getattr(err, "line", 0) or 0
    col = getattr(err, "column", 0) or 0
    if isinstance(err, UnexpectedCharacters):
        at = err.pos_in_stream
        ch = text[at] if at is not None and at < len(text) else ""
        hint = None
        if ch in "'":
            hint = 'strings are written in double quotes: "like this"'
        elif ch == "\t":
            hint = "indent with spaces"
        elif ch in "{}":
            hint = "blocks are indented, not written in braces"
        return rep.make(
            ast.Pos(line, col),
            f"unexpected character {ch!r}",
            expected=_expected_text(err.allowed or ()),
            hint=hint,
        )
    if isinstance(err, UnexpectedEOF):
        lines = text.splitlines() or [""]
        return rep.make(
            ast.Pos(len(lines), len(lines[-1]) + 1),
            "the file ends in the middle of a declaration",
            expected=_expected_text(err.expected),
        )
    assert isinstance(err, UnexpectedToken)
    tok = err.token
    shown = "end of line" if tok.type == "_NL" else (
        "indented block" if tok.type == "_INDENT" else
        "end of block" if tok.type == "_DEDENT" else
        "end of file" if tok.type == "$END" else repr(str(tok)))
    prev = ""
    if tok.type == "_NL" and line:
        # Point just after the last thing on the line (before any comment), where the mistake is.
        prev = text.splitlines()[line - 1] if line <= len(text.splitlines()) else ""
        col = len(prev[: max(col - 1, 0)].rstrip()) + 1
    hint = None
    try:
        label = err.match_examples(parse, _EXAMPLES, use_accepts=True)
    except Exception:  # match_examples re-parses examples; never let it mask the real error
        label = None
    if label:
        hint = label
    elif tok.type == "_NL" and "COLON" in err.expected and prev.split()[:1] and prev.split()[0] in _BLOCK_KEYWORDS:
        hint = "a block header needs ':' at the end of the line"
    elif tok.type == "EQUAL" and "COMP_OP" in err.expected:
        hint = "'=' compares nothing: write '==' to compare"
    elif tok.type == "NAME" and "NAME" not in err.expected:
        from ..errors import did_you_mean

        hint = did_you_mean(str(tok), _DECLARATION_KEYWORDS)
    return rep.make(
        ast.Pos(line, col, col + max(1, len(str(tok)) if tok.type not in ("_NL", "_INDENT", "_DEDENT", "$END") else 1)),
        f"unexpected {shown}",
        expected=_expected_text(err.expected),
        hint=hint,
    )
