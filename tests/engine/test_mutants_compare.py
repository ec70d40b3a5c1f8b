"""How a mutation run compares a survivor with the original (ziggurat.proptest.mutants_run): in
the worker that ran its tests, shallow trees first, and a journal found again from another
checkout of the same rules text. On the test game tests/engine/mutants/walk.rules."""

from __future__ import annotations

import json
import shutil
from collections import OrderedDict
from pathlib import Path

from ziggurat.proptest import mutants_run as run
from ziggurat.proptest.mutants import mutants
from ziggurat.proptest.mutants_run import Settings, run_mutants

WALK = str(Path(__file__).parent / "mutants" / "walk.rules")
TEXT = Path(WALK).read_text()


def dropped_move():
    """The mutant that drops the stone's move: it survives the examples (none plays a move and
    looks after it), and its tree differs from the start's second ply on."""
    return next(m for m in mutants(TEXT, WALK) if m.operator == "effect" and m.original == "move(from, 1, to)")


def test_a_survivor_is_compiled_once_its_trees_compared_in_the_same_batch(monkeypatch, tmp_path):
    """Each batch starts with an empty memory of games, as a fresh worker process does: the
    survivor's game is compiled for its tests and its trees are compared in that same batch, not
    in a second pass that compiles it again."""
    from ziggurat.interpreter import games

    monkeypatch.setenv("ZIGGURAT_CACHE_DIR", str(tmp_path))  # no game of another run on disk
    survivor = dropped_move()
    text = survivor.apply(TEXT)
    compiled, passes = [], []
    real = games.compile_model
    monkeypatch.setattr(games, "compile_model", lambda model, *a: compiled.append(model.sources[-1][1])
                        or real(model, *a))
    monkeypatch.setattr(run, "_BASELINES", {})

    def spread(fn, batches, *, workers=None, progress=None):
        passes.append(len(batches))
        for i, b in enumerate(batches):
            monkeypatch.setattr(games, "_MEMORY", OrderedDict())
            progress(i, fn(b))

    monkeypatch.setattr(run, "pick", lambda found, limit, seed: [survivor])
    report = run_mutants(WALK, spread=spread)
    assert [r["status"] for _, r in report.rows] == ["survived"] and passes == [1]
    assert compiled.count(text) == 1


def test_a_tree_that_differs_shallow_is_told_before_any_deep_tree_is_counted(monkeypatch, tmp_path):
    """The original's trees go to depth 3; the mutant whose stone never moves has the same first
    ply everywhere and another second ply: it is found at depth 2, no depth-3 tree of it counted."""
    monkeypatch.setenv("ZIGGURAT_CACHE_DIR", str(tmp_path))  # the mutant compiled here is not kept
    survivor = dropped_move()
    monkeypatch.setattr(run, "_BASELINES", {})
    context = run._Context(WALK, TEXT, {}, Settings(), None, [])
    context = run.evolve(context, baseline=run._baseline_here(context))
    assert {row[4] for row in context.baseline} == {3}
    depths = []
    real = run.signature
    monkeypatch.setattr(run, "signature", lambda st, d, nodes: depths.append(d) or real(st, d, nodes))
    assert run._compare(context, survivor)["status"] == "survived"
    assert 2 in depths and 3 not in depths


def test_the_journal_is_found_again_from_another_checkout(tmp_path, monkeypatch):
    """The default journal is named for the file's name and its text, not its folder; a run of a
    copy of the same text in another folder resumes from a journal the first one wrote."""
    monkeypatch.setenv("ZIGGURAT_CACHE_DIR", str(tmp_path / "cache"))
    one, two = tmp_path / "one" / "walk.rules", tmp_path / "two" / "walk.rules"
    for p in (one, two):
        p.parent.mkdir()
        shutil.copy(WALK, p)
    settings = Settings(limit=3, mutants_seed=5)
    journal = run.default_journal(str(one), {}, settings)
    assert journal == run.default_journal(str(two), {}, settings)
    assert journal != run.default_journal(str(two), {}, Settings(limit=3, mutants_seed=6))
    first = run_mutants(str(one), settings=settings, journal=journal)
    assert json.loads(Path(journal).read_text().splitlines()[0])["file"] == "walk.rules"
    again = run_mutants(str(two), settings=settings, journal=journal, resume=True)
    assert again.resumed == len(first.rows) == 3


def test_a_change_the_options_fold_away_is_the_same_game_without_counting_its_trees(monkeypatch, tmp_path):
    """A mutant of an action that only a larger option allows (`when far`, false by default)
    makes, at the defaults, the very code and spec of the original: the same game, so its trees
    are not counted again, and it is shown as equivalent; the same change at `far = true` is not."""
    text = TEXT.replace("counter unused = 5\n", "counter unused = 5\noption far: bool = false\n") + '''
action leap "{from}>{to}":
    when far
    from: cells where mine(from)
    to: cells where empty(to) and to.rank == from.rank + 2
    do:
        move(from, 1, to)
'''
    mutant = next(m for m in mutants(text, WALK) if m.operator == "constant" and m.original == "2"
                  and m.changed == "3" and "from.rank + 2" in text.splitlines()[m.line - 1])
    monkeypatch.setenv("ZIGGURAT_CACHE_DIR", str(tmp_path))  # the mutant compiled here is not kept
    monkeypatch.setattr(run, "_BASELINES", {})
    counted = []
    real = run.signature
    monkeypatch.setattr(run, "signature", lambda st, d, nodes: counted.append(d) or real(st, d, nodes))
    context = run._Context(WALK, text, {}, Settings(), None, [])
    context = run.evolve(context, baseline=run._baseline_here(context))
    counted.clear()
    assert run._compare(context, mutant) == {"status": "equivalent", "by": "", "detail": "same perft to depth 3"}
    assert counted == []
    far = run._Context(WALK, text, {"far": "true"}, Settings(), None, [])
    far = run.evolve(far, baseline=run._baseline_here(far))
    assert run._compare(far, mutant)["status"] == "survived" and counted


def test_trees_the_same_at_depth_1_only_do_not_make_a_mutant_equivalent(monkeypatch):
    """RYB's node budget let some example positions be counted to depth 1 only, and mutants that
    change the game (its turn counter's step dropped, its banked points' loop dropped) were shown
    equivalent on that: a depth-1 tree says too little of a game. Such a mutant survives, saying
    how far its trees were the same; at depth 2 it is equivalent."""
    from ziggurat.proptest import mutants_run as run

    for same, status, detail in [(0, "survived", ""), (1, "survived", "same perft to depth 1 only"),
                                 (2, "equivalent", "same perft to depth 2"), (3, "equivalent", "same perft to depth 3")]:
        monkeypatch.setattr(run, "_same_trees", lambda context, text, same=same: same)
        got = run._compare(SimpleContext(), SimpleMutant())
        assert got["status"] == status and got["detail"].startswith(detail), (same, got)


class SimpleContext:
    text = "players a, b\n"


class SimpleMutant:
    def apply(self, text):
        return text


def test_a_wide_position_is_still_compared_to_the_equivalent_depth(monkeypatch, tmp_path):
    """With a node budget that fits only the first ply (as RYB's 50,000 fitted only the first ply of
    its widest goal positions), the trees to depth 2 get EQUIVALENT_NODES times it: every position
    is counted to depth 2, so a change of a counter no rule reads is shown equivalent at depth 2
    (not a survivor "same to depth 1 only"), and a dropped move still survives."""
    monkeypatch.setenv("ZIGGURAT_CACHE_DIR", str(tmp_path))  # the mutants compiled here are not kept
    monkeypatch.setattr(run, "_BASELINES", {})
    settings = Settings(nodes=4)  # depth 1 from the start: 1 + 2 positions; depth 2: more than 4
    context = run._Context(WALK, TEXT, {}, settings, None, [])
    context = run.evolve(context, baseline=run._baseline_here(context))
    assert {row[4] for row in context.baseline} == {run.EQUIVALENT_DEPTH}
    unread = next(m for m in mutants(TEXT, WALK) if m.operator == "constant" and m.original == "5")
    assert run._compare(context, unread) == {"status": "equivalent", "by": "", "detail": "same perft to depth 2"}
    assert run._compare(context, dropped_move())["status"] == "survived"
