"""A study proposed from a folder laid out as labs store their captures: one folder per subject, inside it the
subject's files, directly or in one folder per session.

Per subject folder: the model is the one ``.osim`` or ``.yaml`` model file in it (else the one at the top of the
folder, shared by all subjects); a ScaleTool setup (an ``.xml`` with ``scale`` in its name) and a static trial
(a marker file with ``static`` in its name) make it scaled; every other ``.c3d``/``.trc`` is a trial, named by its
session folder and file stem; a TRC trial's plates are ``<stem>_grf.mot`` with ``<stem>_grf.xml`` beside it.

A subject with no model file in its folder or at the top has each trial analysed alone (``hybrid analyze TRIAL``:
the default athlete made for it), its static trial as its ``static`` setting; its ``height`` (m) and ``mass`` (kg)
are those its own C3D trials record (``engine.trial.body_measures``: SUBJECT:HEIGHT, PROCESSING:Height in mm,
SUBJECT:WEIGHT, PROCESSING:Bodymass ...), converted to m and kg and said with the parameter and trial read (and an
assumption made: a SUBJECT:WEIGHT has no unit and is taken as kg; a mass in a file recording no height is checked by
the height the subject's other files agree on, named), when every trial recording one records the same and
none records one not usable (17.8 for a height: a typo, a wrong unit, or another subject's file); else the field is
left for the user and the reason listed. Each value not used is listed, with its trial; the trials recording none
(TRC files cannot) are named as taking the subject's value. Nothing is carried from one subject to another.

A subject with a model that is scaled (a ScaleTool setup or a static trial) gets its ``mass`` (the scaled model's) the
same way from its C3D trials, static included, unless its ScaleTool setup gives one (``<mass>`` other than OpenSim's
-1): the setup's is then the lab's choice and is used; trials recording another mass are listed beside it, never
written over it. A subject with a model is given no ``height`` (a model's scaling does not use one), and a model not
scaled is analysed with its own mass (a study refuses a ``mass`` there): their trials are not read for either.

What could not be matched (two candidate models, a TRC's loads half there, a ScaleTool setup without a model,
heights or masses the trials do not give or disagree on, files of no known role) is listed, never guessed.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from engine.demo.athlete import MASS
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


def propose_study(folder, study_file) -> tuple[dict, list[str], list[str]]:
    """``(body of a study document, what was proposed from the files' contents, what could not be matched)`` for
    the lab folder ``folder`` (module notes), with file names relative to ``study_file``'s folder."""
    folder = Path(folder).resolve()
    if not folder.is_dir():
        raise SettingsError("is not a folder", file=folder)
    base = Path(study_file).resolve().parent
    unmatched, proposed = [], []
    top = [p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in MODEL_FILES]
    shared = _single(top, "model", "top folder", unmatched)
    subjects = []
    for sub in sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".")):
        subject, rest = _subject(sub, shared, len(top) > 1, base, proposed, unmatched)
        unmatched += [f"{f.relative_to(folder)}: no role found (not a model, setup, static trial, trial or its "
                      "loads)" for f in rest]
        if subject is not None:
            subjects.append(subject)
    if not subjects:
        unmatched.append(f"{folder}: no subject folder with a trial")
    return {"name": _ident(folder.name), "settings": {}, "subjects": subjects}, proposed, unmatched


def _rel(path: Path, base: Path) -> str:
    return Path(os.path.relpath(path, base)).as_posix()


def _subject(sub: Path, shared, shared_ambiguous: bool, base: Path, proposed: list, unmatched: list):
    files = _files(sub)
    used = set()
    own = [p for p in files if p.suffix.lower() in MODEL_FILES]
    model = _single(own, "model", sub.name, unmatched)
    if model is None and not own:
        model = shared
    ambiguous = len(own) > 1 or (not own and shared_ambiguous)
    markers = [p for p in files if p.suffix.lower() in MARKER_FILES]
    static = _single([p for p in markers if "static" in p.name.lower()], "static trial", sub.name, unmatched)
    setup = _single([p for p in files if p.suffix.lower() == ".xml" and "scale" in p.name.lower()], "scale setup",
                    sub.name, unmatched)
    entry = {"id": _ident(sub.name), "model": None}
    for key, path in (("scale_setup", setup), ("static", static)):
        if path is not None:
            entry[key] = _rel(path, base)
            used.add(path)
    trials, trial_paths, ids = [], [], set()
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
        trial_paths.append(path)
    if ambiguous:
        unmatched.append(f"{sub.name}: which model is its own is not clear (above): subject left out")
        return None, [p for p in files if p not in used]
    if not trials:
        unmatched.append(f"{sub.name}: no trial (.c3d or .trc other than a static one): subject left out")
        return None, [p for p in files if p not in used]
    if model is None:
        del entry["model"]
        _alone(entry, sub, setup, static, trial_paths, proposed, unmatched)
    else:
        used.add(model)
        entry["model"] = _rel(model, base)
        if setup is not None or static is not None:
            _scaled_mass(entry, sub, setup, [static] + trial_paths, proposed, unmatched)
    entry["trials"] = trials
    return entry, [p for p in files if p not in used]


def _alone(entry: dict, sub: Path, setup, static, paths: list, proposed: list, unmatched: list) -> None:
    """``entry`` of a subject without a model, whose trials (files ``paths``) are each analysed alone with the
    default athlete made for it: given its ``static`` trial as its ``static`` setting, and the ``height`` and ``mass``
    its C3D trials record (module notes)."""
    proposed.append(f"{sub.name}: no model file (.osim or .yaml) in it or at the top: each trial analysed alone, with "
                    "the default athlete made for it (hybrid analyze TRIAL)")
    if setup is not None:
        del entry["scale_setup"]
        unmatched.append(f"{sub.name}/{setup.relative_to(sub)}: a ScaleTool setup scales a model, and the subject has "
                         "none: left out")
    if static is not None:
        entry["settings"] = {"static": entry.pop("static")}
    recorded = _readable(sub, [static] + paths, "height and mass", unmatched)
    trc = [p for p in [static] + paths if p is not None and p.suffix.lower() == ".trc"]
    for key in ("height", "mass"):
        _not_used(sub, key, recorded, unmatched)
        _agreed(entry, sub, key, recorded, proposed, unmatched,
                "each trial's stature is the default athlete's scaled by its markers" if key == "height"
                else f"each trial keeps the default athlete's {MASS:g} kg", trc)


def _scaled_mass(entry: dict, sub: Path, setup, paths: list, proposed: list, unmatched: list) -> None:
    """``entry``'s ``mass`` of a subject whose model is scaled (``setup`` its ScaleTool setup or None, ``paths`` its
    static trial and trials): the one its C3D files record, unless the setup gives one (module notes)."""
    from engine.errors import HybridLabError
    from engine.io.osim.scale_setup import read_scale_setup
    recorded = _readable(sub, paths, "body mass", unmatched)
    if not recorded:
        return                                  # TRC trials record no mass: the setup's, or the model's, as scaled
    _not_used(sub, "mass", recorded, unmatched)
    if setup is not None:
        try:
            given = read_scale_setup(setup).mass
        except HybridLabError as exc:
            unmatched.append(f"{sub.name}/{setup.relative_to(sub)}: could not be read for its mass ({exc}); the "
                             "subject's mass is not proposed")
            return
        if given is not None:
            differ = [(p, r["mass"]) for p, r in recorded
                      if r["mass"].value is not None and round(r["mass"].value, 2) != round(given, 2)]
            if differ:
                unmatched.append(f"{sub.name}: its ScaleTool setup {setup.name} gives a mass of {given:g} kg, which "
                                 "scales its model; its trials record another ("
                                 + ", ".join(f"{p.name} {m.reading}" for p, m in differ)
                                 + "): the setup's is used; give the subject's mass (kg) to use another")
            return
    _agreed(entry, sub, "mass", recorded, proposed, unmatched,
            "its model's masses are scaled with its segments" + (f" ({setup.name} gives none)" if setup else ""))


def _readable(sub: Path, paths: list, what: str, unmatched: list) -> list:
    """:func:`_recorded` of ``paths``, each file that could not be read listed in ``unmatched`` (``what`` was
    sought)."""
    recorded, unreadable = _recorded(paths)
    for path, problem in unreadable:
        unmatched.append(f"{sub.name}/{path.relative_to(sub)}: could not be read for the subject's {what} "
                         f"({problem})")
    return recorded


_MEASURES = {"height": ("height", "m", 4, "SUBJECT:HEIGHT or PROCESSING:Height"),
             "mass": ("body mass", "kg", 2, "SUBJECT:WEIGHT or PROCESSING:Bodymass")}
"""key -> (what, unit, digits: values agree when within 10^-digits of each other (0.1 mm, 10 g; float rounding
aside), the first proposed rounded to them, fields read)."""


def _agreement(measures: list, key: str) -> str:
    """How the ``key`` (``height`` or ``mass``) values that ``measures`` (Recorded) hold agree: "none" (no usable
    one), "differ" (two usable ones further apart than 10^-digits, :data:`_MEASURES`), "refused" (the usable ones
    agree, but one file records a value not usable: it may be another subject's), else "agree"."""
    values = [m.value for m in measures if m.value is not None]
    if not values:
        return "none"
    if max(values) - min(values) > 10.0 ** -_MEASURES[key][2] * (1 + 1e-9):
        return "differ"
    return "refused" if any(m.refused for m in measures) else "agree"


def _not_used(sub: Path, key: str, recorded: list, unmatched: list) -> None:
    """Each value of ``key`` (``height`` or ``mass``) a trial of ``recorded`` records and was not used, with why."""
    unmatched += [f"{sub.name}/{path.relative_to(sub)}: {note}" for path, r in recorded for note in r[key].rejected]


def _agreed(entry: dict, sub: Path, key: str, recorded: list, proposed: list, unmatched: list, without_it: str,
            trc: list = ()):
    """``entry[key]`` (``height`` m or ``mass`` kg) the value every trial of ``recorded`` recording one records, said
    in ``proposed`` with the trials recording none (those of ``trc``, TRC files, cannot); else left out (a trial
    records another, or one not usable: the caller lists it, :func:`_not_used`), the reason in ``unmatched`` with
    what happens ``without_it``."""
    what, unit, digits, fields = _MEASURES[key]
    readings = [(path, r) for path, r in recorded if r[key].value is not None]
    refused = [path.name for path, r in recorded if r[key].refused]
    agreement = _agreement([r[key] for _, r in recorded], key)
    value = round(readings[0][1][key].value, digits) if readings else None
    left = f"{key} left for you to give ({unit}); without it {without_it}"
    if agreement == "none":
        unmatched.append(f"{sub.name}: no trial records the subject's {what} ({fields}"
                         + (f"; not usable in {', '.join(refused)}, above" if refused else "")
                         + (f"; {', '.join(p.name for p in trc)}: TRC, which records none" if trc else "")
                         + f"): {left}")
    elif agreement == "differ":
        unmatched.append(f"{sub.name}: its trials record different values of its {what} ("
                         + ", ".join(f"{p.name} {r[key].value:g} {unit}" for p, r in readings)
                         + f"): {left}")
    elif agreement == "refused":
        unmatched.append(f"{sub.name}: {_record([p.name for p, _ in readings])} {value:g} {unit} for its "
                         f"{what}, but {_record(refused)} one not usable (above), which may be another "
                         f"subject's file: {left}")
    else:
        entry[key] = value
        sources = sorted({r[key].reading for _, r in readings})
        without = [p.name for p, r in recorded if r[key].value is None] + [f"{p.name} (TRC)" for p in trc]
        proposed.append(f"{sub.name}: {key} {value:g} {unit}, read from {', '.join(sources)} in "
                        f"{', '.join(p.name for p, _ in readings)}" +
                        (f"; {_record(without)} none: this subject's value applies to "
                         f"{'it' if len(without) == 1 else 'them'} too" if without else ""))


def _record(names: list) -> str:
    """``names`` (of trials) and the verb "record", agreed."""
    return f"{', '.join(names)} {'records' if len(names) == 1 else 'record'}"


def _recorded(paths: list) -> tuple[list, list]:
    """``[(path, {'height': Recorded, 'mass': Recorded})]`` of the C3D files among ``paths`` (TRC files record
    neither) from their parameters (``engine.io.c3d.read_c3d_parameters``), a file's mass recorded without a usable
    height checked by the height the others agree on (:func:`_others_height`), and ``[(path, problem)]`` of those
    that could not be read."""
    from engine.errors import DataError
    from engine.io.c3d import read_c3d_parameters
    from engine.trial.body_measures import recorded_height, recorded_mass
    read, unreadable = [], []
    c3d = [p for p in paths if p is not None and p.suffix.lower() == ".c3d"]
    for path, parameters in zip(c3d, read_c3d_parameters(c3d)):        # one reader process for them all
        if isinstance(parameters, DataError):
            unreadable.append((path, parameters.problem))
        else:
            read.append((path, parameters, recorded_height(parameters)))
    recorded = [(path, {"height": height, "mass": recorded_mass(parameters, height=None if height.value is not None
                                                                 else _others_height(path, read, height))})
                for path, parameters, height in read]
    return recorded, unreadable


def _others_height(path: Path, read: list, own) -> tuple | None:
    """The height ``(m, where it comes from)`` the C3D files of ``read`` (``[(path, parameters, Recorded height)]``)
    other than ``path`` record, when they agree on one as :func:`_agreed` would propose it (:func:`_agreement`: none
    refused, within 0.1 mm), to check a mass ``path`` records without a usable height (``own``, the Recorded height
    of ``path``, refused or none) by (``engine.trial.body_measures.recorded_mass``), the note saying which; else
    None."""
    others = [(p, h) for p, _, h in read if p != path and h.found is not None]
    if _agreement([h for _, h in others], "height") != "agree":
        return None
    usable = [(p, h) for p, h in others if h.value is not None]
    why = "the trial's own height is not usable" if own.refused else "the trial records none"
    return usable[0][1].value, ", ".join(f"{p.name}'s {h.reading}" for p, h in usable) + f" ({why})"


def write_study(path, body: dict) -> None:
    """Write a study document (atomically)."""
    write_text(path, dump_document(FORMAT, VERSION, body, "HybridLab study (docs/batch.md); proposed by "
                                                          "'hybrid study init', check it before 'hybrid batch'"))
