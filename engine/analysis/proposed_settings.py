"""Analysis settings proposed for a trial from its own data, never carried over from another trial.

Lab axes are left to the analysis to propose from the trial's plates and markers (``axes=None``,
:func:`engine.trial.axes.propose_rotation`; the proposal is described here so it can be shown before the
analysis runs); the coordinates' low-pass cut-off comes from residual analysis of the trial's markers
(:mod:`engine.trial.cutoff`); the time range is the whole trial; everything else is the engine's default.
"""
from __future__ import annotations

from ..errors import HybridLabError
from ..trial.axes import propose_rotation
from ..trial.cutoff import propose_cutoff
from .pipeline import AnalysisSettings


def proposed_settings(trial) -> tuple[AnalysisSettings, list[str]]:
    """``(settings, reasons)`` for ``trial`` (lab axes, metres): each reason a sentence saying what was
    proposed and from what; a proposal that cannot be made is said and its default kept."""
    reasons = []
    settings = AnalysisSettings()
    if trial.frame == "model":
        reasons.append("the trial is already in model axes")
    else:
        try:
            reasons += list(propose_rotation(trial).reasons)
        except HybridLabError as exc:
            reasons.append(f"lab axes cannot be proposed ({exc}): set them")
    try:
        settings.cutoff, why = propose_cutoff(trial.markers)
        reasons.append(why)
    except HybridLabError as exc:
        reasons.append(f"{exc}; the default {settings.cutoff:g} Hz is kept")
    reasons.append(f"time range: the whole trial, {trial.start_time:.3f} to {trial.end_time:.3f} s")
    return settings, reasons
