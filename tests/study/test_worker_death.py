"""`hybrid batch` with trials that kill every worker they run on (fault injection: reading their trial file ends the
worker process, or holds more memory than the worker's limit): each fails alone with the error saying why, the other
trials are done, and the exit status counts them."""
import contextlib
import json
import os
import shutil
import time
from pathlib import Path

import dask
import numpy as np
from distributed import WorkerPlugin

from engine.cli.main import main

LIMIT = "1GB"
"""Each worker's memory limit: a gait2354 trial's worker peaks at about 260 MB (docs/batch.md)."""
HOLD = 60.0
"""Seconds the memory hog holds its memory if no nanny restarts its worker (a guard against a hang, not a measure):
the trial then reads its file and is done, which the test reports."""


class DeadlyTrials(WorkerPlugin):
    """In every worker, those Dask starts in place of the dead too: reading the trial file ``exits.trc`` ends the
    worker process (``os._exit``), reading ``hogs.trc`` takes memory, 50 MB at a time, up to twice the worker's
    limit; any other file is read as usual."""

    name = "deadly-trials"

    def setup(self, worker) -> None:
        import engine.io.trc as trc
        read, limit = trc.read_trc, worker.memory_manager.memory_limit

        def deadly(path):
            if Path(path).name == "exits.trc":
                os._exit(70)
            if Path(path).name == "hogs.trc":
                held, start = [], time.monotonic()
                while time.monotonic() - start < HOLD:
                    if len(held) * 50e6 < 2 * limit:
                        held.append(np.ones(int(50e6 // 8)))            # every page touched
                    time.sleep(0.05)
            return read(path)
        trc.read_trc = deadly


def _deadly_study(tmp_path: Path, test_data, trials) -> Path:
    """A study of gait2354 walks (0.2 s each, with their plates' loads) in the order of ``trials`` (id, file, start);
    ``exits.trc`` and ``hogs.trc`` (:class:`DeadlyTrials`) copies of the walk's file in ``tmp_path``."""
    g = test_data / "opensim" / "gait2354"
    for name in ("exits", "hogs"):
        shutil.copy(g / "subject01_walk1.trc", tmp_path / f"{name}.trc")
    loads = f"        grf: {g / 'subject01_walk1_grf.mot'}\n        external_loads: {g / 'subject01_walk1_grf.xml'}\n"
    files = {"walk": g / "subject01_walk1.trc", "exits": tmp_path / "exits.trc", "hogs": tmp_path / "hogs.trc"}
    text = "".join(f"      - id: {tid}\n        file: {files[tid]}\n{loads}        settings: {{start: {start}, end: "
                   f"{start + 0.2:.1f}}}\n" for tid, start in trials)
    study_file = tmp_path / "study.yaml"
    study_file.write_text(f"format: hybridlab-study\nversion: 1\nsubjects:\n  - id: s\n    model: "
                          f"{g / 'subject01_simbody.osim'}\n    trials:\n{text}")
    return study_file


def _faulty_clusters(monkeypatch) -> None:
    """``hybrid batch``'s clusters made with :class:`DeadlyTrials` in their workers."""
    import study.cluster
    made = study.cluster.study_client

    @contextlib.contextmanager
    def faulty(*args):
        with made(*args) as client:
            client.register_plugin(DeadlyTrials())
            yield client
    monkeypatch.setattr(study.cluster, "study_client", faulty)


def test_a_trial_that_kills_each_worker_it_runs_on_fails_alone_saying_why(test_data, tmp_path, capsys, monkeypatch):
    study_file = _deadly_study(tmp_path, test_data, [("walk", 0.5), ("exits", 0.5), ("hogs", 0.5)])
    _faulty_clusters(monkeypatch)
    out = tmp_path / "out"
    # A task fails at its first worker's death (Dask's default lets three die first, each restarted in seconds). A
    # worker's death counts against every task the scheduler has sent it, the one it ran and those waiting behind it
    # (Dask sends a small group of tasks to the workers at once): with no failure allowed, a trial sent behind a
    # deadly one fails with it and is submitted again (the next test). One worker per trial: each runs its own.
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        status = main(["batch", str(study_file), "--out", str(out), "--workers", "3", "--memory-limit", LIMIT,
                       "--no-warm-up"])
    printed = capsys.readouterr().out
    assert status == 4, printed              # two trials failed (study.cli_batch.failed_status)
    trials = json.loads((out / "study-manifest.json").read_text())["trials"]
    assert {k: v["status"] for k, v in trials.items()} == {"s/walk": "done", "s/exits": "failed", "s/hogs": "failed"}, printed
    died, hogged = trials["s/exits"]["error"], trials["s/hogs"]["error"]
    assert died.startswith("its worker died (KilledWorker") and "memory" not in died, died
    assert hogged.startswith("it needs more memory than a worker may use: its worker held ") and \
        "over 95% of its limit of 1000 MB" in hogged, hogged
    assert f"failed: s/exits: {died}\n" in printed and f"failed: s/hogs: {hogged}\n" in printed
    summary = json.loads((out / "study_summary.json").read_text())
    assert summary["done"] == 1 and summary["failed"] == {"s/exits": died, "s/hogs": hogged}
    folder = out / "trials" / "s" / "walk"
    assert all((folder / n).is_file() for n in json.loads((folder / "manifest.json").read_text())["files"])


def test_a_trial_sent_behind_one_that_kills_its_worker_runs_again_and_is_done(test_data, tmp_path, capsys,
                                                                            monkeypatch):
    """One worker of one thread, no failure allowed, one trial per task: Dask sends the worker the deadly trial and
    the walk behind it, and its death fails both (KilledWorker); the walk, which never started, is submitted again
    and done, with its progress line when it ends (none when it was submitted again), the deadly trial fails with its
    error, alone (the summary's failed trials)."""
    study_file = _deadly_study(tmp_path, test_data, [("exits", 0.5), ("walk", 0.5)])
    _faulty_clusters(monkeypatch)
    out = tmp_path / "out"
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        status = main(["batch", str(study_file), "--out", str(out), "--workers", "1", "--memory-limit", LIMIT,
                       "--no-warm-up", "--trials-per-task", "1"])
    printed = capsys.readouterr().out
    assert status == 3, printed              # one trial failed
    trials = json.loads((out / "study-manifest.json").read_text())["trials"]
    assert {k: (v["status"], v["requeued"]) for k, v in trials.items()} == {
        "s/exits": ("failed", 0), "s/walk": ("done", 1)}, printed          # the walk was failed once with it
    assert trials["s/exits"]["error"].startswith("its worker died (KilledWorker"), trials["s/exits"]["error"]
    assert trials["s/walk"]["error"] is None and trials["s/walk"]["seconds"] > 0
    lines = [line for line in printed.splitlines() if line.startswith("[")]
    assert len(lines) == 2 and lines[0].endswith(
        f"done 0, skipped 0, failed 1, remaining 1  s/exits: failed ({trials['s/exits']['error']})")
    assert "] done 1, skipped 0, failed 1, remaining 0  s/walk: done (" in lines[1]     # the requeued walk's, as any trial's
    folder = out / "trials" / "s" / "walk"
    assert all((folder / n).is_file() for n in json.loads((folder / "manifest.json").read_text())["files"])
    assert not (out / ".hybrid-started").exists()
