"""Where a study runs: a local Dask cluster of worker processes sized to the machine, or an existing cluster's
scheduler; each worker imports the analysis and warms its numba kernels once (:class:`WarmUp`) before it takes a
task, so that no task pays for compiling, loading cached kernels or importing readers.

Processes, not threads: the analysis holds the GIL between its kernels, and each process loads numba's on-disk
cache once. A local cluster gets one single-threaded worker per core, whose numba, OpenMP and BLAS threads are one
too (:data:`WORKER_ENVIRONMENT`, :class:`OneThread`: a worker that also spread its kernels over every core would
fight the others for them), each with a memory limit (default an equal share of the machine's memory): a worker that
grows beyond 95% of it is restarted by its nanny and its task run again elsewhere, and a task that keeps doing so
fails with the limit named (``study.runner``; docs/batch.md: SLURM and PBS with dask-jobqueue). This process's own
environment gets no thread limits: the processes it starts while a cluster runs get none from it. Dask's nanny
writes :data:`NANNY_WRITES` into it as it starts a worker, which those processes do inherit; when the cluster closes,
they are as they were before (:func:`study_client`).
"""
from __future__ import annotations

import contextlib
import logging
import os
import sys
from contextlib import contextmanager

import dask
from distributed import Client, LocalCluster, WorkerPlugin

WORKER_ENVIRONMENT = {"NUMBA_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
                      "MKL_NUM_THREADS": "1"}
"""The environment of each local worker process (the nanny's ``env``, set in the worker process as it starts, for the
libraries it loads later and the processes it starts; numba reads ``NUMBA_NUM_THREADS`` when imported, the muscle
paths' threads follow it, ``engine.muscles.path.geometry``; OpenBLAS and OpenMP read theirs when loaded). What the
worker process loaded before, :class:`OneThread` limits."""

LOCAL_CLUSTER_SETTINGS = {
    "distributed.worker.memory.target": (False, "nothing spilled to disk: a task's results are small and written by "
                                                "the task"),
    "distributed.worker.memory.spill": (False, "the same"),
    "distributed.worker.memory.pause": (False, "no worker paused above 80%: it would never take another trial, and "
                                               "the study would wait for ever"),
    "distributed.worker.memory.terminate": (0.95, "a worker over 95% of its memory limit is restarted by its nanny"),
    "distributed.worker.memory.monitor-interval": ("500ms", "the nanny checks its worker's memory twice a second "
                                                            "(Dask's 100 ms: 4 ms of processor a second more)"),
    "distributed.nanny.pre-spawn-environ": ({}, "no MALLOC_TRIM_THRESHOLD_: about 1% more processor time a trial "
                                                "with it"),
    "distributed.worker.profile.enabled": (False, "no statistical profiler sampling the task's thread every 10 ms "
                                                  "(22 ms of the worker's processor a second)"),
    "distributed.admin.tick.interval": ("1s", "event-loop health checks once a second (Dask's 20 ms: 12 ms of the "
                                              "worker's and 16 ms of the scheduler's processor a second)"),
    "distributed.admin.system-monitor.interval": ("10s", "the dashboard's resource samples every 10 s (Dask's 0.5 s)"),
    "distributed.admin.system-monitor.disk": (False, "no disk counters read"),
}
"""Each setting Dask's scheduler and nannies of a local cluster read as they are made, with its value and why (``hybrid
batch`` prints them; an existing cluster, ``--scheduler``, keeps its own). Processor times: ``benchmarks/
bench_task_cpu.py``, an idle one-worker cluster's threads (docs/batch.md, "Dask's overhead"): with
:data:`SYNC_INTERVAL`, about 0.0065 s of processor a second (0.06 with Dask's defaults), per thread 0.0022-0.0025 the
worker's event loop (mostly its heartbeats), 0.0040-0.0045 the scheduler's process. The emptied pre-spawn environment:
Dask would set ``MALLOC_TRIM_THRESHOLD_`` in this process's environment, for good, for the processes it starts to
inherit; it turns off glibc's adaptive thresholds, so that a trial maps and faults in its large arrays afresh (1,300
page faults a trial) for no less resident memory. The thread limits come from :data:`WORKER_ENVIRONMENT` and
:class:`OneThread`."""

LOCAL_CLUSTER_CONFIG = {name: value for name, (value, _) in LOCAL_CLUSTER_SETTINGS.items()}
""":data:`LOCAL_CLUSTER_SETTINGS`'s values, as ``dask.config.set`` takes them (the reasons are there)."""

NANNY_WRITES = ("PYTHONHASHSEED", "__DASK_PARENT_PID")
"""The variables Dask's nanny sets in this process's environment, for good, as it starts a worker: the workers' hash
seed (so that their hashes agree) and this process's id (so that its children, not it, name their processes)."""

SYNC_INTERVAL = 30
"""Seconds between two copies of the local cluster's description to its scheduler (for the dashboard; Dask's
default, 1, is a round trip a second through the scheduler for the study's whole length)."""

TASK_MODULES = ("engine.cli.analyze", "engine.io.open", "engine.io.open_trial", "engine.io.osim.reader",
                "engine.io.model_file", "engine.io.trc", "engine.io.c3d", "engine.io.external_loads",
                "engine.io.scale_files", "study.tasks")
"""The modules a task imports on first use (the analysis's command and the readers of each input format)."""


class OneThread(WorkerPlugin):
    """One thread for what a worker process loaded before its environment (:data:`WORKER_ENVIRONMENT`) was set: the
    BLAS libraries numpy and scipy load, and any OpenMP runtime, already have their thread pools (one thread per core:
    a worker process imports distributed, and so numpy, before Dask sets its ``env``, and a spawned worker runs this
    process's main script again first, ``hybrid``'s importing the engine), which threadpoolctl sets to one thread;
    numba, when the main script imported it, reads ``NUMBA_NUM_THREADS`` again (numba's own ``reload_config``, which
    its compiler calls before each compilation), so that ``numba.config.NUMBA_NUM_THREADS``, which the muscle paths'
    threads follow, is one. Numba's own thread pool for ``parallel=True`` kernels keeps the count it read at import
    (``numba.np.ufunc.parallel.NUM_THREADS``; ``numba.set_num_threads`` would start that pool to mask its threads):
    no kernel of the analysis is parallel, and the pool is never started."""

    name = "hybridlab-one-thread"

    def setup(self, worker) -> None:
        from threadpoolctl import threadpool_limits
        threadpool_limits(limits=1)
        if "numba" in sys.modules:
            from numba.core import config
            config.reload_config()


class CodeDigest(WorkerPlugin):
    """Computes the worker's code digest (``study.fingerprint.code_digest``, about 0.1 s, once per process) as the
    worker starts, also one that joins later, so that no task pays for it: each task compares it with its client's
    (``study.tasks.other_code``) and refuses to run on other code."""

    name = "hybridlab-code-digest"

    def setup(self, worker) -> None:
        from .fingerprint import code_digest
        code_digest()


class WarmUp(WorkerPlugin):
    """Imports what the tasks use and compiles (or loads from numba's cache) every kernel of the analysis when a
    worker starts; not the kernels of the packages beside the engine (hip mechanism, skin), which no task calls, and
    whose warm-up would import VTK on the worker."""

    name = "hybridlab-warm-up"

    def setup(self, worker) -> None:
        import importlib

        from engine.progress import run
        from engine.warmup import warm_up_steps
        for module in TASK_MODULES:
            importlib.import_module(module)
        run(warm_up_steps(plugins=False))


class SchedulerUnreachable(Exception):
    """The scheduler of ``hybrid batch --scheduler`` cannot be reached (its message names the address)."""


def _connected(address: str) -> Client:
    """A client of the scheduler at ``address``; :class:`SchedulerUnreachable` when it cannot be reached within Dask's
    connection timeout (``distributed.comm.timeouts.connect``, 30 s by default); SettingsError for an address Dask
    cannot read."""
    from engine.errors import SettingsError
    try:
        return Client(address)
    except ValueError as exc:
        raise SettingsError(f"--scheduler {address!r} is not a Dask scheduler's address ({exc}); e.g. "
                            "tcp://host:8786", "--scheduler") from None
    except OSError as exc:                  # refused, timed out, unknown host: Dask's OSError after its retries
        timeout = dask.config.get("distributed.comm.timeouts.connect")
        raise SchedulerUnreachable(f"no Dask scheduler answered at {address} within {timeout} ({exc}): check that it "
                                   "runs and that its address (e.g. tcp://host:8786) is reachable from this machine") \
            from None


@contextmanager
def study_client(scheduler: str | None = None, workers: int | None = None, warm_up: bool = True,
                 memory_limit: str | int = "auto"):
    """Context manager yielding a client of the scheduler at ``scheduler`` (e.g. ``tcp://host:8786``), or of a new
    local cluster of ``workers`` processes (default: one per core) with :data:`WORKER_ENVIRONMENT`, :class:`OneThread`
    and ``memory_limit`` each (bytes, or Dask's text such as ``"2GB"``; ``"auto"``: an equal share of the machine's
    memory), closed at the end. Every worker, also one that joins later, computes its code digest as it starts
    (:class:`CodeDigest`); an existing cluster's connected workers must have this process's (:func:`same_code`)."""
    with contextlib.ExitStack() as stack:
        if scheduler:
            client = stack.enter_context(_connected(scheduler))
            same_code(client)
        else:
            n = workers or os.cpu_count() or 1
            stack.callback(_restore, {name: os.environ.get(name) for name in NANNY_WRITES})    # once the cluster closed
            with dask.config.set(LOCAL_CLUSTER_CONFIG):
                cluster = stack.enter_context(LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                                           memory_limit=memory_limit, env=WORKER_ENVIRONMENT,
                                                           dashboard_address=":0", silence_logs=logging.ERROR,
                                                           scheduler_sync_interval=SYNC_INTERVAL))
            client = stack.enter_context(Client(cluster))
            client.register_plugin(OneThread())
        client.register_plugin(CodeDigest())
        if warm_up:
            client.register_plugin(WarmUp())
        yield client


def same_code(client: Client) -> None:
    """SettingsError naming the workers of ``client`` that run other HybridLab code than this process (another
    :func:`study.fingerprint.code_digest`): their results would be recorded under this code's fingerprints. The
    workers connected now; each task checks its worker again, one that joined later too (``study.tasks.other_code``)."""
    from engine.errors import SettingsError

    from .fingerprint import code_digest
    here = code_digest()
    others = sorted(worker for worker, digest in client.run(code_digest).items() if digest != here)
    if others:
        raise SettingsError(f"the workers {', '.join(others)} run other HybridLab code than this process (their engine "
                            "and study sources differ): install the same HybridLab on them", "--scheduler")


def _restore(values: dict) -> None:
    """This process's environment variables set to ``values`` again ({name: value}; removed where ``None``)."""
    for name, value in values.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


def local_cluster_notes() -> list[str]:
    """One line per setting of :data:`LOCAL_CLUSTER_SETTINGS`: its name, value and reason."""
    return [f"{name}={value!r}: {reason}" for name, (value, reason) in LOCAL_CLUSTER_SETTINGS.items()]


DASHBOARD_TIMEOUT = 5.0
"""Seconds :func:`dashboard` waits for the scheduler's answer."""


def dashboard(client: Client) -> str:
    """The Dask dashboard's address when its scheduler serves it, else why not. The scheduler serves its dashboard
    only when its Python has bokeh (Dask's requirement, ``distributed.versions.BOKEH_REQUIREMENT``), and otherwise a
    page saying so at the same address: the scheduler's list of its dashboard's plots (``individual-plots.json``, the
    same server, no plot made) tells them apart, also for an existing cluster's scheduler (``--scheduler``)."""
    import json
    import urllib.request
    link = client.dashboard_link
    if not link:
        return "not available (the scheduler serves no dashboard)"
    plots = link.rsplit("/", 1)[0] + "/individual-plots.json"
    try:
        with urllib.request.urlopen(plots, timeout=DASHBOARD_TIMEOUT) as answer:
            served = bool(json.loads(answer.read()))
    except (OSError, ValueError) as exc:
        return f"{link} (its scheduler did not answer from this machine: {exc})"
    if served:
        return link
    from distributed.versions import BOKEH_REQUIREMENT
    return (f"not available: the scheduler's Python has no {BOKEH_REQUIREMENT}, which Dask needs for its dashboard "
            f"(pip install \"{BOKEH_REQUIREMENT}\" where the scheduler runs)")
