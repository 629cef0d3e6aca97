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


def _scaled_study(folder: Path, test_data) -> Path:
    """Four subjects scaled (gait2354's scale setup, never run here: :func:`_logged_scaling` stands in), then one
    analysed with its model as given, last; twelve walks each (two tasks of six on one thread)."""
    g = test_data / "opensim" / "gait2354"
    trials = "".join(f"      - id: w{i}\n        file: {g / 'subject01_walk1.trc'}\n        settings: {{filter: {5 + i}}}\n"
                     for i in range(12))
    scaled = (f"    model: {g / 'scale' / 'gait2354_simbody.osim'}\n"
              f"    scale_setup: {g / 'scale' / 'subject01_Setup_Scale.xml'}\n")
    subjects = "".join(f"  - id: s{j}\n{scaled}    trials:\n{trials}" for j in (1, 2, 3, 4))
    subjects += f"  - id: s5\n    model: {g / 'subject01_simbody.osim'}\n    trials:\n{trials}"
    path = folder / "study.yaml"
    path.write_text(f"format: hybridlab-study\nversion: 1\nsubjects:\n{subjects}")
    return path


def _logged_scaling(subject, folder, fingerprint: str, code: str) -> dict:
    """A scaling that only writes ``scale-<subject>`` at the end of the study folder's ``order.log``, then waits
    0.3 s (so that the study's tasks are submitted while the scalings still run): a done outcome whose model is the
    subject's own."""
    with open(Path(folder).parents[1] / "order.log", "a") as log:
        log.write(f"scale-{subject.id}\n")
    time.sleep(0.3)
    return {"key": subject.id, "status": "done", "model": str(subject.model), "notes": []}


def test_subjects_scaled_first_keep_their_place_before_a_later_subject_given_its_model(test_data, tmp_path,
                                                                                      monkeypatch):
    """One worker of one thread; four subjects to scale, then one with its model as given: each subject's tasks wait
    for its scaling, the last subject's for nothing. The first two scalings go to the worker at once, the others
    are queued by Dask's scheduler, as are the last subject's groups: the scalings rank first there (a scaling queued
    behind the groups ready meanwhile would put its subject's groups after the last subject's, at the study's end,
    where its short tasks belong). The last subject's groups start last."""
    from distributed import Client, LocalCluster
    monkeypatch.setattr("study.runner.scale_subject", _logged_scaling)
    study = load_study(_scaled_study(tmp_path, test_data))
    out = tmp_path / "out"
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0") as cluster, \
            Client(cluster) as client:
        client.wait_for_workers(1)
        run = run_study(study, out, client, analyse=_logged)
    assert run.tasks == 10 and run.count("done") == 60
    firsts = {f"s{j}/w{i}" for j in range(1, 6) for i in (0, 6)}                # each task's first trial
    started = [key for key in (out / "order.log").read_text().split() if key in firsts or key.startswith("scale-")]
    assert started[:2] == ["scale-s1", "scale-s2"] and set(started[-2:]) == {"s5/w0", "s5/w6"}, started
