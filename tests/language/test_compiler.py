"""The compiler's passes and the module they write: deterministic, readable, one meaning per action."""

import ast
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import ziggurat
from ziggurat.dsl.fold import fold
from ziggurat.dsl.loader import load_model, shipped_names
from ziggurat.dsl.options import option_values
from ziggurat.dsl.resolve import resolve_model
from ziggurat.interpreter import steps as P
from ziggurat.interpreter.compile import compile_model

SHIPPED = shipped_names()


def module_text(name: str, seed: str) -> str:
    code = ("import sys; from ziggurat.dsl.loader import load_model; "
            "from ziggurat.interpreter.compile import compile_model; "
            f"sys.stdout.write(compile_model(load_model({name!r}), {{}}, {name!r}).source)")
    env = {**os.environ, "PYTHONHASHSEED": seed, "ZIGGURAT_CACHE_DIR": "off"}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout


def unreachable(text: str) -> list:
    """The statements of a module that are never run, or say nothing, as 'line N: why'."""
    found = []
    for node in ast.walk(ast.parse(text)):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if not isinstance(block, list) or not block or not isinstance(block[0], ast.stmt):
                continue
            for before, after in zip(block, block[1:]):
                if isinstance(before, (ast.Return, ast.Raise, ast.Continue, ast.Break)):
                    found.append(f"line {after.lineno}: after the {type(before).__name__.lower()} "
                                 f"on line {before.lineno}")
                    break
            if len(block) > 1:
                found += [f"line {s.lineno}: pass beside other statements" for s in block if isinstance(s, ast.Pass)]
        if isinstance(node, (ast.If, ast.While)) and isinstance(node.test, ast.Constant) and not node.test.value:
            found.append(f"line {node.lineno}: {type(node).__name__.lower()} on {node.test.value!r}")
    return found


class TestOutput:
    @pytest.mark.parametrize("name", ["rgb", "checkers", "lines-of-action"])
    def test_the_same_ruleset_gives_the_same_text_in_any_process(self, name):
        """Two processes with different hash seeds write the same module, to the character."""
        assert module_text(name, "1") == module_text(name, "2")

    @pytest.mark.parametrize("name", SHIPPED)
    def test_every_function_of_a_move_names_its_rules_line(self, name):
        """legal's actions, do_<action> and explain_<action> are each headed by the rules file and
        line they come from."""
        game = ziggurat.load(name)
        lines = game.source.splitlines()
        stem = os.path.basename(game.spec.sources[-1])
        for a in game.actions:
            for fn in (f"def do_{a.name}(", f"def explain_{a.name}("):
                head = next(line for line in lines if line.startswith(fn))
                assert ".rules:" in head, head
            assert any(line.strip().startswith(f"# action {a.name} (") for line in lines)
        assert stem.endswith(".rules")

    @pytest.mark.parametrize("name", SHIPPED)
    def test_the_functions_of_a_move_are_named_after_its_action(self, name):
        """`do_move` and `explain_move` for the action `move` (and `weight_move`, `seen_move` when
        its rules give a weight or who sees it), defined in the module and listed by action number
        in DO, EXPLAIN, WEIGHT and SEEN."""
        game = ziggurat.load(name)
        tree = ast.parse(game.source)
        defined = {f.name for f in tree.body if isinstance(f, ast.FunctionDef)}
        tables = {t.targets[0].id: t.value.elts for t in tree.body if isinstance(t, ast.Assign)
                  and isinstance(t.targets[0], ast.Name) and isinstance(t.value, ast.Tuple)}
        for table, kind, has in (("DO", "do", lambda a: True), ("EXPLAIN", "explain", lambda a: True),
                                 ("WEIGHT", "weight", lambda a: a.weighted), ("SEEN", "seen", lambda a: a.secret)):
            listed = [e.id if isinstance(e, ast.Name) else None for e in tables[table]]
            assert listed == [f"{kind}_{a.name}" if has(a) else None for a in game.actions], table
            assert set(listed) - {None} <= defined

    def test_action_names_python_cannot_hold_still_give_functions_of_their_own(self):
        """Names the grammar reads are kept as they are; one with characters a Python name cannot
        hold (the writer takes plans from elsewhere too) is made a Python name, apart from every
        other action's, even one it would become (`take-it` and `take_it`)."""
        from types import SimpleNamespace as NS

        from ziggurat.interpreter.python.module import action_names

        plans = [NS(index=i, spec=NS(name=n)) for i, n in enumerate(["take-it", "take_it", "take.it", "move"])]
        names = action_names(plans)
        assert names[1] == "take_it" and names[3] == "move"
        assert len(set(names.values())) == 4 and all(n.isidentifier() for n in names.values())

    @pytest.mark.parametrize("name", SHIPPED)
    def test_no_statement_is_unreachable(self, name):
        """The module holds no statement after a return, raise, continue or break in the same
        block, no `if` or `while` on a false constant, and no `pass` beside other statements."""
        variants = [{}] + ([{"scoring": True}] if name == "chaos" else [])  # an end with `rank by` then `draw`
        for options in variants:
            assert unreachable(ziggurat.load(name, options).source) == [], options

    @pytest.mark.parametrize("name", SHIPPED)
    def test_board_tables_are_passed_in_not_written(self, name):
        """No geometry table is written into the module (they are computed when it is loaded), and
        no statement is a lone `pass` or a magic number for `unlimited`."""
        game = ziggurat.load(name)
        tree = ast.parse(game.source)
        written = {t.id for s in tree.body if isinstance(s, ast.Assign) for t in s.targets if isinstance(t, ast.Name)}
        assert not written & {"RAYS", "RAYSTO", "NEIGH", "LINES", "LINE1", "STEP", "STEPK", "DIST"}
        assert str(1 << 30) not in game.source
        assert not any(line.strip() == "pass" for line in game.source.splitlines())

    @pytest.mark.parametrize("name", SHIPPED)
    def test_count_is_derived_from_legal(self, name):
        """The module writes legal once; count, derived from it when loaded, agrees with it on
        positions reached by random play."""
        game = ziggurat.load(name)
        assert "def count(" not in game.source
        rng = random.Random(7)
        st = game.new()
        for _ in range(12):
            moves = game.legal(st)
            assert game.count(st) == len(moves)
            if not moves or game.outcome(st, moves) is not None:
                break
            st.push(rng.choice(moves))


SNAPSHOTS = Path(__file__).resolve().parent.parent / "snapshots"


class TestSnapshot:
    def test_the_python_module_of_stacktics_is_the_checked_in_one(self):
        """The Python module written for Stacktics at its default options is, to the character,
        tests/snapshots/stacktics_python.py.txt, so that a change in how generated code reads shows
        in review. After a change meant to alter it, write the file afresh and review its diff:
        `ZIGGURAT_UPDATE_SNAPSHOTS=1 python -m pytest tests/language/test_compiler.py -k snapshot`."""
        path = SNAPSHOTS / "stacktics_python.py.txt"
        text = ziggurat.load("stacktics").source
        if os.environ.get("ZIGGURAT_UPDATE_SNAPSHOTS"):
            path.parent.mkdir(exist_ok=True)
            path.write_text(text, encoding="utf-8")
        assert path.exists(), f"no snapshot yet: write it with ZIGGURAT_UPDATE_SNAPSHOTS=1 ({path})"
        assert text == path.read_text(encoding="utf-8"), (
            f"the generated module differs from {path.name}: if the change is meant, rewrite it with "
            "ZIGGURAT_UPDATE_SNAPSHOTS=1 and review the diff")


class TestPasses:
    def test_check_writes_no_code(self, monkeypatch):
        """ziggurat check runs resolve, options and fold: the backend is never asked for code."""
        from ziggurat.dsl.checks import check
        from ziggurat.interpreter.python import module

        def refuse(*a, **k):
            raise AssertionError("check wrote code")

        monkeypatch.setattr(module.ModuleWriter, "write", refuse)
        assert [d for d in check("rgb") if d.severity == "error"] == []

    def test_the_plan_does_not_depend_on_option_values(self):
        """Resolve gives the same plan whatever the options; fold makes them constants."""
        plan, diags = resolve_model(load_model("stacktics"))
        assert diags == []
        a, _ = option_values(plan, {"size": 2})
        b, _ = option_values(plan, {"size": 5})
        fa, fb = fold(plan, a), fold(plan, b)
        assert (fa.world.files, fb.world.files) == (4, 7)

    def test_every_action_lowers_to_known_step_kinds(self):
        """The step plans of every shipped ruleset hold only the documented kinds of step."""
        kinds = (P.Guard, P.Bind, P.Choose, P.Stage, P.Apply, P.Repeat, P.AfterPart, P.Measure)

        def walk(steps):
            for s in steps:
                assert isinstance(s, kinds), s
                walk(getattr(s, "steps", ()))

        for name in SHIPPED:
            model = load_model(name)
            plan, _ = resolve_model(model)
            values, _ = option_values(plan, {})
            for a in fold(plan, values).plan.actions:
                walk(P.lower(a).steps)

    def test_a_switched_off_action_writes_no_generator_code(self):
        """Stacktics at size 3 (no pie rule): the swap action has no code in legal()."""
        source = compile_model(load_model("stacktics"), {"size": 3}, "stacktics").source
        legal = source[source.index("def legal("):source.index("def do_move(")]
        assert "add((1" not in legal
        source = compile_model(load_model("stacktics"), {"size": 2}, "stacktics").source
        legal = source[source.index("def legal("):source.index("def do_move(")]
        assert "add((1,))" in legal
