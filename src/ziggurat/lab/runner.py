"""One way to spread work: in this process, over every local core, or on a Dask cluster.

`run_batches(fn, batches)` calls `fn(batch)` for every batch and returns the results in the order
of the batches, whichever way they ran and whatever order they finished in, so a study or a
census gives the same answer on one core, on many, or on a cluster. `fn` must be picklable (a
module-level function, or a functools.partial of one), and a batch must give the same result
however often it is run (the studies and the census seed every game from its index).

Faults:

- *Ctrl-C or SIGTERM* while batches run in parallel is noted (not raised where it lands, which
  could be inside concurrent.futures' locks), the batches not finished are cancelled, the local
  workers killed at once (or the cluster's tasks cancelled), and then the handler the signal would
  have run is run (Python's raises KeyboardInterrupt); the batches finished before it have been
  handed to `progress`.
- *A local worker that dies* (killed, out of memory) breaks `concurrent.futures`' pool: a new
  pool is made and the unfinished batches are run again. After `MAX_POOL_RESTARTS` breaks in a
  row with no batch finished in between, a GameError says so.
- *Workers never outlive their parent*: each one exits when the process that started it dies
  (Linux: the kernel's parent-death signal; everywhere: a thread watching the parent's pid).
  Workers ignore SIGINT: the parent decides what Ctrl-C means.
- *A Dask cluster with no worker* for `worker_timeout` seconds is a GameError, not a wait
  without end.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Callable, Optional, Sequence

from ..errors import GameError

MAX_POOL_RESTARTS = 3
WORKER_TIMEOUT = 60.0  # seconds a Dask cluster may have no worker before the run fails
_WATCH_INTERVAL = 0.5  # seconds between a worker's looks at its parent
_DASK_FETCH = 2.0  # seconds to fetch a finished batch's result from its Dask worker before looking again
_POLL = 0.1  # seconds between the parent's looks for a signal while it waits for batches


def run_batches(fn: Callable, batches: Sequence, *, workers: Optional[int] = None, client=None,
                progress: Optional[Callable[[int, object], None]] = None,
                notice: Optional[Callable[[str], None]] = None,
                worker_timeout: float = WORKER_TIMEOUT) -> list:
    """[fn(b) for b in batches], computed in parallel; `progress(i, result)` as batch i finishes;
    `notice(text)` (if given) when a worker died and its batches are run again."""
    results: list = [None] * len(batches)

    def done(i, result):
        results[i] = result
        if progress is not None:
            progress(i, result)

    workers = workers or os.cpu_count() or 1
    if client is not None:
        _run_dask(client, fn, batches, done, worker_timeout)
    elif workers == 1 or len(batches) <= 1:
        for i, b in enumerate(batches):
            done(i, fn(b))
    else:
        _run_local(fn, batches, workers, done, notice)
    return results


# ---- local processes -------------------------------------------------------------------------


def _run_local(fn, batches, workers: int, done, notice) -> None:
    # concurrent.futures (the standard library): its pool reports a dead worker (BrokenProcessPool)
    # instead of losing the worker's task, which is what lets us run the task again.
    from concurrent.futures import FIRST_COMPLETED, wait
    from concurrent.futures.process import BrokenProcessPool

    todo = dict(enumerate(batches))  # batch index -> batch, until it is done
    breaks = 0
    with _Deferred() as signals:
        while todo and not signals.caught:
            pool, before = _start_pool(min(workers, len(todo)))
            try:
                futures = {pool.submit(fn, b): i for i, b in todo.items()}
                pending = set(futures)
                while pending and not signals.caught:
                    finished, pending = wait(pending, timeout=_POLL, return_when=FIRST_COMPLETED)
                    for fut in finished:
                        try:
                            result = fut.result()
                        except BrokenProcessPool:
                            continue  # run again in the next pool
                        i = futures[fut]
                        del todo[i]
                        breaks = 0
                        done(i, result)
            except BaseException:  # a batch that failed, or an interrupt from `done`: stop every worker now
                _stop(pool, before)
                raise
            if not todo:
                pool.shutdown(wait=True)
                break
            _stop(pool, before)
            if signals.caught:
                break
            breaks += 1
            if breaks > MAX_POOL_RESTARTS:
                raise GameError(f"a worker process died {breaks} times in a row without finishing any work "
                                f"(killed, or out of memory?); {len(todo)} of {len(batches)} batches not done")
            if notice is not None:
                notice(f"a worker process died; {len(todo)} unfinished batch{'es' if len(todo) != 1 else ''} "
                       "run again in new workers")
    signals.deliver()  # Ctrl-C or SIGTERM while the pool ran: its workers are stopped; now the caller's handler


class _Deferred:
    """While a pool or a cluster runs, SIGINT and SIGTERM are only noted (in the main thread):
    raised as they arrive, the KeyboardInterrupt could land inside concurrent.futures' own locking
    (a future's lock taken and never released), and its threads would then hang the exit. The
    loops look at `caught` between short waits, stop the workers, and `deliver()` then runs the
    handler the signal would have run."""

    SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM") if hasattr(signal, name))

    def __init__(self):
        self.caught = None  # (signum, frame) of the first signal
        self.previous: dict = {}

    def _catch(self, signum, frame) -> None:
        if self.caught is None:
            self.caught = (signum, frame)

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            for sig in self.SIGNALS:
                handler = signal.getsignal(sig)
                if handler is not signal.SIG_IGN and handler is not None:
                    self.previous[sig] = signal.signal(sig, self._catch)
        return self

    def __exit__(self, *exc) -> bool:
        for sig, handler in self.previous.items():
            signal.signal(sig, handler)
        return False

    def deliver(self) -> None:
        if self.caught is None:
            return
        signum, frame = self.caught
        handler = self.previous.get(signum)
        if callable(handler):
            handler(signum, frame)  # Python's own SIGINT handler raises KeyboardInterrupt
        elif signum == signal.SIGINT:
            raise KeyboardInterrupt
        else:  # the default action of SIGTERM: end the process, as if not deferred
            os.kill(os.getpid(), signum)


def _start_pool(n: int):
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    before = set(multiprocessing.active_children())
    return ProcessPoolExecutor(max_workers=n, initializer=_worker_start), before


def _stop(pool, before: set) -> None:
    """Cancel what has not started and end the pool's workers now (not after their batches)."""
    import multiprocessing

    pool.shutdown(wait=False, cancel_futures=True)
    ours = set(multiprocessing.active_children()) - before  # the processes this pool started
    for p in ours:
        p.kill()
    for p in ours:
        p.join(timeout=5)


def _worker_start() -> None:
    """In each worker, first: ignore Ctrl-C (the parent handles it) and die with the parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid()
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            PR_SET_PDEATHSIG = 1
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # the watching thread below still works
    if os.getppid() != parent:  # the parent died before the signal was asked for
        _die()
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True, name="watch-parent").start()


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(_WATCH_INTERVAL)
        if os.getppid() != parent:  # orphaned: the parent is gone, so is anyone to report to
            _die()


def _die() -> None:
    os.kill(os.getpid(), getattr(signal, "SIGKILL", signal.SIGTERM))  # now, whatever the main thread does


# ---- a Dask cluster --------------------------------------------------------------------------


def _run_dask(client, fn, batches, done, worker_timeout: float) -> None:
    from distributed import KilledWorker
    from distributed import wait as dask_wait

    with _Deferred() as signals:
        futures = {client.submit(fn, b, pure=False): i for i, b in enumerate(batches)}
        pending = set(futures)
        alone_since = None  # when the cluster was first seen without a worker
        try:
            while pending and not signals.caught:
                try:
                    finished = dask_wait(list(pending), timeout=0.5, return_when="FIRST_COMPLETED").done
                except TimeoutError:
                    finished = set()
                taken = 0
                for fut in finished:
                    try:  # a result lives on the worker that made it: if that worker is gone, it is made again
                        result = fut.result(timeout=_DASK_FETCH)
                    except TimeoutError:
                        continue  # still pending
                    except KilledWorker as e:
                        raise GameError(f"the Dask cluster lost every worker that ran a batch ({e})") from None
                    pending.discard(fut)
                    taken += 1
                    done(futures[fut], result)
                if taken or signals.caught or dask_workers(client) > 0:
                    alone_since = None
                    continue
                alone_since = alone_since or time.monotonic()
                if time.monotonic() - alone_since > worker_timeout:
                    raise GameError(f"the Dask cluster has had no worker for {worker_timeout:g} s; "
                                    f"{len(pending)} of {len(batches)} batches not done")
        except BaseException:
            _cancel(client, pending)
            raise
        if pending:
            _cancel(client, pending)
    signals.deliver()


def _cancel(client, futures) -> None:
    try:
        client.cancel(list(futures))
    except Exception:  # a scheduler that is gone: nothing to cancel
        pass


def dask_workers(client) -> int:
    """How many workers a Dask cluster has now (0 if the scheduler cannot be asked)."""
    try:
        return len(client.scheduler_info()["workers"])
    except Exception:
        return 0


def dask_threads(client) -> int:
    """How many tasks a Dask cluster runs at once."""
    try:
        return sum(w.get("nthreads", 1) for w in client.scheduler_info()["workers"].values())
    except Exception:  # an unusual scheduler: fall back to a modest split
        return 4


CLUSTER_EXTRA = "pip install 'ziggurat[cluster]'"


def require_dask() -> None:
    """GameError naming the `cluster` extra unless Dask's distributed scheduler can be imported.
    Dask is imported only here and where a cluster is used: a local study never loads it."""
    try:
        import distributed  # noqa: F401
    except ImportError as e:
        raise GameError(f"running on a Dask cluster needs Dask, which is not installed ({e.name or e}): "
                        f"{CLUSTER_EXTRA}") from None


def connect(address: Optional[str] = None, scheduler_file: Optional[str] = None, timeout: str = "20s"):
    """A Dask distributed client for a running cluster (by scheduler address or scheduler file);
    GameError naming the `cluster` extra when Dask is not installed."""
    require_dask()
    from distributed import Client

    if scheduler_file is not None:
        check_scheduler_file(scheduler_file)
    try:
        if scheduler_file is not None:
            return Client(scheduler_file=scheduler_file, timeout=timeout)
        return Client(address, timeout=timeout)
    except (OSError, TimeoutError, ValueError, AssertionError) as e:
        where = scheduler_file or address
        raise GameError(f"cannot reach the Dask scheduler at {where!r}: {e or type(e).__name__}") from None


def check_scheduler_file(path: str) -> None:
    """GameError unless `path` is a Dask scheduler file (JSON with the scheduler's address).
    Dask itself waits for a missing file to appear, and fails on a bad one with a bare assertion."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise GameError(f"scheduler file {path!r} does not exist (a Dask scheduler writes it when "
                        f"started with --scheduler-file)") from None
    except (OSError, UnicodeDecodeError) as e:
        raise GameError(f"cannot read scheduler file {path!r}: {getattr(e, 'strerror', None) or e}") from None
    try:
        info = json.loads(text)
    except ValueError:
        raise GameError(f"scheduler file {path!r} is not JSON (a Dask scheduler file is)") from None
    if not isinstance(info, dict) or not isinstance(info.get("address"), str):
        raise GameError(f"scheduler file {path!r} names no scheduler address (no \"address\" in it)")
