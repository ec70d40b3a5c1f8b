"""The Pygments lexer for `.rules` (ziggurat.editor.lexer): it reads every shipped ruleset and
every ```rules block of the docs without an Error token, gives the language's words their kinds,
knows every word of the grammar, and is found by Pygments (and so by the docs) as a plug-in."""

import re
from pathlib import Path

import pytest
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Comment, Error, Keyword, Name, Number, Operator, String

from ziggurat.dsl import words as dsl_words
from ziggurat.dsl.model import BUILTIN_DIRECTIONS, BUILTIN_DIRSETS
from ziggurat.dsl.resolve import calls
from ziggurat.dsl.resolve.operators import COMP_FUNCS
from ziggurat.editor import words
from ziggurat.editor.lexer import RulesLexer

ROOT = Path(__file__).resolve().parent.parent.parent
RULESETS = sorted((ROOT / "src" / "ziggurat" / "rulesets").glob("*.rules"))
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)


def doc_blocks():
    """(page:line, text) for every ```rules block of the docs and the README."""
    out = []
    for page in sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]:
        text = page.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            if m.group(1) == "rules":
                out.append((f"{page.relative_to(ROOT).as_posix()}:{text[:m.start()].count(chr(10)) + 1}", m.group(2)))
    return out


def tokens(text):
    return [(kind, value) for kind, value in RulesLexer().get_tokens(text) if value.strip()]


def errors(text):
    return [(kind, value) for kind, value in RulesLexer().get_tokens(text) if kind in Error]


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.name)
def test_every_shipped_ruleset_lexes_without_an_error_token(path):
    text = path.read_text(encoding="utf-8")
    assert errors(text) == []
    assert "".join(v for _, v in RulesLexer().get_tokens(text)) == text  # nothing dropped or added


@pytest.mark.parametrize("where,text", doc_blocks(), ids=lambda x: x if ":" in x else None)
def test_every_rules_block_of_the_docs_lexes_without_an_error_token(where, text):
    assert errors(text) == [], where


def test_the_docs_tag_their_rules_blocks():
    """The docs hold enough ```rules blocks for the test above to mean something."""
    assert len(doc_blocks()) >= 40


def test_a_block_of_rules_without_a_language_is_tagged():
    """A code block with no language that parses as a ruleset is rules left unhighlighted: tag it."""
    from ziggurat.dsl.parser import parse
    from ziggurat.errors import ZigguratError

    untagged = []
    for page in sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]:
        text = page.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            code = [line for line in m.group(2).splitlines() if line.strip() and not line.lstrip().startswith("#")]
            if m.group(1) or not code:
                continue
            try:
                parse(m.group(2), "block")
            except ZigguratError:
                continue
            untagged.append(f"{page.relative_to(ROOT).as_posix()}:{text[:m.start()].count(chr(10)) + 1}")
    assert untagged == []


def test_an_action_header_names_its_action_and_its_notation_fields():
    toks = tokens('action move "{from}-{to}":\n')
    assert toks[0] == (Keyword.Declaration, "action")
    assert toks[1] == (Name.Function, "move")
    assert (String.Interpol, "{from}") in toks and (String.Interpol, "{to}") in toks


def test_choices_keywords_builtins_and_comments_have_their_kinds():
    text = ('action step:\n'
            '    from: cells where mine(from)   # a piece of yours\n'
            '    require height(from) >= 2 and not empty(from) else "too low"\n'
            '    do:\n'
            '        move(from, 1, step(from, n))\n')
    toks = tokens(text)
    assert (Name.Variable, "from") in toks  # the choice
    assert (Keyword, "where") in toks and (Keyword, "require") in toks and (Keyword, "else") in toks
    assert (Operator.Word, "and") in toks and (Operator.Word, "not") in toks
    assert (Name.Builtin, "height") in toks and (Name.Builtin, "move") in toks  # a function, an effect
    assert (Name.Builtin.Pseudo, "cells") in toks and (Name.Builtin.Pseudo, "n") in toks
    assert (Operator, ">=") in toks and (Number.Integer, "2") in toks
    assert (Comment.Single, "# a piece of yours") in toks
    assert (String.Double, "too low") in toks


def test_a_variant_names_its_base_and_what_it_removes():
    toks = tokens("extends green\nremove action pass\noverride def beats(a, b): true\n")
    assert toks[:2] == [(Keyword.Declaration, "extends"), (Name.Namespace, "green")]
    assert toks[2:5] == [(Keyword.Declaration, "remove"), (Keyword.Declaration, "action"), (Name, "pass")]
    assert toks[5:8] == [(Keyword, "override"), (Keyword.Declaration, "def"), (Name.Function, "beats")]


def test_a_name_that_is_not_a_call_is_not_a_builtin_function():
    """`top` is a function when called (`top(c)`), a plain name when it is an attribute's path."""
    toks = tokens("control: top.owner\nlet x = top(c)\n")
    assert (Name, "top") in toks and (Name.Builtin, "top") in toks


def test_what_the_grammar_has_no_token_for_is_an_error():
    assert errors('game "open\n')  # a string left open at the end of its line
    assert errors("let x = {1}\n")  # braces belong in strings only
    assert errors("let x = 3 $ 4\n")


def test_the_lexer_knows_every_word_of_the_grammar():
    grammar = (ROOT / "src" / "ziggurat" / "grammar" / "ziggurat.lark").read_text(encoding="utf-8")
    literal = set(re.findall(r'"([a-z_]+)"', grammar))
    known = set(words.DECLARATIONS) | set(words.KEYWORDS) | set(words.TYPES) | {"player"}
    assert literal - known == set()


def test_the_lexer_knows_the_languages_keywords_and_builtins():
    assert dsl_words.KEYWORDS <= set(words.KEYWORDS)
    assert set(calls.CELL_FUNCS) | set(calls.OTHER_FUNCS) | set(COMP_FUNCS) <= set(words.FUNCTIONS)
    assert calls.EFFECTS == set(words.EFFECTS)
    assert set(BUILTIN_DIRECTIONS) | set(BUILTIN_DIRSETS) <= set(words.NAMES)


def test_pygments_finds_the_lexer_as_a_plug_in():
    assert isinstance(get_lexer_by_name("rules"), RulesLexer)
    assert isinstance(get_lexer_for_filename("towers.rules"), RulesLexer)


def test_markdown_highlights_a_rules_block_with_it():
    """The docs' Markdown (fenced code and codehilite, as in mkdocs.yml) colours a ```rules block."""
    import markdown

    html = markdown.markdown("```rules\naction swap:\n    do:\n        swap_seats(south, north)\n```\n",
                             extensions=["fenced_code", "codehilite"],
                             extension_configs={"codehilite": {"guess_lang": False}})
    assert '<span class="kd">action</span>' in html and '<span class="nb">swap_seats</span>' in html
