"""The study description (``study.yaml``, format ``hybridlab-study`` version 1; docs/batch.md documents it).

A study names its subjects; each subject its model (the generic model to scale, or the subject's own), what
scales it (an OpenSim ScaleTool setup and/or a static trial, the subject's mass), and its trials, each a marker
file with its loads; a subject without a model has each trial analysed alone (``hybrid analyze TRIAL``: the default
model made for it), with the subject's height as its stature and its mass as the model's. Analysis settings are
given for the whole study (``settings``), overridden per subject and per trial. The settings are ``hybrid analyze``'s
options (:data:`OPTIONS`), so a trial of a batch is exactly the ``hybrid analyze`` run :func:`analyze_arguments`
spells. File names are read relative to the study file.

The file is read with the project's bounded YAML loader (``engine.io.yaml_documents``); every field is checked
(unknown fields, wrong types, missing files, identifiers given twice) and an error is a
:class:`~engine.errors.SettingsError` naming the file and the element; a file with several is refused with all of
them, each with its element.
"""
from __future__ import annotations

import argparse
import re
from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import ModelError, SettingsError
from engine.io.model_fields import ABSENT, Fields, describe
from engine.io.yaml_documents import read_document
from engine.trial.body_measures import check_height, check_mass

FORMAT, VERSION = "hybridlab-study", 1

NOT_SETTINGS = {
    "model": "a subject's model", "trial": "a trial's file", "demo": "the bundled demo, not a study's trial",
    "grf": "a trial's grf", "external_loads": "a trial's external_loads", "height": "a subject's height",
    "mass": "a subject's mass", "out": "hybrid batch's --out (each trial its folder)", "quiet": "hybrid batch's "
    "progress", "help": "help"}
"""``hybrid analyze``'s options that are no study setting, with where a study gives them instead."""


_FILE_OPTIONS = ("ik_setup", "contacts", "static")
"""``hybrid analyze``'s options that name a file without saying so by their metavar (``FILE``)."""


def _kind(action: argparse.Action) -> str:
    """The kind of a setting (:data:`OPTIONS`) from its ``hybrid analyze`` option: ``flag`` (true/false), ``number``,
    ``choice`` (one of the option's choices), ``file`` (a path relative to the study file; ``files`` a list of them,
    an option given once per file), ``names`` (a list of texts), ``pairs`` (a mapping of channel to muscle) or
    ``text``, as the option's action, type, choices and metavar say. TypeError naming the option for any other
    option (an ``int`` type, ``store_false``, ``count``, ``nargs`` ...): a study would read it as none of these."""
    if type(action) is argparse._StoreTrueAction:
        return "flag"
    once = action.nargs is None and action.const is None
    file = action.metavar == "FILE" or action.dest in _FILE_OPTIONS
    if type(action) is argparse._AppendAction and once and action.type is None and action.choices is None and file:
        return "files"
    if type(action) is argparse._StoreAction and once:
        if action.type is None and action.choices is not None:
            return "choice"
        if action.type is float and action.choices is None:
            return "number"
        if action.type is None and action.choices is None:
            return "file" if file else {"NAMES": "names", "CH=MUSCLE,...": "pairs"}.get(action.metavar, "text")
    option = max(action.option_strings, key=len) if action.option_strings else action.dest
    raise TypeError(f"hybrid analyze's option {option} ({type(action).__name__}, type "
                    f"{getattr(action.type, '__name__', action.type)}, nargs {action.nargs}) is of no kind a study "
                    "setting is read as (study/description.py, _kind): a study would misread it")


def _analyze_options() -> dict:
    """settings key: (kind, the ``hybrid analyze`` option, its choices or None), every option of ``hybrid analyze``
    but :data:`NOT_SETTINGS`, read from its parser (``engine.cli.analyze.add_parser``): the settings are its options,
    and cannot drift from them."""
    from engine.cli.analyze import add_parser
    commands = argparse.ArgumentParser().add_subparsers()
    add_parser(commands)
    analyze = commands.choices["analyze"]
    return {a.dest: (_kind(a), max(a.option_strings, key=len) if a.option_strings else None, a.choices)
            for a in analyze._actions if a.dest not in NOT_SETTINGS}


OPTIONS = _analyze_options()
"""The analysis settings a study may give: every option of ``hybrid analyze`` that changes the analysis, with the
option each becomes (:func:`_analyze_options`; kinds as :func:`_kind` says)."""

_IDENTIFIER = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


@dataclass(frozen=True)
class TrialSpec:
    """One trial: ``id`` (unique within its subject), the marker file (.c3d or .trc), a TRC trial's GRF .mot and
    ExternalLoads .xml, its settings (the study's, the subject's and its own merged) and, analysed alone, its
    subject's ``height`` (m, ``hybrid analyze --height``) and ``mass`` (kg, ``--mass``; None: not given), with
    ``given_in`` where they were given, as the analysis notes say it after "given" ("for subject s01 in the study
    /data/study.yaml"; None when neither is)."""

    subject: str
    id: str
    file: Path
    grf: Path | None
    external_loads: Path | None
    settings: dict
    height: float | None = None
    mass: float | None = None
    given_in: str | None = None

    @property
    def key(self) -> str:
        """``subject/trial``: the trial's name in the study and its folder under ``trials/``."""
        return f"{self.subject}/{self.id}"


@dataclass(frozen=True)
class SubjectSpec:
    """One subject: ``model`` (generic or the subject's own; None: each trial analysed alone, the default model made
    for it), ``scale_setup`` (an OpenSim ScaleTool setup), ``static`` (the static trial), ``mass`` (kg: the scaled
    model's, or with no model the mass of the default model made for each trial), ``height`` (m, the stature of a
    subject without model); without a setup or a static trial the model is analysed as given (not scaled)."""

    id: str
    model: Path | None
    scale_setup: Path | None
    static: Path | None
    mass: float | None
    trials: tuple
    height: float | None = None

    @property
    def scaled(self) -> bool:
        return self.scale_setup is not None or self.static is not None


@dataclass(frozen=True)
class Study:
    name: str
    source: Path
    subjects: tuple = field(default_factory=tuple)

    @property
    def trials(self) -> list:
        return [t for s in self.subjects for t in s.trials]


def load_study(path) -> Study:
    """Read and check ``study.yaml`` (module notes); SettingsError naming the file and element, or, when the file has
    several errors, naming each with its element (all that can be found in one reading: a field whose error makes
    another field's check meaningless is not checked further)."""
    path = Path(path).resolve()
    document = read_document(path, FORMAT, VERSION, "HybridLab study file", SettingsError)
    problems = []
    try:
        study = _read_study(document, path, problems)
    except (ModelError, SettingsError) as exc:       # the document is no mapping of fields
        problems.append(exc)
    if len(problems) == 1:
        raise SettingsError(problems[0].problem, problems[0].element, path)
    if problems:
        raise SettingsError(f"has {len(problems)} errors:\n" + "\n".join(
            f"  {p.element}: {p.problem}" if p.element else f"  {p.problem}" for p in problems), None, path)
    return study


def _checked(problems: list, read, *args, default=None, **kwargs):
    """``read(*args, **kwargs)``, or ``default`` when it raises a ModelError or SettingsError, which is added to
    ``problems`` (the study's errors, reported together)."""
    try:
        return read(*args, **kwargs)
    except (ModelError, SettingsError) as exc:
        problems.append(exc)
        return default


def _read_study(document: dict, path: Path, problems: list) -> Study:
    top = Fields(document, "top level")
    name = _checked(problems, top.text, "name", False, default=ABSENT)
    defaults = _checked(problems, _settings, top, "top level", path.parent, problems, default={})
    subjects = _checked(problems, top.items, "subjects", required=True)
    _checked(problems, top.close)
    if subjects == []:
        problems.append(SettingsError("names no subject", "subjects"))
    read, seen = [], set()
    for i, item in enumerate(subjects or [], 1):
        fields = _checked(problems, Fields, item, f"subject {i}")
        subject = None if fields is None else _read_subject(fields, path, defaults, seen, problems)
        if subject is not None:
            read.append(subject)
    return Study(path.stem if name is ABSENT else name, path, tuple(read))


def _identifier(f: Fields) -> str:
    value = f.text("id")
    if not _IDENTIFIER.match(value):
        raise SettingsError("must be letters, digits, '_', '.' or '-' (a folder name), starting with a letter or "
                            f"digit; got {value!r}", f.where)
    return value


def _read_subject(f: Fields, study: Path, defaults: dict, seen: set, problems: list) -> SubjectSpec | None:
    """The subject ``f`` of the study file ``study`` (``seen``: the ids of the subjects before it); None when it has
    an error (each added to ``problems``)."""
    folder, before = study.parent, len(problems)
    sid = _unique_id(f, seen, problems, lambda i: f"subject '{i}'")
    model = _checked(problems, _model, f, folder)
    setup = _checked(problems, _scale_setup, f, folder)
    static = _checked(problems, _file, f, "static", folder)
    mass = _checked(problems, f.number, "mass", required=False)
    mass = None if mass in (None, ABSENT) else _checked(problems, check_mass, mass, f.where)
    height = _checked(problems, _height, f, model)
    given = [k for k, v in (("scale_setup", setup), ("static", static)) if v is not None]
    if len(problems) == before and model is None and given:
        problems.append(SettingsError(f"{', '.join(given)} given without a model: they scale the subject's model "
                                      "(without one, each trial is analysed alone, with the default model made for it "
                                      "and scaled on the static setting's trial)", f.where))
    if len(problems) == before and model is not None and mass is not None and setup is None and static is None:
        problems.append(SettingsError("mass scales the subject's model, which without a scale_setup or a static trial "
                                      "is analysed as given, with its own mass", f.where))
    settings = {**defaults, **_checked(problems, _settings, f, f.where, folder, problems, default={})}
    items = _checked(problems, f.items, "trials", required=True)
    _checked(problems, f.close)
    trials, seen = [], set()
    for i, item in enumerate(items or [], 1):
        t = _checked(problems, Fields, item, f"{f.where}, trial {i}")
        trial = None if t is None else _read_trial(t, sid, study, settings, (model, mass, height), seen, problems)
        if trial is not None:
            trials.append(trial)
    if items == []:
        problems.append(SettingsError("has no trial", f.where))
    if len(problems) > before:
        return None
    return SubjectSpec(sid, model, setup, static, mass, tuple(trials), height)


def _unique_id(f: Fields, seen: set, problems: list, where) -> str | None:
    """The id of the subject or trial ``f``, checked (an identifier, an error added to ``problems`` if not) and
    unique among ``seen`` (the ids before it, to which it is added); ``f.where`` then names it, ``where(id)``."""
    ident = _checked(problems, _identifier, f)
    if ident is not None:
        f.where = where(ident)
        if ident in seen:
            problems.append(SettingsError("is given twice", f.where))
        seen.add(ident)
    return ident


def _read_trial(t: Fields, sid: str | None, study: Path, settings: dict, subject: tuple, seen: set,
                problems: list) -> TrialSpec | None:
    """The trial ``t`` of the subject ``sid`` (None: its id is wrong) whose settings are ``settings`` and
    ``(model, mass, height)`` ``subject`` (``seen``: the ids of its trials before it); None when it has an error
    (each added to ``problems``)."""
    folder, before = study.parent, len(problems)
    tid = _unique_id(t, seen, problems, lambda i: f"{t.where.rpartition(', trial ')[0]}, trial '{i}'")
    marker_file = _checked(problems, _file, t, "file", folder, required=True)
    grf = _checked(problems, _file, t, "grf", folder)
    loads = _checked(problems, _file, t, "external_loads", folder)
    if len(problems) == before and (grf is None) != (loads is None):
        problems.append(SettingsError("grf and external_loads go together (a TRC trial's plates and which body each "
                                      "acts on)", t.where))
    trial_settings = {**settings, **_checked(problems, _settings, t, t.where, folder, problems, default={})}
    _checked(problems, t.close)
    _checked(problems, _check_range, trial_settings, t.where)
    if len(problems) > before or sid is None:
        return None
    model, mass, height = subject
    alone_mass = mass if model is None else None
    return TrialSpec(sid, tid, marker_file, grf, loads, trial_settings, height, alone_mass,
                     None if height is None and alone_mass is None else f"for subject {sid} in the study {study}")


def _height(f: Fields, model: Path | None) -> float | None:
    """The subject's ``height`` (m; None: not given): a stature within
    :data:`~engine.trial.body_measures.STATURE_RANGE`, for a subject without model (``hybrid analyze --height``)."""
    height = f.number("height", required=False)
    if height is ABSENT:
        return None
    height = check_height(height, f.where)
    if model is not None:
        raise SettingsError("height is the stature of the default model made for each trial of a subject without "
                            "model; a model is analysed as given (its scaling does not use a height)", f.where)
    return height


def _model(f: Fields, folder: Path) -> Path | None:
    """The subject's ``model``: a model file, an OpenSim ``.osim`` or a YAML file whose header says
    ``format: hybridlab-model`` (not, e.g., a study file); SettingsError at the subject naming the file's format."""
    from engine.io.model_file import FORMAT as MODEL_FORMAT
    from engine.io.open import MODEL_SUFFIXES
    from engine.io.yaml_documents import document_format
    path = _file(f, "model", folder)
    if path is None or path.suffix.lower() == ".osim":
        return path
    named = f"model names {f.data['model']!r}"
    if path.suffix.lower() not in MODEL_SUFFIXES:
        raise SettingsError(f"{named}, which is not a model file (.osim, or .yaml with 'format: {MODEL_FORMAT}')",
                            f.where)
    try:
        fmt = document_format(path, SettingsError)
    except SettingsError as exc:
        raise SettingsError(f"{named}, which {exc.problem}", f.where) from None
    if fmt != MODEL_FORMAT:
        said = "no 'format' header" if fmt is None else f"the format {fmt!r}" + (" (a study file)" if fmt == FORMAT
                                                                                  else "")
        raise SettingsError(f"{named}, a file of {said}, not a model (format {MODEL_FORMAT!r}, or an OpenSim .osim)",
                            f.where)
    return path


def _scale_setup(f: Fields, folder: Path) -> Path | None:
    """The subject's ``scale_setup``: an XML file whose document element is ``<ScaleTool>``
    (``engine.bounded_xml.document_element``), not, e.g., the marker set it names; SettingsError at the subject."""
    from engine.bounded_xml import document_element
    path = _file(f, "scale_setup", folder)
    if path is None:
        return None
    named = f"scale_setup names {f.data['scale_setup']!r}"
    try:
        tag = document_element(path, SettingsError)
    except SettingsError as exc:
        raise SettingsError(f"{named}, which {exc.problem}", f.where) from None
    if tag != "ScaleTool":
        raise SettingsError(f"{named}, whose document element is <{tag}>, not <ScaleTool> (an OpenSim ScaleTool "
                            "setup)", f.where)
    return path


def _file(f: Fields, key: str, folder: Path, required: bool = False) -> Path | None:
    value = f.text(key, required)
    if value is ABSENT:
        return None
    path = (folder / value).resolve()
    if not path.is_file():
        raise SettingsError(f"{key} names {value!r}, which does not exist (read relative to the study file)",
                            f.where)
    return path


def _settings(f: Fields, where: str, folder: Path, problems: list) -> dict:
    """The ``settings`` mapping of an element, checked against :data:`OPTIONS` (files resolved), each setting's error
    added to ``problems`` (the setting left out)."""
    given = f.mapping("settings")
    if given is ABSENT:
        return {}
    given.where = f"{where}, settings"
    out = {}
    for key in list(given.data):
        if key not in OPTIONS:
            continue            # close() names it, with the closest known setting
        value = _checked(problems, _setting, given, key, folder)
        if value is not None:
            out[key] = value
    given.asked += [k for k in OPTIONS if k not in given.asked]
    _checked(problems, given.close)
    return out


def _setting(given: Fields, key: str, folder: Path):
    """The setting ``key`` of the settings ``given``, read as its kind (:data:`OPTIONS`)."""
    kind, _, choices = OPTIONS[key]
    if kind == "number":
        return float(given.number(key))
    if kind == "flag":
        return given.flag(key)
    if kind == "text":
        return given.text(key)
    if kind == "choice":
        value = given.text(key)
        if value not in choices:
            raise SettingsError(f"{key} must be one of {', '.join(choices)}; got {value!r}", given.where)
        return value
    if kind == "file":
        return _file(given, key, folder)
    if kind == "files":
        return _files(given, key, folder)
    return _listed(given, key, kind)


def _files(f: Fields, key: str, folder: Path) -> tuple:
    """A list of files (``files`` kind), each read relative to the study file and existing."""
    value = f.raw(key)
    if isinstance(value, str):
        value = [value]
    if not (isinstance(value, list) and value and all(isinstance(v, str) and v.strip() for v in value)):
        raise SettingsError(f"{key} must be a file name or a list of them, got {describe(value)}", f.where)
    paths = tuple((folder / v).resolve() for v in value)
    missing = [v for v, p in zip(value, paths) if not p.is_file()]
    if missing:
        raise SettingsError(f"{key} names {', '.join(map(repr, missing))}, which "
                            f"{'does' if len(missing) == 1 else 'do'} not exist (read relative to the study file)",
                            f.where)
    return paths


def _listed(f: Fields, key: str, kind: str):
    value = f.raw(key)
    if kind == "names":
        if not (isinstance(value, list) and value and all(isinstance(v, str) and v.strip() for v in value)):
            raise SettingsError(f"{key} must be a list of channel names, got {describe(value)}", f.where)
        return tuple(v.strip() for v in value)
    if not (isinstance(value, dict) and value and all(isinstance(k, str) and isinstance(v, str)
                                                      for k, v in value.items())):
        raise SettingsError(f"{key} must map channel names to muscle names, got {describe(value)}", f.where)
    return tuple(sorted(value.items()))


def _check_range(settings: dict, where: str) -> None:
    start, end = settings.get("start"), settings.get("end")
    if start is not None and end is not None and not end > start:
        raise SettingsError(f"end ({end} s) must come after start ({start} s)", f"{where}, settings")


def analyze_arguments(trial: TrialSpec, model) -> list[str]:
    """``hybrid analyze``'s arguments (without ``--out``) for ``trial`` analysed with the model file ``model`` (None:
    the trial alone, with its subject's height and mass)."""
    argv = [str(trial.file)] if model is None else [str(model), str(trial.file)]
    if trial.height is not None:
        argv += ["--height", repr(trial.height)]
    if trial.mass is not None:
        argv += ["--mass", repr(trial.mass)]
    if trial.grf is not None:
        argv += ["--grf", str(trial.grf), "--external-loads", str(trial.external_loads)]
    for key, value in sorted(trial.settings.items()):
        kind, option, _ = OPTIONS[key]
        if kind == "flag":
            argv += [option] if value else []
        elif kind == "files":
            argv += [a for path in value for a in (option, str(path))]
        elif kind == "names":
            argv += [option, ",".join(value)]
        elif kind == "pairs":
            argv += [option, ",".join(f"{a}={b}" for a, b in value)]
        elif kind == "number":
            argv += [option, repr(value)]
        else:
            argv += [option, str(value)]
    return argv
