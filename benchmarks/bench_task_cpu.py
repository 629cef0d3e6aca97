"""Where a Dask task's processor time goes, setting by setting: the processor seconds a gait2354 trial costs on a
one-worker local cluster (``study.cluster.study_client``) beyond what the same trial costs in a plain loop, split by
process and thread, for each variant of Dask's settings in :data:`VARIANTS`.

Processor time, not wall-clock time: on this shared 2-core VM the wall clock moves by several percent from one minute
to the next, while a thread's processor seconds hardly move with the load. Each variant starts its own cluster (the
settings apply as a cluster's scheduler and nanny are made: ``study.cluster.LOCAL_CLUSTER_CONFIG`` with the variant's
changes), lets its worker analyse one trial untimed, then runs ``--rounds`` blocks of ``--block`` trials through
``study.runner.run_study``, one task per trial (``per_task=1``: what each task costs, which the grouping of trials
into tasks, ``study.trial_groups``, divides among a task's trials); the loop (a process of its own, started like a
worker) runs a block between two of the variant's. Each figure is milliseconds of processor time per trial (median over the rounds):

- task: the task thread's processor time inside the task function (``time.thread_time``), minus the loop's for the
  same trials (the trial's own work done slower beside Dask's threads: caches, the GIL);
- executor: the worker's task thread outside the task function (Dask's wrapping of each task);
- worker_loop: the worker's main thread (its event loop: messages, task states, heartbeats, memory checks);
- worker_other: the worker's other threads (the statistical profiler's, Dask's offload thread, ...);
- here_net: this process's threads (the scheduler's, the nannies' and the client's event loop, run_study's own
  thread) less the loop's processor time outside its trials (the same bookkeeping: fingerprints, manifest, table);
- total: all of these; share_pct: total over the loop's processor time per trial;
- wall: the block's wall-clock seconds a trial; per_task: worker_loop and here_net less what the idle cluster's
  threads take in that time (their idle rates, ``idle_worker_loop``, ``idle_here``, in ms a second): Dask's work for
  each task itself, which a loaded machine does not stretch as it stretches the periodic work (a quiet machine's
  share is per_task + (idle_worker_loop + idle_here) x a trial's seconds, over loop_cpu).

Beside them: ``idle_*`` the same threads' processor time in ms a second over ``IDLE_SECONDS`` of an idle cluster
before each block, ``loop_cpu`` the loop's trial's processor time, and ``wall_before``, ``wall_in_trials``,
``wall_between``, ``wall_after``: the block's wall-clock time before its first trial, in its trials, between them and
after its last, less the loop's (ms a trial; on a loaded machine, noise).

Last line: ``RESULT`` with each variant's ``total`` (ms a trial), ``share_pct`` and ``per_task`` (ms a trial).
"""
from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from study import cluster as study_cluster  # noqa: E402
from study.cluster import WORKER_ENVIRONMENT, study_client  # noqa: E402

os.environ.update(WORKER_ENVIRONMENT)
import study.runner as study_runner  # noqa: E402
from study.description import load_study  # noqa: E402
from study.runner import run_study  # noqa: E402
from study.tasks import analyse_trial  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_batch import plain_loop, write_study  # noqa: E402

VARIANTS = {
    "base": {},
    "profiler_on": {"distributed.worker.profile.enabled": True},
    "dask_defaults": {"distributed.worker.profile.enabled": True, "distributed.admin.tick.interval": "20ms",
                      "distributed.worker.memory.monitor-interval": "100ms",
                      "distributed.admin.system-monitor.interval": "500ms"},
    "monitor_100ms": {"distributed.worker.memory.monitor-interval": "100ms"},
    "no_stealing": {"distributed.scheduler.work-stealing": False},
    "tick_20ms": {"distributed.admin.tick.interval": "20ms"},
    "sysmon_60s": {"distributed.admin.system-monitor.interval": "60s"},
    "no_queuing": {"distributed.scheduler.worker-saturation": "inf"},
    "no_amm": {"distributed.scheduler.active-memory-manager.start": False},
    "validate": {"distributed.scheduler.validate": True, "distributed.worker.validate": True},
}

IDLE_SECONDS = 2.0
"""Seconds an idle cluster is sampled before each block (its processor time a second, ``idle_*``)."""


def probe_trial(trial, model, folder, fingerprint: str) -> dict:
    """``study.tasks.analyse_trial``, with the task thread's processor seconds inside it, its native id and the
    moments (``time.perf_counter``, the machine's monotonic clock: the same in every process) it started and ended."""
    t0, cpu = time.perf_counter(), time.thread_time()
    outcome = analyse_trial(trial, model, folder, fingerprint)
    return {**outcome, "thread_cpu": time.thread_time() - cpu, "tid": threading.get_native_id(), "pid": os.getpid(),
            "t0": t0, "t1": time.perf_counter()}


def loop_block(study, out: str) -> dict:
    """In the loop's process: ``study`` without Dask, as bench_batch's :func:`plain_loop` runs it (the same
    bookkeeping as ``run_study``: fingerprints, manifests, table and summary) with :func:`probe_trial`: its outcomes,
    its start and end, and its processor seconds."""
    return plain_loop(study, out, task=probe_trial)


def timeline(outcomes, start: float, end: float) -> dict:
    """A block's wall-clock seconds split: before its first trial, in its trials, between them, after the last."""
    o = sorted(outcomes, key=lambda o: o["t0"])
    return {"before": o[0]["t0"] - start, "in_trials": sum(x["t1"] - x["t0"] for x in o),
            "between": sum(b["t0"] - a["t1"] for a, b in zip(o, o[1:])), "after": end - o[-1]["t1"]}


def threads(pid: int) -> dict:
    """{thread id: processor seconds} of the process ``pid``, to the nanosecond (Linux's scheduler statistics:
    psutil's thread times count 10 ms clock ticks)."""
    seconds = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            seconds[int(task.name)] = int((task / "schedstat").read_text().split()[0]) / 1e9
    return seconds


def split(worker_pid: int, task_tids: set, before: tuple, after: tuple) -> dict:
    """Processor seconds between two samples of (worker's threads, this process's threads): the worker's task
    threads, its main thread (event loop), its other threads, and this process."""
    delta = {t: s - before[0].get(t, 0.0) for t, s in after[0].items()}
    return {"task_thread": sum(delta.get(t, 0.0) for t in task_tids), "worker_loop": delta[worker_pid],
            "worker_other": sum(s for t, s in delta.items() if t not in task_tids and t != worker_pid),
            "here": sum(s - before[1].get(t, 0.0) for t, s in after[1].items())}


def measure(name: str, changes: dict, study, out: Path, pool, rounds: int, switch: float | None) -> dict:
    """The variant's idle processor rates and its blocks, each with the loop's block after it: {figure: [values]}
    (ms a trial; ``idle_*`` ms a second)."""
    n = len(study.trials)
    config = {**study_cluster.LOCAL_CLUSTER_CONFIG, **changes}
    figures = {}

    def add(key, value):
        figures.setdefault(key, []).append(value)
    with mock.patch.object(study_cluster, "LOCAL_CLUSTER_CONFIG", config), study_client(workers=1) as client:
        client.wait_for_workers(1)
        if switch is not None:
            client.run(sys.setswitchinterval, switch)
        model = str(study.subjects[0].model)
        warm = client.submit(probe_trial, study.trials[0], model, out / f"{name}-warm", "warm", pure=False).result()
        (worker_pid,) = client.run(os.getpid).values()
        sample = lambda: (threads(worker_pid), threads(os.getpid()))  # noqa: E731
        with mock.patch.object(study_runner, "analyse_trial", probe_trial):
            for r in range(rounds):
                before, idle_start = sample(), time.perf_counter()
                time.sleep(IDLE_SECONDS)
                idle = split(worker_pid, {warm["tid"]}, before, sample())
                for k, v in idle.items():
                    add(f"idle_{k}", 1000 * v / (time.perf_counter() - idle_start))
                before, start = sample(), time.perf_counter()
                run = run_study(study, out / f"{name}{r}", client, per_task=1)    # Dask's cost of each task
                end, after = time.perf_counter(), sample()
                loop = pool.submit(loop_block, study, str(out / f"{name}-loop{r}")).result()
                outcomes = list(run.outcomes.values())
                assert all(o["status"] == "done" for o in outcomes), [o.get("error") for o in outcomes]
                cpu = split(worker_pid, {o["tid"] for o in outcomes}, before, after)
                inside = sum(o["thread_cpu"] for o in outcomes)
                loop_inside = sum(o["thread_cpu"] for o in loop["outcomes"])
                per = {"task": inside - loop_inside, "executor": cpu["task_thread"] - inside,
                       "worker_loop": cpu["worker_loop"], "worker_other": cpu["worker_other"],
                       "here_net": cpu["here"] - (loop["cpu"] - loop_inside)}
                per["total"] = sum(per.values())
                per["loop_cpu"] = loop_inside
                per["wall"] = end - start
                idle_rate = {k: figures[f"idle_{k}"][-1] / 1000 for k in ("worker_loop", "here")}
                per["per_task"] = (cpu["worker_loop"] + per["here_net"]
                                   - (idle_rate["worker_loop"] + idle_rate["here"]) * (end - start))
                dask_t, loop_t = timeline(outcomes, start, end), timeline(loop["outcomes"], loop["start"], loop["end"])
                per.update({f"wall_{k}": dask_t[k] - loop_t[k] for k in dask_t})
                for k, v in per.items():
                    add(k, 1000 * v / n)
                add("wall_overhead_pct", 100 * ((end - start) / (loop["end"] - loop["start"]) - 1))
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--block", type=int, default=8, help="trials a block")
    parser.add_argument("--rounds", type=int, default=5, help="blocks a variant")
    parser.add_argument("--variants", default=",".join(VARIANTS), help="comma-separated names: " + ", ".join(VARIANTS)
                        + "; switchNN: base with the worker's sys.setswitchinterval at NN ms")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    results = {}
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        out = Path(tmp)
        study = load_study(write_study(out, args.block))
        for i in range(len(args.variants.split(","))):
            (out / str(i)).mkdir()
        pool = stack.enter_context(ProcessPoolExecutor(1, mp_context=get_context("spawn")))
        pool.submit(loop_block, study, str(out / "loop-warm")).result()
        for i, name in enumerate(args.variants.split(",")):
            switch = float(name.removeprefix("switch")) / 1000 if name.startswith("switch") else None
            figures = measure(name, {} if switch is not None else VARIANTS[name], study, out / str(i), pool,
                              args.rounds, switch)
            name = f"{name}_{i}" if name in results else name
            results[name] = {k: statistics.median(v) for k, v in figures.items()}
            m = results[name]
            print(f"{name:14s} " + " ".join(f"{k}={m[k]:.2f}" for k in figures)
                  + f"  share={100 * m['total'] / m['loop_cpu']:.1f}%", flush=True)
    print("RESULT " + " ".join(f"{name}_ms={m['total']:.2f} {name}_share_pct={100 * m['total'] / m['loop_cpu']:.1f} "
                               f"{name}_per_task_ms={m['per_task']:.2f}" for name, m in results.items())
          + f" block={args.block} rounds={args.rounds} load_before={load_before:.2f} "
            f"load_after={os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
