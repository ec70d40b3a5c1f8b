"""One front end for both backends (interpreter/pipeline.py): the ruleset is lowered once, from the
texts the game keeps, and the native backend reads that record instead of the files.

A game loaded from text goes native; a file edited after loading does not change the native module
of the game loaded before; a game taken from the on-disk cache goes native with its files gone; and
asking for the native game again (native, is_cached, the command line's choice of backend) lowers
nothing more. Native counts are checked against the Python backend's (a second implementation).
"""

import ast
import uuid
from pathlib import Path

import pytest

import ziggurat
from ziggurat.dsl.loader import find, read_text
from ziggurat.interpreter import games, pipeline
from ziggurat.interpreter.games import small_options
from ziggurat.interpreter.runtime import perft

SRC = Path(__file__).resolve().parent.parent.parent / "src" / "ziggurat"
BREAKTHROUGH = read_text(find("breakthrough"))
OPTIONS = small_options("breakthrough")  # 4 x 4, one rank of pieces each
DEPTH = 3
# Steps only diagonally: fewer moves from the start, so other counts than BREAKTHROUGH's.
EDITED = BREAKTHROUGH.replace("to: neighbours(from, adjacent) where", "to: neighbours(from, diagonal) where", 1)


@pytest.fixture
def lowerings(monkeypatch):
    """The rulesets lowered (pipeline.lower_ruleset called) while the test runs, by their top file."""
    calls = []
    real = pipeline.lower_ruleset

    def counted(rules, plan, values, bounds):
        calls.append(rules[-1][0])
        return real(rules, plan, values, bounds)
    monkeypatch.setattr(pipeline, "lower_ruleset", counted)
    return calls


def nb():
    pytest.importorskip("numba")
    from ziggurat.interpreter import native

    return native


def test_a_game_loaded_from_text_goes_native_and_counts_as_the_python_backend():
    native = nb()
    game = ziggurat.load("nowhere/breakthrough.rules", OPTIONS, text=BREAKTHROUGH)
    assert not Path("nowhere/breakthrough.rules").exists()
    assert game.rules == (("nowhere/breakthrough.rules", BREAKTHROUGH),)
    fast = native.native(game, ("perft",))
    python = perft(game.new(), DEPTH)
    assert python > 0
    assert fast.perft(game.new(), DEPTH) == python


def test_a_file_edited_after_loading_leaves_the_native_module_of_the_text_loaded(tmp_path):
    native = nb()
    path = tmp_path / "breakthrough.rules"
    path.write_text(BREAKTHROUGH)
    game = ziggurat.load(str(path), OPTIONS)
    path.write_text(EDITED)  # edited after loading, before the native module is asked for
    fast = native.native(game, ("perft",))
    loaded, edited = perft(game.new(), DEPTH), perft(ziggurat.load(str(path), OPTIONS).new(), DEPTH)
    assert loaded != edited  # the edit changes the rules (else this test would show nothing)
    assert fast.perft(game.new(), DEPTH) == loaded


def test_the_ruleset_is_lowered_once_whatever_asks_for_the_native_game(lowerings):
    native = nb()
    from ziggurat.cli.backend import choose

    text = BREAKTHROUGH + f"\n# lowered once: {uuid.uuid4()}\n"  # in no cache: compiled now
    game = ziggurat.load("once/breakthrough.rules", OPTIONS, text=text)
    assert lowerings == ["once/breakthrough.rules"]  # compiled for the Python backend
    first = native.native(game, ("perft",))
    for _ in range(2):
        assert native.native(game) is first
        assert native.is_cached(game)
        assert native.why_not(game) is None
        assert choose(game, "native", 0.0, quiet=True) is first
        assert choose(game, "auto", 1e9, quiet=True) is first
    assert lowerings == ["once/breakthrough.rules"]  # the native backend read the same record


def test_a_game_from_the_disk_cache_goes_native_without_its_file(tmp_path, monkeypatch, lowerings):
    native = nb()
    from ziggurat.interpreter.native import game as native_game

    path = tmp_path / "breakthrough.rules"
    text = BREAKTHROUGH + f"\n# from the disk cache: {uuid.uuid4()}\n"
    path.write_text(text)
    first = ziggurat.load(str(path), OPTIONS)  # compiled, and written to the disk cache
    expected = perft(first.new(), DEPTH)
    # A second process: nothing in memory but what the disk cache holds.
    monkeypatch.setattr(games, "_MEMORY", type(games._MEMORY)())
    monkeypatch.setattr(pipeline, "_MEMORY", type(pipeline._MEMORY)())
    monkeypatch.setattr(native_game, "_WRITTEN", {})
    monkeypatch.setattr(native_game, "_NATIVE", {})
    lowerings.clear()
    game = ziggurat.load(str(path), OPTIONS)
    assert game is not first and lowerings == []  # taken from the disk cache: nothing lowered
    assert game.rules == ((str(path), text),)
    path.unlink()
    fast = native.native(game, ("perft",))
    assert lowerings == [str(path)]  # lowered from the texts the game keeps
    assert fast.perft(game.new(), DEPTH) == expected


def test_a_variant_from_the_disk_cache_keeps_its_base_text_and_lowers_without_the_files(tmp_path, monkeypatch):
    """The base of an `extends` chain is read once, when the cache entry is checked; the native
    writer's lowering reads neither file afterwards."""
    nb()
    from ziggurat.interpreter.native import game as native_game

    base, variant = tmp_path / "base.rules", tmp_path / "variant.rules"
    base.write_text(BREAKTHROUGH)
    variant.write_text('extends "base.rules"\n\noption width = 5\n')
    first = ziggurat.load(str(variant), {"height": 4})
    monkeypatch.setattr(games, "_MEMORY", type(games._MEMORY)())
    monkeypatch.setattr(pipeline, "_MEMORY", type(pipeline._MEMORY)())
    monkeypatch.setattr(native_game, "_WRITTEN", {})
    game = ziggurat.load(str(variant), {"height": 4})
    assert game is not first
    assert [text for _, text in game.rules] == [BREAKTHROUGH, variant.read_text()]
    base.unlink()
    variant.unlink()
    ruleset = pipeline.lowered_rules(game.rules, game.options)
    assert ruleset.values["width"] == 5 and ruleset.values["height"] == 4
    assert [a.spec.name for a in ruleset.steps] == ["step", "capture"]
    text, *_ = native_game.source(game)  # the native module, written without the files
    assert "def legal(" in text


def test_the_python_compiler_and_the_native_writer_read_one_record(lowerings):
    """Loading a game at some options and asking the pipeline for its values gives the same
    record: the options `load` was given and the game's own (every value) are one key."""
    text = BREAKTHROUGH + f"\n# one record: {uuid.uuid4()}\n"  # in no cache: compiled now
    game = ziggurat.load("record/breakthrough.rules", {"width": 5}, text=text)
    assert game.options["height"] == 8 and len(lowerings) == 1
    ruleset = pipeline.lowered_rules(game.rules, game.options)
    assert pipeline.lowered_rules(game.rules, {"width": "5"}) is ruleset  # text, as --set gives it
    assert len(lowerings) == 1
    assert ruleset.values == game.options


def test_no_tool_imports_a_module_inside_the_native_backend():
    """Tools use the backend's public face (ziggurat.interpreter.native), not its writers or
    game module; only the backend's own modules (its folder's, and its subpackages') import them."""
    backend = SRC / "interpreter" / "native"
    inside = [p.stem for p in backend.glob("*.py") if p.stem != "__init__"]
    assert {"game", "exprs", "module", "legal", "search"} <= set(inside)
    found = []
    for p in sorted(SRC.rglob("*.py")):
        if backend in p.parents:
            continue
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            found += [f"{p.relative_to(SRC)}: {n}" for n in names
                      if any(n.endswith(f"interpreter.native.{m}") or n == f"native.{m}" for m in inside)]
    assert found == []


def test_importing_the_native_face_imports_neither_numpy_nor_numba():
    import subprocess
    import sys

    code = ("import sys, ziggurat.interpreter.native as n; "
            "print(sorted(m for m in ('numpy', 'numba') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
