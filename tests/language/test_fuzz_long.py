"""The long fuzz of `check` and `load` (long suite only): at least 100,000 rulesets.

Half are programs generated from the grammar (laid out, alone or after a small valid game), half
are shipped rulesets with random edits (every shipped ruleset, chosen at random). Whatever the
input, `check` returns diagnostics that render, and `load` returns a Game or raises ZigguratError,
and the two agree: what the CLI would show as exit 3 (an internal error) fails the test.

    ZIGGURAT_SLOW=1 python -m pytest tests/language/test_fuzz_long.py --hypothesis-show-statistics

prints the number of examples each test ran. ZIGGURAT_FUZZ_EXAMPLES sets the total (default
100000). Rulesets longer than LOAD_BELOW characters are checked but not compiled (compiling the
largest takes a second, and a hundred thousand of them would take a day).
"""

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from test_fuzz import SKELETON, _grammar_programs, assert_checks_cleanly, assert_loads_or_refuses, mutated
from ziggurat.dsl.loader import find, shipped_names

pytestmark = pytest.mark.skipif(not os.environ.get("ZIGGURAT_SLOW"), reason="long suite: set ZIGGURAT_SLOW=1")

TOTAL = int(os.environ.get("ZIGGURAT_FUZZ_EXAMPLES", "100000"))
LOAD_BELOW = 8000
SHIPPED = {name: find(name).read_text(encoding="utf-8") for name in shipped_names()}
LONG = settings(max_examples=TOTAL // 2, database=None, deadline=None,
                suppress_health_check=list(HealthCheck))


def _check_then_load(text: str) -> None:
    errors = assert_checks_cleanly(text)
    if len(text) < LOAD_BELOW:
        assert_loads_or_refuses(text, errors)


@LONG
@given(_grammar_programs(tidy=True), st.booleans())
def test_generated_programs_never_crash(text, after_a_game):
    """Grammar programs, alone or appended to a small valid game: no internal error."""
    _check_then_load(SKELETON + text if after_a_game else text)


@LONG
@given(st.sampled_from(sorted(SHIPPED)).flatmap(lambda name: mutated(SHIPPED[name])))
def test_mutated_shipped_rulesets_never_crash(text):
    """Every shipped ruleset with one to four random edits: no internal error."""
    _check_then_load(text)
