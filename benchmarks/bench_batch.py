"""Whole studies on Dask (``hybrid batch``): trials per minute with one and two worker processes, Dask's per-task
overhead against a plain loop over the same trials in one process, and a simulated 1,000-trial study.

The study: ``--trials`` copies (default 8) of gait2354's walk1 (subject01_simbody.osim, the whole trial with its
plates), each with its own low-pass cut-off (so each is its own analysis). The plain loop runs the same task
function (``study.tasks.analyse_trial``: ``hybrid analyze``'s work and the study record) in this process after a
warm-up; the Dask runs time ``study.runner.run_study`` on a started, warmed-up local cluster (cluster start-up
reported apart), each into a fresh folder. overhead_pct = 100 (one worker's time / the loop's time - 1).
The simulated study: 1,000 tasks that each sleep for the loop's measured seconds per trial, on two worker
processes of ``--threads`` threads each (sleeping takes no processor): sim_efficiency = the ideal time
(1,000 x per-trial seconds / slots) over the measured one, 1 when the scheduler keeps up.

Last line: RESULT trials_per_min_1=.. trials_per_min_2=.. scaling=.. overhead_pct=.. sim_trials=1000
sim_efficiency=.. cluster_start_s=..
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATA = ROOT / "tests" / "data" / "opensim" / "gait2354"

from study.cluster import study_client  # noqa: E402
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


def plain_loop(study, out: Path) -> float:
    model = str(study.subjects[0].model)
    analyse_trial(study.trials[0], model, out / "warm", "warm")    # this process compiles or loads the kernels
    start = time.perf_counter()
    for trial in study.trials:
        outcome = analyse_trial(trial, model, out / "loop" / trial.id, "loop")
        assert outcome["status"] == "done", outcome
    return time.perf_counter() - start


def on_dask(study, out: Path, workers: int) -> tuple[float, float]:
    """(cluster start-up s, study s) with ``workers`` processes."""
    start = time.perf_counter()
    with study_client(workers=workers) as client:
        client.wait_for_workers(workers)
        started = time.perf_counter()
        run = run_study(study, out / f"dask{workers}", client)
        seconds = time.perf_counter() - started
    assert run.count("done") == len(study.trials), {k: o.get("error") for k, o in run.outcomes.items()}
    return started - start, seconds


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
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        study = load_study(write_study(out, args.trials))
        loop = plain_loop(study, out)
        start1, one = on_dask(study, out, 1)
        start2, two = on_dask(study, out, 2)
    per_trial = loop / args.trials
    efficiency = simulated(per_trial, args.threads)
    n = args.trials
    print(f"{n} trials: plain loop {loop:.2f} s ({per_trial:.3f} s a trial); Dask 1 worker {one:.2f} s, "
          f"2 workers {two:.2f} s; cluster start-up {start1:.1f} s / {start2:.1f} s")
    print(f"RESULT trials_per_min_1={60 * n / one:.1f} trials_per_min_2={60 * n / two:.1f} scaling={one / two:.2f} "
          f"overhead_pct={100 * (one / loop - 1):.1f} sim_trials=1000 sim_efficiency={efficiency:.3f} "
          f"cluster_start_s={start2:.1f}")


if __name__ == "__main__":
    main()
