"""Where a study runs: a local Dask cluster of worker processes sized to the machine, or an existing cluster's
scheduler; each worker warms the engine's numba kernels once (``engine.warmup``) before it takes a task.

Processes, not threads: the analysis holds the GIL between its kernels, and each process loads numba's on-disk
cache once. A local cluster gets one single-threaded worker per core (the engine's own threads and BLAS's are
set to one by Dask's nanny), each with an equal share of the machine's memory: a worker that grows beyond it
is restarted by its nanny and its task run again elsewhere (docs/batch.md: SLURM and PBS with dask-jobqueue).
"""
from __future__ import annotations

import contextlib
import logging
import os
from contextlib import contextmanager

from distributed import Client, LocalCluster, WorkerPlugin


class WarmUp(WorkerPlugin):
    """Compiles (or loads from numba's cache) every kernel of the analysis when a worker starts."""

    name = "hybridlab-warm-up"

    def setup(self, worker) -> None:
        from engine.progress import run
        from engine.warmup import warm_up_steps
        run(warm_up_steps())


@contextmanager
def study_client(scheduler: str | None = None, workers: int | None = None, warm_up: bool = True):
    """Context manager yielding a client of the scheduler at ``scheduler`` (e.g. ``tcp://host:8786``), or of a new
    local cluster of ``workers`` processes (default: one per core), closed at the end."""
    with contextlib.ExitStack() as stack:
        if scheduler:
            client = stack.enter_context(Client(scheduler))
        else:
            n = workers or os.cpu_count() or 1
            cluster = stack.enter_context(LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                                       dashboard_address=":0", silence_logs=logging.ERROR))
            client = stack.enter_context(Client(cluster))
        if warm_up:
            client.register_plugin(WarmUp())
        yield client


def dashboard(client: Client) -> str:
    """The Dask dashboard's address, or why there is none."""
    try:
        link = client.dashboard_link
    except Exception:
        link = None
    return link or "not available (the dashboard needs the bokeh package)"
