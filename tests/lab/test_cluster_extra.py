"""Dask is an extra (`ziggurat[cluster]`): a local study never imports it, and `--cluster` or
`--scheduler-file` without it is a one-line error naming the extra, before any file is written.
Dask's absence is simulated by making its import fail (`sys.modules["distributed"] = None`)."""

import subprocess
import sys

import pytest
from click.testing import CliRunner

from ziggurat.cli.main import cli
from ziggurat.errors import GameError

EXTRA = "pip install 'ziggurat[cluster]'"


@pytest.fixture
def no_dask(monkeypatch):
    for name in ("distributed", "dask"):
        monkeypatch.setitem(sys.modules, name, None)  # `import distributed` now raises ImportError


def test_a_local_study_does_not_import_dask():
    code = ("import sys, ziggurat.lab.study as sim\n"
            "sim.run_study(sim.StudySpec('stacktics', ('random', 'random'), 2, {'size': 2}, max_plies=40), workers=1)\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("where", [["--cluster", "tcp://127.0.0.1:9"], ["--scheduler-file", "sched.json"]])
def test_simulate_on_a_cluster_without_dask_names_the_extra(tmp_path, monkeypatch, no_dask, where):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["simulate", "stacktics", "--set", "size=2", "-n", "2", "--csv", "g.csv", *where])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    assert EXTRA in result.output.strip().splitlines()[-1]
    assert list(tmp_path.iterdir()) == []  # no journal, no CSV: nothing was started


def test_census_on_a_cluster_without_dask_names_the_extra(no_dask):
    result = CliRunner().invoke(cli, ["census", "greenest", "--seeds", "2", "--cluster", "tcp://127.0.0.1:9"])
    assert result.exit_code == 1, result.output
    assert EXTRA in result.output and "Traceback" not in result.output


def test_connect_without_dask_names_the_extra(no_dask):
    from ziggurat.lab.runner import connect

    with pytest.raises(GameError, match=r"ziggurat\[cluster\]"):
        connect("tcp://127.0.0.1:9")


def test_dask_is_the_cluster_extra_not_a_dependency():
    """`pip install ziggurat` (to play) does not pull Dask; `[cluster]` does, and `[test]` has it."""
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).resolve().parent.parent.parent / "pyproject.toml").read_text())["project"]
    assert not [d for d in project["dependencies"] if d.lower().startswith(("dask", "distributed"))]
    extras = project["optional-dependencies"]
    assert any(d.startswith("dask[distributed]") for d in extras["cluster"])
    assert "ziggurat[cluster]" in extras["test"]
