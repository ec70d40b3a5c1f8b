import atexit
import os
import shutil
import sys
import tempfile

import pytest
from pathlib import Path

# Compiled games are cached on disk (ziggurat.interpreter.cache): the tests use a cache of their
# own, made afresh for the session, so that they never read or write the user's.
if "ZIGGURAT_CACHE_DIR" not in os.environ:
    _cache = tempfile.mkdtemp(prefix="ziggurat-test-cache-")
    os.environ["ZIGGURAT_CACHE_DIR"] = _cache
    atexit.register(shutil.rmtree, _cache, True)

# Numba compiles at its default optimisation level here too. NUMBA_OPT=0 for the tests was measured
# (cold compiles of two test and two shipped rulesets, one process each): 26% less compile CPU, but
# native playouts ran 13 to 15 times slower, and Numba could no longer cache several loops of a
# module (perft, apply, outcome, study_chunk: "uses dynamic globals"), which the cache tests check
# is loaded by the next process; NUMBA_OPT=1 saved 9%.

from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).parent))

settings.register_profile("ci", max_examples=30, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=15, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=500, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session")
def dask_cluster():
    """One Dask LocalCluster on this machine (two worker processes), shared by the tests."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster:
        yield cluster


# A cold native compile costs 5 to 15 CPU seconds (a module's base, then each loop at its first
# call); the same module again in the same process costs nothing, and in another process, loaded
# from the cache, about one. These files compile the same modules (the shipped games and test
# rulesets of tests/native, Breakthrough 4x4 in the pipeline's tests and the native searches,
# Stacktics and the test game Seats in the native studies): under `--dist loadgroup`
# (pyproject.toml) their tests are one unit of work, run on one worker one after another, so that
# no module is compiled cold on two workers at once and each is compiled once there. A test that
# compiles a module one of them compiles belongs in one of them, or in this list.
NATIVE_GROUP = frozenset({
    "tests/native/test_native.py", "tests/native/test_parts.py", "tests/native/test_native_search.py",
    "tests/native/test_native_fuse.py", "tests/engine/test_pipeline.py", "tests/lab/test_study_native.py",
    "tests/native/test_native_direct.py", "tests/native/test_direct_faults.py",
})


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """`--dist loadgroup` with NATIVE_GROUP as the group "native". pytest-xdist's own loadgroup
    reads the group from a suffix it adds to each test's id, which pytest 9.2 no longer keeps
    (pytest-dev/pytest-xdist#1386: the tests are then spread as if unmarked). This hook, xdist's
    documented way to choose a scheduler, groups by file instead, and still honours an
    `xdist_group` suffix where there is one."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class NativeGroup(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return "native" if nodeid.split("::", 1)[0] in NATIVE_GROUP else super()._split_scope(nodeid)

    return NativeGroup(config, log)


def pytest_collection_modifyitems(config, items):
    """The tests tests/long_suite.py lists run with ZIGGURAT_SLOW=1 only (skipped, saying why);
    with ZIGGURAT_LONG_LISTED=1, those tests alone run (`.ci/run` runs them after the default suite)."""
    from long_suite import SLOW, long_only

    if os.environ.get("ZIGGURAT_LONG_LISTED") == "1":
        listed = [item for item in items if long_only(item.nodeid) is not None]
        config.hook.pytest_deselected(items=[item for item in items if long_only(item.nodeid) is None])
        items[:] = listed
        return
    if SLOW:
        return
    for item in items:
        why = long_only(item.nodeid)
        if why is not None:
            item.add_marker(pytest.mark.skip(reason=f"long suite (ZIGGURAT_SLOW=1): {why}"))
