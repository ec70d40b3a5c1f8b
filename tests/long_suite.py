"""Which tests run only in the long suite (`ZIGGURAT_SLOW=1`), by test id, each with its reason.

The README's test command must stay within five minutes on two cores, so a test that repeats, on
more rulesets or more cases, what a default test already proves runs in the long suite only
(`.ci/run` runs both). Every feature keeps a default test that fails if it breaks: a pattern here
takes the repeats, and KEEP names the cases that stay in the default suite. Patterns are
fnmatch patterns on the test id (path::name[params]); tests that move by their own
`ZIGGURAT_SLOW` checks are not listed.
"""

from __future__ import annotations

import fnmatch
import os

SLOW = os.environ.get("ZIGGURAT_SLOW") == "1"

# (pattern, why it is a repeat): the default suite keeps the cases KEEP names.
LONG = [
    ("tests/language/test_examples.py::test_every_shipped_rulesets_examples_and_symmetries_hold[[]ryb[]]",
     "RYB's 69 examples (23 CPU s); the default suite checks every other seed ruleset's"),
    ("tests/language/test_scope_fuzz.py::test_renamed_binders_give_the_same_game[[]*[]]",
     "the renaming on every shipped ruleset; the default suite renames those KEEP names"),
    ("tests/games/test_ryb_reference.py::test_random_games_agree_move_by_move_for_every_variable_rule[[]*[]]",
     "RYB against its reference for each Variable rule; the default suite keeps two of the six"),
    ("tests/games/test_invariants_at_every_option.py::test_the_invariants_hold_at_the_start[[]ryb-*[]]",
     "RYB's invariants at each option value (each a compile); the default suite checks RGB's"),
    ("tests/engine/test_perft.py::test_perft_matches_independent_count[[]rgb.perft:*:d3[]]",
     "RGB's depth-3 counts (4 CPU s each); depths 1 and 2 stay"),
    ("tests/engine/test_perft.py::test_perft_matches_independent_count[[]lasca.perft:lasca-start:d12[]]",
     "the deepest Lasca count; depth 11 and below stay"),
    ("tests/engine/test_perft.py::test_perft_matches_independent_count[[]tic-tac-toe.perft:ttt-start:d[89][]]",
     "tic-tac-toe's last two depths; depth 7 and below stay"),
    ("tests/engine/test_perft.py::test_perft_matches_independent_count[[]konane.perft:konane-4x4:d1[3-6][]]",
     "Konane 4x4 past depth 12; depth 12 and below stay"),
    ("tests/engine/test_perft.py::test_perft_matches_independent_count[[]checkers.perft:checkers-start:d7[]]",
     "the deepest Checkers count; depth 6 and below stay"),
    ("tests/bridges/test_openspiel.py::TestPerftFromTheStart::test_perft_split_by_first_turn_matches[[]amazons-board_size6-d2[]]",
     "Amazons 6x6 at depth 2 against OpenSpiel; 10x10 at depth 1 stays"),
    ("tests/bridges/test_openspiel.py::TestPerftFromTheStart::test_perft_split_by_first_turn_matches[[]clobber-width4-height4-d5[]]",
     "a second Clobber board at depth 5; 5x3 at depth 5 and 6x5 at depth 3 stay"),
    ("tests/lab/test_agents.py::TestLegal::test_agents_pick_legal_moves[[]chaos-mcts:iterations=20[]]",
     "MCTS on Chaos (5 CPU s); Chaos with every other agent and MCTS on every other game stay"),
    ("tests/lab/test_agents.py::TestLegal::test_agents_pick_legal_moves[[]ryb-mcts:iterations=20[]]",
     "MCTS on RYB (4.5 CPU s); RYB with every other agent and MCTS on every other game stay"),
    ("tests/language/test_fuzz.py::TestMutationFuzz::test_mutated_checkers_loads_and_plays_or_refuses",
     "mutated rulesets are loaded and played on Stacktics by default; Checkers repeats it"),
]

KEEP = [
    "tests/language/test_scope_fuzz.py::test_renamed_binders_give_the_same_game[[]stacktics[]]",
    "tests/language/test_scope_fuzz.py::test_renamed_binders_give_the_same_game[[]chaos[]]",
    "tests/language/test_scope_fuzz.py::test_renamed_binders_give_the_same_game[[]checkers[]]",
    "tests/language/test_scope_fuzz.py::test_renamed_binders_give_the_same_game[[]kuhn-poker[]]",
    "tests/language/test_scope_fuzz.py::test_renamed_binders_give_the_same_game[[]green[]]",
    "tests/games/test_ryb_reference.py::test_random_games_agree_move_by_move_for_every_variable_rule[[]void[]]",
    "tests/games/test_ryb_reference.py::test_random_games_agree_move_by_move_for_every_variable_rule[[]recycle[]]",
]


def long_only(nodeid: str) -> str | None:
    """The reason the test runs in the long suite only, or None when it runs by default."""
    if any(fnmatch.fnmatchcase(nodeid, k) for k in KEEP):
        return None
    for pattern, why in LONG:
        if fnmatch.fnmatchcase(nodeid, pattern):
            return why
    return None
