"""A Pygments lexer for `.rules` files, registered as the Pygments plug-in `rules` (the
`pygments.lexers` entry point in pyproject.toml): the docs' ```rules blocks are highlighted with it
offline, and `pygmentize -l rules FILE` colours a ruleset in a terminal.

It reads every token of the grammar (grammar/ziggurat.lark): declarations, an action's items,
statements, expressions, strings with the `{choice}` fields of a notation, numbers, operators and
comments. Whatever the grammar has no token for (a brace outside a string, a string left open at
the end of its line, `$`) is an Error token, so a shipped ruleset lexes without one.
"""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, default, include, words
from pygments.token import (Comment, Error, Keyword, Name, Number, Operator, Punctuation, String,
                            Whitespace)

from . import words as W

NAME = r"[A-Za-z_][A-Za-z_0-9]*"
_WS = r"[ \t\f\r]"


class RulesLexer(RegexLexer):
    """Ziggurat's rules language (`.rules`)."""

    name = "Ziggurat rules"
    aliases = ["rules", "ziggurat"]
    filenames = ["*.rules"]
    mimetypes = ["text/x-ziggurat-rules"]
    url = "https://github.com/ziggurat-games/ziggurat"
    version_added = ""

    tokens = {
        "root": [
            # A declaration's header: its word at the start of a line, then what it names.
            (rf"^(override)({_WS}+)(action|def|table|after)\b", bygroups(Keyword, Whitespace, Keyword.Declaration),
             "header"),
            (rf"^(action|def)({_WS}+)({NAME})", bygroups(Keyword.Declaration, Whitespace, Name.Function)),
            (rf"^(option|zone|counter|table|directions)({_WS}+)({NAME})",
             bygroups(Keyword.Declaration, Whitespace, Name.Variable)),
            (rf"^(extends)({_WS}+)({NAME})", bygroups(Keyword.Declaration, Whitespace, Name.Namespace)),
            (rf"^(remove)({_WS}+)({NAME})({_WS}+)({NAME})",  # remove action swap: the kind, then the name
             bygroups(Keyword.Declaration, Whitespace, Keyword.Declaration, Whitespace, Name)),
            (words(W.DECLARATIONS, prefix="^", suffix=r"\b"), Keyword.Declaration),
            # An indented `name:` is a choice of an action, a board setting, a piece attribute or a
            # table entry's key (not `do:` or `else:`).
            (rf"^({_WS}+)(?!(?:do|else)\b)({NAME})({_WS}*)(:)(?!=)",
             bygroups(Whitespace, Name.Variable, Whitespace, Punctuation)),
            # The items of an action that are words only at the start of their line.
            (rf"^({_WS}+)(priority|weight|answer)\b", bygroups(Whitespace, Keyword)),
            include("tokens"),
        ],
        "header": [  # after `override`: the declaration's word, then its name
            (rf"({_WS}+)({NAME})", bygroups(Whitespace, Name.Function), "#pop"),
            default("#pop"),
        ],
        "tokens": [
            (r"\n", Whitespace),
            (rf"{_WS}+", Whitespace),
            (r"#.*?$", Comment.Single),
            (r'"', String.Double, "string"),
            (r"[0-9]+/[0-9]+", Number),  # an example's odds: `odds: "red+red" 1/100`
            (r"[0-9]+", Number.Integer),
            (rf"(rank)({_WS}+)(by)\b", bygroups(Keyword, Whitespace, Keyword)),
            (rf"(by)({_WS}+)(chance)\b", bygroups(Keyword, Whitespace, Keyword)),
            (rf"(per)({_WS}+)(player)\b", bygroups(Keyword, Whitespace, Keyword)),
            (rf"(one)({_WS}+)(of)\b", bygroups(Keyword, Whitespace, Keyword)),
            (rf"(,)({_WS}*)(may)({_WS}+)(stop)\b", bygroups(Punctuation, Whitespace, Keyword, Whitespace, Keyword)),
            (words(W.CONSTANTS, suffix=r"\b"), Keyword.Constant),
            (words(W.OPERATOR_WORDS, suffix=r"\b"), Operator.Word),
            (words(W.TYPES, suffix=r"\b"), Keyword.Type),
            (words(W.KEYWORDS, suffix=r"\b"), Keyword),
            (words(W.FUNCTIONS + W.EFFECTS, suffix=rf"(?={_WS}*\()"), Name.Builtin),
            (words(W.NAMES, suffix=r"\b"), Name.Builtin.Pseudo),
            (NAME, Name),
            (r"==|!=|<=|>=|\+=|-=|//|\.\.|[<>+\-*%=]", Operator),
            (r"[()\[\],:.]", Punctuation),
        ],
        "string": [
            (r"\\.", String.Escape),
            (rf"\{{{NAME}\}}", String.Interpol),  # a choice's place in a notation: "{from}-{to}"
            (r'[^"\\{\n]+', String.Double),
            (r"\{", String.Double),
            (r'"', String.Double, "#pop"),
            (r"\n", Error, "#pop"),  # a string ends on its own line
        ],
    }
