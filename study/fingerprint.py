"""What a study's step depends on, as one SHA-256: the contents of its input files, its settings and the code that
computes it.

A scaling depends on the generic model, the ScaleTool setup and the files it names (marker set, static trials),
the static trial and the mass; a trial on its subject's scaling, its own files (marker file, loads, setups,
contacts, EMG), its settings and its subject's height and mass (a trial analysed alone; the mass through its
subject's fingerprint). Both depend on the code that computes them (:func:`code_digest`: the SHA-256 of the installed
engine's and study package's sources and of the resources the engine reads, hashed once per process), so that
results of other code, an edited kernel included, are never taken for this code's: no version number to bump that
could be forgotten. A step whose outputs carry the same fingerprint is not run again (``hybrid batch``'s resume).
"""
from __future__ import annotations

import functools
import hashlib
import importlib
import importlib.resources
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


def source_digest(paths) -> str:
    """SHA-256 of the files ``paths`` and of those under the folders among them, by their paths within the folder
    (a file's by its name) and their bytes, in a fixed order; Python's caches (``__pycache__``: compiled modules,
    numba's cached kernels) left out."""
    h = hashlib.sha256()
    for given in map(Path, paths):
        files = sorted(p for p in given.rglob("*") if p.is_file() and "__pycache__" not in p.parts) \
            if given.is_dir() else [given]
        for path in files:
            h.update(f"{given.name}/{path.relative_to(given).as_posix()}\0".encode())
            h.update(file_digest(path).encode())
    return h.hexdigest()


def code_paths() -> list:
    """The installed files that compute a study's results: the engine's and this package's folders (its tasks and
    table), and the resources the engine reads (the default athlete, marker protocols, normative curves; not the
    demo, which no study step reads unless a trial names it, as an input file)."""
    engine, study = (Path(importlib.import_module(name).__file__).parent for name in ("engine", "study"))
    resources = Path(str(importlib.resources.files("hybridlab_resources")))
    return [engine, study, resources / "athlete.yaml", resources / "protocols", resources / "normative"]


@functools.cache
def code_digest() -> str:
    """The digest of the code that computes a study's results in this process (module notes): :func:`source_digest`
    of :func:`code_paths`. Also in a frozen bundle (PyInstaller), which ships the engine's and study's sources beside
    the byte code it runs, compiled from them (``packaging/hybridlab.spec``), and the resources in its folder: not the
    program's bytes, which hold neither the resources nor the same bytes in the bundle's two programs (the windowed
    ``hybridgui`` on Windows and macOS, which opens ``hybrid batch``'s results). Computed once per process (about 2 MB
    of files, 0.1 s)."""
    return source_digest(code_paths())


def _digest(parts: dict) -> str:
    text = json.dumps({"hybridlab": __version__, "code": code_digest(), **parts}, sort_keys=True, default=str)
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


def _by_name(value):
    """A setting as fingerprinted: a file (or each file of a tuple) by its name, its contents being hashed apart."""
    if isinstance(value, tuple):
        return [_by_name(v) for v in value]
    return value.name if isinstance(value, Path) else value


def trial_fingerprint(trial, subject_digest: str) -> str:
    """The fingerprint of a trial's analysis on its subject's model (``subject_digest``)."""
    named = [p for _, v in sorted(trial.settings.items()) for p in (v if isinstance(v, tuple) else (v,))
             if isinstance(p, Path)]           # a setting's file, or files (actuators)
    files = [trial.file, trial.grf, trial.external_loads] + named
    settings = {k: _by_name(v) for k, v in trial.settings.items()}
    return _digest({"subject": subject_digest, "files": _files(files), "settings": settings, "height": trial.height})
