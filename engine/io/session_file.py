"""Session files (``.hls``): model, trial, analysis settings and result, gait events, current time, curves shown,
view options, camera and window layout, in one archive (``engine.io.results_file``), written
atomically. The model and trial paths are stored relative to the session's folder and resolved against it when
the session opens, so a folder of work can be moved or shared. No Qt here: the window layout is kept as the bytes
Qt gave.

A session holds a whole patient: every trial with its own settings, result and events (``trials``, the shown one
at ``current``), the static trial, and how the model was scaled (``patient``: generic model, scale setup, mass,
scaled model; paths), and the user's edits of the shown trial's marker matching when it was analysed with the
default model (``marker_matching``: ``edits``, ``{label: protocol marker or None}``, and ``edits_run``, those of its
result; ``engine.protocols.edits``; ``body``, the subject's ``height`` m and ``mass`` kg the user gave, None: the
trial's, and ``body_run``, those of its result), and the report's options of the sections from the packages beside
the engine (``report``: entry point name -> keyword arguments, ``engine.io.report_sections``; skin's socket liner,
checked on reading by the section's options entry point: ``checked_options``), which ``hybrid report`` of the session uses as the application did. The shown trial's are also the top-level
``trial``, ``settings``, ``result`` and ``events`` (stored once: its entry in ``trials`` keeps only its path), so files
written before the trials were kept open as one trial, and readers of one trial (``hybrid report``) read the shown
one."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .report_sections import checked_options
from .results_file import portable_path, read_archive, write_archive
from ..errors import DataError, SettingsError
from ..trial.body_measures import check_height, check_mass

SUFFIX = ".hls"
KIND = "hybridlab-session"


@dataclass
class Session:
    """A piece of work; ``trial`` is the trial as opened (lab axes), ``view`` holds the layers shown, the blade
    colouring and the camera (plain values), ``channels`` the curves shown per group."""

    model: object = None
    trial: object = None
    settings: object = None
    result: object = None
    events: list = field(default_factory=list)
    time: float = 0.0
    model_path: str | None = None
    trial_path: str | None = None
    channels: dict = field(default_factory=dict)
    view: dict = field(default_factory=dict)
    layout: bytes | None = None
    trials: list = field(default_factory=list)
    current: int = 0
    static_trial: object = None
    static_trial_path: str | None = None
    patient: dict = field(default_factory=dict)
    marker_matching: dict = field(default_factory=dict)
    report: dict = field(default_factory=dict)


TRIAL_ENTRY = ("path", "trial", "settings", "result", "events", "reasons")
"""The keys of an entry of ``Session.trials`` (``path`` may be None for a trial not read from a file; ``reasons``
why its settings are what they are)."""
PATIENT_PATHS = ("generic_model", "scale_setup", "scaled_model")
"""The file paths of ``Session.patient`` (its other key is ``mass``, kg)."""
_FIELDS = ("model", "trial", "settings", "result", "events", "time", "model_path", "trial_path", "channels", "view",
           "trials", "current", "static_trial", "static_trial_path", "patient", "marker_matching", "report")
_PATHS = ("model_path", "trial_path", "static_trial_path")


def _paths(mapping: dict, keys, convert) -> dict:
    return {k: (convert(v) if k in keys and isinstance(v, str) else v) for k, v in mapping.items()}


def _stored_trials(session: Session, convert) -> list:
    """The entries as stored: the shown one's path and reasons alone (its content is the top-level fields)."""
    shown = ("path", "reasons")
    return [_paths({k: e.get(k) for k in (shown if i == session.current else TRIAL_ENTRY)},
                   ("path",), convert) for i, e in enumerate(session.trials)]


def save_session(path, session: Session) -> None:
    """Write ``session`` to ``path`` atomically (an existing file is untouched if anything fails)."""
    base = Path(path).absolute().parent

    def convert(p):
        return portable_path(str(Path(p).absolute()), base)

    contents = {"kind": KIND, **{name: getattr(session, name) for name in _FIELDS}}
    for name in _PATHS:
        if contents[name] is not None:
            contents[name] = convert(contents[name])
    contents["trials"] = _stored_trials(session, convert)
    contents["patient"] = _paths(session.patient, PATIENT_PATHS, convert)
    if session.layout is not None:
        contents["layout"] = np.frombuffer(bytes(session.layout), dtype=np.uint8)
    write_archive(path, contents, "HybridLab session")


def load_session(path) -> Session:
    """The session saved in ``path``.

    A file of one trial (written before sessions kept every trial) opens with that trial as the only entry of
    ``trials``; each entry is complete (the shown one's filled from the top-level fields; ``reasons`` a list).

    Raises
    ------
    DataError
        If the file cannot be read, is damaged, or is not a session file (naming the file).
    """
    contents = read_archive(path)
    if contents.get("kind") != KIND:
        raise DataError("is not a HybridLab session file", file=path)
    layout = contents.get("layout")
    base = Path(path).absolute().parent

    def convert(p):
        return str(base / p)

    for name in _PATHS:
        if isinstance(contents.get(name), str):
            contents[name] = convert(contents[name])
    session = Session(**{name: contents[name] for name in _FIELDS if name in contents},
                      layout=None if layout is None else layout.tobytes())
    entries, current = session.trials, session.current
    if (not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries)
            or not isinstance(current, int) or not 0 <= current < max(len(entries), 1)):
        raise DataError("its list of trials is damaged", element="trials", file=path)
    if not isinstance(session.marker_matching, dict) or not all(
            isinstance(e, dict) for e in session.marker_matching.values()):
        raise DataError("its marker matching is damaged", element="marker_matching", file=path)
    _check_body(session.marker_matching, path)
    if not isinstance(session.report, dict) or not all(isinstance(k, str) and isinstance(v, dict)
                                                       for k, v in session.report.items()):
        raise DataError("its report options are damaged (section name -> options)", element="report", file=path)
    session.report = checked_options(session.report, path, DataError)
    if not isinstance(session.patient, dict):
        raise DataError("its patient is damaged", element="patient", file=path)
    session.patient = _paths(session.patient, PATIENT_PATHS, convert)
    session.trials = [{**{k: e.get(k) for k in TRIAL_ENTRY}, "reasons": list(e.get("reasons") or [])}
                      for e in (_paths(e, ("path",), convert) for e in entries)]
    if not session.trials and session.trial is not None:
        session.trials, session.current = [{"path": session.trial_path, "reasons": []}], 0
    if session.trials:
        session.trials[session.current].update(path=session.trial_path, trial=session.trial,
                                               settings=session.settings, result=session.result,
                                               events=session.events)
    return session


def _check_body(matching: dict, path) -> None:
    """The subject's height (m) and mass (kg) the user gave (``body``) and those of the result (``body_run``): each
    None or absent (the trial's), or within the range ``hybrid analyze --height/--mass`` accepts; DataError
    naming ``path`` and ``marker_matching.body`` (or ``body_run``) otherwise, so a bad session changes nothing."""
    for key in ("body", "body_run"):
        body = matching.get(key) or {}
        element = f"marker_matching.{key}"
        for name, check in (("height", check_height), ("mass", check_mass)):
            if body.get(name) is not None:
                try:
                    check(body[name], element, name)
                except SettingsError as error:
                    raise DataError(error.problem, element=element, file=path) from None
