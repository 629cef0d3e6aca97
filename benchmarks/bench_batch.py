"""Whole studies on Dask (``hybrid batch``): trials per minute with one and two worker processes, Dask's per-task
overhead against a plain loop over the same trials in one process, and a simulated 1,000-trial study.

The study: ``--trials`` copies (default 8) of gait2354's walk1 (subject01_simbody.osim, the whole trial with its
plates), each with its own low-pass cut-off (so each is its own analysis). The plain loop runs the same task
function (``study.tasks.analyse_trial``: ``hybrid analyze``'s work and the study record) in this process after a
warm-up, with the workers' thread settings (``study.cluster.WORKER_ENVIRONMENT``, set before numba is imported, so
that the difference is Dask's alone); the Dask runs time ``study.runner.run_study`` (tasks, manifest, study table)
on a started, warmed-up local cluster (cluster start-up reported apart), each into a fresh folder. As the loop's
process, each worker has analysed one trial untimed before, and pyarrow (the table's writer) is imported before:
a process's one-time costs (its first read of the inputs, the first touch of its memory, about 0.1 s of
processor) are not a task's. The loop, the one-worker and the two-worker study run ``--repeat`` times (default
3) in turn, both clusters kept started; the best of each is reported (the one least slowed by the machine's other
work). overhead_pct = 100 (one worker's time / the loop's time - 1).
The simulated study: 1,000 tasks that each sleep for the loop's measured seconds per trial, on two worker
processes of ``--threads`` threads each (sleeping takes no processor): sim_efficiency = the ideal time
(1,000 x per-trial seconds / slots) over the measured one, 1 when the scheduler keeps up.

The machine's load average (1 min) before and after is printed with the figures: on a shared machine the wall-clock
figures mean little when it is above zero (and Linux's autogroup scheduling gives each session an equal share of
the processors, so that two workers get no more processor than one while other sessions are busy). Processor time
does not depend on the load: cpu_overhead_pct = 100 (processor seconds of the one-worker run: its worker process
and this one, with every thread of both clusters' schedulers and nannies / those of the loop's thread - 1), an
upper bound of Dask's processor overhead.

Last line: RESULT trials_per_min_1=.. trials_per_min_2=.. scaling=.. overhead_pct=.. sim_trials=1000
sim_efficiency=.. cluster_start_s=.. cpu_overhead_pct=.. peak_rss_mb=.. load_before=.. load_after=..
"""
from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATA = ROOT / "tests" / "data" / "opensim" / "gait2354"

from study.cluster import WORKER_ENVIRONMENT, study_client  # noqa: E402  (imports no kernels, not numba)

os.environ.update(WORKER_ENVIRONMENT)
from study.description import load_study  # noqa: E402
from study.runner import run_study  # noqa: E402
from study.tasks import analyse_trial  # noqa: E402


def write_study(folder: Path, trials: int) -> Path:
    items = "".join(f"      - id: walk{i}\n        file: {DATA / 'subject01_walk1.trc'}\n"
                    f"        grf: {DATA / 'subject01_walk1_grf.mot'}\n"
                    f"        external_loads: {DATA / 'subject01_walk1_grf.xml'}\n"
                    f"        settings: {{filter: {5.0 + 0.25 * i}}}\n" for i in range(trials))
    path = folder / "study.yaml"
    path.write_text(f"format: hybridlab-study\nversion: 1\nsubjects:\n  - id: s01\n"
                    f"    model: {DATA / 'subject01_simbody.osim'}\n    trials:\n{items}")
    return path


def processor_seconds(pids=()) -> float:
    """Processor seconds of this process (with its threads: the clusters' schedulers and nannies) and of ``pids``."""
    import psutil
    total = 0.0
    for p in [psutil.Process(), *map(psutil.Process, pids)]:
        t = p.cpu_times()
        total += t.user + t.system
    return total


def plain_loop(study, out: Path) -> tuple[float, float, float]:
    """(s, processor s of this thread, the largest peak resident MB of a trial) of the loop over ``study`` into
    ``out``."""
    model = str(study.subjects[0].model)
    start, cpu, peak = time.perf_counter(), time.thread_time(), 0.0
    for trial in study.trials:
        outcome = analyse_trial(trial, model, out / trial.id, "loop")
        assert outcome["status"] == "done", outcome
        peak = max(peak, outcome["peak_rss_mb"])
    return time.perf_counter() - start, time.thread_time() - cpu, peak


def started_cluster(stack, study, out: Path, workers: int):
    """(client, start-up s) of a local cluster of ``workers`` processes, each of which has analysed one trial."""
    start = time.perf_counter()
    client = stack.enter_context(study_client(workers=workers))
    client.wait_for_workers(workers)
    model = str(study.subjects[0].model)
    for worker in client.scheduler_info()["workers"]:         # as the loop's process (module notes)
        client.submit(analyse_trial, study.trials[0], model, out / f"warm{worker.split(':')[-1]}", "warm",
                      workers=[worker], pure=False).result()
    return client, time.perf_counter() - start


def on_dask(study, out: Path, client) -> tuple[float, float]:
    """(study s, processor s of every process) of ``study`` run on ``client`` into ``out``."""
    workers = list(client.run(os.getpid).values())
    started, cpu = time.perf_counter(), processor_seconds(workers)
    run = run_study(study, out, client)
    seconds, cpu = time.perf_counter() - started, processor_seconds(workers) - cpu
    assert run.count("done") == len(study.trials), {k: o.get("error") for k, o in run.outcomes.items()}
    return seconds, cpu


def simulated(per_trial: float, threads: int, n: int = 1000) -> float:
    from distributed import Client, LocalCluster
    with LocalCluster(n_workers=2, threads_per_worker=threads, processes=True, dashboard_address=":0") as cluster, \
            Client(cluster) as client:
        client.wait_for_workers(2)
        start = time.perf_counter()
        futures = client.map(time.sleep, [per_trial] * n, pure=False)
        client.gather(futures)
        seconds = time.perf_counter() - start
    return n * per_trial / (2 * threads) / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=8)
    parser.add_argument("--threads", type=int, default=50, help="threads per worker of the simulated study")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each, interleaved; the best is reported")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    import pyarrow.parquet  # noqa: F401  (module notes)
    loops, ones, twos = [], [], []
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        out = Path(tmp)
        study = load_study(write_study(out, args.trials))
        analyse_trial(study.trials[0], str(study.subjects[0].model), out / "warm", "warm")   # compiles or loads
        one_client, start1 = started_cluster(stack, study, out, 1)
        two_client, start2 = started_cluster(stack, study, out, 2)
        for i in range(args.repeat):            # interleaved: a burst of load spoils one of each, not all
            loops.append(plain_loop(study, out / f"loop{i}"))
            ones.append(on_dask(study, out / f"one{i}", one_client))
            twos.append(on_dask(study, out / f"two{i}", two_client))
    (loop, loop_cpu, peak), (one, one_cpu), (two, _) = min(loops), min(ones), min(twos)
    per_trial = loop / args.trials
    efficiency = simulated(per_trial, args.threads)
    n = args.trials
    print(f"{n} trials, best of {args.repeat}: plain loop {loop:.2f} s ({per_trial:.3f} s a trial); Dask 1 worker "
          f"{one:.2f} s, 2 workers {two:.2f} s; cluster start-up {start1:.1f} s / {start2:.1f} s; processor s: loop "
          f"{loop_cpu:.2f}, Dask 1 worker {one_cpu:.2f}")
    print("all runs (s): loop " + " ".join(f"{r[0]:.2f}" for r in loops) + "; 1 worker "
          + " ".join(f"{r[0]:.2f}" for r in ones) + "; 2 workers " + " ".join(f"{r[0]:.2f}" for r in twos))
    print(f"RESULT trials_per_min_1={60 * n / one:.1f} trials_per_min_2={60 * n / two:.1f} scaling={one / two:.2f} "
          f"overhead_pct={100 * (one / loop - 1):.1f} sim_trials=1000 sim_efficiency={efficiency:.3f} "
          f"cluster_start_s={start2:.1f} cpu_overhead_pct={100 * (one_cpu / loop_cpu - 1):.1f} "
          f"peak_rss_mb={peak:.0f} load_before={load_before:.2f} load_after={os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
