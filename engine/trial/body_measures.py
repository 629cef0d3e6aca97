"""The subject's height and body mass as a trial records them, converted to SI (m, kg) here, with where each came
from; and the checks of a height or mass the user gives (``hybrid analyze --height/--mass``, a study's subject).

C3D files have no standard parameter for either; these are read (names in any case):

* height: the SUBJECT (or SUBJECTS) group's ``HEIGHT``, written without a unit (AMASS and Vicon 370 in m, c3d.org's
  Sample01 and Sample02; BTS in cm, Sample28): read as m, cm or mm by its size, the first within
  :data:`STATURE_RANGE`, and the unit said; else Vicon Nexus's ``PROCESSING:Height`` (Plug-in Gait's subject
  measurement, in mm);
* body mass: the SUBJECT group's ``WEIGHT``, ``MASS``, ``BODY_MASS`` or ``BODYMASS``, written without a unit and
  taken as kg (as in Sample01, Sample02 and Sample28), the assumption said; else Nexus's ``PROCESSING:Bodymass`` (kg).

A value found but not usable (0, as Nexus writes a measurement not filled in; text; outside the plausible range; a
mass giving, with the height the file records or the stature the analysis uses, a body mass index outside
:data:`BMI_RANGE`, as 154 lb taken as kg for a 1.6 m subject) is never taken: :attr:`Recorded.rejected` says which
and why. The stature the analysis uses (:func:`analysis_height`: the height the user gave, else the trial's, else
its static trial's when the trial records none, else the caller's estimate, the model's height scaled to the
markers) is the one a mass is checked by besides its file's own, and is named in the note; a height the analysis
does not use (a static trial's beside the trial's refused one) checks nothing, and the notes say it was not used.
:func:`bmi_note` says the body mass index of the mass and stature an analysis used.

The ranges are limits: a child under 1 m or 20 kg is refused (its height and mass are to be given by hand, and are
refused there too).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..errors import SettingsError

STATURE_RANGE = (1.0, 2.5)
"""m: the statures taken as a subject's (a trial's height read as m, cm or mm; a height the user gives)."""
MASS_RANGE = (20.0, 250.0)
"""kg: the body masses taken as a subject's (a trial's; one the user gives)."""
BMI_RANGE = (12.0, 50.0)
"""kg/m^2: the body mass indices (mass / height^2) of a mass a trial records with its height, taken as a subject's."""

_HEIGHT_KEYS = ("height",)
_MASS_KEYS = ("weight", "mass", "body_mass", "bodymass")
_BY_SIZE = (("m", 1.0), ("cm", 0.01), ("mm", 0.001))


@dataclass(frozen=True)
class Given:
    """The subject's ``height`` (m) and body ``mass`` (kg) the user gave (None: not given, the trial's are used), and
    where each was given, as the notes say it after "given" (``height_from``, ``mass_from``; e.g. "with --height on
    the command line", "for subject s01 in the study /data/study.yaml", "in the application's Markers panel"); the
    caller says where, ValueError for a value given without it."""

    height: float | None = None
    mass: float | None = None
    height_from: str | None = None
    mass_from: str | None = None

    def __post_init__(self):
        for name, value, where in (("height", self.height, self.height_from), ("mass", self.mass, self.mass_from)):
            if value is not None and not where:
                raise ValueError(f"a {name} given must say where it was given")


@dataclass(frozen=True)
class Recorded:
    """A body measure a trial records: ``value`` in SI (m or kg; None: none usable), ``source`` where it was read
    and its unit, whose the trial is first (e.g. "the trial's PROCESSING:Height 1780 mm"; None without a value),
    ``reading`` the same without whose (e.g. "PROCESSING:Height 1780 mm"; None without a value), ``found`` the first parameter
    holding one as ``(GROUP:NAME, value as written)`` (None: the trial has none), ``rejected`` a note for each
    parameter found but not used, saying why; ``refused`` True when one of those is not 0 (0 is a measurement not
    filled in: the trial records none; any other may be a wrong unit, a typo, another subject's value)."""

    value: float | None
    source: str | None
    found: tuple | None
    rejected: tuple = ()
    refused: bool = False
    reading: str | None = None


def _candidates(trial, keys, processing_keys) -> list:
    """``(GROUP:NAME, value as written, group)`` of the trial's parameters named ``keys`` in its SUBJECT group, then
    ``processing_keys`` in its PROCESSING group."""
    subject = [(f"SUBJECT:{k}", v, "SUBJECT") for k, v in trial.subject.items() if k.lower() in keys]
    processing = (trial.metadata or {}).get("processing", {})
    return subject + [(f"PROCESSING:{k}", v, "PROCESSING") for k, v in processing.items()
                      if k.lower() in processing_keys]


def _number(raw) -> float | None:
    if isinstance(raw, (list, tuple)):
        if len(raw) != 1:
            return None
        raw = raw[0]
    if isinstance(raw, bool):
        return None
    try:
        return float(raw)
    except (TypeError, ValueError):
        return None


def as_written(raw) -> str:
    """A value read or given, as the notes and errors quote it: a number (or a list of one) by ``:g``, anything else
    by ``repr``."""
    value = raw[0] if isinstance(raw, (list, tuple)) and len(raw) == 1 else raw
    return f"{value:g}" if isinstance(value, (int, float)) and not isinstance(value, bool) else repr(value)


def _why(value, what: str, within: str) -> str:
    return ("it is not a number" if value is None else "it is 0 (not recorded)" if value == 0 else
            f"{within} it is not within {what}")


def _read(candidates, convert, what: str, whose: str, unlikely=lambda value: None) -> Recorded:
    """The first candidate ``convert(parameter, value)`` turns into ``(SI value, unit said after the value)`` and
    ``unlikely(SI value)`` finds no reason to refuse; the others' notes, saying ``whose`` parameter each is."""
    rejected, refused = [], False
    for parameter, raw, group in candidates:
        value = _number(raw)
        taken = None if value is None else convert(group, value)
        why = None if taken is None else unlikely(taken[0])
        if taken is not None and why is None:
            reading = f"{parameter} {value:g}{taken[1]}"
            return Recorded(taken[0], f"{whose} {reading}", (parameter, raw), tuple(rejected), refused, reading)
        if why is None:
            within = "read as m, cm or mm" if what == "stature" and group == "SUBJECT" else (
                "read in mm" if what == "stature" else "read in kg")
            lo, hi = STATURE_RANGE if what == "stature" else MASS_RANGE
            unit = "m" if what == "stature" else "kg"
            why = _why(value, f"{lo:g}-{hi:g} {unit}", within)
        refused = refused or value != 0
        rejected.append(f"{whose} {parameter} {as_written(raw)} was not used as the subject's {what}: {why}")
    found = (candidates[0][0], candidates[0][1]) if candidates else None
    return Recorded(None, None, found, tuple(rejected), refused)


def _stature(group: str, value: float):
    lo, hi = STATURE_RANGE
    units = _BY_SIZE if group == "SUBJECT" else (("mm", 0.001),)
    return next(((value * f, f" {unit}") for unit, f in units if lo <= value * f <= hi), None)


def _mass(group: str, value: float):
    if not MASS_RANGE[0] <= value <= MASS_RANGE[1]:
        return None
    return value, (" kg" if group == "PROCESSING" else ", taken as kg (C3D gives no unit)")


def recorded_height(trial, whose: str = "the trial's") -> Recorded:
    """The subject's height (m) ``trial`` records (module notes): a Trial, or the
    :class:`~engine.io.c3d.C3DParameters` of its file (its ``subject`` and ``metadata``); ``whose`` names it before
    a parameter in the source and the notes (e.g. "the static trial s.c3d's")."""
    return _read(_candidates(trial, _HEIGHT_KEYS, _HEIGHT_KEYS), _stature, "stature", whose)


def recorded_mass(trial, whose: str = "the trial's", height: tuple | None = None) -> Recorded:
    """The subject's body mass (kg) ``trial`` records (module notes): a Trial, or the
    :class:`~engine.io.c3d.C3DParameters` of its file; refused when, taken as kg, it gives a body mass index outside
    :data:`BMI_RANGE` with the height the file records (if usable) or with ``height`` ``(m, where it comes from, as
    the note says it after "with")``, the stature the mass is to go with when it is not the file's own (the one the
    analysis uses, another file's; None: none): each height used is named, a mass scaled to a height it does not fit
    being as wrong as one recorded in pounds; ``whose`` as :func:`recorded_height`."""
    own = recorded_height(trial, whose)
    used = [] if own.value is None else [(own.value, f"{own.source} (recorded with it)")]
    if height is not None and height[0] != own.value:
        used.append(height)

    def unlikely(mass: float) -> str | None:
        lo, hi = BMI_RANGE
        bmis = [(mass / metres ** 2, where) for metres, where in used]
        if all(lo <= bmi <= hi for bmi, _ in bmis):
            return None
        said = " and ".join(f"with {where} it gives a body mass index of {bmi:.1f} kg/m^2" for bmi, where in bmis)
        return (f"taken as kg, {said}, not {'both ' if len(bmis) > 1 else ''}within {lo:g}-{hi:g} kg/m^2 (pounds, or "
                "another subject's mass?)")

    return _read(_candidates(trial, _MASS_KEYS, ("bodymass",)), _mass, "body mass", whose, unlikely)


def analysis_height(trial, static=None, given: Given | None = None, estimate: tuple | None = None) -> tuple | None:
    """The subject's stature ``(m, where it comes from, with its value)`` an analysis of ``trial`` uses, and checks a
    recorded mass by (:func:`subject_mass`): the height ``given`` (m), else the one the trial records, else its
    ``static`` trial's when the trial records none (:func:`subject_height`: one refused is not replaced), else
    ``estimate`` ``(m, where)``, the stature the caller estimates without a measure (the model's height scaled to the
    markers, ``engine.protocols.fitting.marker_stature``; None: none); None if none."""
    if given is not None and given.height is not None:
        return float(given.height), f"the height given {given.height_from}, {float(given.height):.3f} m"
    read = subject_height(trial, static)
    return (read.value, read.source) if read.value is not None else estimate


def _or_static(read: Recorded, static, recorded, what: str) -> Recorded:
    """``read`` (a Recorded of the trial), else the measure the ``static`` trial records (``recorded(static, whose)``,
    its source and notes naming the static trial) when the trial records none (nothing, or 0); when the trial's is
    refused, ``read`` with a note saying the static trial's (if usable) was not used as the subject's ``what`` in its
    place."""
    if read.value is not None or static is None:
        return read
    other = recorded(static, f"the static trial {static.source}'s")
    if read.refused:
        return read if other.value is None else replace(read, rejected=read.rejected + (
            f"{other.source} was not used as the subject's {what} in place of the trial's: a value the trial records "
            "but refuses is not replaced (the trial may be another subject's)",))
    notes = read.rejected + other.rejected
    if other.value is None:
        return replace(read, rejected=notes)
    return replace(other, source=other.source + " (the trial records none)", rejected=notes)


def subject_height(trial, static=None) -> Recorded:
    """The subject's height (m) that an analysis of ``trial`` takes when none is given: the one ``trial`` records
    (:func:`recorded_height`), else, when it records none (nothing, or 0: a value refused may be a wrong unit or
    another subject's, and is not replaced, the static trial's said not used), the one its ``static`` trial (None:
    none) records, whose source names the static trial and says the trial records none; ``rejected`` the notes on
    both. ``hybrid analyze TRIAL --static S`` and the application's Markers panel take it from here."""
    return _or_static(recorded_height(trial), static, recorded_height, "stature")


def subject_mass(trial, static=None, given: Given | None = None, estimate: tuple | None = None) -> Recorded:
    """The subject's body mass (kg) that an analysis of ``trial`` takes when none is given: as :func:`subject_height`,
    from :func:`recorded_mass`, each file's mass checked also by the stature the analysis uses,
    :func:`analysis_height` of ``trial``, ``static``, the height ``given`` (None: none; its mass is not looked at: the
    caller uses a mass given) and the ``estimate`` without a measure. ``hybrid analyze``
    (``engine.protocols.fitting.body_mass``) and the application's Markers panel take it from here."""
    height = analysis_height(trial, static, given, estimate)
    said = None if height is None else (height[0], f"the stature the analysis uses ({height[1]})")
    return _or_static(recorded_mass(trial, height=said), static,
                      lambda recorded_in, whose: recorded_mass(recorded_in, whose, said), "body mass")


def bmi_note(mass: float, stature: float | None, given: bool = False) -> str:
    """The note on the body mass index of the ``mass`` (kg) and ``stature`` (m; None: none known) an analysis used:
    its value and whether within :data:`BMI_RANGE`, or that none could be computed. A mass ``given`` by the user is
    taken whatever its index, the note saying so when it is not within (a recorded mass outside is refused before,
    :func:`recorded_mass`; the model's own, kept without any, is said as any other)."""
    if stature is None:
        return ("the subject's body mass is not checked by a body mass index: no stature is known (none given nor "
                "recorded, nor estimated from the markers)")
    lo, hi = BMI_RANGE
    bmi = mass / stature ** 2
    said = f"the subject's body mass index is {bmi:.1f} kg/m^2 ({mass:.3f} kg over the stature {stature:.3f} m squared), "
    if lo <= bmi <= hi:
        return said + f"within {lo:g}-{hi:g} kg/m^2"
    return said + f"not within {lo:g}-{hi:g} kg/m^2: " + ("the mass given is taken as given; check it and the stature"
                                                        if given else "check the mass and the stature")


def _named(name: str, where: str) -> str:
    """``name`` to start a check's message, none when ``where`` (before it in the message) says it already."""
    return "" if name == where else f"{name} "


def check_height(height, where: str, name: str = "height") -> float:
    """``height`` (m) as a float; SettingsError at ``where`` unless a stature within :data:`STATURE_RANGE` (the
    message names ``name`` unless it is ``where``)."""
    return _checked(height, STATURE_RANGE, "the subject's height in metres, between", where, name)


def check_mass(mass, where: str, name: str = "mass") -> float:
    """``mass`` (kg) as a float; SettingsError at ``where`` unless positive and within :data:`MASS_RANGE` (the
    message names ``name`` unless it is ``where``)."""
    return _checked(mass, MASS_RANGE, "the subject's body mass in kilograms, positive and between", where, name)


def _checked(value, limits, what: str, where: str, name: str) -> float:
    """``value`` as a float if a number within ``limits``; else SettingsError at ``where``: "must be ``what`` lo and
    hi; got ..."."""
    lo, hi = limits
    if not (isinstance(value, (int, float)) and not isinstance(value, bool) and lo <= value <= hi):
        raise SettingsError(f"{_named(name, where)}must be {what} {lo:g} and {hi:g}; got {as_written(value)}", where)
    return float(value)
