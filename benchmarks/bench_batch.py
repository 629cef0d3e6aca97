"""Whole studies on Dask (``hybrid batch``): trials per minute with one and two worker processes, Dask's overhead
against a plain loop over the same trials, and a simulated 1,000-trial study; every figure with the load the
machine had, and those that the load cannot move (processor time, how busy Dask kept its workers) beside the
wall-clock ones that it can.

The study: ``--trials`` copies (default 8) of gait2354's walk1 (subject01_simbody.osim, the whole trial with its
plates), each with its own low-pass cut-off (so each is its own analysis). The Dask runs time
``study.runner.run_study`` (fingerprints, tasks, manifest, study table and summary) on a started local cluster of one
worker and one of two (cluster start-up reported apart), each into a fresh folder. The plain loop does the same
study without Dask in a process of its own started like a worker (``study.cluster.WORKER_ENVIRONMENT``): the
same fingerprints, manifest writes, table and summary, and the same task function (``study.tasks.analyse_trial``:
``hybrid analyze``'s work and the study record) writing the same folders, one trial after the other; so the
overhead is Dask's alone. Every process has analysed one trial untimed before (its first read of the inputs and of
the model, the first touch of its memory, the loop's first table are a process's costs, not a task's). The three run ``--repeat`` times (default 5) in rounds, their order rotated from round to
round, and each figure is the median over the rounds with its spread (lowest-highest) in the printed lines;
the ratios (overhead, scaling) are taken within each round, so that a change of the machine's load between rounds
cancels out.

Figures (RESULT line):
- trials_per_min_1, trials_per_min_2: the study's trials over the median wall-clock time of each cluster's runs.
- scaling: one worker's time / two workers' (median of the rounds); scaling_range its lowest-highest.
- overhead_pct: 100 (one worker's time / the loop's - 1); cpu_overhead_pct the same of processor time: every thread
  of the Dask run (the worker process, and this process's scheduler, nanny and client threads but the other
  cluster's, which idles meanwhile) against the loop process's.
- dask_cpu_pct: Dask's machinery in processor time: the one-worker run's processor time outside its trials (this
  process's threads as above, the worker's outside its tasks) less the loop's outside its trials (the study's own
  work: fingerprints, manifest, table), over the trials' processor time; cpu_overhead_pct without the noise of
  comparing trials run in two processes (a trial's processor time differs by 10% and more from run to run on a
  loaded machine); it grows with the wall-clock time (the heartbeats and checks go on while a loaded machine runs
  the trials slowly).
- efficiency_1, efficiency_2: the trials' processor seconds / (wall-clock seconds x workers): 1 when every worker
  computes all the time. It is the product of occupancy_2 (the trials' wall-clock seconds / (wall x workers): how
  busy Dask kept its workers, which the load hardly changes) and cpu_share_2 (the trials' processor seconds / their
  wall-clock seconds: the processor the machine gave them, below 1 when other work shares it, or the trials wait
  for the disk).
- scaling_cpu: the scaling the processor times give, 2 occupancy_2 / occupancy_1 x (a trial's processor seconds
  with one worker / with two): what two workers would do on an otherwise idle machine (the wall-clock scaling there,
  apart from the trials' waits for the disk); with both figures the claim "1.8x on 2 cores" can be checked under
  load.
- sim_efficiency: 1,000 tasks that each sleep for a trial's measured time (the loop's median), on two worker
  processes of ``--threads`` threads each (sleeping takes no processor): the ideal time (1,000 x seconds per trial
  / slots) over the measured one, 1 when the scheduler keeps up.
- load: the 1-minute load average before and after; others_cores the processors that the machine's other work used
  during the rounds, on average (the machine's busy processor time less this benchmark's processes', over the
  rounds' wall-clock time; 2 would leave nothing for the benchmark on this 2-core machine).

Last line: RESULT trials_per_min_1=.. trials_per_min_2=.. scaling=.. scaling_range=..-.. overhead_pct=..
overhead_range=..-.. cpu_overhead_pct=.. dask_cpu_pct=.. efficiency_1=.. efficiency_2=.. occupancy_2=.. cpu_share_2=..
scaling_cpu=.. sim_trials=1000 sim_efficiency=.. cluster_start_s=.. peak_rss_mb=.. repeats=.. load_before=..
load_after=.. others_cores=..
"""
from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATA = ROOT / "tests" / "data" / "opensim" / "gait2354"

from study.cluster import WORKER_ENVIRONMENT, study_client  # noqa: E402  (imports no kernels, not numba)

os.environ.update(WORKER_ENVIRONMENT)
from study.description import load_study  # noqa: E402
from study.fingerprint import subject_fingerprint, trial_fingerprint  # noqa: E402
from study.runner import MANIFEST_INTERVAL, StudyRun, finish_study, run_study, write_manifest  # noqa: E402
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


def _thread_seconds(pid: int) -> dict:
    """{thread id: processor seconds} of the process ``pid``."""
    import psutil
    return {t.id: t.user_time + t.system_time for t in psutil.Process(pid).threads()}


def _process_seconds(pid: int) -> float:
    import psutil
    t = psutil.Process(pid).cpu_times()
    return t.user + t.system


def plain_loop(study, out: str) -> dict:
    """In the loop's process: ``study`` without Dask, with the work ``study.runner.run_study`` does around its tasks
    (each trial's fingerprint, the manifest at the start, at most once every ``MANIFEST_INTERVAL`` and at the end,
    the study table and summary) and the same task function writing the same folders, the trials one after the
    other: wall-clock and processor seconds, the trials' own processor seconds and largest peak resident memory
    (MB)."""
    start, cpu = time.perf_counter(), time.process_time()
    out, subject = Path(out), study.subjects[0]
    out.mkdir(parents=True)
    run, digest = StudyRun(), subject_fingerprint(subject)
    fingerprints = {trial.key: trial_fingerprint(trial, digest) for trial in study.trials}
    write_manifest(out, study, run, fingerprints)
    written = time.monotonic()
    for trial in study.trials:
        outcome = run.outcomes[trial.key] = analyse_trial(trial, str(subject.model), out / "trials" / subject.id
                                                          / trial.id, fingerprints[trial.key])
        assert outcome["status"] == "done", outcome
        if time.monotonic() - written >= MANIFEST_INTERVAL:
            write_manifest(out, study, run, fingerprints)
            written = time.monotonic()
    write_manifest(out, study, run, fingerprints)
    finish_study(study, out, run)
    return {"wall": time.perf_counter() - start, "cpu": time.process_time() - cpu,
            "task_cpu": sum(o["cpu_seconds"] for o in run.outcomes.values()),
            "peak": max(o["peak_rss_mb"] for o in run.outcomes.values())}


class Cluster:
    """A started local cluster of ``workers`` processes, each of which has analysed one trial, with the processes
    and the thread of this process (its scheduler's and nannies' event loop) whose processor time is its own."""

    def __init__(self, stack, study, out: Path, workers: int):
        start = time.perf_counter()
        self.workers = workers
        self.client = stack.enter_context(study_client(workers=workers))
        self.client.wait_for_workers(workers)
        model = str(study.subjects[0].model)
        for worker in self.client.scheduler_info()["workers"]:         # module notes
            self.client.submit(analyse_trial, study.trials[0], model, out / f"warm{worker.split(':')[-1]}", "warm",
                               workers=[worker], pure=False).result()
        self.start_seconds = time.perf_counter() - start
        self.pids = list(self.client.run(os.getpid).values())
        self.loop_thread = self.client.run_on_scheduler(threading.get_native_id)

    def run(self, study, out: Path, idle_threads: tuple) -> dict:
        """``study`` on this cluster into ``out``: wall-clock seconds, processor seconds of its processes and of
        this process's threads but ``idle_threads`` (the other cluster's), and the trials' own seconds."""
        before = _thread_seconds(os.getpid()), [_process_seconds(p) for p in self.pids]
        started = time.perf_counter()
        run = run_study(study, out, self.client)
        wall = time.perf_counter() - started
        after = _thread_seconds(os.getpid()), [_process_seconds(p) for p in self.pids]
        assert run.count("done") == len(study.trials), {k: o.get("error") for k, o in run.outcomes.items()}
        here = sum(s - before[0].get(t, 0.0) for t, s in after[0].items() if t not in idle_threads)
        return {"wall": wall, "cpu": here + sum(after[1]) - sum(before[1]),
                "task_cpu": sum(o["cpu_seconds"] for o in run.outcomes.values()),
                "task_wall": sum(o["seconds"] for o in run.outcomes.values())}


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


def _busy_seconds() -> float:
    """The machine's processor seconds spent on anything but idling (all processors)."""
    import psutil
    t = psutil.cpu_times()
    return sum(t) - t.idle - getattr(t, "iowait", 0.0)


def _median_range(values) -> tuple[float, float, float]:
    return statistics.median(values), min(values), max(values)


def main() -> None:
    import psutil
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=8)
    parser.add_argument("--threads", type=int, default=50, help="threads per worker of the simulated study")
    parser.add_argument("--repeat", type=int, default=5, help="rounds of the loop and both clusters, in turn")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    import pyarrow.parquet  # noqa: F401  (the table's writer, imported once: module notes)
    runs = {"loop": [], "one": [], "two": []}
    spawn = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        out = Path(tmp)
        study = load_study(write_study(out, args.trials))
        pool = stack.enter_context(ProcessPoolExecutor(1, mp_context=spawn))
        loop_pid = pool.submit(os.getpid).result()
        (out / "warm").mkdir()
        pool.submit(plain_loop, load_study(write_study(out / "warm", 1)), str(out / "warm" / "out")).result()
        clusters = {"one": Cluster(stack, study, out, 1), "two": Cluster(stack, study, out, 2)}
        procs = [psutil.Process(p) for p in (os.getpid(), loop_pid, *clusters["one"].pids, *clusters["two"].pids)]
        own, busy, wall0 = -sum(_process_seconds(p.pid) for p in procs), _busy_seconds(), time.perf_counter()
        for i in range(args.repeat):
            order = ["loop", "one", "two"][i % 3:] + ["loop", "one", "two"][:i % 3]    # rotated: module notes
            for name in order:
                folder = out / f"{name}{i}"
                if name == "loop":
                    runs[name].append(pool.submit(plain_loop, study, str(folder)).result())
                else:
                    other = clusters["two" if name == "one" else "one"]
                    runs[name].append(clusters[name].run(study, folder, (other.loop_thread,)))
        own += sum(_process_seconds(p.pid) for p in procs)
        others = max(0.0, (_busy_seconds() - busy - own) / (time.perf_counter() - wall0))
    n = args.trials
    loop, one, two = runs["loop"], runs["one"], runs["two"]
    t_loop, t_one, t_two = (_median_range([r["wall"] for r in rs]) for rs in (loop, one, two))
    scaling = _median_range([a["wall"] / b["wall"] for a, b in zip(one, two)])
    overhead = _median_range([100 * (a["wall"] / b["wall"] - 1) for a, b in zip(one, loop)])
    cpu_overhead = statistics.median(100 * (a["cpu"] / b["cpu"] - 1) for a, b in zip(one, loop))
    dask_cpu = statistics.median(100 * ((a["cpu"] - a["task_cpu"]) - (b["cpu"] - b["task_cpu"])) / a["task_cpu"]
                                 for a, b in zip(one, loop))

    def per_run(rs, workers, f):
        return statistics.median(f(r, workers) for r in rs)
    efficiency = {k: per_run(rs, k, lambda r, w: r["task_cpu"] / (r["wall"] * w)) for k, rs in ((1, one), (2, two))}
    occupancy = {k: per_run(rs, k, lambda r, w: r["task_wall"] / (r["wall"] * w)) for k, rs in ((1, one), (2, two))}
    cpu_share_2 = per_run(two, 2, lambda r, w: r["task_cpu"] / r["task_wall"])
    cpu_per_trial = {k: statistics.median(r["task_cpu"] for r in rs) / n for k, rs in ((1, one), (2, two))}
    scaling_cpu = 2 * occupancy[2] / occupancy[1] * cpu_per_trial[1] / cpu_per_trial[2]
    per_trial = t_loop[0] / n
    sim = simulated(per_trial, args.threads)
    peak = max(r["peak"] for r in loop)

    def spread(name, t):
        return f"{name} {t[0]:.2f} s ({t[1]:.2f}-{t[2]:.2f})"
    print(f"{n} trials, median (lowest-highest) of {args.repeat} rounds: " + "; ".join(
        spread(name, t) for name, t in (("plain loop", t_loop), ("Dask 1 worker", t_one), ("2 workers", t_two))))
    print(f"processor s a trial: loop {statistics.median(r['cpu'] for r in loop) / n:.3f} (in its trials "
          f"{statistics.median(r['task_cpu'] for r in loop) / n:.3f}), in Dask's tasks "
          f"{cpu_per_trial[1]:.3f} (1 worker) {cpu_per_trial[2]:.3f} (2 workers); occupancy {occupancy[1]:.3f} / "
          f"{occupancy[2]:.3f}; cluster start-up {clusters['one'].start_seconds:.1f} s / "
          f"{clusters['two'].start_seconds:.1f} s")
    for name, rs in runs.items():
        print(f"{name}: wall " + " ".join(f"{r['wall']:.2f}" for r in rs) + "; processor "
              + " ".join(f"{r['cpu']:.2f}" for r in rs) + "; the trials' processor "
              + " ".join(f"{r['task_cpu']:.2f}" for r in rs))
    print(f"RESULT trials_per_min_1={60 * n / t_one[0]:.1f} trials_per_min_2={60 * n / t_two[0]:.1f} "
          f"scaling={scaling[0]:.2f} scaling_range={scaling[1]:.2f}-{scaling[2]:.2f} overhead_pct={overhead[0]:.1f} "
          f"overhead_range={overhead[1]:.1f}-{overhead[2]:.1f} cpu_overhead_pct={cpu_overhead:.1f} "
          f"dask_cpu_pct={dask_cpu:.1f} "
          f"efficiency_1={efficiency[1]:.3f} efficiency_2={efficiency[2]:.3f} occupancy_2={occupancy[2]:.3f} "
          f"cpu_share_2={cpu_share_2:.3f} scaling_cpu={scaling_cpu:.2f} sim_trials=1000 sim_efficiency={sim:.3f} "
          f"cluster_start_s={clusters['two'].start_seconds:.1f} peak_rss_mb={peak:.0f} repeats={args.repeat} "
          f"load_before={load_before:.2f} load_after={os.getloadavg()[0]:.2f} others_cores={others:.2f}")


if __name__ == "__main__":
    main()
