"""A study as the application browses it: its table of trials (:func:`open_study`) and one trial's results
(:func:`trial_result_steps`).

:func:`open_study` takes a study file (``study.yaml``), a batch output folder (``hybrid batch --out``) or the
folder's ``study-manifest.json``. The manifest names its study file relative to its folder (``study.runner``), so a
study copied or moved together with its results keeps them. From a study file alone, the output folder is the one
whose manifest names this study file, in the study file's folder, a sub-folder of it or a folder beside it (the latest
written when several do); without one every trial is 'not run'. The rows are the study table's (``study.table``):
one per trial and gait cycle, read from each finished trial's record, with the trial's ``status`` ('done': by this
run or an earlier one; 'failed', with its ``error``; 'pending': not reached by a cancelled run; 'not run') and, for a
trial without rows, one row of its own.

A batch writes a trial's files, not the whole result: :func:`trial_result_steps` computes it again, after checking
that the trial's folder holds the complete outputs of the study as it is now (the fingerprint of the trial's input
files, settings, subject's scaling inputs and HybridLab's code, ``study.fingerprint``). The analysis is then
``hybrid analyze``'s on the same arguments as the batch's (``engine.cli.analyze.analysis_inputs``), deterministic:
the result is the one whose files are in the folder.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import DataError, HybridLabError
from engine.progress import Progress

from .description import analyze_arguments, load_study
from .fingerprint import subject_fingerprint, trial_fingerprint
from .runner import MANIFEST
from .table import KEYS, columns
from .tasks import RECORD, SCALED_MODEL, completed

STATUS = {"done": "done", "skipped": "done", "failed": "failed", "pending": "pending"}
"""A trial's status in the browser, from its status in the manifest ('skipped': done by an earlier run)."""


@dataclass
class StudyTable:
    """``source``: the study file; ``out``: the batch output folder (None: not run); ``rows``: one dict per trial and
    cycle (the study table's columns, ``status`` and ``error``); ``columns``: their names in display order."""

    name: str
    source: Path
    out: Path | None
    rows: list = field(default_factory=list)
    columns: list = field(default_factory=list)

    def count(self, status: str) -> int:
        """Trials (not rows) with ``status``."""
        return len({(r["subject"], r["trial"]) for r in self.rows if r["status"] == status})


def _manifest(path: Path) -> dict:
    try:
        document = json.loads(path.read_text())
        trials, source = document["trials"], document["source"]
        if not isinstance(trials, dict) or not isinstance(source, str):
            raise TypeError
    except OSError as exc:
        raise DataError(f"the batch output folder has no readable study-manifest.json ({exc.strerror or exc}): "
                        "give a study.yaml or the folder 'hybrid batch --out' wrote", file=path) from None
    except (ValueError, KeyError, TypeError):
        raise DataError("not a study manifest written by 'hybrid batch' (it needs 'trials' and 'source')",
                        file=path) from None
    return document


def _source(out: Path, source: str) -> Path:
    """The study file a manifest in the output folder ``out`` names ``source`` (relative to ``out``, as
    ``study.runner`` writes it; an absolute path stays as it is)."""
    return (out / source).resolve()


def _output_beside(study_file: Path) -> Path | None:
    """The batch output folder whose manifest's source is ``study_file``, among the study file's folder, its
    sub-folders and the folders beside it (``hybrid batch lab/study.yaml --out results``); the latest written when
    several are; None when there is none."""
    folder = study_file.parent
    candidates = [folder / MANIFEST, *folder.glob(f"*/{MANIFEST}"), *folder.parent.glob(f"*/{MANIFEST}")]
    found = []
    for manifest in set(candidates):
        try:
            source = json.loads(manifest.read_text()).get("source")
            written = manifest.stat().st_mtime
        except (OSError, ValueError, AttributeError):
            continue                      # not a readable manifest: not this study's output
        if isinstance(source, str) and source and _source(manifest.parent, source) == study_file:
            found.append((written, str(manifest.parent)))
    return Path(max(found)[1]) if found else None


def open_study(path) -> StudyTable:
    """The study at ``path`` (a study file, a batch output folder or its manifest) with its table (module notes).
    DataError (naming the file) for an unreadable manifest or study file."""
    path = Path(path).resolve()
    if path.is_dir() or path.name == MANIFEST:
        out = path if path.is_dir() else path.parent
        document = _manifest(out / MANIFEST)
        source = _source(out, document["source"])
        study = load_study(source)
        name = document.get("study") or study.name
    else:
        study, source = load_study(path), path
        out, name = _output_beside(path), study.name
        document = _manifest(out / MANIFEST) if out is not None else {"trials": {}}
    rows = []
    for trial in study.trials:
        entry = document["trials"].get(trial.key) or {"status": "not run" if out is None else "pending"}
        status = STATUS.get(entry.get("status"), "not run" if out is None else "pending")
        base = {"subject": trial.subject, "trial": trial.id, "status": status, "error": entry.get("error")}
        record = completed(out / "trials" / trial.subject / trial.id, entry.get("fingerprint")) \
            if out is not None and status == "done" else None
        trial_rows = (record or {}).get("rows") or [{}]
        rows += [{**row, **base} for row in trial_rows]
    names = columns(rows)
    names = KEYS[:2] + ("status",) + tuple(n for n in names if n not in ("subject", "trial", "status", "error")) \
        + ("error",)
    return StudyTable(name, source, out, rows, list(names))


def trial_result_steps(table: StudyTable, subject: str, trial: str):
    """Generator step: yields Progress, returns ``(result, settings)``, the analysis of ``subject``'s ``trial``
    whose files the batch wrote (module notes). DataError when the study was not run, or the trial's folder does
    not hold the complete outputs of the study as it is now (run ``hybrid batch`` again)."""
    key = f"{subject}/{trial}"
    yield Progress("preparing", 0.0, f"reading {key}'s inputs")
    if table.out is None:
        raise DataError(f"the study has not been run: run 'hybrid batch {table.source.name} --out FOLDER' first",
                        file=table.source)
    study = load_study(table.source)
    spec = next((t for t in study.trials if t.key == key), None)
    if spec is None:
        raise DataError(f"the study file has no trial '{key}' any more", file=table.source)
    subject_spec = next(s for s in study.subjects if s.id == subject)
    folder = table.out / "trials" / subject / trial
    try:
        digest = trial_fingerprint(spec, subject_fingerprint(subject_spec))
    except (HybridLabError, OSError) as exc:
        raise DataError(f"trial '{key}': its input files cannot be read ({exc})", file=table.source) from None
    if completed(folder, digest) is None:
        raise DataError(f"trial '{key}' has no finished outputs of the study as it is now (its files, settings or "
                        f"HybridLab's code changed since the batch, or the batch did not finish it): run "
                        f"'hybrid batch' again", file=folder / RECORD)
    model = table.out / "subjects" / subject / SCALED_MODEL if subject_spec.scaled else subject_spec.model
    from engine.analysis.pipeline import analysis_steps
    from engine.cli.analyze import analysis_inputs, parse_arguments
    args = parse_arguments(analyze_arguments(spec, None if model is None else str(model))
                           + ["--out", str(folder), "--quiet"])
    model, data, settings = analysis_inputs(args, given_in=spec.given_in)
    result = yield from analysis_steps(model, data, settings)
    return result, settings
