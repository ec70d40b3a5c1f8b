"""Mutation testing of a ruleset (ziggurat.proptest.mutants, mutants_run; `ziggurat test --mutants`)
on a tiny game made for it (tests/engine/mutants/walk.rules): each operator makes the change it
names where it says, the examples kill what they cover, equivalent and stillborn mutants are
counted apart, a journal resumes, and the command line draws the table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ziggurat.cli.main import cli
from ziggurat.proptest.mutants import mutants
from ziggurat.proptest.mutants_run import Settings, run_mutants

WALK = str(Path(__file__).parent / "mutants" / "walk.rules")
TEXT = Path(WALK).read_text()
LINES = TEXT.splitlines()


def at(fragment: str, token: str, nth: int = 0) -> tuple:
    """(line, col) of `token` within the first line holding `fragment` (1-based, as the report)."""
    line = next(i for i, x in enumerate(LINES) if fragment in x)
    col = LINES[line].index(token, LINES[line].index(fragment)) if nth == 0 else \
        [i for i in range(len(LINES[line])) if LINES[line].startswith(token, i)][nth]
    return line + 1, col + 1


def find(ms, operator, where, original, changed=None):
    got = [m for m in ms if m.operator == operator and (m.line, m.col) == where and m.original == original
           and (changed is None or m.changed == changed)]
    assert len(got) == 1, (operator, where, original, [(m.operator, m.line, m.col, m.original) for m in ms])
    return got[0]


@pytest.fixture(scope="module")
def walk_mutants():
    return mutants(TEXT, WALK)


@pytest.mark.parametrize("operator, fragment, token, changed", [
    ("comparison", "require to.rank", ">=", ">"),
    ("arithmetic", "steps[mover] +=", "+=", "-="),
    ("constant", "counter unused", "5", "6"),
    ("constant", "counter unused", "5", "4"),
    ("player", "place(piece(first", "first", "second"),
    ("player", "from: cells where", "mine", "theirs"),
    ("direction", "neighbours(from, orthogonal)", "orthogonal", "diagonal"),
    ("piece", "place(piece(first", "stone", "rock"),
])
def test_each_token_operator_changes_its_token_at_its_line_and_column(walk_mutants, operator, fragment, token,
                                                                     changed):
    m = find(walk_mutants, operator, at(fragment, token), token, changed)
    text = m.apply(TEXT).splitlines()
    line, col = m.line - 1, m.col - 1
    assert text[line][col:col + len(changed)] == changed
    assert text[:line] == LINES[:line] and text[line + 1:] == LINES[line + 1:]


def test_dropping_a_require_or_an_effect_keeps_every_other_line_where_it_was(walk_mutants):
    for operator, fragment in (("condition", "require to.rank"), ("effect", "steps[mover] += 1")):
        where = at(fragment, fragment.split()[0])
        m = find(walk_mutants, operator, where, next(x.strip() for x in LINES if fragment in x))
        text = m.apply(TEXT).splitlines()
        assert len(text) == len(LINES)
        assert text[where[0] - 1].strip() == ""
        assert [x for i, x in enumerate(text) if i != where[0] - 1] == \
            [x for i, x in enumerate(LINES) if i != where[0] - 1]


def test_dropping_a_where_takes_out_the_condition_only(walk_mutants):
    m = find(walk_mutants, "condition", at("from: cells where", "where"), " where mine(from)")
    assert m.apply(TEXT).splitlines()[m.line - 1].strip() == "from: cells"


def test_the_examples_are_never_mutated_and_the_order_is_the_files(walk_mutants):
    first_example = next(i for i, x in enumerate(LINES) if x.startswith("example")) + 1
    assert all(m.line < first_example for m in walk_mutants)
    assert [m.start for m in walk_mutants] == sorted(m.start for m in walk_mutants)
    assert mutants(TEXT, WALK) == walk_mutants


@pytest.fixture(scope="module")
def report():
    return run_mutants(WALK)


def row(report, operator, where, original, changed=None):
    m = find([m for m, _ in report.rows], operator, where, original, changed)
    return dict(report.rows)[m]


def test_a_mutant_that_breaks_an_example_is_killed_by_that_example(report):
    # Without the require, a stone may step back: the example that says it may not kills it.
    r = row(report, "condition", at("require to.rank", "require"),
            next(x.strip() for x in LINES if "require to.rank" in x))
    line = next(i for i, x in enumerate(LINES) if 'illegal: "a2-a1"' in x) + 1
    assert r["status"] == "killed" and r["by"] == "example"
    assert r["detail"].startswith(f"line {line}: example 'a stone does not step back'")


def test_an_equivalent_mutant_is_shown_as_such_and_not_counted(report):
    # Nothing reads the counter `unused`: its start value changes nothing in the game.
    r = row(report, "constant", at("counter unused", "5"), "5", "6")
    assert r["status"] == "equivalent" and r["detail"] == "same perft to depth 3"
    killed, survived = report.count("killed"), report.count("survived")
    assert report.score == killed / (killed + survived)
    assert killed + survived + report.count("equivalent") + report.count("stillborn") == len(report.rows)


def test_a_surviving_mutant_changes_the_game_where_no_test_looks(report):
    # Without the move, a stone never leaves its cell: no example plays a move and looks after it,
    # but the move tree differs from the second ply on.
    r = row(report, "effect", at("move(from, 1, to)", "move"), "move(from, 1, to)")
    assert r["status"] == "survived"


def test_stillborn_mutants_are_counted_apart(report):
    # The end block with its only statement dropped does not parse.
    r = row(report, "effect", at("for p in players", "for"), next(
        x.strip() for x in LINES if "for p in players" in x) + "\n" + "\n".join(
        x for x in LINES if "if steps[p]" in x or "win p" in x))
    assert r["status"] == "stillborn" and "error" in r["detail"]
    assert report.count("stillborn") >= 1 and report.to_json()["stillborn"] == report.count("stillborn")


def test_resume_skips_the_mutants_in_the_journal(tmp_path):
    journal = str(tmp_path / "walk.jsonl")
    ran = []

    def spread(fn, batches, *, workers=None, progress=None):
        for i, b in enumerate(batches):
            if not fn.keywords.get("compare"):  # the tests; the survivors' trees are compared in a second pass
                ran.append(b.key)
            progress(i, fn(b))

    settings = Settings(limit=4, mutants_seed=3)
    first = run_mutants(WALK, settings=settings, journal=journal, spread=spread)
    assert len(ran) == 4 and first.resumed == 0
    ran.clear()
    again = run_mutants(WALK, settings=Settings(limit=6, mutants_seed=3), journal=journal, resume=True,
                        spread=spread)
    assert set(ran).isdisjoint(m.key for m, _ in first.rows)
    assert again.resumed + len(ran) == len(again.rows) == 6
    # without --resume the journal is started again
    ran.clear()
    run_mutants(WALK, settings=settings, journal=journal, spread=spread)
    assert len(ran) == 4


def test_the_originals_trees_are_counted_only_when_a_mutant_survives_the_tests(monkeypatch):
    """The perft trees of the original (the equivalence check) cost as much as many mutants: a run
    whose mutants are all killed or stillborn never counts them; one with a survivor counts them once."""
    import ziggurat.proptest.mutants_run as run

    calls = []
    real = run.baseline
    monkeypatch.setattr(run, "_BASELINES", {})  # none counted by another test in this process
    monkeypatch.setattr(run, "baseline", lambda *a, **k: calls.append(1) or real(*a, **k))
    report = run_mutants(WALK, settings=Settings(limit=3, mutants_seed=7))
    assert {r["status"] for _, r in report.rows} <= {"killed", "stillborn"} and calls == [] and report.depths == {}
    report = run_mutants(WALK)
    assert report.count("survived") + report.count("equivalent") >= 2 and calls == [1]
    assert report.depths["start"] == 3 and not any(r.get("compare") for _, r in report.rows
                                                    if r["status"] == "equivalent")


def test_the_command_prints_the_score_the_kills_and_the_survivors_with_their_lines(tmp_path):
    result = CliRunner().invoke(cli, ["test", WALK, "--mutants", "-w", "1", "--mutants-journal",
                                      str(tmp_path / "j.jsonl")])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "mutation score of walk.rules:" in out and "killed by" in out and "example" in out
    line, col = at("move(from, 1, to)", "move")
    assert f"walk.rules:{line}:{col}" in out  # a survivor, with its place
    assert "equivalent (same perft to depth D)" in out and "stillborn" in out


def test_the_command_gives_json(tmp_path):
    result = CliRunner().invoke(cli, ["test", WALK, "--mutants", "-w", "1", "--mutants-limit", "3", "--json",
                                      "--mutants-journal", str(tmp_path / "j.jsonl")])
    data = json.loads(result.output)
    assert result.exit_code == 0 and data["run"] == 3 and data["mutants"] > 3 and len(data["rows"]) == 3


@pytest.mark.parametrize("args, message", [
    (["--mutants-limit", "0"], "--mutants-limit"),
    (["--mutants-depth", "deep"], "--mutants-depth"),
    (["--mutants-journal", "/proc/nowhere/j.jsonl"], "cannot write the mutants journal"),
])
def test_bad_options_give_a_message_not_a_traceback(args, message):
    result = CliRunner().invoke(cli, ["test", WALK, "--mutants", "-w", "1", *args])
    assert result.exit_code in (1, 2) and message in result.output
    assert "Traceback" not in result.output and not isinstance(result.exception, (TypeError, AttributeError))


def test_an_interrupt_keeps_what_was_done_for_resume(tmp_path):
    journal = str(tmp_path / "walk.jsonl")

    def spread(fn, batches, *, workers=None, progress=None):
        for i, b in enumerate(batches):
            if i == 2:
                raise KeyboardInterrupt  # as cli.interrupts raises Ctrl-C
            progress(i, fn(b))

    first = run_mutants(WALK, settings=Settings(limit=5), journal=journal, spread=spread)
    assert first.interrupted and len(first.rows) == 2 and first.undone == 3
    again = run_mutants(WALK, settings=Settings(limit=5), journal=journal, resume=True)
    assert not again.interrupted and again.resumed == 2 and len(again.rows) == 5


def test_no_mutant_starts_after_the_budget():
    report = run_mutants(WALK, settings=Settings(limit=3), budget=1e-9)
    assert report.rows == [] and report.undone == 3


def test_a_run_leaves_the_compile_cache_as_it_found_it(tmp_path, monkeypatch):
    from collections import OrderedDict

    from ziggurat.interpreter import games

    monkeypatch.setenv("ZIGGURAT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(games, "_MEMORY", OrderedDict())  # nothing from another test: every mutant is compiled
    compiled = []
    real = games.compile_model
    monkeypatch.setattr(games, "compile_model", lambda *a: compiled.append(a) or real(*a))
    games.load(WALK)  # the user's own ruleset is cached as ever
    entries = sorted(p.name for p in (tmp_path / "cache").glob("*.json"))
    assert len(entries) == 1 and compiled
    compiled.clear()
    report = run_mutants(WALK, settings=Settings(limit=6))
    assert len(compiled) > 1 and any(r["status"] != "stillborn" for _, r in report.rows)
    assert sorted(p.name for p in (tmp_path / "cache").glob("*.json")) == entries
    assert sorted(p.name for p in (tmp_path / "cache").glob("*.py")) == [e[:-5] + ".py" for e in entries]


def test_the_time_limit_counts_cpu_seconds_not_the_clock(monkeypatch):
    """A mutant's tests that burn CPU past the limit are killed by `timeout`; tests that wait as
    long on the clock (a machine busy with other work) are not."""
    import time

    from ziggurat.proptest import mutants_run

    monkeypatch.setattr(mutants_run, "MUTANT_SECONDS", 0.3)

    def burn(context, mutant):
        end = time.process_time() + 5
        while time.process_time() < end:
            pass
        return {"status": "survived", "by": "", "detail": ""}

    def wait(context, mutant):
        time.sleep(0.8)
        return {"status": "survived", "by": "", "detail": ""}

    monkeypatch.setattr(mutants_run, "_test", burn)
    assert mutants_run._run_one(None, None, None)["by"] == "timeout"
    monkeypatch.setattr(mutants_run, "_test", wait)
    assert mutants_run._run_one(None, None, None)["status"] == "survived"


def test_a_parameter_named_as_a_direction_is_not_mutated_as_one():
    """`s` in `def far(p, s)` is the def's own name, not the direction south: no mutant turns it
    into `sw`; a direction written in the body still changes."""
    text = TEXT + "\ndef far(p, s): count(c for c in ray(s, n, 2))\n"
    line = text.count("\n")
    changed = [(m.original, m.changed) for m in mutants(text) if m.line == line and m.operator == "direction"]
    assert changed == [("n", "ne")]


DICE = (Path(__file__).parents[1] / "language" / "weighted_die.rules").read_text(encoding="utf-8")


def test_a_changed_chance_weight_is_not_the_same_tree():
    """Perft counts nature's moves, not how likely each is: the signature keeps the probabilities,
    so a mutant that only reweights a roll (2 made 1: every face 1/3, not 1/2, 1/4, 1/4) differs."""
    from ziggurat.interpreter.games import load
    from ziggurat.proptest.mutants_run import signature

    original = load("dice.rules", text=DICE).new()
    mutant = load("dice.rules", text=DICE.replace("weight 2 if", "weight 1 if")).new()
    same_counts = signature(original, 2, 1000)[0] == signature(mutant, 2, 1000)[0] == 3
    assert same_counts and signature(original, 2, 1000) != signature(mutant, 2, 1000)
    assert signature(original, 2, 1000) == signature(load("dice.rules", text=DICE).new(), 2, 1000)


def test_a_changed_turn_is_not_the_same_tree():
    """Nor does perft see whose turn it is: the roll followed by an extra turn for the same player
    counts the same moves, but the signature keeps the side to move at each position."""
    from ziggurat.interpreter.games import load
    from ziggurat.proptest.mutants_run import signature

    original = load("dice.rules", text=DICE).new()
    mutant = load("dice.rules", text=DICE.replace("        die = n\n", "        die = n\n        extra_turn()\n")).new()
    assert signature(original, 3, 1000)[0] == signature(mutant, 3, 1000)[0]
    assert signature(original, 3, 1000) != signature(mutant, 3, 1000)
