"""The bridges' frameworks are optional: `import ziggurat` works without open-spiel, pettingzoo or
gymnasium, and using a bridge without them says which extra to install. Each check runs in a
fresh interpreter whose imports of those packages are blocked."""

import subprocess
import sys
import textwrap

import pytest

BLOCK = textwrap.dedent('''
    import sys

    class Blocker:
        """Refuses the optional frameworks, as if they were not installed."""
        BLOCKED = ("pyspiel", "open_spiel", "pettingzoo", "gymnasium")

        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in self.BLOCKED:
                raise ModuleNotFoundError(f"No module named {name!r}")
            return None

    sys.meta_path.insert(0, Blocker())
''')


def run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", BLOCK + textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=120)


def test_ziggurat_imports_and_plays_without_the_frameworks():
    done = run('''
        import ziggurat
        from ziggurat.bridges.actions import ActionSpace
        game = ziggurat.load("tic-tac-toe")
        print(ActionSpace(game).num_distinct_actions, "pyspiel" in sys.modules, "pettingzoo" in sys.modules)
    ''')
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["9", "False", "False"]


@pytest.mark.parametrize("module,extra", [("ziggurat.bridges.openspiel", "openspiel"),
                                          ("ziggurat.bridges.pettingzoo", "pettingzoo"),
                                          ("ziggurat.bridges.single_agent", "pettingzoo")])
def test_a_bridge_without_its_framework_names_the_extra(module, extra):
    done = run(f'''
        try:
            import {module}
        except ImportError as e:
            print(e)
    ''')
    assert done.returncode == 0, done.stderr
    assert f"pip install 'ziggurat[{extra}]'" in done.stdout
