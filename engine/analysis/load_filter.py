"""Low-pass filtering of the loads that inverse dynamics estimated, after it ran.

Inverse dynamics maps the coordinates to loads nonlinearly (segment accelerations are products of
angular rates, positions and orientations), so low-passing the coordinates does not low-pass the loads:
the marker noise and the motion left in the coordinates' band make products that land in the loads'
low band, and the loads carry content above the cut-off. Filtering the estimated loads as well (at the
coordinates' cut-off, say) removes what the map put there. Anything compared with them (force plates,
a simulation's truth) must then pass the same two filters (``engine.analysis.pipeline`` does so for the
plates, ``engine.demo.truth.truth_metrics`` for the truth).

The filter is the coordinates' (``engine.trial.filtering.lowpass``: zero-lag Butterworth, order per
pass, the same end handling), at the results' own sampling rate. It is linear: the filtered loads no
longer satisfy what the QP imposed frame by frame. Around touch-down and take-off its ringing makes small
pulling normal forces and forces on candidates that were not active, and the floating base's rows of
``tau`` are no longer ``M a + nle - J^T f`` of the unfiltered motion; :func:`pulling_note` says how much.
Nothing is clamped.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from .. import algorithms as alg
from ..data import Data
from ..errors import SettingsError
from ..trial.filtering import check_cutoff, lowpass
from .inverse_dynamics import IDResult
from .joint_reactions import filtered_reactions
from .qp_id import QPResult, group_resultants


def _filtered(time, data, cutoff: float, order: int, edges: str):
    step = (time[-1] - time[0]) / (len(time) - 1)
    if np.abs(time - (time[0] + step * np.arange(len(time)))).max() > 0.05 * step:
        raise SettingsError("the frames are not uniformly spaced in time: the loads cannot be filtered")
    check_cutoff(cutoff, 1.0 / step, "the loads' cut-off")
    out, short = lowpass(data, 1.0 / step, cutoff, order, edges)
    if short:
        spans = ", ".join(f"frames {a}-{b - 1}" for a, b in short)
        raise SettingsError(f"the loads cannot be filtered at {cutoff} Hz: {spans} are shorter than the filter "
                            "needs between missing values")
    return out


def lowpass_classic(result: IDResult, cutoff: float, order: int, edges: str) -> IDResult:
    """``result`` with its generalized forces ``tau``, root residual and joint reactions low-passed at ``cutoff``
    Hz."""
    def lowpass_(data):
        return _filtered(result.time, data, cutoff, order, edges)
    residual = None if result.residual is None else lowpass_(result.residual)
    return replace(result, tau=lowpass_(result.tau), residual=residual,
                   reactions=filtered_reactions(result.reactions, lowpass_), loads_cutoff=cutoff)


def lowpass_qp(model, motion, result: QPResult, cutoff: float, order: int, edges: str) -> QPResult:
    """``result`` with ``tau`` and the candidates' forces low-passed at ``cutoff`` Hz, and each group's
    resultant, centre of pressure and free moment recomputed from the filtered forces at the candidates'
    positions in ``motion`` (the Motion the QP ran on). ``active`` is kept as the QP decided it (the
    filtered forces spread beyond it; see the module notes)."""
    forces = _filtered(result.time, result.forces, cutoff, order, edges)
    X = alg.frame_positions_batch(model, Data(model), motion.q, result.contact_names)
    return replace(result, tau=_filtered(result.time, result.tau, cutoff, order, edges), forces=forces,
                   groups=group_resultants(model, X, forces, result.floor), loads_cutoff=cutoff)


PULL_NOTED = 1.0      # N: a filtered group's normal force below minus this is counted in the note


def pulling_note(model, result: QPResult) -> list[str]:
    """A note (or none) on the frames where a filtered contact group's normal force points into the floor by
    more than :data:`PULL_NOTED` N."""
    up = model.up
    normal = np.column_stack([g.force @ up for g in result.groups.values()])
    pulling = (normal < -PULL_NOTED).any(axis=1)
    if not pulling.any():
        return []
    return [f"after the loads filter the floor pulls on a contact group by more than {PULL_NOTED:g} N in "
            f"{int(pulling.sum())} of {len(normal)} frames (at most {-normal.min():.1f} N): the filter's ringing "
            "around touch-down and take-off, left as filtered"]
