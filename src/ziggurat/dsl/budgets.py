"""The budgets of a ruleset: how large and how deep its rules may be.

A ruleset is input that Ziggurat checks and compiles, so none may make it work for minutes,
fill the memory, or write Python that Python refuses. Each limit below is checked before the
work it protects is done, and a ruleset over it gets a diagnostic at the rules line and column
of what is too large (docs/reference/language.md, "Limits", lists them for designers). Each is
several times what the shipped rulesets use.
"""

from __future__ import annotations


MAX_SOURCE_BYTES = 64 * 1024
"""The size of one rules file, in bytes (UTF-8): the largest shipped ruleset is about 27 KB. A
larger file is refused before it is read."""

MAX_TOKENS = 20_000
"""The words, numbers, strings and symbols of one rules file (comments count nothing): the
largest shipped ruleset has about 5,200. The parser takes up to 0.1 ms a token, so a file at the
limit is parsed in about two seconds; counted with one regular expression before parsing."""

MAX_EXTENDS = 16
"""How many files a chain of `extends` may hold (the variant, its base, the base's base, ...)."""

MAX_STRING_CHARS = 2000
"""The length of one "string" in the rules (a title, a description, a message), in characters.
The longest shipped one has about 420."""

MAX_INT_DIGITS = 18
"""The digits of a number written in the rules: 18 digits keep every literal inside a signed
64-bit integer, for the generated code and any native backend."""

MAX_INT = 2**63 - 1
"""The largest number a rule may compute when its value is fixed (folded at the options); the
smallest is -MAX_INT - 1 (signed 64 bits)."""

MAX_NESTING = 40
"""How deeply the rules may nest, counted in the nodes of the syntax tree: a declaration, an
action item, a statement, an operator or a call inside another each count one level (`not not x`
in a `when` of an action is four; brackets alone count nothing). The shipped rulesets nest at
most 12 levels; the limit keeps every pass of the compiler (each walks the rules recursively) far
from Python's recursion limit. Checked right after parsing (the parser itself does not recurse),
before any other pass walks the rules; a def's expansion is held to it too."""

MAX_PIECE_KINDS = 4096
"""How many kinds of piece the `piece:` block makes: the product of the number of values of every
attribute (a piece is one code per combination, and tables are built per kind)."""

MAX_CHOICE_VALUES = 10_000
"""How many values a range that a choice, a loop or a comprehension goes through may hold
(`n: 1..100` is 100); a choice is one move per value, at every position."""

MAX_ACTIONS = 256
"""How many actions a ruleset may declare (the after block counted with each). Compiling costs
about 10 ms per action; the shipped rulesets have at most 42."""

MAX_DEF_NODES = 4000
"""How large one use of a def may grow when it is expanded in place, with the defs it calls
expanded too: counted in the rules' expression nodes (`a + b` is three). Defs are expanded at
every use, so a def that calls another twice doubles it: 18 such defs would be 2^17 copies."""

MAX_EXPANDED_NODES = 20_000
"""How large all the uses of defs outside defs in a ruleset may grow together, expanded in place
(counted as for MAX_DEF_NODES; the shipped rulesets expand at most 2,710). Without it, a def just
under MAX_DEF_NODES used 200 times would be checked and compiled 200 times over (20 such uses
took 17 s to compile)."""

MAX_DEF_DEPTH = 32
"""How many defs may be expanded inside one another (a def calling a def calling a def ...)."""

MAX_PYTHON_LEVELS = 80
"""How deeply the code written for one action (or one block of statements) may nest, estimated
from its rules: a choice counts 4 (up to two loops and two tests in the move generator), a
`when` or `require` 1, a repeat 2, an `if` 1 and a `for` 2. Python refuses more than 100 levels of
indentation."""

MAX_PYTHON_LOOPS = 18
"""How many loops the code written for one action (or one block of statements) may hold inside
one another: a choice counts 2 (a ray is two loops), a repeat 1 and a `for` 1. Python refuses
more than 20 nested blocks in one function."""


def plural(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'s' * (n != 1)}"


# ---- the nesting of statements and actions, estimated on the AST -------------------------------
#
# The weights of a construct in the generated module (see interpreter/python/generate.py):
# levels of indentation, and loops (Python's static blocks).

_CHOICE = (4, 2)
_GUARD = (1, 0)
_REPEAT = (2, 1)
_IF = (1, 0)
_FOR = (2, 1)


def statements_too_deep(stmts, levels: int = 1, loops: int = 0, procedures=None):
    """The first statement (in source order) at which nested ifs and fors, starting from `levels`
    and `loops`, go over MAX_PYTHON_LEVELS or MAX_PYTHON_LOOPS, with the levels and loops reached
    there; None if they stay within both. A call of one of `procedures` (name -> ast.Procedure)
    counts its body where the call is, as it is written out there (a procedure calling itself
    again is counted once: the checks report it)."""
    from . import ast  # here, not above: the loader reads the limits without the AST

    procedures = procedures or {}
    stack: list[tuple] = [(s, levels, loops, ()) for s in reversed(stmts)]
    expanded = 0  # statements of procedures walked: past MAX_EXPANDED_NODES the resolver reports the size
    while stack:
        s, lv, lp, chain = stack.pop()
        if (isinstance(s, ast.ExprStmt) and isinstance(s.expr, ast.Call) and s.expr.func in procedures
                and s.expr.func not in chain and expanded < MAX_EXPANDED_NODES):
            expanded += len(procedures[s.expr.func].body)
            stack += [(x, lv, lp, chain + (s.expr.func,)) for x in reversed(procedures[s.expr.func].body)]
            continue
        if isinstance(s, ast.If):
            lv, lp, inner = lv + _IF[0], lp + _IF[1], list(s.body) + list(s.orelse)
        elif isinstance(s, ast.For):
            lv, lp, inner = lv + _FOR[0], lp + _FOR[1], list(s.body)
        else:
            continue
        if lv > MAX_PYTHON_LEVELS or lp > MAX_PYTHON_LOOPS:
            return s, lv, lp
        stack += [(x, lv, lp, chain) for x in reversed(inner)]
    return None


def items_too_deep(items, levels: int = 1, loops: int = 0, procedures=None):
    """The first action item (in order) at which the code written for a list of action items,
    each nested in the one before, goes over MAX_PYTHON_LEVELS or MAX_PYTHON_LOOPS, with the
    levels and loops reached there; None if it stays within both. Returns (found, levels,
    loops) where found is None when nothing went over (levels and loops: where it ended)."""
    from . import ast

    for it in items:
        if isinstance(it, ast.Choice):
            levels, loops = levels + _CHOICE[0], loops + _CHOICE[1]
        elif isinstance(it, (ast.When, ast.Require)):
            levels, loops = levels + _GUARD[0], loops + _GUARD[1]
        elif isinstance(it, ast.Repeat):
            levels, loops = levels + _REPEAT[0], loops + _REPEAT[1]
            if levels > MAX_PYTHON_LEVELS or loops > MAX_PYTHON_LOOPS:
                return it, levels, loops
            found, levels, loops = items_too_deep(it.items, levels, loops, procedures)
            if found is not None:
                return found, levels, loops
            continue
        elif isinstance(it, ast.Effects):
            found = statements_too_deep(it.body, levels, loops, procedures)
            if found is not None:
                return found
            continue
        else:
            continue
        if levels > MAX_PYTHON_LEVELS or loops > MAX_PYTHON_LOOPS:
            return it, levels, loops
    return None, levels, loops


def too_deep_message(what: str, levels: int, loops: int) -> str:
    if loops > MAX_PYTHON_LOOPS:
        return (f"{what} nests too many loops for the compiled code: its choices (two each), repeats and "
                f"'for' loops count {loops} loops inside one another here (at most {MAX_PYTHON_LOOPS})")
    return (f"{what} nests too deeply for the compiled code: its choices (four each), conditions and "
            f"blocks count {levels} levels here (at most {MAX_PYTHON_LEVELS})")


# ---- the moves of one position ------------------------------------------------------------------

MAX_MOVES = 1_000_000
"""How many moves one position may have while the game runs: a position whose moves pass it stops
the game (perft, moves, play, simulate, on either backend) with an error at the rules line of the
choice that made too many. The loop of every choice whose number of values is known only while
the game runs (`1..height(from)`, the pieces of a zone, a list computed from the position) checks
it, and every choice of an action whose known choices alone may pass it. The shipped rulesets
have at most a few thousand moves a position; a million moves hold about 100 MB in the Python
backend."""

MAX_ESTIMATED_MOVES = 10_000_000
"""How many moves `check` lets an action make at one position, estimated before the game runs as
the product of the numbers of values of its choices (the after block's included; a choice over
cells counts the board's cells, a range its values, a list written out its items; a repeat's
choice counts once; a choice whose values are known only while the game runs counts one, and
MAX_MOVES holds it instead). The estimate counts every value, even those a `where` or `require`
refuses, so it is far above the real number: the shipped rulesets estimate at most about
1,050,000 (three choices over a 10x10 board's cells estimate 1,000,000, where a few thousand
moves are real). Two choices of `1..10000` estimate 100,000,000."""

