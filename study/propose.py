"""A study proposed from a folder laid out as labs store their captures: one folder per subject, inside it the
subject's files, directly or in one folder per session.

Per subject folder: the model is the one ``.osim`` or ``.yaml`` model file in it (else the one at the top of the
folder, shared by all subjects); a ScaleTool setup (an ``.xml`` with ``scale`` in its name) and a static trial
(a marker file with ``static`` in its name) make it scaled; every other ``.c3d``/``.trc`` is a trial, named by its
session folder and file stem; a TRC trial's plates are ``<stem>_grf.mot`` with ``<stem>_grf.xml`` beside it.
What could not be matched (a subject without a model, two candidate models, a TRC's loads half there, files of
no known role) is listed, never guessed.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from engine.errors import SettingsError
from engine.io.atomic import write_text
from engine.io.yaml_documents import dump_document

from .description import FORMAT, VERSION

MARKER_FILES = (".c3d", ".trc")
MODEL_FILES = (".osim", ".yaml")
_IDENTIFIER = re.compile(r"[^A-Za-z0-9_.-]+")


def _ident(text: str) -> str:
    return _IDENTIFIER.sub("_", text).strip("_.-") or "x"


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and not any(part.startswith(".") for part in
                                                                           p.relative_to(folder).parts))


def _single(candidates: list, what: str, where: str, unmatched: list):
    if len(candidates) > 1:
        unmatched.append(f"{where}: {len(candidates)} candidate {what}s ({', '.join(p.name for p in candidates)}); "
                         "none chosen")
        return None
    return candidates[0] if candidates else None


def propose_study(folder, study_file) -> tuple[dict, list[str]]:
    """``(body of a study document, what could not be matched)`` for the lab folder ``folder`` (module notes), with
    file names relative to ``study_file``'s folder."""
    folder = Path(folder).resolve()
    if not folder.is_dir():
        raise SettingsError("is not a folder", file=folder)
    base = Path(study_file).resolve().parent
    unmatched = []
    shared = _single([p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in MODEL_FILES], "model",
                     "top folder", unmatched)
    subjects = []
    for sub in sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".")):
        subject, rest = _subject(sub, shared, base, unmatched)
        unmatched += [f"{f.relative_to(folder)}: no role found (not a model, setup, static trial, trial or its "
                      "loads)" for f in rest]
        if subject is not None:
            subjects.append(subject)
    if not subjects:
        unmatched.append(f"{folder}: no subject folder with a model and a trial")
    return {"name": _ident(folder.name), "settings": {}, "subjects": subjects}, unmatched


def _rel(path: Path, base: Path) -> str:
    return Path(os.path.relpath(path, base)).as_posix()


def _subject(sub: Path, shared, base: Path, unmatched: list):
    files = _files(sub)
    used = set()
    model = _single([p for p in files if p.suffix.lower() in MODEL_FILES], "model", sub.name, unmatched)
    if model is None and not any(p.suffix.lower() in MODEL_FILES for p in files):
        model = shared
    markers = [p for p in files if p.suffix.lower() in MARKER_FILES]
    static = _single([p for p in markers if "static" in p.name.lower()], "static trial", sub.name, unmatched)
    setup = _single([p for p in files if p.suffix.lower() == ".xml" and "scale" in p.name.lower()], "scale setup",
                    sub.name, unmatched)
    entry = {"id": _ident(sub.name), "model": None}
    for key, path in (("scale_setup", setup), ("static", static)):
        if path is not None:
            entry[key] = _rel(path, base)
            used.add(path)
    trials, ids = [], set()
    for path in markers:
        if "static" in path.name.lower():
            used.add(path)
            continue
        session = path.parent.relative_to(sub).parts
        tid = _ident("_".join(session + (path.stem,)))
        if tid in ids:
            unmatched.append(f"{sub.name}/{path.relative_to(sub)}: a trial named {tid!r} is already listed")
            continue
        trial = {"id": tid, "file": _rel(path, base)}
        used.add(path)
        if path.suffix.lower() == ".trc":
            grf, xml = path.with_name(f"{path.stem}_grf.mot"), path.with_name(f"{path.stem}_grf.xml")
            if grf.is_file() and xml.is_file():
                trial.update(grf=_rel(grf, base), external_loads=_rel(xml, base))
                used |= {grf, xml}
            elif grf.is_file() or xml.is_file():
                unmatched.append(f"{sub.name}/{path.relative_to(sub)}: only one of {grf.name} and {xml.name} "
                                 "exists: its loads are left out")
        ids.add(tid)
        trials.append(trial)
    if model is None:
        unmatched.append(f"{sub.name}: no model file (.osim or .yaml) in it or at the top: subject left out")
        return None, [p for p in files if p not in used]
    used.add(model)
    entry["model"] = _rel(model, base)
    if not trials:
        unmatched.append(f"{sub.name}: no trial (.c3d or .trc other than a static one): subject left out")
        return None, [p for p in files if p not in used]
    entry["trials"] = trials
    return entry, [p for p in files if p not in used]


def write_study(path, body: dict) -> None:
    """Write a study document (atomically)."""
    write_text(path, dump_document(FORMAT, VERSION, body, "HybridLab study (docs/batch.md); proposed by "
                                                          "'hybrid study init', check it before 'hybrid batch'"))
