"""The order in which a study's tasks start on a cluster: its groups of trials before its tasks of one trial
(``study.runner._submit_all``), whichever of them Dask holds back in its scheduler's queue."""
import time
from pathlib import Path

from study.description import load_study
from study.runner import run_study

TRIALS = 9
"""Trials of each of the two subjects: in tasks of two (``per_task=2``), four groups and one trial alone each."""


def _study(folder: Path, test_data) -> Path:
    """Two subjects of :data:`TRIALS` gait2354 walks each (never analysed here: :func:`_logged` stands in)."""
    g = test_data / "opensim" / "gait2354"
    trials = "".join(f"      - id: w{i}\n        file: {g / 'subject01_walk1.trc'}\n        settings: {{filter: {5 + i}}}\n"
                     for i in range(TRIALS))
    subjects = "".join(f"  - id: s{j}\n    model: {g / 'subject01_simbody.osim'}\n    trials:\n{trials}"
                       for j in (1, 2))
    path = folder / "study.yaml"
    path.write_text(f"format: hybridlab-study\nversion: 1\nsubjects:\n{subjects}")
    return path


def _logged(trial, model, folder, fingerprint: str) -> dict:
    """A trial that only writes its key, as it starts, at the end of the study folder's ``order.log``, then waits
    50 ms (so that each task holds its worker a while): a done outcome of no rows."""
    with open(Path(folder).parents[2] / "order.log", "a") as log:
        log.write(trial.key + "\n")
    time.sleep(0.05)
    return {"key": trial.key, "status": "done", "rows": [], "seconds": 0.05, "cpu_seconds": 0.0,
            "peak_rss_mb": None}


def test_a_study_s_groups_start_before_its_trials_alone_also_when_dask_queues_only_the_groups(test_data, tmp_path):
    """Two workers of one thread; two subjects of nine trials in tasks of two: eight groups (more than twice the
    cluster's threads: Dask queues them in its scheduler, by priority) and two trials alone (a task group of two:
    Dask would send them to the workers at once, where they ran before the groups still queued). The two trials
    alone start last, after every group."""
    from distributed import Client, LocalCluster
    study = load_study(_study(tmp_path, test_data))
    out = tmp_path / "out"
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0") as cluster, \
            Client(cluster) as client:
        client.wait_for_workers(2)
        run = run_study(study, out, client, per_task=2, analyse=_logged)
    assert run.tasks == 10 and run.count("done") == 2 * TRIALS
    firsts = {f"s{j}/w{i}" for j in (1, 2) for i in range(0, TRIALS, 2)}     # each task's first trial
    started = [key for key in (out / "order.log").read_text().split() if key in firsts]
    assert len(started) == 10 and set(started[-2:]) == {"s1/w8", "s2/w8"}, started
