import atexit
import os
import shutil
import sys
import tempfile

import pytest
from pathlib import Path

# Compiled games are cached on disk (ziggurat.interpreter.cache): the tests use a cache of their
# own, made afresh for the session, so that they never read or write the user's. A cold native
# compile costs 5 to 15 CPU seconds (a module's base, then each loop at its first call); loading it
# again from the cache, about one. So the test files that compile the same modules (tests/native's
# shipped games and test rulesets, the native studies, the pipeline's Breakthrough) are marked
# xdist_group("native"): with `--dist loadgroup` (pyproject.toml) they run on one worker, one after
# another, each module compiled once there and reused in memory, instead of twice at once on two
# workers. A new test that compiles a module one of those files compiles belongs with them.
if "ZIGGURAT_CACHE_DIR" not in os.environ:
    _cache = tempfile.mkdtemp(prefix="ziggurat-test-cache-")
    os.environ["ZIGGURAT_CACHE_DIR"] = _cache
    atexit.register(shutil.rmtree, _cache, True)

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
