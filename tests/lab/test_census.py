"""The solvability census on the toy capture puzzle of test_solve.py, counted by hand."""

import json
import math

import pytest
from click.testing import CliRunner

import ziggurat
from ziggurat.lab.census import (arrangements, board_symmetries, canonical_cells, census, count_arrangements,
                             multiset_permutations)
from ziggurat.cli.main import cli

from test_solve import PUZZLE

# A 2 x 2 board with one black, two greens and an empty cell: 4!/2! = 12 setups. Black can take
# both greens only when it sees both, one after the other: when the empty cell is diagonal to
# black, the greens are its two neighbours, and after taking one it no longer sees the other.
# So the empty cell is diagonal to black in 4 setups (one per black cell): 8 solvable, 4 not.
# Under the 8 symmetries of the square there are 2 groups: "empty diagonal to black" (4 setups)
# and "empty next to black" (8 setups).
TRAP = {"width": 2, "height": 2, "blacks": 1, "greens": 2, "whites": 0}


@pytest.fixture
def puzzle(tmp_path):
    path = tmp_path / "toy.rules"
    path.write_text(PUZZLE)
    return str(path)


class TestEnumeration:
    def test_multiset_permutations_are_distinct_and_complete(self):
        """Orderings of a list with repeats: each once, as many as the multinomial coefficient."""
        items = ["a", "a", "b", "c", "c", "c"]
        perms = list(multiset_permutations(items))
        assert len(perms) == len(set(perms)) == math.factorial(6) // (2 * 6)
        assert all(sorted(p) == sorted(items) for p in perms)

    def test_arrangements_of_the_start(self, puzzle):
        """Every arrangement of the start's stacks uses the same stacks; their number is counted."""
        start = ziggurat.load(puzzle, TRAP).new()
        boards = list(arrangements(start))
        assert len(boards) == count_arrangements(start) == 12
        assert all(sorted(b) == sorted(start.cells) for b in boards)

    @pytest.mark.parametrize("files, ranks, n", [(3, 3, 8), (4, 3, 4), (3, 2, 4), (3, 1, 2), (1, 1, 1)])
    def test_symmetry_counts(self, files, ranks, n):
        """A square has 8 symmetries, a rectangle 4, a line 2 distinct ones; each is a permutation."""
        perms = board_symmetries(files, ranks)
        assert len(perms) == n
        assert all(sorted(p) == list(range(files * ranks)) for p in perms)

    def test_canonical_form_is_shared_by_images(self):
        """A board and its mirror image have the same canonical form."""
        perms = board_symmetries(3, 1)
        assert canonical_cells(((1,), (), (2,)), perms) == canonical_cells(((2,), (), (1,)), perms)


class TestCensus:
    def test_hand_counted_trap(self, puzzle):
        """The 2 x 2 trap: 12 setups, 8 solvable, and the 4 unsolvable ones have black and the
        empty cell on a diagonal."""
        report = census(puzzle, TRAP, exhaustive=True, workers=1)
        assert (report.setups, report.solvable, report.classes) == (12, 8, 12)
        game = ziggurat.load(puzzle, TRAP)
        for text in report.unsolvable:
            cells = game.position(text).cells
            black = next(c for c, s in enumerate(cells) if s and game.world.piece_text(s[0]) == "b")
            hole = next(c for c, s in enumerate(cells) if not s)
            assert black + hole == 3  # a1/b2 or b1/a2: the diagonals of a 2 x 2 board

    def test_symmetry_groups(self, puzzle):
        """With symmetry the trap has 2 groups of 4 and 8 setups; the totals are unchanged."""
        report = census(puzzle, TRAP, exhaustive=True, workers=1, symmetric=True)
        assert (report.setups, report.solvable) == (12, 8)
        assert sorted((r.setups, r.solvable) for r in report.results) == [(4, False), (8, True)]

    def test_three_colours_on_a_line_are_all_solvable(self, puzzle):
        """b, g, w on three cells: the middle stack takes its prey, then its predator takes it:
        all 6 orders solvable, 3 groups under the mirror."""
        report = census(puzzle, {}, exhaustive=True, workers=1, symmetric=True)
        assert (report.setups, report.solvable, report.classes) == (6, 6, 3)

    def test_same_answer_with_one_and_two_workers(self, puzzle):
        """The report does not depend on the number of worker processes."""
        options = {"width": 4, "blacks": 2, "greens": 1, "whites": 1}
        one = census(puzzle, options, exhaustive=True, workers=1)
        two = census(puzzle, options, exhaustive=True, workers=2)
        assert one.results == two.results

    def test_seeds_are_deduplicated(self, puzzle):
        """A fixed setup drawn with 5 seeds is one distinct setup."""
        report = census(puzzle, {}, seeds=range(5), workers=1)
        assert (report.draws, report.setups) == (5, 1)

    def test_needs_exactly_one_source(self, puzzle):
        """Neither seeds nor exhaustive (or both) is a GameError."""
        with pytest.raises(ziggurat.GameError):
            census(puzzle, {}, workers=1)
        with pytest.raises(ziggurat.GameError):
            census(puzzle, {}, seeds=range(2), exhaustive=True, workers=1)

    def test_cli_json(self, puzzle):
        """`ziggurat census --exhaustive --json` reports the hand-counted numbers."""
        args = ["census", puzzle, "--exhaustive", "--workers", "1", "--json"]
        for k, v in TRAP.items():
            args += ["--set", f"{k}={v}"]
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0, result.output
        data = json.loads(result.output)
        assert (data["setups"], data["solvable"], len(data["unsolvable"])) == (12, 8, 4)


class TestCluster:
    def test_census_on_a_dask_cluster_gives_the_same_answer(self, puzzle, dask_cluster):
        """The census runs on the simulator's runner: on a LocalCluster it gives the local counts."""
        from distributed import Client

        local = census(puzzle, exhaustive=True, workers=1)
        with Client(dask_cluster) as client:
            remote = census(puzzle, exhaustive=True, client=client)
        assert (remote.setups, remote.solvable) == (local.setups, local.solvable)
        assert [r.as_dict() for r in remote.results] == [r.as_dict() for r in local.results]
