"""Whole studies on Dask (``hybrid batch``): trials per minute with one and two worker processes, Dask's overhead
per trial against a plain loop over the same trials, and a simulated 1,000-trial study; with the machine's speed,
which drifts from second to second on this shared VM, measured beside every trial, so that the figures can be told
apart from the drift.

The work: a block of ``--block`` trials (default 48: a small study, two subjects' sessions) of gait2354's walk1
(subject01_simbody.osim, the whole trial with its plates, 151 frames), each with its own low-pass cut-off (so each is
its own analysis), run in four modes:

- loop: without Dask, in a process of its own started like a worker (``study.cluster.WORKER_ENVIRONMENT``), the work
  ``study.runner.run_study`` does around its tasks (fingerprints, manifest, study table and summary) and the same task
  function writing the same folders, one trial after the other: so the overhead is Dask's alone;
- one: ``study.runner.run_study`` on a local cluster of one worker;
- two: the same on a local cluster of two workers;
- pair: two loops at once, each in its own process (started and warmed as the loop's), of half the block each: what
  the machine itself gives two processes, without Dask (``machine_scaling``, the loop's block over the pair's).

The Dask modes group the trials into tasks as ``hybrid batch`` does by default (``--trials-per-task auto``,
``study.trial_groups``: up to 1,000 frames of one subject's trials a task, shorter tasks towards the end with two
workers); the choice of each mode is printed (``grouping``), and the RESULT line gives the tasks a block
(``tasks_1``, ``tasks_2``). ``--trials-per-task N`` runs them N a task instead (1: one task per trial, as before the
grouping). So the overhead is Dask's per trial, not per task: a task's cost (8-10 ms of processor,
``bench_task_cpu.py``) shared by its trials, and the study's start and end (its first task starts some 24 ms after
``run_study`` submits it, its end is known some 15 ms after its last task: docs/batch.md) shared by the block's
trials, as in a real study by all of its trials; a larger block shares them among more. A study's fixed costs (its
fingerprints, manifest and submission before its first trial; its table, summary and manifest, each written atomically,
after its last; with two processes, the wait of the one that ends first for the other, up to a trial) are printed apart
(``lead_in_ms``, ``lead_out_ms``, ``tail_ms``; a trial taken with its two calibrations): tens of ms before and
after, up to a trial at the tail, a study's and not a trial's, which a block of 8 trials on two workers (under a
second) shares among few; hence the default block of 48 (``--block 8`` was the default until 2026-11-28). The
runner's looks at the running groups' trial folders (per-trial progress) are timed apart (``poll_ms``: processor ms
a trial in this process, which the loop does not pay: part of dask_cpu_pct).

The modes take turns block by block (``--rounds`` rounds, default 24, of one block of each mode, their order going
through the 4 orders of a Williams design: each mode once in each place and right after each other mode once every
4 rounds), so that each mode sees the machine's slow and fast phases alike; both clusters are
started (and their start-up timed, reported apart) before the rounds and kept up between the blocks. Every process
has analysed one trial untimed before (its first read of the inputs and of the model, the first touch of its memory
are a process's costs, not a task's); each block writes a fresh folder.

Calibration: right before and right after each trial, in the same process (the worker for Dask, the loop's process
for the loop), a fixed workload is timed (``calibration``: numpy's small linear algebra on 40 x 40 matrices, about
25 ms each on an idle machine, as the analysis mixes Python and small array kernels; numpy only, so that its cost does
not move when the engine changes); the Dask runs give ``study.runner`` the task function :func:`calibrated_trial` in
place of ``study.tasks.analyse_trial`` for this (the loop calls it too). Its seconds are left out of the block's
seconds (a block: its wall-clock seconds less the calibrations' seconds of its busiest process: exact with one
process, within the two workers' difference with two), and its mean over a block is the machine's speed during that
block (times the share of a processor the process got).

Figures, each over the rounds as median [lower quartile to upper quartile], and in the RESULT line also the median's
95% interval (_lo95, _hi95: distribution-free, from the rounds' order statistics); a goal is said met or not met
when that interval is on one side of it, else not resolved (the drift and the load are too large for the rounds):
- raw: from wall-clock seconds as they were.
- normalised: each block's seconds divided by its mean calibration seconds (then times the loop blocks' median
  calibration, to read as seconds): the machine's speed taken out. The overhead and scaling are ratios of two
  blocks of the same round.
- overhead_pct: 100 (one worker's block / the loop's block - 1), Dask's overhead per trial (above); HEADLINE the
  raw one (overhead_raw_pct): the normalised one (overhead_norm_pct, beside) holds only while the calibration tracks the trials, and on this VM it
  did not (calib_r 0.27-0.44 over whole runs: a worker's calibration runs a few percent slower than the loop's where
  its trials do not, so the normalisation over-corrects into negative overheads); dask_cpu_pct bounds what Dask's
  threads cost inside the worker.
- scaling: one worker's block / two workers' block; HEADLINE the raw one (what the machine does); scaling_norm takes
  out the speed each worker measured beside its trials. machine_scaling: the same of the loop's block over the pair's,
  what the machine gives two processes without Dask, measured in every run, so that a slowdown of two busy processors
  (or other work taking one) shows there and is not taken for Dask's. Other work on the machine: under Linux's
  scheduler autogroups (``/proc/sys/kernel/sched_autogroup_enabled``), each terminal session gets an equal share of
  the processors whatever its processes' nice value, so ``nice`` does not keep a second session's work out of the
  benchmark's way.
- trials_per_min_1, trials_per_min_2: the block's trials over the median of the blocks' seconds (raw).
- dask_cpu_pct: Dask's machinery in processor time, which the machine's drift and load hardly move: the one-worker
  block's processor time outside its trials and calibrations (the worker process's, and this process's threads but
  the other cluster's event loop) less the loop's outside its trials (the study's own work: fingerprints, manifest,
  table), over the trials' processor time.
- calib_r: the correlation of each trial's seconds with its calibrations' seconds (loop and one-worker trials): near
  1 when the calibration tracks the machine's speed, which the normalised figures rely on; calib_r_cpu the same of
  processor seconds (the machine's speed without the waits for a processor that the load adds).
- cluster_start_s_1, cluster_start_s_2: a cluster's start-up (processes, import and kernel warm-up of each worker)
  until it can take tasks; first_trial_s: the first trial a warmed worker runs (untimed in the rounds).
- sim_efficiency: a study of 1,000 trials (10 subjects of 100 walk1 trials, each with its own cut-off) run by
  ``study.runner.run_study`` as ``hybrid batch`` runs it (fingerprints, grouping, started files, polls, manifest,
  results gathered, table and summary), each trial sleeping for a trial's measured time (the loop's median: sleeping
  takes no processor) and returning a real trial's table rows, on two worker processes of ``--threads`` threads each
  (a 100-slot cluster by default): the ideal time (1,000 x seconds per trial / slots) over the time from the first
  trial's start to the last's end, 1 when the runner and Dask's scheduler keep the workers busy (until 2026-11-28
  the figure of 1,000 sleeps mapped straight onto the cluster, without the runner); sim_study_efficiency the same
  over the whole run, with the study's fixed work before its first trial and after its last (sim_lead_in_s,
  sim_lead_out_s: fingerprints, the headers read for the grouping, submission; manifest, table and summary);
  sim_tasks its tasks, sim_runner_cpu_ms this process's processor ms a trial (the runner, the client and, in a local
  cluster, the scheduler).
- load_before, load_after: the 1-minute load average; others_cores the processors that the machine's other work used
  during the rounds, on average (2 would leave nothing for the benchmark on this 2-core machine); cpu_share a trial's
  processor seconds over its wall-clock seconds (loop and one worker, median): 1 on an otherwise idle machine. Well
  below 1, the wall-clock figures measure mostly the share of the processors the kernel gave each process from one
  moment to the next, which a calibration of some 25 ms samples coarsely (calib_r falls): read them with it.

Last line: RESULT trials_per_min_1=.. trials_per_min_2=.. scaling=.. overhead_pct=.. (headlines) then the raw and
normalised figures with their quartiles and the rest above.
"""
from __future__ import annotations

import argparse
import contextlib
import functools
import multiprocessing
import os
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATA = ROOT / "tests" / "data" / "opensim" / "gait2354"

from study.cluster import WORKER_ENVIRONMENT, study_client  # noqa: E402  (imports no kernels, not numba)

os.environ.update(WORKER_ENVIRONMENT)     # this benchmark's processes, the loop's too, start as a worker computes
from study.description import load_study  # noqa: E402
from study.fingerprint import code_digest, subject_fingerprint, trial_fingerprint  # noqa: E402
from study.runner import MANIFEST_INTERVAL, StudyRun, finish_study, run_study, write_manifest  # noqa: E402
from study.tasks import analyse_trial  # noqa: E402

MODES = ("loop", "one", "two", "pair")
ORDERS = [("loop", "one", "pair", "two"), ("one", "two", "loop", "pair"), ("two", "pair", "one", "loop"),
          ("pair", "loop", "two", "one")]
"""The modes' orders, one a round in turn: a Williams design (each mode once in each place, and right after each
other mode once), so that every 4 rounds no mode is favoured by its place or by the mode before it."""
SIM_TRIALS = 1000
SIM_SUBJECTS = 10
CALIBRATION_REPEATS = 120


def calibration() -> tuple[float, float]:
    """The fixed workload timed beside each trial (module notes): wall-clock and this thread's processor seconds."""
    a = np.random.default_rng(21).standard_normal((40, 40))
    matrix, eye, total = a @ a.T, np.eye(40), 0.0
    start, cpu = time.perf_counter(), time.thread_time()
    for i in range(CALIBRATION_REPEATS):
        w = np.linalg.eigvalsh(matrix + i * eye)
        total += float(np.sin(np.linalg.solve(matrix + eye, w)).sum())
    assert np.isfinite(total)
    return time.perf_counter() - start, time.thread_time() - cpu


def calibrated_trial(trial, model, folder, fingerprint: str) -> dict:
    """``study.tasks.analyse_trial`` with the calibration timed right before and right after it in the same process:
    its outcome with ``calibration_s`` (the two calibrations' seconds, the mean of which is the machine's speed
    during the trial), ``calibration_cpu_s`` (their processor seconds), ``pid``, and ``c0``, ``c1`` (the start of the
    first calibration and the end of the second, ``time.perf_counter``: the machine's monotonic clock, the same in
    every process)."""
    c0 = time.perf_counter()
    before = calibration()
    outcome = analyse_trial(trial, model, folder, fingerprint)
    after = calibration()
    return {**outcome, "calibration_s": before[0] + after[0], "calibration_cpu_s": before[1] + after[1],
            "pid": os.getpid(), "c0": c0, "c1": time.perf_counter()}


def write_study(folder: Path, trials: int, subjects: int = 1) -> Path:
    """A study.yaml in ``folder`` of ``subjects`` subjects (gait2354's model) of ``trials`` trials each: walk1 with
    its plates, each trial with its own low-pass cut-off."""
    items = "".join(f"      - id: walk{i}\n        file: {DATA / 'subject01_walk1.trc'}\n"
                    f"        grf: {DATA / 'subject01_walk1_grf.mot'}\n"
                    f"        external_loads: {DATA / 'subject01_walk1_grf.xml'}\n"
                    f"        settings: {{filter: {5.0 + 0.25 * i}}}\n" for i in range(trials))
    path = folder / "study.yaml"
    path.write_text("format: hybridlab-study\nversion: 1\nsubjects:\n" + "".join(
        f"  - id: s{j + 1:02d}\n    model: {DATA / 'subject01_simbody.osim'}\n    trials:\n{items}"
        for j in range(subjects)))
    return path


def block(start: float, end: float, cpu: float, outcomes) -> dict:
    """A block's figures, from its start and end (``time.perf_counter``): ``seconds`` its wall-clock seconds less the
    calibrations' of its busiest process, ``lead_in`` the seconds to its first trial's start, ``lead_out`` from its
    last trial's end, ``tail`` from the first process's last trial's end to the last's (0 with one process), a trial
    taken with its calibrations, ``cpu``
    its processes' processor seconds, ``task_cpu`` its trials' and calibrations', ``calibration`` each trial's
    calibrations' seconds, ``trials`` its trials' seconds (``calibration_cpu``, ``trials_cpu``: processor seconds),
    ``peak`` their largest peak resident memory (MB), ``rows`` the first trial's table rows."""
    outcomes = list(outcomes)
    assert all(o["status"] == "done" for o in outcomes), [o.get("error") for o in outcomes]
    by_process = {}
    for o in outcomes:
        by_process[o["pid"]] = by_process.get(o["pid"], 0.0) + o["calibration_s"]
    last = {}
    for o in outcomes:
        last[o["pid"]] = max(last.get(o["pid"], o["c1"]), o["c1"])
    return {"seconds": end - start - max(by_process.values()), "cpu": cpu,
            "lead_in": min(o["c0"] for o in outcomes) - start, "lead_out": end - max(last.values()),
            "tail": max(last.values()) - min(last.values()),
            "task_cpu": sum(o["cpu_seconds"] + o["calibration_cpu_s"] for o in outcomes),
            "calibration": [o["calibration_s"] for o in outcomes], "trials": [o["seconds"] for o in outcomes],
            "calibration_cpu": [o["calibration_cpu_s"] for o in outcomes],
            "trials_cpu": [o["cpu_seconds"] for o in outcomes],
            "peak": max(o["peak_rss_mb"] for o in outcomes), "rows": outcomes[0]["rows"]}


def plain_loop(study, out: str, task=None) -> dict:
    """In the loop's process: ``study`` without Dask, with the work ``study.runner.run_study`` does around its tasks
    (each trial's fingerprint, the manifest at the start, at most once every ``MANIFEST_INTERVAL`` and at the end,
    the study table and summary) and ``task`` (default :func:`calibrated_trial`, the task function the clusters run)
    writing the same folders, the trials one after the other: ``{"outcomes", "start", "end", "cpu"}`` (its tasks'
    outcomes, its ``perf_counter`` start and end, its processor seconds; :func:`plain_block` makes them a block)."""
    task = task or calibrated_trial
    start, cpu = time.perf_counter(), time.process_time()
    out, subject = Path(out), study.subjects[0]
    out.mkdir(parents=True)
    run, digest = StudyRun(), subject_fingerprint(subject)
    fingerprints = {trial.key: trial_fingerprint(trial, digest) for trial in study.trials}
    write_manifest(out, study, run, fingerprints)
    written = time.monotonic()
    for trial in study.trials:
        run.outcomes[trial.key] = task(trial, str(subject.model), out / "trials" / subject.id / trial.id,
                                       fingerprints[trial.key])
        if time.monotonic() - written >= MANIFEST_INTERVAL:
            write_manifest(out, study, run, fingerprints)
            written = time.monotonic()
    write_manifest(out, study, run, fingerprints)
    finish_study(study, out, run)
    return {"outcomes": list(run.outcomes.values()), "start": start, "end": time.perf_counter(),
            "cpu": time.process_time() - cpu}


def plain_block(study, out: str) -> dict:
    """:func:`plain_loop`'s run of ``study`` as a :func:`block`."""
    loop = plain_loop(study, out)
    return block(loop["start"], loop["end"], loop["cpu"], loop["outcomes"])


def pair_block(pools: list, halves: list, out: Path) -> dict:
    """The machine's own scaling, without Dask: :func:`plain_loop` of each study of ``halves`` in its own process of
    ``pools`` at the same time (each process started and warmed as the loop's), as one :func:`block`."""
    runs = [f.result() for f in [pool.submit(plain_loop, half, str(out / f"half{i}"))
                                 for i, (pool, half) in enumerate(zip(pools, halves))]]
    return block(min(r["start"] for r in runs), max(r["end"] for r in runs), sum(r["cpu"] for r in runs),
                 [o for r in runs for o in r["outcomes"]])


def _thread_seconds(pid: int) -> dict:
    """{thread id: processor seconds} of the process ``pid``."""
    import psutil
    return {t.id: t.user_time + t.system_time for t in psutil.Process(pid).threads()}


def _process_seconds(pid: int) -> float:
    import psutil
    t = psutil.Process(pid).cpu_times()
    return t.user + t.system


class Cluster:
    """A started local cluster of ``workers`` processes, each of which has analysed one trial, with the processes
    and the thread of this process (its scheduler's and nannies' event loop) whose processor time is its own."""

    def __init__(self, stack, study, out: Path, workers: int):
        start = time.perf_counter()
        self.workers = workers
        self.client = stack.enter_context(study_client(workers=workers))
        self.client.wait_for_workers(workers)
        self.start_seconds = time.perf_counter() - start
        model = str(study.subjects[0].model)
        self.first_trial = [block(0.0, 0.0, 0.0, [self.client.submit(
            calibrated_trial, study.trials[0], model, out / f"warm{worker.split(':')[-1]}", "warm", workers=[worker],
            pure=False).result()])["trials"][0] for worker in self.client.scheduler_info()["workers"]]
        self.pids = list(self.client.run(os.getpid).values())
        self.loop_thread = self.client.run_on_scheduler(threading.get_native_id)

    def run(self, study, out: Path, idle_threads: tuple, per_task) -> dict:
        """``study`` on this cluster into ``out``, each trial calibrated, its trials grouped by ``per_task``: the
        :func:`block`, its processor seconds those of the worker processes and of this process's threads but
        ``idle_threads`` (the other cluster's), with ``grouping`` (what the runner chose and why), ``tasks`` (their
        number) and ``poll`` (processor seconds of the looks at the groups' folders), as the run gives them."""
        said = []
        before = _thread_seconds(os.getpid()), [_process_seconds(p) for p in self.pids]
        started = time.perf_counter()
        run = run_study(study, out, self.client, per_task=per_task, say=said.append, analyse=calibrated_trial)
        wall = time.perf_counter() - started
        after = _thread_seconds(os.getpid()), [_process_seconds(p) for p in self.pids]
        here = sum(s - before[0].get(t, 0.0) for t, s in after[0].items() if t not in idle_threads)
        return {**block(started, started + wall, here + sum(after[1]) - sum(before[1]), run.outcomes.values()),
                "grouping": said[0],
                "tasks": run.tasks, "poll": run.poll_cpu_seconds}



def sleeping_trial(trial, model, folder, fingerprint: str, seconds: float, rows: list) -> dict:
    """A simulated trial for ``study.runner.run_study``: ``seconds`` of sleep (no processor), then the outcome of a
    trial with ``rows`` (a real trial's table rows, given this trial's ids), as ``study.tasks.analyse_trial`` gives
    it."""
    t0 = time.perf_counter()
    time.sleep(seconds)
    return {"key": trial.key, "status": "done", "seconds": seconds, "cpu_seconds": 0.0, "peak_rss_mb": None,
            "rows": [{**row, "subject": trial.subject, "trial": trial.id} for row in rows],
            "t0": t0, "t1": time.perf_counter()}


def simulated(folder: Path, per_trial: float, rows: list, threads: int, n: int = SIM_TRIALS) -> dict:
    """A study of ``n`` trials (:data:`SIM_SUBJECTS` subjects of walk1 with each its own cut-off, so that the runner
    fingerprints, groups, polls and tabulates them as real ones) run by ``study.runner.run_study`` as ``hybrid
    batch`` runs it, each trial sleeping ``per_trial`` seconds (:func:`sleeping_trial`), on two worker processes of
    ``threads`` threads each, with the study's cluster settings: ``efficiency`` the ideal time (n x per_trial /
    slots) over the seconds from the first trial's start to the last's end (whether the runner and the scheduler keep
    the workers busy), ``study_efficiency`` over the whole run's (from the call to the table written: with the
    study's fixed work, ``lead_in`` seconds before the first trial (fingerprints, the headers read for the grouping,
    submission) and ``lead_out`` after the last (manifest, table, summary)), ``tasks`` its tasks, ``cpu_ms`` this
    process's processor ms a trial (the runner, the client and the scheduler)."""
    from distributed import Client, LocalCluster

    from study.cluster import LOCAL_CLUSTER_CONFIG
    study = load_study(write_study(folder, n // SIM_SUBJECTS, subjects=SIM_SUBJECTS))
    import dask
    with dask.config.set(LOCAL_CLUSTER_CONFIG), LocalCluster(n_workers=2, threads_per_worker=threads,
                                                             processes=True, dashboard_address=":0") as cluster, \
            Client(cluster) as client:
        client.wait_for_workers(2)
        cpu, start = time.process_time(), time.perf_counter()
        run = run_study(study, folder / "out", client,
                        analyse=functools.partial(sleeping_trial, seconds=per_trial, rows=rows))
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    assert run.count("done") == n, run.outcomes
    first = min(o["t0"] for o in run.outcomes.values())
    last = max(o["t1"] for o in run.outcomes.values())
    ideal = n * per_trial / (2 * threads)
    return {"efficiency": ideal / (last - first), "study_efficiency": ideal / seconds, "tasks": run.tasks,
            "cpu_ms": 1000 * cpu / n, "seconds": seconds, "lead_in": first - start, "lead_out": start + seconds - last}


def _busy_seconds() -> float:
    """The machine's processor seconds spent on anything but idling (all processors)."""
    import psutil
    t = psutil.cpu_times()
    return sum(t) - t.idle - getattr(t, "iowait", 0.0)


def spread(values) -> tuple[float, float, float, float, float]:
    """Median, lower and upper quartile, and an interval that holds the median of the rounds' distribution with at
    least 95% probability whatever that distribution (order statistics x_(k) and x_(n+1-k), k from the binomial
    distribution of n rounds; at least 6)."""
    from scipy.stats import binom
    q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
    ordered = sorted(values)
    k = int(binom.ppf(0.025, len(ordered), 0.5))
    return median, q1, q3, ordered[k - 1], ordered[len(ordered) - k]


def text(name: str, s: tuple, unit: str = "", digits: int = 3) -> str:
    return f"{name} {s[0]:.{digits}f}{unit} [{s[1]:.{digits}f} to {s[2]:.{digits}f}]"


def field(name: str, s: tuple, digits: int) -> str:
    stem = name.removesuffix("_pct")
    return (f"{name}={s[0]:.{digits}f} {stem}_q1={s[1]:.{digits}f} {stem}_q3={s[2]:.{digits}f} "
            f"{stem}_lo95={s[3]:.{digits}f} {stem}_hi95={s[4]:.{digits}f}")


def verdict(s: tuple, goal: float, at_most: bool) -> str:
    """Whether the median's 95% interval of ``s`` is on the goal's side of ``goal`` (``at_most``: below it)."""
    lo, hi = s[3], s[4]
    if (hi <= goal) if at_most else (lo >= goal):
        return "met"
    if (lo > goal) if at_most else (hi < goal):
        return "not met"
    return "not resolved (the interval holds the goal)"


def main() -> None:
    import psutil
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--block", type=int, default=48, help="trials a block (default 48)")
    parser.add_argument("--trials-per-task", default="auto", help="the Dask modes' grouping (hybrid batch's "
                                                                   "option; default auto, as hybrid batch)")
    parser.add_argument("--rounds", type=int, default=24, help="rounds of one block of each mode (a multiple of 4, "
                                                                "at least 8; default 24: about 13 minutes on the "
                                                                "2-core VM)")
    parser.add_argument("--threads", type=int, default=50, help="threads per worker of the simulated study")
    args = parser.parse_args()
    if args.rounds < 8 or args.rounds % len(ORDERS) or args.block < 2:
        parser.error(f"--rounds must be a multiple of {len(ORDERS)} (the modes' orders) and at least 8 (the median's 95% "
                     "interval), --block at least 2 (two workers)")
    per_task = args.trials_per_task if args.trials_per_task == "auto" else int(args.trials_per_task)
    load_before = os.getloadavg()[0]
    import pyarrow.parquet  # noqa: F401  (the table's writer, imported once: not a block's cost)
    code_digest()       # the fingerprints' digest of the sources, hashed once per process: not a block's cost
    blocks = {mode: [] for mode in MODES}
    orders = ORDERS
    spawn = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        out = Path(tmp)
        study = load_study(write_study(out, args.block))
        pool = stack.enter_context(ProcessPoolExecutor(1, mp_context=spawn))
        loop_pid = pool.submit(os.getpid).result()
        (out / "warm").mkdir()
        pool.submit(plain_block, load_study(write_study(out / "warm", 1)), str(out / "warm" / "out")).result()
        pair = [stack.enter_context(ProcessPoolExecutor(1, mp_context=spawn)) for _ in range(2)]
        pair_pids = [p.submit(os.getpid).result() for p in pair]
        halves = []
        for i, size in enumerate((args.block - args.block // 2, args.block // 2)):
            (out / f"pair{i}").mkdir()
            halves.append(load_study(write_study(out / f"pair{i}", size)))
            pair[i].submit(plain_block, load_study(write_study(out / "warm", 1)), str(out / f"warm/pair{i}")).result()
        clusters = {"one": Cluster(stack, study, out, 1), "two": Cluster(stack, study, out, 2)}
        procs = [psutil.Process(p) for p in (os.getpid(), loop_pid, *pair_pids, *clusters["one"].pids,
                                             *clusters["two"].pids)]
        own, busy, wall0 = -sum(_process_seconds(p.pid) for p in procs), _busy_seconds(), time.perf_counter()
        for i in range(args.rounds):
            for mode in orders[i % len(orders)]:
                folder = out / f"{mode}{i}"
                if mode == "loop":
                    blocks[mode].append(pool.submit(plain_block, study, str(folder)).result())
                elif mode == "pair":
                    blocks[mode].append(pair_block(pair, halves, folder))
                else:
                    other = clusters["two" if mode == "one" else "one"]
                    blocks[mode].append(clusters[mode].run(study, folder, (other.loop_thread,), per_task))
        own += sum(_process_seconds(p.pid) for p in procs)
        others = max(0.0, (_busy_seconds() - busy - own) / (time.perf_counter() - wall0))
    n = args.block
    loop, one, two, pair = (blocks[m] for m in MODES)
    reference = statistics.median(c for b in loop for c in b["calibration"])

    def normalised(b):
        return b["seconds"] / statistics.fmean(b["calibration"]) * reference
    raw_s = {m: spread([b["seconds"] / n for b in blocks[m]]) for m in MODES}
    norm_s = {m: spread([normalised(b) / n for b in blocks[m]]) for m in MODES}
    overhead_raw = spread([100 * (a["seconds"] / b["seconds"] - 1) for a, b in zip(one, loop)])
    overhead_norm = spread([100 * (normalised(a) / normalised(b) - 1) for a, b in zip(one, loop)])
    scaling_raw = spread([a["seconds"] / b["seconds"] for a, b in zip(one, two)])
    scaling_norm = spread([normalised(a) / normalised(b) for a, b in zip(one, two)])
    machine = spread([a["seconds"] / b["seconds"] for a, b in zip(loop, pair)])
    ms = {m: {part: 1000 * statistics.median(b[part] for b in blocks[m]) for part in ("lead_in", "lead_out", "tail")}
          for m in MODES}
    dask_cpu = spread([100 * ((a["cpu"] - a["task_cpu"]) - (b["cpu"] - b["task_cpu"])) / a["task_cpu"]
                       for a, b in zip(one, loop)])
    trials = [t for b in loop + one for t in b["trials"]]
    calib_r = statistics.correlation(trials, [c for b in loop + one for c in b["calibration"]])
    calib_r_cpu = statistics.correlation([t for b in loop + one for t in b["trials_cpu"]],
                                         [c for b in loop + one for c in b["calibration_cpu"]])
    cpu_share = statistics.median(c / t for b in loop + one for c, t in zip(b["trials_cpu"], b["trials"]))
    per_trial = statistics.median(b["seconds"] for b in loop) / n
    with tempfile.TemporaryDirectory() as tmp:
        sim = simulated(Path(tmp), per_trial, loop[0]["rows"], args.threads)
    peak = max(b["peak"] for b in loop)
    tpm = {m: 60 * n / statistics.median(b["seconds"] for b in blocks[m]) for m in ("one", "two")}
    tasks = {m: statistics.median(b["tasks"] for b in blocks[m]) for m in ("one", "two")}
    poll_ms = 1000 * statistics.median(b["poll"] / n for b in one + two)
    starts = {m: clusters[m].start_seconds for m in ("one", "two")}
    first = statistics.median(clusters["one"].first_trial + clusters["two"].first_trial)

    print(f"{args.rounds} rounds of a block of {n} trials in each mode (loop: no Dask; one, two: Dask workers; pair: "
          f"two loops of half the block at once, no Dask), the modes' order going through a Williams design of {len(orders)} "
          f"orders; figures: median [quartiles] over the rounds")
    for m in ("one", "two"):
        print(f"{m}: hybrid batch --trials-per-task {args.trials_per_task} chose {blocks[m][0]['grouping']}")
    print("round  order                seconds a block less calibrations (loop one two pair)   calibration mean ms "
          "(loop one two pair)")
    for i in range(args.rounds):
        order = "/".join(orders[i % len(orders)])
        print(f"{i:5d}  {order:19s}  " + " ".join(f"{blocks[m][i]['seconds']:7.3f}" for m in MODES) + "   "
              + " ".join(f"{1000 * statistics.fmean(blocks[m][i]['calibration']):6.1f}" for m in MODES))
    print("seconds a trial, raw (wall clock as it was): "
          + "; ".join(text(m, raw_s[m], " s") for m in MODES))
    print(f"seconds a trial, normalised (each block over its mean calibration, times the loop's median calibration "
          f"{1000 * reference:.1f} ms): " + "; ".join(text(m, norm_s[m], " s") for m in MODES))
    print(f"Dask's overhead a trial (its trials grouped in {tasks['one']} task(s) a block), one worker against the "
          f"loop, same round: raw {text('', overhead_raw, ' %', 1)} "
          f"(HEADLINE); "
          f"normalised {text('', overhead_norm, ' %', 1)} (valid while the calibration tracks the trials); Dask's "
          f"machinery in processor time {text('', dask_cpu, ' %', 1)} of the trials' (the looks at the groups' trial "
          f"folders for progress: {poll_ms:.3f} ms of processor a trial)")
    print(f"scaling, one worker's block over two workers': raw {text('', scaling_raw, 'x', 2)} (HEADLINE); "
          f"normalised {text('', scaling_norm, 'x', 2)} (each worker's measured speed taken out); the machine's own, "
          f"the loop's block over the pair's (no Dask) {text('', machine, 'x', 2)}")
    print("where a block's time outside its trials goes, median ms (to the first trial's start / after the last "
          "trial's end / between the processes' last trial ends): "
          + "; ".join(f"{m} {ms[m]['lead_in']:.0f} / {ms[m]['lead_out']:.0f} / {ms[m]['tail']:.0f}" for m in MODES))
    print(f"goals, by the headline's median and its 95% interval: overhead <= 5%: {verdict(overhead_raw, 5, True)} "
          f"({overhead_raw[3]:.1f} to {overhead_raw[4]:.1f} %); scaling >= 1.8x: {verdict(scaling_raw, 1.8, False)} "
          f"({scaling_raw[3]:.2f} to {scaling_raw[4]:.2f}x; normalised {scaling_norm[3]:.2f} to {scaling_norm[4]:.2f}x)"
          f"; the machine's other work used {others:.2f} of its 2 cores meanwhile")
    print(f"calibration tracks the trials: r = {calib_r:.2f} (wall clock), {calib_r_cpu:.2f} (processor) over "
          f"{len(trials)} trials (loop and one worker); "
          f"cluster start-up {starts['one']:.1f} s (1 worker) / {starts['two']:.1f} s (2 workers), then a warmed "
          f"worker's first trial {first:.2f} s; a simulated study of {SIM_TRIALS:,} trials sleeping {per_trial:.3f} s "
          f"each, run by run_study on 2 workers of {args.threads} threads ({sim['tasks']} tasks): {sim['seconds']:.2f} s, "
          f"efficiency {sim['efficiency']:.3f} from the first trial's start to the last's end (1: the runner and Dask's "
          f"scheduler keep the workers busy), {sim['study_efficiency']:.3f} over the whole run ({sim['lead_in']:.2f} s "
          f"before the first trial, {sim['lead_out']:.2f} s after the last), this process's processor "
          f"{sim['cpu_ms']:.2f} ms a trial; load {load_before:.2f} -> {os.getloadavg()[0]:.2f}, other work {others:.2f} cores, a trial got "
          f"{cpu_share:.2f} of a processor")
    print(f"RESULT trials_per_min_1={tpm['one']:.1f} trials_per_min_2={tpm['two']:.1f} scaling={scaling_raw[0]:.2f} "
          f"overhead_pct={overhead_raw[0]:.1f} headline=scaling_raw,overhead_raw overhead=per_trial "
          f"trials_per_task={args.trials_per_task} tasks_1={tasks['one']} tasks_2={tasks['two']} poll_ms={poll_ms:.3f} "
          + " ".join([field("scaling_raw", scaling_raw, 2), field("scaling_norm", scaling_norm, 2),
                      field("overhead_raw_pct", overhead_raw, 1), field("overhead_norm_pct", overhead_norm, 1),
                      field("dask_cpu_pct", dask_cpu, 1), field("machine_scaling", machine, 2)])
          + " " + " ".join(f"{part}_ms_{m}={ms[m][part]:.0f}" for m in MODES for part in ("lead_in", "lead_out", "tail"))
          + f" calib_r={calib_r:.2f} calib_r_cpu={calib_r_cpu:.2f} cluster_start_s_1={starts['one']:.1f} "
          f"cluster_start_s_2={starts['two']:.1f} first_trial_s={first:.2f} cpu_share={cpu_share:.2f} sim_trials={SIM_TRIALS} "
          f"sim_efficiency={sim['efficiency']:.3f} sim_study_efficiency={sim['study_efficiency']:.3f} "
          f"sim_lead_in_s={sim['lead_in']:.2f} sim_lead_out_s={sim['lead_out']:.2f} sim_tasks={sim['tasks']} sim_runner_cpu_ms={sim['cpu_ms']:.2f} "
          f"peak_rss_mb={peak:.0f} "
          f"rounds={args.rounds} block={n} load_before={load_before:.2f} load_after={os.getloadavg()[0]:.2f} "
          f"others_cores={others:.2f}")


if __name__ == "__main__":
    main()
