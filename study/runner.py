"""A study as Dask tasks: one scaling per subject that needs one, one analysis per trial waiting for its subject's
scaled model; what is already done (same fingerprint, complete outputs) is skipped.

Output folder::

    subjects/<subject>/      the scaling's files (model.yaml, scale set, static pose, residuals) and its record
    trials/<subject>/<trial>/  the analysis's files (as ``hybrid analyze`` writes them) and its record
    study-manifest.json      every trial's fingerprint, status (done, skipped, failed), error, seconds, processor seconds,
                             peak memory
    study_table.csv, study_table.parquet, study_summary.json   (``study.table``)

The manifest is rewritten (atomically) as trials end, at most once every :data:`MANIFEST_INTERVAL` (rewriting
it after every trial would write a 1,000-trial study's thousand entries a thousand times), and when the study ends or
is cancelled, so a cancelled study says what it had finished; the trial folders themselves decide what a later
run skips (``study.tasks.completed``). A worker that dies is
replaced by Dask's nanny and its task run again elsewhere (up to ``distributed.scheduler.allowed-failures``);
a task that keeps killing workers fails alone (KilledWorker), with its error saying when their nannies restarted
them for going over their memory limit (``study.cluster``).
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import HybridLabError
from engine.io.atomic import write_text

from .fingerprint import subject_fingerprint, trial_fingerprint
from .table import summary, write_summary, write_table
from .tasks import SCALED_MODEL, analyse_trial, completed, scale_subject

MANIFEST = "study-manifest.json"
MANIFEST_INTERVAL = 1.0
"""Seconds between two rewrites of the manifest while trials end (module notes)."""


@dataclass
class StudyRun:
    """``outcomes``: {``subject/trial``: outcome} (status 'done', 'skipped' or 'failed'); ``rows`` the study
    table's rows in the study's order."""

    outcomes: dict = field(default_factory=dict)
    rows: list = field(default_factory=list)
    seconds: float = 0.0

    def count(self, status: str) -> int:
        return sum(o["status"] == status for o in self.outcomes.values())

    @property
    def failed(self) -> int:
        return self.count("failed")


def _skipped(key: str, record: dict) -> dict:
    return {"key": key, "status": "skipped", "rows": record["rows"], "seconds": 0.0, "peak_rss_mb": None}


def _failed(key: str, error: str) -> dict:
    return {"key": key, "status": "failed", "error": error, "seconds": 0.0, "peak_rss_mb": None}


def _worker_death(client, exc: Exception) -> str:
    """Why a task's future raised: its worker died under it (KilledWorker); said with the memory limit when the
    worker's nanny restarted it for going over it (Dask's "worker-restart-memory" events)."""
    worker = getattr(exc, "last_worker", None)
    address = getattr(worker, "address", None)
    restarts = [event for _, event in client.get_events("worker-restart-memory") if event.get("worker") == address]
    if address is None or not restarts:
        return f"its worker died ({type(exc).__name__}: {exc})"
    limit = getattr(worker, "memory_limit", None)
    held = f"{restarts[-1]['rss'] / 1e6:.0f} MB"
    over = f"over 95% of its limit of {limit / 1e6:.0f} MB" if limit else "over its memory limit"
    return (f"it needs more memory than a worker may use: its worker held {held}, {over}, and was restarted by "
            f"Dask (as was each worker that ran it); give each worker more memory (hybrid batch --memory-limit) "
            f"or run fewer workers")


def submit_study(study, out: Path, client, outcomes: dict, fingerprints: dict) -> dict:
    """Submit what ``study`` still needs to ``client``; fills ``outcomes`` with the trials skipped or failed before
    any work (a subject's files unreadable), ``fingerprints`` with every trial's. Returns {future: trial key}."""
    futures = {}
    for subject in study.subjects:
        try:
            subject_digest = subject_fingerprint(subject)
        except (HybridLabError, OSError) as exc:
            for trial in subject.trials:
                outcomes[trial.key] = _failed(trial.key, f"its subject's files cannot be read: {exc}")
            continue
        pending = []
        for trial in subject.trials:
            digest = fingerprints[trial.key] = trial_fingerprint(trial, subject_digest)
            folder = out / "trials" / subject.id / trial.id
            record = completed(folder, digest)
            if record is not None:
                outcomes[trial.key] = _skipped(trial.key, record)
            else:
                pending.append((trial, folder, digest))
        if not pending:
            continue
        model = None if subject.model is None else str(subject.model)
        if subject.scaled:
            folder = out / "subjects" / subject.id
            model = str(folder / SCALED_MODEL) if completed(folder, subject_digest) is not None else client.submit(
                scale_subject, subject, folder, subject_digest, key=f"scale-{subject.id}-{subject_digest[:12]}")
        for trial, folder, digest in pending:
            future = client.submit(analyse_trial, trial, model, folder, digest, key=f"analyse-{trial.key}-{digest[:12]}",
                                   retries=0)
            futures[future] = trial.key
    return futures


def run_study(study, out, client, progress=None) -> StudyRun:
    """Run ``study`` on the Dask ``client`` into the folder ``out`` (module notes). ``progress(outcome, run)`` is
    called as each trial ends (skipped ones first). Returns the :class:`StudyRun`; the table and summary are
    written when every trial has ended."""
    from distributed import as_completed
    start = time.perf_counter()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    run, fingerprints = StudyRun(), {}
    futures = submit_study(study, out, client, run.outcomes, fingerprints)
    write_manifest(out, study, run, fingerprints)
    written = time.monotonic()
    for outcome in list(run.outcomes.values()):
        if progress is not None:
            progress(outcome, run)
    try:
        for future in as_completed(futures, loop=client.loop):
            key = futures.pop(future)       # released: its worker drops the outcome, the scheduler the task
            try:
                outcome = future.result()
            except Exception as exc:   # the task itself never raises: a worker died under it (KilledWorker)
                outcome = _failed(key, _worker_death(client, exc))
            run.outcomes[key] = outcome
            if time.monotonic() - written >= MANIFEST_INTERVAL:
                write_manifest(out, study, run, fingerprints)
                written = time.monotonic()
            if progress is not None:
                progress(outcome, run)
    finally:
        client.cancel(list(futures))
        write_manifest(out, study, run, fingerprints)
    finish_study(study, out, run)
    run.seconds = time.perf_counter() - start
    return run


def finish_study(study, out: Path, run: StudyRun) -> None:
    """Once every trial of ``study`` has its outcome in ``run``: the outcomes put in the study's order, their rows
    gathered, the study table and summary written into ``out``."""
    run.outcomes = {t.key: run.outcomes[t.key] for t in study.trials}
    run.rows = [row for o in run.outcomes.values() for row in o.get("rows", ())]
    write_table(run.rows, out / "study_table.csv", out / "study_table.parquet")
    write_summary(out / "study_summary.json", summary(run.rows, run.outcomes))


def write_manifest(out: Path, study, run: StudyRun, fingerprints: dict) -> None:
    """The manifest of ``run`` (module notes), written atomically into ``out``."""
    trials = {}
    for trial in study.trials:
        o = run.outcomes.get(trial.key, {"status": "pending"})
        trials[trial.key] = {"fingerprint": fingerprints.get(trial.key), "status": o["status"],
                             "error": o.get("error"), "seconds": o.get("seconds"),
                             "cpu_seconds": o.get("cpu_seconds"), "peak_rss_mb": o.get("peak_rss_mb"),
                             "peak_is_task": o.get("peak_is_task")}
    document = {"study": study.name, "source": str(study.source), "trials": trials}
    write_text(out / MANIFEST, json.dumps(document, indent=1) + "\n")
