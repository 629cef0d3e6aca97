"""The marker samples the robust loss of inverse kinematics down-weighted, treated as gaps.

The robust loss (``engine.analysis.robust_weights``) keeps an outlying sample from pulling its frame's pose, but
the pose is then fitted without that marker: a pelvis with three markers loses a third of what fixes its tilt for
those frames (on gait2354, V.Sacral 0.5 m off for three frames still moves the torques by 14% of their range
beside those frames). The analysis treats such samples like the outliers found before the fit: set missing,
filled like any other short gap (``engine.trial.gaps``), and the trial fitted again.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..trial.gaps import fill_gaps


def outliers_as_gaps(trial, ik, max_gap_s: float):
    """``(trial, notes)``: ``trial`` (model axes, the one ``ik`` fitted) with the samples of ``ik`` whose robust
    weight factor is below 1 set missing and gaps of at most ``max_gap_s`` seconds filled; notes say so."""
    markers = trial.markers
    frames = np.searchsorted(markers.time, ik.time - 1e-9)
    positions = np.array(markers.positions)
    flagged = ik.robust_factors < 1.0
    for j, name in enumerate(ik.marker_names):
        positions[frames[flagged[:, j]], markers.index(name)] = np.nan
    filled, report = fill_gaps(trial.derived(markers=replace(markers, positions=positions)), max_gap_s=max_gap_s)
    return filled, [f"the {int(flagged.sum())} samples down-weighted by the robust loss treated as gaps and the trial "
                    f"fitted again; {report.describe()}"]
