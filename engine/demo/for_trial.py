"""The default model for a trial that comes with nothing else (``hybrid analyze TRIAL.c3d``).

The trial's labels are matched to the built-in marker protocols (``engine.protocols``); the model is the
default athlete (``engine.demo.athlete``): the amputee on the blade when the trial has at least
``BLADE_MARKERS`` of the blade's markers (``BLD01L`` ...), else its intact able-bodied variant. Its markers
become the protocol's, on the athlete's landmarks, and it is scaled and its markers placed on the static
trial (or the trial's first frames).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..io.protocol_file import builtin, placements_for
from ..protocols.fitting import fit_protocol, renamed_trial
from ..protocols.matching import Matching, notes_of, recognise
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


def model_for_trial(trial, static=None, axes=None, with_muscles: bool = False, model=None) -> TrialModel:
    """The protocol recognised in ``trial`` put on ``model`` (default: :func:`default_model`), scaled and
    its markers placed; DataError if no protocol's marker is recognised."""
    notes = []
    if model is None:
        model, said = default_model(trial, with_muscles)
        notes.append(said)
    catalogue, placements, protocols = builtin()
    points = placements_for(model, placements).points(model, catalogue)
    matching = recognise(trial.markers, protocols, catalogue, points)
    fitted = fit_protocol(model, trial, matching, placements_for(model, placements), catalogue, static, axes,
                          mass=_mass(trial))
    static = None if static is None else renamed_trial(static, matching)[0]
    return TrialModel(fitted.model, fitted.trial, static, matching, tuple(notes + notes_of(matching) + list(fitted.notes)))


def _mass(trial):
    """The subject's mass (kg) if the trial records a plausible one, else None (the model's is kept)."""
    for key in ("BODY_MASS", "MASS", "WEIGHT", "Bodymass", "Weight"):
        value = trial.subject.get(key)
        try:
            mass = float(value[0] if isinstance(value, (list, tuple)) else value)
        except (TypeError, ValueError, IndexError):
            continue
        if 20.0 <= mass <= 250.0:
            return mass
    return None
