"""The work of one Dask task, run in a worker process: a subject's scaling, a trial's analysis.

Each writes its folder as a unit (``engine.io.output_folder``: staged, then moved in with its manifest), with a
record (:data:`RECORD`: the step's fingerprint, and a trial's rows of the study table) inside the same unit, so a
folder holds either the complete outputs of one run and their record or its previous contents: a killed worker or
a cancelled study loses nothing done. A trial runs exactly what ``hybrid analyze`` runs on the same arguments
(``engine.cli.analyze``). Each returns an outcome (a plain dict): ``status`` 'done' or 'failed', ``error``,
``seconds``, ``memory_mb`` (the worker's resident memory after the task), and the scaled model or the rows.
Invalid input (a HybridLabError) and a bug alike fail that step only; the error says which.
"""
from __future__ import annotations

import json
import time
import traceback
from pathlib import Path

from engine.errors import HybridLabError
from engine.io.atomic import write_text
from engine.io.output_folder import MANIFEST, output_folder

from .description import analyze_arguments
from .table import trial_rows

RECORD = "study-record.json"
SCALED_MODEL = "model.yaml"


def completed(folder, fingerprint: str):
    """The record of ``folder`` when it holds the complete outputs of a step with ``fingerprint``, else None."""
    folder = Path(folder)
    try:
        record = json.loads((folder / RECORD).read_text())
        files = json.loads((folder / MANIFEST).read_text())["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if record.get("fingerprint") != fingerprint or not all((folder / n).is_file() for n in files):
        return None
    return record


def _write_record(staging: Path, document: dict) -> Path:
    write_text(staging / RECORD, json.dumps(document, indent=1, allow_nan=False) + "\n")
    return staging / RECORD


def _memory_mb() -> float:
    import psutil
    return psutil.Process().memory_info().rss / 2 ** 20


def _error(exc: BaseException) -> str:
    if isinstance(exc, HybridLabError):
        return str(exc)
    where = traceback.extract_tb(exc.__traceback__)[-1]     # a bug: its type and where it happened, for the report
    return f"{type(exc).__name__}: {exc} (at {Path(where.filename).name}:{where.lineno})"


def _failure(key: str, error: str, start: float) -> dict:
    return {"key": key, "status": "failed", "error": error, "seconds": time.perf_counter() - start,
            "memory_mb": _memory_mb()}


def scale_subject(subject, folder, fingerprint: str) -> dict:
    """Scale ``subject`` into ``folder`` (``hybrid scale``'s outputs, the model as :data:`SCALED_MODEL`); the outcome
    holds ``model``, the scaled model's path, and the scaling's ``notes``."""
    from engine.io.scale_files import scale_steps, write_scale_outputs
    from engine.progress import run as run_steps
    start = time.perf_counter()
    try:
        with output_folder(folder) as staging:
            run, setup = run_steps(scale_steps(subject.scale_setup, subject.model, subject.static, subject.mass))
            write_scale_outputs(run, setup, staging / SCALED_MODEL)
            _write_record(staging, {"fingerprint": fingerprint, "notes": list(run.result.notes)})
    except Exception as exc:
        return _failure(subject.id, _error(exc), start)
    return {"key": subject.id, "status": "done", "model": str(Path(folder) / SCALED_MODEL),
            "notes": list(run.result.notes), "seconds": time.perf_counter() - start, "memory_mb": _memory_mb()}


def analyse_trial(trial, model, folder, fingerprint: str) -> dict:
    """Analyse ``trial`` with ``model`` (a model file, or its subject's scaling outcome) into ``folder``, as
    ``hybrid analyze`` does; the outcome holds the trial's ``rows`` of the study table."""
    from engine.cli.analyze import analyse_to_folder, parse_arguments
    start = time.perf_counter()
    if isinstance(model, dict):
        if model["status"] != "done":
            return _failure(trial.key, f"its subject's scaling failed: {model['error']}", start)
        model = model["model"]
    rows = []

    def record(result, settings, staging):
        rows.extend(trial_rows(trial.subject, trial.id, result, settings.forward))
        return [_write_record(staging, {"fingerprint": fingerprint, "rows": rows})]

    try:
        args = parse_arguments(analyze_arguments(trial, model) + ["--out", str(folder), "--quiet"])
        analyse_to_folder(args, record)
    except Exception as exc:
        return _failure(trial.key, _error(exc), start)
    return {"key": trial.key, "status": "done", "rows": rows, "seconds": time.perf_counter() - start,
            "memory_mb": _memory_mb()}
