"""The words of the rules language that cannot name what a rule binds.

The parser reads a keyword as a name where no keyword can stand (`def for(in): ...`,
`if: cells`), so without this check such a ruleset would compile, and read as nonsense. A choice,
a let, a loop or comprehension variable, a repeat's variable, a def or its parameter named by one
of these words is an error at the word. (Actions may keep such names, `action draw`: an action's
name is never read inside a rule. Built-in names such as `piece` or `players` are names, not
keywords.)
"""

from __future__ import annotations

from . import ast
from .binder_pos import name_pos

KEYWORDS = frozenset("""
    and as by def do draw elif else for if in let lose not of or otherwise per priority repeat
    require seen when where while win
""".split())  # the words that stand inside rules (a declaration's word, `after`, `table`, may name a def)


def _bound(node):
    """(name, what it is) for every name a node binds."""
    if isinstance(node, ast.Let):
        yield node.name, "let"
    elif isinstance(node, (ast.For, ast.CompFor)):
        yield node.var, "loop variable"
    elif isinstance(node, ast.Choice):
        yield node.name, "choice"
    elif isinstance(node, ast.Repeat):
        yield node.var, "repeat variable"
    elif isinstance(node, (ast.Def, ast.Procedure)):
        yield node.name, type(node).__name__.lower()
        for p in node.params:
            yield p, "parameter"


def check(files) -> None:
    """Report, in each file's reporter, every binder named by a keyword ((rules, reporter) pairs)."""
    for rules, rep in files:
        for node in ast.walk(list(rules.decls)):
            for name, what in _bound(node):
                if name in KEYWORDS:
                    rep.error(name_pos(node.pos, name), f"{name!r} is a keyword of the rules language, so it "
                              f"cannot name a {what}",
                              hint=f"call the {what} something else, such as {name}_ or my_{name}")

