"""Session files (``.hls``): model, trial, analysis settings and result, gait events, current time, curves shown,
view options, camera and window layout, in one archive (``engine.io.results_file``), written
atomically. The model and trial paths are stored relative to the session's folder and resolved against it when
the session opens, so a folder of work can be moved or shared. No Qt here: the window layout is kept as the bytes
Qt gave."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .results_file import portable_path, read_archive, write_archive
from ..errors import DataError

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


_FIELDS = ("model", "trial", "settings", "result", "events", "time", "model_path", "trial_path", "channels", "view")
_PATHS = ("model_path", "trial_path")


def save_session(path, session: Session) -> None:
    """Write ``session`` to ``path`` atomically (an existing file is untouched if anything fails)."""
    base = Path(path).absolute().parent
    contents = {"kind": KIND, **{name: getattr(session, name) for name in _FIELDS}}
    for name in _PATHS:
        if contents[name] is not None:
            contents[name] = portable_path(str(Path(contents[name]).absolute()), base)
    if session.layout is not None:
        contents["layout"] = np.frombuffer(bytes(session.layout), dtype=np.uint8)
    write_archive(path, contents, "HybridLab session")


def load_session(path) -> Session:
    """The session saved in ``path``.

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
    for name in _PATHS:
        if isinstance(contents.get(name), str):
            contents[name] = str(base / contents[name])
    return Session(**{name: contents[name] for name in _FIELDS if name in contents},
                   layout=None if layout is None else layout.tobytes())
