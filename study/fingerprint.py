"""What a study's step depends on, as one SHA-256: the contents of its input files and its settings.

A scaling depends on the generic model, the ScaleTool setup and the files it names (marker set, static trials),
the static trial and the mass; a trial on its subject's scaling, its own files (marker file, loads, setups,
contacts, EMG), its settings and its subject's height and mass (a trial analysed alone; the mass through its
subject's fingerprint). The version of HybridLab is part of both: results of another version are never taken for this one's. A step whose outputs carry the same fingerprint
is not run again (``hybrid batch``'s resume).
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from engine import __version__

_CHUNK = 1 << 20


def file_digest(path) -> str:
    """SHA-256 of a file's bytes."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(_CHUNK), b""):
            h.update(chunk)
    return h.hexdigest()


def _digest(parts: dict) -> str:
    text = json.dumps({"hybridlab": __version__, **parts}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _files(paths) -> dict:
    """{name: digest} of the files among ``paths`` (None left out), keyed by file name: the study's folder may
    move without invalidating its results."""
    return {Path(p).name + f"#{i}": file_digest(p) for i, p in enumerate(paths) if p is not None}


def _setup_files(setup_path) -> list:
    """The files a ScaleTool setup names (model, marker set, static trials) that exist."""
    from engine.io.osim.scale_setup import read_scale_setup
    setup = read_scale_setup(setup_path)
    names = [setup.model_file, setup.marker_set_file, setup.scaler.static_file,
             setup.placer.static_file if setup.placer is not None else None]
    return [p for p in names if p is not None and Path(p).is_file()]


def subject_fingerprint(subject) -> str:
    """The fingerprint of a subject's scaling (or of its model as given, when it is not scaled)."""
    paths = [subject.model, subject.scale_setup, subject.static]
    if subject.scale_setup is not None:
        paths += _setup_files(subject.scale_setup)
    return _digest({"files": _files(paths), "mass": subject.mass, "scaled": subject.scaled})


def trial_fingerprint(trial, subject_digest: str) -> str:
    """The fingerprint of a trial's analysis on its subject's model (``subject_digest``)."""
    files = [trial.file, trial.grf, trial.external_loads] + [v for k, v in sorted(trial.settings.items())
                                                             if isinstance(v, Path)]
    settings = {k: (str(v.name) if isinstance(v, Path) else v) for k, v in trial.settings.items()}
    return _digest({"subject": subject_digest, "files": _files(files), "settings": settings, "height": trial.height})
