"""A study proposed from a folder laid out as labs store their captures: one folder per subject, inside it the
subject's files, directly or in one folder per session.

Per subject folder: the model is the one ``.osim`` or ``.yaml`` model file in it (else the one at the top of the
folder, shared by all subjects; a ``.yaml`` is a model only when its header says ``format: hybridlab-model``: a
study file, an earlier ``study init``'s, is skipped and listed); a ScaleTool setup (an ``.xml`` whose document
element is ``<ScaleTool>``, never known by its name; the ``<MarkerSet>`` file it names is read through it) and a
static trial (the marker file the setup names, else the one with ``static`` in its name) make it scaled (static
trials in two or more session folders, one each: one subject per visit, ``P01_visit1``, each scaled on its own; a
static trial not chosen is said in the listing and above the subject in the study file, its model then analysed as
given); every other ``.c3d``/``.trc`` is a trial, named by its
session folder and file stem; a TRC trial's plates are given by an ExternalLoads file beside it (an ``.xml`` whose
document element is ``<ExternalLoads>``, whatever its name) whose ``<datafile>`` names a file named for the trial
(``<stem>_grf.mot`` for ``<stem>.trc``), proposed as its ``external_loads`` and that file as its ``grf``. An OpenSim IK
setup (document element ``<InverseKinematicsTool>``) is the ``ik_setup`` setting of the trials in its folder and
below (a subject's folder: all its trials; a session's: the session's), of none that two or more apply to (listed).

A subject with no model file in its folder or at the top has each trial analysed alone (``hybrid analyze TRIAL``:
the default athlete made for it), its static trial as its ``static`` setting; its ``height`` (m) and ``mass`` (kg)
are those its own C3D trials record (``engine.trial.body_measures``: SUBJECT:HEIGHT, PROCESSING:Height in mm,
SUBJECT:WEIGHT, PROCESSING:Bodymass ...), converted to m and kg and said with the parameter and trial read (and an
assumption made: a SUBJECT:WEIGHT has no unit and is taken as kg; a mass in a file recording no height is checked by
the height the subject's other files agree on, named, else proposed unchecked, said with why), when every trial recording one records the same and
none records one not usable (17.8 for a height: a typo, a wrong unit, or another subject's file); else the field is
left for the user and the reason listed. Each value not used is listed, with its trial; the trials recording none
(TRC files cannot) are named as taking the subject's value. Nothing is carried from one subject to another.

A subject with a model that is scaled (a ScaleTool setup or a static trial) gets its ``mass`` (the scaled model's) the
same way from its C3D trials, static included, unless its ScaleTool setup gives one (``<mass>`` other than OpenSim's
-1): the setup's is then the lab's choice and is used; trials recording another mass are listed beside it, never
written over it. A subject with a model is given no ``height`` (a model's scaling does not use one), and a model not
scaled is analysed with its own mass (a study refuses a ``mass`` there): their trials are not read for either.

What could not be matched (two candidate models, a TRC's loads half there, two IK setups for one trial, a
ScaleTool setup without a model,
heights or masses the trials do not give or disagree on, files of no known role) is listed, never guessed.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from engine.demo.athlete import MASS
from engine.errors import SettingsError
from engine.io.atomic import write_text
from engine.io.open import MODEL_SUFFIXES
from engine.io.yaml_documents import dump_document

from .description import FORMAT, VERSION

MARKER_FILES = (".c3d", ".trc")
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


def propose_study(folder, study_file) -> tuple[dict, list[str], list[str], dict]:
    """``(body of a study document, what was proposed from the files' contents, what could not be matched, notes)``
    for the lab folder ``folder`` (module notes), with file names relative to ``study_file``'s folder; ``notes``
    maps a subject's id to what the study file says above it (:func:`write_study`)."""
    folder = Path(folder).resolve()
    if not folder.is_dir():
        raise SettingsError("is not a folder", file=folder)
    base = Path(study_file).resolve().parent
    unmatched, proposed, notes = [], [], {}
    top, others = _models(sorted(p for p in folder.iterdir() if p.is_file()))
    unmatched += [f"{p.name}: {why}" for p, why in others]
    shared = _single(top, "model", "top folder", unmatched)
    subjects = []
    for sub in sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".")):
        files = _files(sub)
        roles, missing = set(), {}         # a file shared by a subject's visits has no role if it has none in any
        for place, unit_files in _visits(sub, files, unmatched):
            subject, rest = _subject(place, unit_files, shared, len(top) > 1, base, proposed, unmatched, notes)
            rest = dict(rest)
            roles.update(p for p in unit_files if p not in rest)
            for path, why in rest.items():
                missing.setdefault(path, why)
            if subject is not None:
                subjects.append(subject)
        unmatched += [f"{path.relative_to(folder)}: {why}" for path, why in missing.items() if path not in roles]
    if not subjects:
        unmatched.append(f"{folder}: no subject folder with a trial")
    return ({"name": _ident(folder.name), "settings": {}, "subjects": subjects}, proposed,
            list(dict.fromkeys(unmatched)), notes)


def _rel(path: Path, base: Path) -> str:
    return Path(os.path.relpath(path, base)).as_posix()


@dataclass(frozen=True)
class _Place:
    """Where a proposed subject's files are: ``folder`` the subject's folder, ``root`` the folder its trials are named
    from (the subject's, or one visit's), ``name`` the subject as the listing says it (``P01``, ``P01/visit1``)."""

    folder: Path
    root: Path
    name: str

    def of(self, path: Path) -> str:
        """``path`` as the listing says it: the subject's folder's name and the path within it."""
        return f"{self.folder.name}/{path.relative_to(self.folder).as_posix()}"


def _visits(sub: Path, files: list, unmatched: list) -> list:
    """``[(_Place, its files)]``: the subject folder ``sub`` whole, or one place per visit when its static trials
    (marker files with ``static`` in their names) are two or more, each in its own session folder (none in another's,
    none at the subject's top): marker placement changes between visits, so each visit is scaled on its own static
    trial, a subject ``P01_visit1`` per visit; the subject's files outside any session folder other than trials (its
    model, setup) are each visit's, its trials outside them listed and left out."""
    whole = [(_Place(sub, sub, sub.name), files)]
    statics = [p for p in files if p.suffix.lower() in MARKER_FILES and "static" in p.name.lower()]
    folders = sorted({p.parent for p in statics})
    if len(statics) < 2 or len(folders) != len(statics) or sub in folders or any(
            a != b and b.is_relative_to(a) for a in folders for b in folders):
        return whole
    places = [_Place(sub, f, f"{sub.name}/{f.relative_to(sub).as_posix()}") for f in folders]
    common = [p for p in files if not any(p.is_relative_to(f) for f in folders)]
    for path in (p for p in common if p.suffix.lower() in MARKER_FILES):
        unmatched.append(f"{sub.name}/{path.relative_to(sub).as_posix()}: in no session folder with its own static "
                         f"trial ({', '.join(place.name for place in places)}): left out")
    shared = [p for p in common if p.suffix.lower() not in MARKER_FILES]
    return [(place, [p for p in files if p.is_relative_to(place.root)] + shared) for place in places]


def _subject(sub: "_Place", files: list, shared, shared_ambiguous: bool, base: Path, proposed: list, unmatched: list,
             notes: dict):
    """The study entry of the subject at ``sub`` with ``files`` (and its files without a role, with why), or None;
    ``notes[id]`` what the study file says above it (a model proposed unscaled for want of a static trial)."""
    used = set()
    own, others = _models(files)
    unmatched += [f"{sub.of(p)}: {why}" for p, why in others]
    used.update(p for p, _ in others)
    model = _single(own, "model", sub.name, unmatched)
    if model is None and not own:
        model = shared
    ambiguous = len(own) > 1 or (not own and shared_ambiguous)
    markers = [p for p in files if p.suffix.lower() in MARKER_FILES]
    roots = {p: _xml_root(p) for p in files if p.suffix.lower() == ".xml"}
    setup = _single([p for p, (tag, _) in roots.items() if tag == "ScaleTool"], "ScaleTool setup", sub.name,
                    unmatched)
    named = {} if setup is None else _setup_files(setup, sub, unmatched)
    if named is None:
        setup, named = None, {}
    static, candidates = _static(markers, named, sub, unmatched)
    entry = {"id": _ident(sub.name), "model": None}
    if setup is not None:
        proposed.append(f"{sub.name}: its ScaleTool setup is {sub.of(setup)} (its document element <ScaleTool>)")
    if "marker_set_file" in named and named["marker_set_file"] in files:
        used.add(named["marker_set_file"])
        proposed.append(f"{sub.name}: {sub.of(named['marker_set_file'])} is the marker set (<MarkerSet>) its "
                        f"ScaleTool setup {setup.name} names, read through it")
    for key, path in (("scale_setup", setup), ("static", static)):
        if path is not None:
            entry[key] = _rel(path, base)
            used.add(path)
    trials, trial_paths, ids = [], [], set()
    loads = _loads_of(markers, roots, static, sub, unmatched)
    for path in markers:
        if path == static:
            used.add(path)
        if path == static or "static" in path.name.lower():
            continue
        session = path.parent.relative_to(sub.root).parts
        tid = _ident("_".join(session + (path.stem,)))
        if tid in ids:
            unmatched.append(f"{sub.of(path)}: a trial named {tid!r} is already listed")
            used.add(path)                          # its reason is said: no other one for it below
            continue
        trial = {"id": tid, "file": _rel(path, base)}
        used.add(path)
        if path.suffix.lower() == ".trc":
            used |= _loads(trial, path, loads, sub, base, unmatched)
        ids.add(tid)
        trials.append(trial)
        trial_paths.append(path)
    if ambiguous:
        unmatched.append(f"{sub.name}: which model is its own is not clear (above): subject left out")
        return None, _roles_missing(files, used, roots)
    if not trials:
        unmatched.append(f"{sub.name}: no trial (.c3d or .trc other than a static one): subject left out")
        return None, _roles_missing(files, used, roots)
    if static is None and len(candidates) > 1:
        notes[entry["id"]] = (f"{sub.name}: no static trial chosen among {', '.join(sub.of(p) for p in candidates)}: "
                              + ("its trials are analysed alone, each placed on its own first frames" if model is None
                                 else f"its model {model.name} is analysed unscaled, as given")
                              + "; give its static (a visit's static trial in each visit's folder is scaled apart)")
        unmatched.append(notes[entry["id"]])
    if model is None:
        del entry["model"]
        _alone(entry, sub, setup, static, trial_paths, proposed, unmatched)
    else:
        used.add(model)
        entry["model"] = _rel(model, base)
        if setup is not None or static is not None:
            _scaled_mass(entry, sub, setup, [static] + trial_paths, proposed, unmatched)
    used |= _ik_setups(entry, trials, trial_paths, roots, sub, base, proposed, unmatched)
    entry["trials"] = trials
    return entry, _roles_missing(files, used, roots)


def _models(paths: list) -> tuple[list, list]:
    """``(model files, [(path, why it is not one)])`` among the ``.osim``/``.yaml`` files of ``paths``: a YAML file is
    a model only when its header says so (``format: hybridlab-model``); a study file (``hybridlab-study``, an earlier
    ``hybrid study init``'s), any other format and an unreadable file are not."""
    from engine.errors import SettingsError
    from engine.io.model_file import FORMAT as MODEL_FORMAT
    from engine.io.yaml_documents import document_format
    models, others = [], []
    for path in (p for p in paths if p.suffix.lower() in MODEL_SUFFIXES):
        if path.suffix.lower() == ".osim":
            models.append(path)
            continue
        try:
            fmt = document_format(path, SettingsError)
        except SettingsError as exc:
            others.append((path, f"not taken for a model: it {exc.problem}"))
            continue
        if fmt == MODEL_FORMAT:
            models.append(path)
        elif fmt == FORMAT:
            others.append((path, f"a study file (format {FORMAT}), not a model: skipped"))
        else:
            others.append((path, f"not taken for a model: its format is {fmt!r}, not {MODEL_FORMAT!r}"
                           if fmt is not None else f"not taken for a model: it has no 'format: {MODEL_FORMAT}' "
                           "header"))
    return models, others


def _xml_root(path: Path) -> tuple:
    """``(tag, problem)`` of the XML file ``path``: the tag of its document element
    (``engine.bounded_xml.document_element``: ``ScaleTool``, ``MarkerSet``, ``ExternalLoads`` ...), or ``(None,
    why)`` when it cannot be read. A file's role is its content's, never its name's (OpenSim's own Scale example
    names its marker set ``gait2354_Scale_MarkerSet.xml``)."""
    from engine.bounded_xml import document_element
    from engine.errors import DataError
    try:
        return document_element(path, DataError), None
    except DataError as exc:
        return None, exc.problem


def _setup_files(setup: Path, sub: "_Place", unmatched: list) -> dict | None:
    """The files the ScaleTool setup ``setup`` names that a study proposes from: ``marker_set_file`` (its
    <GenericModelMaker>'s marker set) and ``static`` (its static trial, the <ModelScaler>'s or <MarkerPlacer>'s
    <marker_file>), those that exist; None (listed in ``unmatched``) when the setup cannot be read."""
    from engine.errors import HybridLabError
    from engine.io.osim.scale_setup import read_scale_setup
    try:
        read = read_scale_setup(setup)
    except HybridLabError as exc:
        unmatched.append(f"{sub.of(setup)}: a ScaleTool setup that could not be read "
                         f"({exc.problem}): left out")
        return None
    named = {}
    statics = [f for f in (read.scaler.static_file, read.placer and read.placer.static_file) if f]
    for key, path in (("marker_set_file", read.marker_set_file), ("static", statics[0] if statics else None)):
        if path is not None and Path(path).is_file():
            named[key] = Path(path).resolve()
    return named


def _static(markers: list, named: dict, sub: "_Place", unmatched: list) -> tuple:
    """``(static trial or None, the candidates)``: the subject's static trial among its marker files ``markers``, the
    one its ScaleTool setup names (``named['static']``), else the one with ``static`` in its name (two or more: none,
    listed with their folders)."""
    if named.get("static") in markers:
        return named["static"], [named["static"]]
    candidates = [p for p in markers if "static" in p.name.lower()]
    if len(candidates) > 1:
        unmatched.append(f"{sub.name}: {len(candidates)} candidate static trials "
                         f"({', '.join(sub.of(p) for p in candidates)}); none chosen")
        return None, candidates
    return (candidates[0] if candidates else None), candidates


def _loads_of(markers: list, roots: dict, static, sub: "_Place", unmatched: list) -> dict:
    """``{TRC trial: [(ExternalLoads file, the data file it names)]}``: each ExternalLoads file (an ``.xml`` whose
    document element is ``<ExternalLoads>``) whose ``<datafile>`` (read relative to it, as OpenSim does) exists and is
    named for a TRC trial in its folder (the trial's stem, then ``_``, ``-``, ``.``, a space or nothing:
    ``subject01_walk1_grf.mot`` for ``subject01_walk1.trc``; the longest such stem when two trials' names fit), that
    trial's; one that cannot be read is listed in ``unmatched``."""
    from engine.errors import HybridLabError
    from engine.io.external_loads import read_external_loads
    trcs = [p for p in markers if p.suffix.lower() == ".trc" and p != static]
    found = {}
    for xml in (p for p, (tag, _) in roots.items() if tag == "ExternalLoads"):
        try:
            datafile = read_external_loads(xml).datafile
        except HybridLabError as exc:
            unmatched.append(f"{sub.of(xml)}: an ExternalLoads file that could not be read ({exc.problem}): left out")
            continue
        data = None if datafile is None else (xml.parent / datafile).resolve()
        owners = [p for p in trcs if data is not None and p.parent == xml.parent and data.is_file()
                  and re.match(re.escape(p.stem) + r"(?:[_. -]|$)", data.stem)]
        if owners:
            found.setdefault(max(owners, key=lambda p: len(p.stem)), []).append((xml, data))
    return found


def _loads(trial: dict, path: Path, loads: dict, sub: "_Place", base: Path, unmatched: list) -> set:
    """The files of the TRC trial ``path``'s ground reactions, ``grf`` (the data file) and ``external_loads`` (the
    ExternalLoads file naming it, :func:`_loads_of`), put in ``trial`` when one ExternalLoads file names its data;
    several are listed, none chosen, as is a ``<stem>_grf.mot`` no ExternalLoads file names. The files used."""
    mine = loads.get(path, [])
    if len(mine) == 1:
        (xml, data), = mine
        trial.update(grf=_rel(data, base), external_loads=_rel(xml, base))
        return {xml, data}
    if mine:
        unmatched.append(f"{sub.of(path)}: {len(mine)} ExternalLoads files (<ExternalLoads>) name a data file of its "
                         "(<datafile>): " + ", ".join(f"{x.name} names {d.name}" for x, d in mine)
                         + "; none chosen: its loads are left out")
        return set()
    grf = path.with_name(f"{path.stem}_grf.mot")
    if grf.is_file():
        unmatched.append(f"{sub.of(path)}: {grf.name} is beside it, but no ExternalLoads file (<ExternalLoads>) names "
                         "it (<datafile>): its loads are left out")
    return set()


def _ik_setups(entry: dict, trials: list, paths: list, roots: dict, sub: "_Place", base: Path, proposed: list,
               unmatched: list) -> set:
    """The ``ik_setup`` setting (``hybrid analyze --ik-setup``) of the subject ``entry``'s ``trials`` (their marker
    files ``paths``): an OpenSim IK setup (an ``.xml`` whose document element is ``<InverseKinematicsTool>``) applies
    to the trials in its folder and the folders below it (a subject's to all its trials, a session's to the
    session's); a trial one applies to takes it (the subject's setting when all its trials take the same one, else
    each trial's), a trial several apply to takes none, listed with them. Said in ``proposed`` with the setup's
    <time_range>, which applies to each trial taking it. The setups used."""
    from engine.errors import HybridLabError
    from engine.io.setup_xml import read_ik_setup
    setups = {}
    for xml in sorted(p for p, (tag, _) in roots.items() if tag == "InverseKinematicsTool"):
        try:
            setups[xml] = read_ik_setup(xml)
        except HybridLabError as exc:
            unmatched.append(f"{sub.of(xml)}: an IK setup (<InverseKinematicsTool>) that could not be read "
                             f"({exc.problem}): left out")
    chosen = {}
    for trial, path in zip(trials, paths):
        apply = [x for x in setups if path.is_relative_to(x.parent)]
        if len(apply) == 1:
            chosen[trial["id"]] = apply[0]
        elif apply:
            unmatched.append(f"{sub.of(path)}: {len(apply)} IK setups (<InverseKinematicsTool>) apply to it ("
                             + ", ".join(sub.of(x) for x in apply) + "), in its folder or above it: none chosen; give "
                             "its ik_setup setting")
    if not chosen:
        return set()
    together = len(chosen) == len(trials) and len(set(chosen.values())) == 1
    if together:
        entry.setdefault("settings", {})["ik_setup"] = _rel(next(iter(chosen.values())), base)
    else:
        for trial in trials:
            if trial["id"] in chosen:
                trial["settings"] = {"ik_setup": _rel(chosen[trial["id"]], base)}
    for xml in dict.fromkeys(chosen.values()):
        taking = "its trials" if together else ", ".join(t for t, x in chosen.items() if x == xml)
        time_range = setups[xml].time_range
        proposed.append(f"{sub.name}: ik_setup {sub.of(xml)} (its document element <InverseKinematicsTool>) for "
                        f"{taking}" + ("" if time_range is None else
                                       f"; its <time_range> {time_range[0]:g}-{time_range[1]:g} s applies to each"))
    return set(chosen.values())


_XML_ROLES = {"ScaleTool": "a ScaleTool setup not chosen (above)",
              "InverseKinematicsTool": "an IK setup (<InverseKinematicsTool>) not chosen: it is in no trial's folder "
                                       "nor above one, or another applies to the same trials (above); left out",
              "MarkerSet": "a marker set (<MarkerSet>) that no chosen ScaleTool setup names (<marker_set_file>): a "
                           "study reads a subject's marker set through its scale_setup; left out",
              "ExternalLoads": "an ExternalLoads file (<ExternalLoads>) whose <datafile> is no existing file named "
                               "for a TRC trial beside it (<stem>_grf.mot for <stem>.trc), or not its only one "
                               "(above): left out"}


def _roles_missing(files: list, used: set, roots: dict) -> list:
    """``[(path, why it has no role)]`` of the ``files`` not ``used``, an XML file's by its document element
    (``roots``: path -> :func:`_xml_root`)."""
    missing = []
    for path in (p for p in files if p not in used):
        tag, problem = roots.get(path, (None, None))
        if problem is not None:
            why = f"no role found: it could not be read as XML ({problem})"
        elif tag is not None:
            why = _XML_ROLES.get(tag, f"no role found: its document element <{tag}> is none of <ScaleTool> (a "
                                      "scale setup), <MarkerSet> (a setup's marker set), <InverseKinematicsTool> (an "
                                      "IK setup), <ExternalLoads> (a TRC trial's loads)")
        elif path.suffix.lower() in MARKER_FILES and "static" in path.name.lower():
            why = "a static trial (by its name) not chosen as the subject's (above): left out"
        else:
            why = "no role found (not a model, setup, static trial, trial or its loads)"
        missing.append((path, why))
    return missing


def _alone(entry: dict, sub: "_Place", setup, static, paths: list, proposed: list, unmatched: list) -> None:
    """``entry`` of a subject without a model, whose trials (files ``paths``) are each analysed alone with the
    default athlete made for it: given its ``static`` trial as its ``static`` setting, and the ``height`` and ``mass``
    its C3D trials record (module notes)."""
    proposed.append(f"{sub.name}: no model file (.osim or .yaml) in it or at the top: each trial analysed alone, with "
                    "the default athlete made for it (hybrid analyze TRIAL)")
    if setup is not None:
        del entry["scale_setup"]
        unmatched.append(f"{sub.of(setup)}: a ScaleTool setup scales a model, and the subject has "
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


def _scaled_mass(entry: dict, sub: "_Place", setup, paths: list, proposed: list, unmatched: list) -> None:
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
            unmatched.append(f"{sub.of(setup)}: could not be read for its mass ({exc}); the "
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


def _readable(sub: "_Place", paths: list, what: str, unmatched: list) -> list:
    """:func:`_recorded` of ``paths``, each file that could not be read listed in ``unmatched`` (``what`` was
    sought)."""
    recorded, unreadable = _recorded(paths)
    for path, problem in unreadable:
        unmatched.append(f"{sub.of(path)}: could not be read for the subject's {what} "
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


def _not_used(sub: "_Place", key: str, recorded: list, unmatched: list) -> None:
    """Each value of ``key`` (``height`` or ``mass``) a trial of ``recorded`` records and was not used, with why."""
    unmatched += [f"{sub.of(path)}: {note}" for path, r in recorded for note in r[key].rejected]


def _agreed(entry: dict, sub: "_Place", key: str, recorded: list, proposed: list, unmatched: list, without_it: str,
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
        unchecked = [(p, r["unchecked"]) for p, r in readings if key == "mass" and r.get("unchecked")]
        proposed.append(f"{sub.name}: {key} {value:g} {unit}, read from {', '.join(sources)} in "
                        f"{', '.join(p.name for p, _ in readings)}" +
                        (f"; {_record(without)} none: this subject's value applies to "
                         f"{'it' if len(without) == 1 else 'them'} too" if without else "") +
                        "".join(f"; {p.name}'s was not checked by a body mass index: {why}" for p, why in unchecked))


def _record(names: list) -> str:
    """``names`` (of trials) and the verb "record", agreed."""
    return f"{', '.join(names)} {'records' if len(names) == 1 else 'record'}"


def _recorded(paths: list) -> tuple[list, list]:
    """``[(path, {'height': Recorded, 'mass': Recorded, 'unchecked': why or None})]`` of the C3D files among ``paths``
    (TRC files record neither) from their parameters (``engine.io.c3d.read_c3d_parameters``), a file's mass recorded
    without a usable height checked by the height the others agree on, else by none (``unchecked`` says why;
    :func:`_others_height`), and ``[(path, problem)]`` of those that could not be read."""
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
    recorded = []
    for path, parameters, height in read:
        others, unchecked = (None, None) if height.value is not None else _others_height(path, read, height)
        recorded.append((path, {"height": height, "mass": recorded_mass(parameters, height=others),
                                "unchecked": unchecked}))
    return recorded, unreadable


def _others_height(path: Path, read: list, own) -> tuple:
    """``(height, None)``: the height ``(m, where it comes from)`` the C3D files of ``read`` (``[(path, parameters,
    Recorded height)]``) other than ``path`` record, when they agree on one as :func:`_agreed` would propose it
    (:func:`_agreement`: none refused, within 0.1 mm), to check a mass ``path`` records without a usable height
    (``own``, the Recorded height of ``path``, refused or none) by (``engine.trial.body_measures.recorded_mass``), the
    note saying which; else ``(None, why)``: why that mass is checked by no body mass index."""
    others = [(p, h) for p, _, h in read if p != path and h.found is not None]
    agreement = _agreement([h for _, h in others], "height")
    if agreement == "agree":
        usable = [(p, h) for p, h in others if h.value is not None]
        why = "the trial's own height is not usable" if own.refused else "the trial records none"
        return (usable[0][1].value, ", ".join(f"{p.name}'s {h.reading}" for p, h in usable) + f" ({why})"), None
    mine = "its own height is not usable" if own.refused else "it records no height"
    if agreement == "none":
        return None, f"{mine}, nor does another file of the subject record a usable one"
    if agreement == "differ":
        return None, (f"{mine}, and the heights the subject's other files record differ ("
                      + ", ".join(f"{p.name} {h.value:g} m" for p, h in others if h.value is not None) + ")")
    return None, (f"{mine}, and {_record([p.name for p, h in others if h.refused])} one not usable (which may be "
                  "another subject's file)")


def write_study(path, body: dict, notes: dict | None = None) -> None:
    """Write a study document (atomically), each of ``notes`` (subject id: text) as a comment above its subject."""
    lines = dump_document(FORMAT, VERSION, body, "HybridLab study (docs/batch.md); proposed by 'hybrid study init', "
                                                 "check it before 'hybrid batch'").splitlines(keepends=True)
    subjects = iter(body["subjects"])
    text = []
    for line in lines:
        if line.startswith("- "):          # the subjects list is the document's only one at the left margin
            note = (notes or {}).get(next(subjects)["id"])
            text += [] if note is None else [f"# {note}\n"]
        text.append(line)
    write_text(path, "".join(text))
