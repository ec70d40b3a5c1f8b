"""The budgets a rules text is held to before and while it is parsed (budgets.py holds the numbers):
its size, its tokens, its numbers, lengths and strings, and how deep its AST nests, each found
without recursion and before a pass could take long or deep over it."""

from __future__ import annotations

import re

from lark import Token, Tree

from . import ast, budgets, surface
from ..errors import Diagnostic, Reporter


def too_large(path: str, size: int) -> Diagnostic:
    """The error for a file past budgets.MAX_SOURCE_BYTES, before any of it is read as rules."""
    return Diagnostic(path, 0, 0, f"the file is {size:,} bytes, and a rules file is at most "
                                  f"{budgets.MAX_SOURCE_BYTES:,} bytes")


# Words, numbers, strings and symbols, as the grammar's lexer would split them (near enough to
# count them: a comment counts nothing).
_TOKEN = re.compile(r'"(?:\\.|[^"\\\n])*"|[A-Za-z_0-9]+|\.\.|[=!<>]=|//|[+-]=|#[^\n]*|\S')


def too_many_tokens(text: str, path: str):
    """A diagnostic at the first token past budgets.MAX_TOKENS, or None: counted with one regular
    expression, before the parser (which takes about 0.1 ms a token) sees the text."""
    count = 0
    for m in _TOKEN.finditer(text):
        if m.group().startswith("#"):
            continue
        count += 1
        if count > budgets.MAX_TOKENS:
            line = text.count("\n", 0, m.start()) + 1
            col = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
            return Reporter(path, text).make(
                ast.Pos(line, col, col + 1),
                f"the file has more than {budgets.MAX_TOKENS:,} words, numbers and symbols; this is the first "
                f"one past that limit", hint="a rules file this long is too slow to check: make it shorter")
    return None


def _span(t: Token) -> ast.Pos:
    """Where a token of the parse tree is (the lexer gives each one its line and column)."""
    line, col = t.line or 0, t.column or 0
    return ast.Pos(line, col, col + len(t))


def literals_too_large(tree: Tree, file: Reporter) -> list[Diagnostic]:
    """Diagnostics for numbers with too many digits and strings too long (budgets), found on the
    parse tree before any number is converted."""
    out: list[Diagnostic] = []
    stack: list[Tree | Token] = [tree]
    while stack:
        t = stack.pop()
        if isinstance(t, Tree):
            stack.extend(t.children)
        elif isinstance(t, Token) and t.type == "INT" and len(t) > budgets.MAX_INT_DIGITS:
            out.append(file.make(_span(t),
                                 f"this number has {len(t):,} digits, and a number in the rules has at most "
                                 f"{budgets.MAX_INT_DIGITS}", width=min(len(t), 40)))
        elif isinstance(t, Token) and t.type == "LENGTH":
            try:
                if len(t.split(".")[0]) > budgets.MAX_INT_DIGITS - 4:
                    raise ValueError(f"this length has {len(t.split('.')[0]):,} digits before its point, and a "
                                     f"length in the rules has at most {budgets.MAX_INT_DIGITS - 4}")
                surface.length_units(str(t))
            except ValueError as e:
                out.append(file.make(_span(t), str(e), width=min(len(t), 40),
                                     hint=f"lengths are kept in 1/{surface.UNITS_PER_INCH} of an inch: write at "
                                          "most four decimals, as 0.0625in"))
        elif isinstance(t, Token) and t.type == "STRING" and len(t) - 2 > budgets.MAX_STRING_CHARS:
            out.append(file.make(_span(t),
                                 f"this string has {len(t) - 2:,} characters, and a string in the rules has at "
                                 f"most {budgets.MAX_STRING_CHARS:,}", width=1))
    return sorted(out, key=lambda d: (d.line, d.col))


def too_deep(decls):
    """The first AST node (in source order) nested deeper than budgets.MAX_NESTING, or None.
    Iterative: it runs before any recursive pass walks the AST."""
    stack = [(d, 1) for d in reversed(decls)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, (tuple, list)):
            stack.extend((x, depth) for x in reversed(node))
            continue
        if not hasattr(node, "__attrs_attrs__") or isinstance(node, ast.Pos):
            continue
        if depth > budgets.MAX_NESTING:
            return node
        for f in reversed(node.__attrs_attrs__):
            if f.name != "pos":
                stack.append((getattr(node, f.name), depth + 1))
    return None
