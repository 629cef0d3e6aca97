"""The peak resident memory of one task in a worker process.

On Linux the kernel's high-water mark of the process (``VmHWM`` in ``/proc/self/status``) is reset before the task
(writing 5 to ``/proc/self/clear_refs``) and read after it: the task's own peak, exact, with nothing sampled. Where
it cannot be reset (other systems) the process's peak so far is reported (``ru_maxrss``; ``peak_wset`` on
Windows): an upper bound of the task's. With one task per worker process (the local cluster's workers have one
thread) the process's peak is the task's. A worker of several threads (an existing cluster's, e.g. dask-jobqueue's
with ``cores`` > 1) runs several tasks at once in one process: its high-water mark is not reset (a task would reset
the peak of the tasks beside it), and the worker's peak so far is reported, said to be the worker's.
"""
from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path

_STATUS, _CLEAR = Path("/proc/self/status"), Path("/proc/self/clear_refs")


def _high_water_mb() -> float:
    if _STATUS.is_file():
        for line in _STATUS.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024 / 1e6       # kB (of 1024 bytes)
    if sys.platform == "win32":
        import psutil
        return psutil.Process().memory_info().peak_wset / 1e6
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6     # bytes on macOS


def _worker_threads() -> int:
    """The threads of the Dask worker running this task (1 outside a worker)."""
    from distributed import get_worker
    try:
        return get_worker().state.nthreads
    except ValueError:                        # not in a worker's task
        return 1


@contextmanager
def peak_memory():
    """Context manager yielding a dict whose ``"peak_rss_mb"`` is set, when the block ends (also by an
    exception), to the process's peak resident memory (MB, 10^6 bytes) within the block (module notes);
    ``"peak_is_task"`` says whether it is the block's own peak (False: the process's peak so far, an upper bound,
    where the high-water mark could not be reset or, on a worker of several threads, was not)."""
    own = _worker_threads() == 1              # else other tasks run beside this one: their peaks are kept
    try:
        if own:
            _CLEAR.write_text("5")
    except OSError:
        own = False                           # not Linux (or no procfs): the peak so far, an upper bound
    measured = {"peak_rss_mb": None, "peak_is_task": own}
    try:
        yield measured
    finally:
        measured["peak_rss_mb"] = _high_water_mb()
