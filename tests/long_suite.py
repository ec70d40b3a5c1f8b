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
from pathlib import Path

SLOW = os.environ.get("ZIGGURAT_SLOW") == "1"

CHAOS_PAIRS = ("random games against the reference at eight more pairs of colours and players (3 CPU s); "
               "every number of colours and of players stays (KEEP), and perft from the start checks all twelve")

# (pattern, why it is a repeat): the default suite keeps the cases KEEP names.
LONG = [
    ("tests/language/test_examples.py::test_every_shipped_rulesets_examples_and_symmetries_hold[[]ryb[]]",
     "RYB's 69 examples (23 CPU s); the default suite checks every other seed ruleset's"),
    ("tests/language/test_scope_fuzz.py::test_renamed_binders_give_the_same_game[[]*[]]",
     "the renaming on every shipped ruleset; the default suite renames those KEEP names"),
    ("tests/games/test_ryb_reference.py::test_random_games_agree_move_by_move_for_every_variable_rule[[]*[]]",
     "RYB against its reference for each Variable rule; the default suite keeps one of the six (void)"),
    ("tests/games/test_invariants_at_every_option.py::test_the_invariants_hold_at_the_start[[]ryb[]]",
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
     "a second Clobber board at depth 5; 6x5 at depth 3 stays (5x3 at depth 5 is long too, below)"),
    ("tests/lab/test_agents.py::TestLegal::test_agents_pick_legal_moves[[]chaos-mcts:iterations=20[]]",
     "MCTS on Chaos (5 CPU s); Chaos with every other agent and MCTS on every other game stay"),
    ("tests/native/test_native_table.py::test_compiled_perft_and_playouts_are_pythons[[]*",
     "the open table's module compiled (11-14 CPU s an option set); the same module run as plain Python stays "
     "(moves, positions, ends and perft against Python's)"),
    ("tests/native/test_native_table.py::test_native_alphabeta_on_the_table_agrees_with_python",
     "native alpha-beta on the open table (a compile); the plain test of the hash it keys positions by stays"),
    ("tests/native/test_native_table.py::test_native_mcts_searches_the_table_in_its_own_tree",
     "native MCTS on the open table (a compile, 5 CPU s); the plain-Python tests of its module stay"),
    ("tests/lab/test_agents.py::TestLegal::test_agents_pick_legal_moves[[]ryb-mcts:iterations=20[]]",
     "MCTS on RYB (4.5 CPU s); RYB with every other agent and MCTS on every other game stay"),
    ("tests/language/test_fuzz.py::TestMutationFuzz::test_mutated_checkers_loads_and_plays_or_refuses",
     "mutated rulesets are loaded and played on Stacktics by default; Checkers repeats it"),
    # Session 33 (the default suite measured at 516 s wall on an idle 2-core machine): the
    # guide's extra suites (long Hypothesis runs, browser tests, clusters), one native compile per
    # construct where the construct's Python tests and the native backend's own tests stay, and
    # repeats of one check on more games.
    ("tests/language/test_fuzz.py::TestMutationFuzz::test_check_and_load_never_raise_on_mutated_stacktics",
     "a long Hypothesis run (150 mutated rulesets, 22 CPU s); the grammar fuzz tests stay"),
    ("tests/language/test_fuzz.py::TestMutationFuzz::test_check_and_load_never_raise_on_wrong_names_in_a_surface",
     "a long Hypothesis run (each example loads Chaos, 15 CPU s); test_surface's error tests stay"),
    ("tests/faces/test_serve_browser.py::*",
     "browser tests (Chromium, 17-25 CPU s); tests/faces/test_serve.py asks the same app by HTTP"),
    ("tests/lab/test_simulate.py::TestDask::*", "a local Dask cluster; the same study on local workers stays"),
    ("tests/lab/test_census.py::TestCluster::*", "a local Dask cluster; the census on local workers stays"),
    ("tests/native/test_native_compile.py::test_a_loop_not_asked_for_is_compiled_at_its_first_call_and_loaded_by_the_next_process",
     "two cold compiles in two processes (12-20 CPU s); test_cache checks that a second process loads the cache"),
    ("tests/native/test_native_compile.py::test_a_fresh_process_loads_every_loop_of_a_game_from_the_cache_compiling_nothing",
     "a cold compile (6-8 CPU s); the default suite keeps the small module loaded loop first (test_native_compile)"),
    ("tests/native/test_parts.py::test_whole_turn_loops_never_compile_the_parts_code",
     "a cold compile of its own (16 CPU s); the parts policy's other tests stay"),
    ("tests/native/test_parts.py::test_moves_drawn_part_by_part_are_legal_and_games_end_as_python_says[[]amazons*",
     "part by part on Amazons (12 CPU s); the test game stages.rules stays"),
    ("tests/native/test_parts.py::test_moves_drawn_part_by_part_are_legal_and_games_end_as_python_says[[]*after.rules*",
     "part by part on a third test game; stages.rules stays"),
    ("tests/native/test_parts.py::test_stages_undone_in_place_list_the_moves_python_lists",
     "undone stages on Amazons (9 CPU s); test_invertible_stages_are_taken_back_without_a_copy stays"),
    ("tests/native/test_parts.py::test_mcts_rollouts_can_draw_turns_part_by_part",
     "MCTS with part-by-part rollouts (8 CPU s); simulate's part-by-part test stays"),
    ("tests/language/test_points.py::test_agents_maximise_expected_points_not_the_chance_of_winning[[]mcts:iterations=400:rollouts=native[]]",
     "native MCTS at 400 iterations (13 CPU s); its other agents and the native lesser-loss case stay"),
    ("tests/lab/test_study_faults.py::TestInterrupt::test_a_killed_worker_is_replaced_and_its_games_played_again",
     "a worker killed mid-study (15 CPU s, waits on the clock); Ctrl-C and resume stay"),
    ("tests/lab/test_study_faults.py::TestInterrupt::test_sigterm_is_handled_as_ctrl_c",
     "SIGTERM as Ctrl-C; the Ctrl-C test stays"),
    ("tests/lab/test_study_faults.py::TestInterrupt::test_workers_die_with_a_killed_parent",
     "waits 30 s of wall clock for workers (fails under heavy load); the Ctrl-C test stays"),
    ("tests/games/test_konane_rules.py::test_reference_matches_the_perft_file",
     "the reference recounting the perft file (12 CPU s); test_perft checks the engine against the file"),
    ("tests/games/test_lasca_rules.py::test_reference_matches_the_perft_file",
     "the reference recounting the perft file; test_perft checks the engine against the file"),
    ("tests/language/test_compiler.py::TestOutput::test_the_same_ruleset_gives_the_same_text_in_any_process[[]*[]]",
     "the same text in a second process for RGB and Lines of Action; Checkers stays (KEEP)"),
    ("tests/games/test_chaos.py::TestProperties::test_the_engines_properties_hold_on_chaos",
     "the engine's properties on Chaos (8 CPU s); they run on Stacktics by default and `ziggurat test` on Chaos"),
    ("tests/games/test_ryb_reference.py::test_random_games_agree_move_by_move_with_2_4_and_5_players[[]5[]]",
     "RYB with 5 players against the reference; 2 players stays"),
    ("tests/language/test_examples.py::test_every_shipped_rulesets_examples_and_symmetries_hold[[]rgb[]]",
     "RGB's 43 examples (7 CPU s); the default suite checks the other seed rulesets' but RYB's"),
    ("tests/language/test_sets.py::test_each_way_of_reading_a_set_compiles_natively_to_the_same_game",
     "a second native compile for sets; native perft and playouts of the sets test game stay"),
    ("tests/language/test_stages.py::TestAfter::test_an_after_part_without_choices_is_the_same_on_the_native_backend",
     "a native compile of its own; the after block's Python tests and test_native's after cases stay"),
    ("tests/engine/test_direction_none.py::test_nothing_lies_along_none_natively",
     "a native compile of its own; the same game's Python count stays"),
    ("tests/engine/test_after_decline.py::test_the_native_module_agrees_with_python",
     "a native compile of its own; declining's Python tests stay"),
    ("tests/engine/test_procedures_in_play.py::test_the_native_module_agrees_with_python",
     "a native compile of its own (11 CPU s); the procedures' Python tests stay"),
    # Session 35 (whole turns natively): Backgammon's native module compiles in some 95 CPU s cold.
    ("tests/native/test_whole_turns_native_backgammon.py::*",
     "Backgammon's native compile (95 CPU s); test_whole_turns_native.py checks the same loops on a small game"),
    ("tests/native/test_whole_turns_native.py::test_keeping_the_most_parts_and_no_merge_natively",
     "a second native compile (15 CPU s) for the clauses the default game leaves out; its Python listing stays"),
    ("tests/native/test_native_search.py::test_native_mcts_plays_legal_moves[[]green-*",
     "native MCTS on a third game; Breakthrough stays"),
    ("tests/native/test_native_search.py::test_native_mcts_plays_legal_moves[[]pig-*",
     "native MCTS on a chance game; the hidden-information search test stays"),
    ("tests/native/test_native_search.py::test_native_alphabeta_plays_legal_moves[[]pig-*",
     "native alpha-beta on a chance game; Breakthrough stays"),
    ("tests/native/test_native.py::test_native_compiles_each_construct_as_python_runs_it[[]after-1[]]",
     "a second after-block game natively; after-0 stays"),
    ("tests/native/test_parts.py::test_the_first_part_is_drawn_uniformly_over_first_parts",
     "a distribution of 12 CPU s; drawing part by part stays, legal and ending as Python says"),
    ("tests/engine/test_proptest.py::TestFalseInvariant::test_fixed_options_are_kept_in_the_failure",
     "a second false-invariant search (6 CPU s); the one that finds the capture stays"),
    ("tests/engine/test_design_lints.py::test_the_first_move_lint_uses_the_native_search_when_numba_is_there",
     "the first-move lint with the native search (6 CPU s); the lint's own tests stay"),
    ("tests/native/test_native_search.py::test_native_alphabeta_agrees_with_python[[]pig-*",
     "native alpha-beta against Python on a chance game; Stacktics stays"),
    ("tests/games/test_martian_chess.py::test_native_perft_and_seeded_playouts_agree_with_the_reference",
     "a cold native compile (29 CPU s); the Python backend against the reference and test_control_by_place's native game stay"),
    # Homeworlds
    ("tests/games/test_homeworlds.py::test_random_games_agree_with_the_reference_part_by_part[[]10[237]-400[]]",
     "three long games against the reference (14-33 CPU s each); the first 30 parts of seed 108 "
     "and a test per rule stay"),
    ("tests/lab/test_agents.py::TestLegal::test_agents_pick_legal_moves[[]homeworlds-alphabeta:depth=2[]]",
     "alpha-beta at depth 2 over Homeworlds' 192 x 190 opening homeworlds (36 CPU s); greedy and MCTS "
     "on it, alpha-beta on the others stay"),
    # Backgammon: whole games and deeper counts repeat the default tests' rolls, positions and perft
    ("tests/games/test_backgammon.py::test_every_roll_reaches_the_same_positions_as_the_reference[[]1[23]-150[]]",
     "about 25 more positions, every roll (a minute); seed 11's three positions stay"),
    ("tests/games/test_backgammon.py::test_whole_games_driven_by_the_same_rolls_agree_with_open_spiel_*",
     "three whole games against OpenSpiel (a few CPU s each); the 24-turn game stays"),
    ("tests/games/test_backgammon.py::test_perft_at_depth_4_of_a_position_with_a_hit_equals_the_reference",
     "depth 4 over chance nodes (minutes); depths 1 to 3 of the perft file stay"),
    ("tests/lab/test_agents.py::TestLegal::test_agents_pick_legal_moves[[]backgammon-mcts*",
     "MCTS's Python playouts through whole games of Backgammon (30 CPU s; its native backend refuses the ruleset)"),
    ("tests/lab/test_agents.py::TestLegal::test_agents_pick_legal_moves[[]backgammon-alphabeta*",
     "alpha-beta to depth 2 through 21 rolls of whole turns (12 CPU s); greedy and random stay on Backgammon"),
    ("tests/lab/test_study_outcomes.py::test_a_python_study_scores_games_as_state_outcome_does[[]backgammon[]]",
     "four random games of Backgammon played and replayed (12 CPU s); Kuhn poker's and Martian Chess's points stay"),
    # Session 34 (the default suite measured at 355 s wall on an idle 2-core machine, ~734 CPU s):
    # deeper counts where the same positions are counted less deep by default, and a repeat of the
    # property runner on a third game of one family.
    ("tests/games/test_ryb_reference.py::test_perft_over_nature_agrees_on_positions_reached_by_play[[]3[]]",
     "RYB's perft at depth 3 against its reference; the same positions at depth 2 stay"),
    ("tests/games/test_green_rules.py::TestInvariants::test_property_runner_passes[[]greenest-*[]]",
     "the property runner on Greenest, the third game of its family; Green and Greener stay"),
    # Session 35 (the default suite at 349-406 s wall on an idle 2-core machine, ~690-734 CPU s):
    # a check repeated on more rulesets, on a second game, deeper, or at more option pairs than
    # the cases that stay.
    ("tests/faces/test_render.py::TestPng::test_png_signature_and_size[[]*[]]",
     "a PNG written for every shipped ruleset (14 CPU s): the figure of every ruleset is drawn by "
     "TestSvg by default, and the PNG of the board kinds KEEP names (a square board of stacks, "
     "layers, an open table, a track, a boardless card game, a bank) stays"),
    ("tests/native/test_native.py::test_mcts_with_native_rollouts_takes_a_win_in_one",
     "native MCTS taking a win in one on a second game, a native search compiled for it alone "
     "(5 CPU s); test_native_search's takes-a-win-in-one on Breakthrough stays"),
    ("tests/bridges/test_openspiel.py::TestPerftFromTheStart::test_perft_split_by_first_turn_matches[[]clobber-width5-height3-d5[]]",
     "Clobber from the start at depth 5 against OpenSpiel (3 CPU s; 4x4 at depth 5 moved before it): "
     "6x5 at depth 3 and positions after random play at depth 4 stay"),
    ("tests/bridges/test_openspiel.py::TestPerftFromTheStart::test_perft_split_by_first_turn_matches[[]tic-tac-toe-width4-height3-k3-d5[]]",
     "a second board of tic-tac-toe from the start at depth 5 against OpenSpiel (2 CPU s); 3x3 at depth 6 "
     "and 5x5 (four in a row) at depth 3 stay"),
    ("tests/bridges/test_openspiel.py::TestPerftFromTheStart::test_perft_split_by_first_turn_matches[[]checkers-d6[]]",
     "Checkers' start at depth 6 against OpenSpiel (2 CPU s): test_perft counts it to depth 6 against an "
     "independent count, and the other boards from the start and positions after play stay here"),
    ("tests/games/test_chaos_crosscheck.py::test_random_games_agree_move_by_move[[]colours=ten,players=[2-5][]]", CHAOS_PAIRS),
    ("tests/games/test_chaos_crosscheck.py::test_random_games_agree_move_by_move[[]colours=six,players=[2-5][]]", CHAOS_PAIRS),
    ("tests/games/test_chaos_crosscheck.py::test_random_games_agree_move_by_move[[]colours=four,players=[2-5][]]", CHAOS_PAIRS),
    # Session 36 (choices narrowed by a test of membership, native/narrow.py)
    ("tests/native/test_native_narrow.py::test_the_narrowed_game_lists_its_moves_in_pythons_order",
     "a native compile of its own (8 CPU s); the narrowed module's text tests stay"),
    # Session 37 (the default suite at 308 s wall on a fresh clone, idle, ~510 CPU s): a check
    # repeated on a game whose every option value is a compile of its own, and a second game of
    # the same check natively.
    ("tests/games/test_invariants_at_every_option.py::test_the_invariants_hold_at_the_start[[]rgb[]]",
     "RGB's invariants at each option value (11 CPU s, each a compile); the other representative rulesets' "
     "(Stacktics, Green, Chaos, Backgammon, Homeworlds, Kuhn poker) stay"),
    ("tests/language/test_points.py::test_the_native_backend_gives_the_python_backends_points_and_results[[]kuhn-poker[]]",
     "Kuhn poker's points natively (a compile of its own, 4 CPU s); the test game of points stays"),
]

KEEP = [
    "tests/native/test_native.py::test_native_perft_equals_python_perft[[]stacktics[]]",
    "tests/language/test_compiler.py::TestOutput::test_the_same_ruleset_gives_the_same_text_in_any_process[[]checkers[]]",
    "tests/language/test_scope_fuzz.py::test_renamed_binders_give_the_same_game[[]stacktics[]]",
    "tests/language/test_scope_fuzz.py::test_renamed_binders_give_the_same_game[[]chaos[]]",
    "tests/language/test_scope_fuzz.py::test_renamed_binders_give_the_same_game[[]checkers[]]",
    "tests/language/test_scope_fuzz.py::test_renamed_binders_give_the_same_game[[]kuhn-poker[]]",
    "tests/language/test_scope_fuzz.py::test_renamed_binders_give_the_same_game[[]green[]]",
    "tests/games/test_ryb_reference.py::test_random_games_agree_move_by_move_for_every_variable_rule[[]void[]]",
    "tests/faces/test_render.py::TestPng::test_png_signature_and_size[[]stacktics[]]",
    "tests/faces/test_render.py::TestPng::test_png_signature_and_size[[]rgb[]]",
    "tests/faces/test_render.py::TestPng::test_png_signature_and_size[[]chaos[]]",
    "tests/faces/test_render.py::TestPng::test_png_signature_and_size[[]backgammon[]]",
    "tests/faces/test_render.py::TestPng::test_png_signature_and_size[[]kuhn-poker[]]",
    "tests/faces/test_render.py::TestPng::test_png_signature_and_size[[]homeworlds[]]",
    "tests/games/test_chaos_crosscheck.py::test_random_games_agree_move_by_move[[]colours=ten,players=2[]]",
    "tests/games/test_chaos_crosscheck.py::test_random_games_agree_move_by_move[[]colours=six,players=3[]]",
    "tests/games/test_chaos_crosscheck.py::test_random_games_agree_move_by_move[[]colours=four,players=4[]]",
    "tests/games/test_chaos_crosscheck.py::test_random_games_agree_move_by_move[[]colours=ten,players=5[]]",
]


# Session 35: an engine check run on every shipped ruleset (rendering, bridges, records, specs,
# agents' legality, positions' round trip) repeats on most of them what the engine's code does the
# same way for all: the default suite runs it on REPRESENTATIVE (the seed games, and one game of
# each kind of space: an open table, whole turns with dice, a bank of slots, hidden cards and
# points), the long suite on the others (CI runs both).
REPRESENTATIVE = ("stacktics", "green", "rgb", "ryb", "chaos", "backgammon", "homeworlds", "kuhn-poker")
PER_RULESET = frozenset({
    "tests/faces/test_render_truth.py::TestColours::test_no_piece_drawn_in_a_colour_its_names_contradict",
    "tests/faces/test_render.py::TestSvg::test_one_shape_per_piece_on_the_board",
    "tests/lab/test_agents.py::TestLegal::test_agents_pick_legal_moves",
    "tests/games/test_golden_records.py::TestGoldenRecords::test_replays_exactly",
    "tests/bridges/test_bridge_actions.py::test_every_legal_move_round_trips_through_its_ids",
    "tests/bridges/test_bridge_pettingzoo.py::test_pettingzoo_api_test_passes",
    "tests/games/test_invariants_at_every_option.py::test_the_invariants_hold_at_the_start",
    "tests/language/test_else_messages.py::test_illegal_moves_are_explained_in_the_rules_words",
    "tests/engine/test_spec.py::TestJson::test_every_shipped_spec_reads_back_equal",
    "tests/engine/test_position_limits.py::test_start_and_random_positions_round_trip",
    "tests/lab/test_study_outcomes.py::test_a_python_study_scores_games_as_state_outcome_does",
})
SHIPPED = tuple(sorted((p.stem for p in (Path(__file__).parents[1] / "src" / "ziggurat" / "rulesets").glob("*.rules")),
                       key=len, reverse=True))  # the longest name first: "stacktics-3x5" before "stacktics"


# Session 35 (the default suite still at 344-369 s wall idle, 173 of its ~605 test CPU s Numba
# compiling): the native backend's own suite is an extra suite of its own, as the guide allows
# one: these files test the optional backend (`pip install 'ziggurat[native]'`) in depth, each
# test compiling modules of its own. The default suite keeps the native backend's perft against
# Python on Stacktics (KEEP), the written module's text tests (test_native_writer.py,
# test_native_compile.py), and each language construct's native check in its own test file
# (points, sets, control by place, levels, study outcomes, the pipeline).
NATIVE_SUITE = {
    "tests/native/test_native.py": "the native backend's suite: perft and playouts against Python on more games, "
                                   "each construct compiled",
    "tests/native/test_native_search.py": "the native backend's suite: native MCTS, alpha-beta and information-set "
                                          "search against the Python agents",
    "tests/native/test_parts.py": "the native backend's suite: turns drawn part by part",
    "tests/native/test_native_fuse.py": "the native backend's suite: fused move generation",
    "tests/native/test_whole_turns_native.py": "the native backend's suite: whole turns listed natively",
    "tests/lab/test_study_native.py": "the native backend's suite: native studies against the games played one by one",
    "tests/native/test_native_direct.py": "the native backend's suite: the direct path (on by default; "
                                          "ZIGGURAT_NATIVE_DIRECT=0 turns it off) against Numba alone: perft, "
                                          "seeded games, searches",
}


def native_suite(nodeid: str) -> str | None:
    """Why a test of the native backend's own suite runs with the long suite, or None."""
    return NATIVE_SUITE.get(nodeid.split("::", 1)[0])


def per_ruleset_repeat(nodeid: str) -> str | None:
    """Why a PER_RULESET test of a shipped ruleset outside REPRESENTATIVE is long, or None."""
    base, _, param = nodeid.partition("[")
    if base not in PER_RULESET:
        return None
    name = next((n for n in SHIPPED if param.startswith(n + "]") or param.startswith(n + "-")), None)
    if name is None or name in REPRESENTATIVE:
        return None
    return (f"an engine check on one more shipped ruleset ({name}); the default suite runs it on "
            + ", ".join(REPRESENTATIVE))


def long_only(nodeid: str) -> str | None:
    """The reason the test runs in the long suite only, or None when it runs by default."""
    if any(fnmatch.fnmatchcase(nodeid, k) for k in KEEP):
        return None
    why = per_ruleset_repeat(nodeid) or native_suite(nodeid)
    if why is not None:
        return why
    for pattern, why in LONG:
        if fnmatch.fnmatchcase(nodeid, pattern):
            return why
    return None
