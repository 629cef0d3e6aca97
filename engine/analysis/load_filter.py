"""Low-pass filtering of the loads that inverse dynamics estimated, after it ran.

Inverse dynamics maps the coordinates to loads nonlinearly (segment accelerations are products of
angular rates, positions and orientations), so low-passing the coordinates does not low-pass the loads:
the marker noise and the motion left in the coordinates' band make products that land in the loads'
low band, and the loads carry content above the cut-off. Filtering the estimated loads as well (at the
coordinates' cut-off, say) removes what the map put there. Anything compared with them (force plates,
a simulation's truth) must then pass the same two filters (``engine.analysis.pipeline`` does so for the
plates, ``engine.demo.truth.truth_metrics`` for the truth).

The filter is the coordinates' (``engine.trial.filtering.lowpass``: zero-lag Butterworth, order per
pass, the same end handling), at the results' own sampling rate.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from .. import algorithms as alg
from ..errors import SettingsError
from ..trial.filtering import lowpass
from .inverse_dynamics import IDResult
from .qp_id import QPResult, group_resultants


def _filtered(time, data, cutoff: float, order: int, edges: str):
    step = (time[-1] - time[0]) / (len(time) - 1)
    if np.abs(time - (time[0] + step * np.arange(len(time)))).max() > 0.05 * step:
        raise SettingsError("the frames are not uniformly spaced in time: the loads cannot be filtered")
    out, short = lowpass(data, 1.0 / step, cutoff, order, edges)
    if short:
        raise SettingsError(f"the trial is too short to filter the loads at {cutoff} Hz: {len(time)} frames")
    return out


def lowpass_classic(result: IDResult, cutoff: float, order: int, edges: str) -> IDResult:
    """``result`` with its generalized forces ``tau`` and root residual low-passed at ``cutoff`` Hz."""
    residual = None if result.residual is None else _filtered(result.time, result.residual, cutoff, order, edges)
    return replace(result, tau=_filtered(result.time, result.tau, cutoff, order, edges), residual=residual,
                   loads_cutoff=cutoff)


def lowpass_qp(model, motion, result: QPResult, cutoff: float, order: int, edges: str) -> QPResult:
    """``result`` with ``tau`` and the candidates' forces low-passed at ``cutoff`` Hz, and each group's
    resultant, centre of pressure and free moment recomputed from the filtered forces at the candidates'
    positions in ``motion`` (the Motion the QP ran on)."""
    forces = _filtered(result.time, result.forces, cutoff, order, edges)
    X = alg.frame_positions_batch(model, model.create_data(), motion.q, result.contact_names)
    return replace(result, tau=_filtered(result.time, result.tau, cutoff, order, edges), forces=forces,
                   groups=group_resultants(model, X, forces, result.floor), loads_cutoff=cutoff)

