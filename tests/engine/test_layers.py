"""The package's layers: nothing imports upward, nothing imports in a circle, and the tools use
the public game kernel only (no private names, no syntax tree, no compiled plan).

The layers themselves are declared in pyproject.toml ([tool.importlinter]) and checked by
import-linter; `lint-imports` in the project's folder runs the same check by hand.
"""

import ast
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
SRC = ROOT / "src" / "ziggurat"
TOOLS = ["agents", "proptest", "cli", "lab", "render.py", "render_look.py", "render_panel.py", "render_pieces.py",
         "render_spaces.py", "records.py"]


def tool_files():
    for t in TOOLS:
        p = SRC / t
        yield from (sorted(p.glob("*.py")) if p.is_dir() else [p])


class TestLayers:
    def test_every_import_contract_is_kept(self):
        """lint-imports finds no import from a lower layer to a higher one and no circle."""
        exe = shutil.which("lint-imports")
        if exe is None:
            pytest.skip("import-linter is not installed (it is in the '.[test]' extra)")
        out = subprocess.run([exe], cwd=ROOT, capture_output=True, text=True)
        assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
        assert "0 broken" in out.stdout


class TestTools:
    @pytest.mark.parametrize("path", list(tool_files()), ids=lambda p: str(p.relative_to(SRC)))
    def test_a_tool_reads_no_private_name_of_another_object(self, path):
        """No `x._name` in the tools, except on the tool's own object (self, cls)."""
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found = [f"line {n.lineno}: .{n.attr}" for n in ast.walk(tree)
                 if isinstance(n, ast.Attribute) and n.attr.startswith("_") and not n.attr.startswith("__")
                 and not (isinstance(n.value, ast.Name) and n.value.id in ("self", "cls"))]
        assert found == []

    @pytest.mark.parametrize("path", list(tool_files()), ids=lambda p: str(p.relative_to(SRC)))
    def test_a_tool_does_not_read_the_syntax_tree_or_the_compiled_plan(self, path):
        """The tools reach a ruleset through the game kernel, not through dsl.ast, dsl.ir, resolve
        or the generated module's namespace."""
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        modules = {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        modules |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        assert not {m for m in modules if any(part in m for part in ("dsl.ast", "dsl.ir", "resolve", "dsl.model"))}
        assert ".namespace" not in text and ".compiled" not in text
