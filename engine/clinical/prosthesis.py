"""Prosthesis metrics of a rod (a running blade) per stance.

* compression, m: the rest length minus the length of the chord from the rod's parent body origin (the socket) to
  the centroid of the rod's contact candidates (the blade's leg-spring shortening; positive when compressed);
* effective stiffness, N/m: the least-squares slope (through the origin) of the blade group's ground-reaction
  magnitude against that compression over the stance (force against compression);
* blade power, W: the power flowing into the blade, ``-sum_i tau_i v_i`` over the rod's strain coordinates.
  ``tau`` is the inverse dynamics' generalized force of each strain (``M a + nle = tau + J^T f``): the force the
  rod's own stresses exert on the system, ``-K (q - q_rest) - D v`` for an elastic, damped rod (seed eq. 26), so
  ``tau . v`` is the power the blade gives the body and its opposite the power the blade takes: positive while it
  is compressed, negative while it recoils;
* energy stored / returned, J: the integrals of the positive / negative power into the blade over the stance
  (the work done on it while it is loaded, and the work it gives back); hysteresis, %: 100 (stored - returned) /
  stored, positive for a blade that dissipates energy.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..algorithms.batch import frame_positions_batch
from ..data import Data
from ..tree import compile_tree


@dataclass(frozen=True)
class StanceMetrics:
    """One stance ``(start, end)`` s of the rod's contact group."""

    interval: tuple
    peak_compression: float
    stiffness: float
    stored: float
    returned: float
    peak_force: float

    @property
    def hysteresis(self) -> float:
        return 100.0 * (self.stored - self.returned) / self.stored if self.stored > 0 else float("nan")


def compression(model, rod: str, Q) -> np.ndarray:
    """(T,) m, the rod's chord shortening from rest (module notes) at configurations ``Q`` (T, nq)."""
    r = model.rod(rod)
    names = [c.name for c in model.contacts if c.group == rod]
    rest = np.array(Q[:1], float)
    for i, seg in enumerate(r.segments):
        for j, mode in enumerate(("kx", "ky", "kz", "ex", "ey", "ez")):
            if mode in seg.free_modes:
                rest[0, compile_tree(model).coordinates[f"{rod}_s{i + 1}_{mode}"].qi] = seg.rest_strain[j]
    data = Data(model)

    def chord(q):
        p = frame_positions_batch(model, data, q, [r.parent] + names)
        return np.linalg.norm(p[:, 1:].mean(axis=1) - p[:, 0], axis=1)
    return chord(rest)[0] - chord(np.asarray(Q, float))


def rod_power(model, rod: str, tau, V) -> np.ndarray:
    """(T,) W, the power into the rod, ``-sum tau_i v_i`` over its strain coordinates from ``tau`` and ``V`` (T, nv)
    (module notes: positive while the rod takes energy)."""
    vi = [compile_tree(model).coordinates[n].vi for n in model.rod(rod).coordinate_names()]
    return -np.sum(np.asarray(tau)[:, vi] * np.asarray(V)[:, vi], axis=1)


def stance_metrics(time, comp, force, power, stances) -> list[StanceMetrics]:
    """Metrics of each stance from compression (T,) m, ground-reaction magnitude (T,) N and power into the rod (T,)
    W (:func:`rod_power`)."""
    out = []
    for a, b in stances:
        k = (time >= a) & (time <= b)
        d, f, p, t = comp[k], force[k], power[k], time[k]
        out.append(StanceMetrics((a, b), float(d.max()), float(f @ d / (d @ d)),
                                 float(np.trapezoid(np.clip(p, 0, None), t)),
                                 float(-np.trapezoid(np.clip(p, None, 0), t)), float(f.max())))
    return out
