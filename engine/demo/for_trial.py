"""The default model for a trial that comes with nothing else (``hybrid analyze TRIAL.c3d``).

The trial's labels are matched to the built-in marker protocols (``engine.protocols``); the model is the
default athlete (``engine.demo.athlete``): the amputee on the blade when the trial has at least
``BLADE_MARKERS`` of the blade's markers (``BLD01L`` ...), else its intact able-bodied variant. Its markers
become the protocol's, on the athlete's landmarks, and it is scaled and its markers placed on the static
trial (or the trial's first frames).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..analysis.pipeline import analysis_steps
from ..io.protocol_file import builtin, placements_for
from ..progress import Progress
from ..protocols.edits import choices, edited_matching, match_rows
from ..protocols.fitting import fit_protocol, renamed_trial
from ..protocols.matching import Matching, notes_of, recognise
from ..trial.body_measures import Given
from . import blade as blade_design
from .athlete import build_athlete

BLADE_MARKERS = 3


@dataclass(frozen=True)
class TrialModel:
    """The model made for a trial, the trial (and static trial, or None) with the protocol's names, the matching
    and the notes."""

    model: object
    trial: object
    static: object
    matching: Matching
    notes: tuple


def default_model(trial, with_muscles: bool = False):
    """The default athlete for ``trial``: amputee if it has the blade's markers, else intact; and why."""
    blade = {m.name for m in blade_design.markers()}
    seen = [n for n in trial.markers.names if n.rsplit(":", 1)[-1].upper() in blade]
    if len(seen) >= BLADE_MARKERS:
        return (build_athlete(with_muscles=with_muscles),
                f"model: the default athlete on the blade (the trial has {len(seen)} blade markers)")
    return (build_athlete(with_muscles=with_muscles, amputated=False),
            "model: the default athlete's intact able-bodied variant (the trial has no blade markers)")


@dataclass(frozen=True)
class MatchingTable:
    """A matching with the user's edits, its rows (:class:`~engine.protocols.edits.MatchRow` per trial label) and
    the protocol markers a label can be given (full names)."""

    matching: Matching
    rows: list
    options: tuple


def matching_table(matching: Matching, model, labels, edits: dict | None = None) -> MatchingTable:
    """``matching`` (of a trial's ``labels``) with the user's ``edits`` (``{label: full marker name or None}``,
    :func:`engine.protocols.edits.edited_matching`) as a table, the landmarks' bodies those of ``model``."""
    catalogue, placements, _ = builtin()
    points = placements_for(model, placements).points(model, catalogue)
    if edits:
        matching = edited_matching(matching, edits, labels, catalogue)
    return MatchingTable(matching, match_rows(matching, labels, catalogue, points, edits),
                         tuple(choices(matching.protocol, catalogue)))


def trial_matching(trial, model, edits: dict | None = None) -> MatchingTable:
    """The built-in protocol recognised in ``trial``'s labels and confirmed on ``model``'s landmarks, with the
    user's ``edits``, as a table (:func:`matching_table`)."""
    catalogue, placements, protocols = builtin()
    points = placements_for(model, placements).points(model, catalogue)
    return matching_table(recognise(trial.markers, protocols, catalogue, points), model, trial.markers.names, edits)


def model_for_trial(trial, static=None, axes=None, with_muscles: bool = False, model=None,
                    edits: dict | None = None, given: Given | None = None) -> TrialModel:
    """The protocol recognised in ``trial`` (with the user's ``edits`` of the matching, see :func:`trial_matching`)
    put on ``model`` (default: :func:`default_model`), scaled and its markers placed, ``given`` the subject's height
    (m, the stature) and body mass (kg) the user gave and where (None: the trial's,
    :func:`~engine.protocols.fitting.stature` and :func:`~engine.protocols.fitting.body_mass`); DataError if no
    protocol's marker is recognised."""
    notes = []
    if model is None:
        model, said = default_model(trial, with_muscles)
        notes.append(said)
    catalogue, placements, _ = builtin()
    matching = trial_matching(trial, model, edits).matching
    fitted = fit_protocol(model, trial, matching, placements_for(model, placements), catalogue, static, axes,
                          given)
    static = None if static is None else renamed_trial(static, matching, fitted.stature)[0]
    return TrialModel(fitted.model, fitted.trial, static, matching, tuple(notes + notes_of(matching) + list(fitted.notes)))


def trial_analysis_steps(trial, settings, edits: dict | None = None, with_muscles: bool = False,
                         given: Given | None = None):
    """``hybrid analyze TRIAL.c3d [--height M --mass KG]`` as a step generator (the application's drop of a C3D): the
    model made for ``trial`` (:func:`model_for_trial`, with the lab axes and static trial of ``settings``, ``given``
    the subject's height and mass the user gave and where, or None), then
    :func:`~engine.analysis.pipeline.analysis_steps`. Returns ``(TrialModel, settings as run, AnalysisResult)``."""
    yield Progress("model", 0.0, "the marker protocol matched, the default model scaled and its markers placed")
    made = model_for_trial(trial, settings.static_trial, settings.axes, with_muscles=with_muscles, edits=edits,
                           given=given)
    settings = replace(settings, static_trial=made.static, ik=replace(settings.ik, notes=made.notes))
    result = yield from analysis_steps(made.model, made.trial, settings)
    return made, settings, result

