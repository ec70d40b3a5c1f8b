"""One way to spread work: in this process, over every local core, or on a Dask cluster.

`run_batches(fn, batches)` calls `fn(batch)` for every batch and returns the results in the order
of the batches, whichever way they ran and whatever order they finished in, so a study or a
census gives the same answer on one core, on many, or on a cluster. `fn` must be picklable (a
module-level function, or a functools.partial of one).
"""

from __future__ import annotations

import os
from typing import Callable, Optional, Sequence


def run_batches(fn: Callable, batches: Sequence, *, workers: Optional[int] = None, client=None,
                progress: Optional[Callable[[int, object], None]] = None) -> list:
    """[fn(b) for b in batches], computed in parallel; `progress(i, result)` as batch i finishes."""
    results: list = [None] * len(batches)

    def done(i, result):
        results[i] = result
        if progress is not None:
            progress(i, result)

    workers = workers or os.cpu_count() or 1
    if client is not None:
        from distributed import as_completed as dask_completed

        futures = {client.submit(fn, b, pure=False): i for i, b in enumerate(batches)}
        for fut in dask_completed(list(futures)):
            done(futures[fut], fut.result())
    elif workers == 1 or len(batches) <= 1:
        for i, b in enumerate(batches):
            done(i, fn(b))
    else:
        from concurrent.futures import ProcessPoolExecutor, as_completed  # multiprocessing: only when used

        with ProcessPoolExecutor(max_workers=min(workers, len(batches))) as pool:
            futures = {pool.submit(fn, b): i for i, b in enumerate(batches)}
            for fut in as_completed(futures):
                done(futures[fut], fut.result())
    return results


def dask_threads(client) -> int:
    """How many tasks a Dask cluster runs at once."""
    try:
        return sum(w.get("nthreads", 1) for w in client.scheduler_info()["workers"].values())
    except Exception:  # an unusual scheduler: fall back to a modest split
        return 4
