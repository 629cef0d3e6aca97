"""Validation of estimated ground reactions against force plates (seed eqs. 38-39, Tables 1-2).

For each plate, over the frames it is loaded, the estimate is the resultant of the
contact forces the plate would see: those of candidates inside its outline when its
corners are known, otherwise those of the contact group nearest its centre of
pressure. Per axis (vertical = up; anterior-posterior = the forward axis; medio-lateral
completes the frame):

    RMSE = sqrt(mean((f - f_hat)^2)),   rRMSE = 100 RMSE / (0.5 (range(f) + range(f_hat)))

and Pearson's r. Inverse kinematics is summarised per marker (:func:`marker_metrics`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..data import Data
from .inverse_dynamics import plate_samples


@dataclass
class PlateMetric:
    plate: str
    group: str
    axis: str            # 'vertical', 'ap', 'ml'
    rmse: float          # N
    rrmse: float         # percent
    r: float             # Pearson correlation
    frames: int

    def as_dict(self) -> dict:
        return {"plate": self.plate, "group": self.group, "axis": self.axis, "rmse_N": self.rmse,
                "rrmse_pct": self.rrmse, "r": self.r, "frames": self.frames}


def rmse_rrmse_r(estimate, measured) -> tuple[float, float, float]:
    """RMSE, rRMSE (%) and correlation of two equally sampled signals (seed eqs. 38-39)."""
    e = np.asarray(estimate, float)
    m = np.asarray(measured, float)
    rmse = float(np.sqrt(np.mean((e - m) ** 2)))
    span = 0.5 * (np.ptp(e) + np.ptp(m))
    rrmse = float(100.0 * rmse / span) if span > 0 else float("nan")
    r = float(np.corrcoef(e, m)[0, 1]) if np.std(e) > 0 and np.std(m) > 0 else float("nan")
    return rmse, rrmse, r


def axes_of(up, forward) -> dict:
    """Unit vectors of the vertical, anterior-posterior and medio-lateral axes."""
    up = np.asarray(up, float) / np.linalg.norm(up)
    ap = np.asarray(forward, float) - np.dot(forward, up) * up
    ap /= np.linalg.norm(ap)
    return {"vertical": up, "ap": ap, "ml": np.cross(ap, up)}


def inside_plate(points, corners, up) -> np.ndarray:
    """Which points lie over the convex outline ``corners`` (4, 3) when projected along ``up``."""
    c = np.asarray(corners, float)
    inside = np.ones(len(points), bool)
    sign = None
    for i in range(len(c)):
        edge = c[(i + 1) % len(c)] - c[i]
        side = np.cross(edge, points - c[i]) @ up
        sign = np.sign(np.cross(edge, c[(i + 2) % len(c)] - c[i]) @ up) if sign is None else sign
        inside &= side * sign >= 0
    return inside


def grf_metrics(model, motion, result, plates, forward=(1.0, 0.0, 0.0)) -> list[PlateMetric]:
    """Per plate and axis metrics of a :class:`~engine.analysis.qp_id.QPResult` (computed for ``motion``)
    against measured plates."""
    from .. import algorithms as alg
    up = model.up
    axes = axes_of(up, forward)
    X = alg.frame_positions_batch(model, Data(model), motion.q, result.contact_names)
    groups = [c.group for c in model.contacts]
    out = []
    for plate in plates:
        force, _, cop, loaded = plate_samples(plate, result.time)
        if loaded.sum() < 2:
            continue
        estimate = np.zeros((len(result.time), 3))
        votes: dict = {}
        for f in np.flatnonzero(loaded):
            if plate.corners is not None:
                mask = inside_plate(X[f], plate.corners, up)
            else:
                d = X[f] - cop[f]
                horizontal = np.linalg.norm(d - np.outer(d @ up, up), axis=1)
                g = groups[int(np.argmin(horizontal))]
                mask = np.array([gg == g for gg in groups])
            estimate[f] = result.forces[f, mask].sum(axis=0)
            for g in np.array(groups)[mask]:
                votes[g] = votes.get(g, 0) + 1
        group = max(votes, key=votes.get) if votes else "none"
        for name, axis in axes.items():
            rmse, rrmse, r = rmse_rrmse_r(estimate[loaded] @ axis, force[loaded] @ axis)
            out.append(PlateMetric(plate.name, group, name, rmse, rrmse, r, int(loaded.sum())))
    return out


@dataclass
class MarkerMetric:
    """One marker's IK error over the frames it was present: RMS and max in m."""

    marker: str
    rms: float
    max: float
    frames: int


def marker_metrics(ik) -> list[MarkerMetric]:
    """Per model marker fitted by IK (``ik.marker_names``), RMS and max of its distance to the measured marker."""
    out = []
    for k, name in enumerate(ik.marker_names):
        e = ik.errors[:, k]
        e = e[np.isfinite(e)]
        if e.size:
            out.append(MarkerMetric(name, float(np.sqrt(np.mean(e ** 2))), float(e.max()), int(e.size)))
        else:
            out.append(MarkerMetric(name, float("nan"), float("nan"), 0))
    return out


@dataclass
class MarkerSample:
    """One marker sample of an IK fit: its residual (m) and the robust loss's weight factor (1: kept)."""

    marker: str
    frame: int
    time: float
    residual: float
    factor: float


def flagged_samples(ik):
    """(T, K) bool: the samples of ``ik`` the robust loss down-weighted (none for a fit without the loss)."""
    return (np.zeros(ik.errors.shape, bool) if ik.robust_factors is None
            else np.asarray(ik.robust_factors) < 1.0)


def worst_samples(ik, count: int = 20) -> list[MarkerSample]:
    """The ``count`` marker samples of ``ik`` with the largest residuals, worst first (the per-frame, per-marker
    residual table's head); samples the robust loss down-weighted come first."""
    flagged = flagged_samples(ik)
    frames, markers = np.nonzero(np.isfinite(ik.errors))
    order = np.lexsort((-ik.errors[frames, markers], ~flagged[frames, markers]))[:count]
    factors = np.ones(ik.errors.shape) if ik.robust_factors is None else ik.robust_factors
    return [MarkerSample(ik.marker_names[markers[i]], int(frames[i]), float(ik.time[frames[i]]),
                         float(ik.errors[frames[i], markers[i]]), float(factors[frames[i], markers[i]]))
            for i in order]


def format_table(metrics) -> str:
    """A table like the seed's Tables 1-2: per plate, RMSE (rRMSE) per axis."""
    plates = list(dict.fromkeys(m.plate for m in metrics))
    lines = [f"{'plate':10s} {'group':10s} {'AP: RMSE (rRMSE)':>20s} {'ML: RMSE (rRMSE)':>20s} "
             f"{'vertical: RMSE (rRMSE)':>24s}"]
    for p in plates:
        row = {m.axis: m for m in metrics if m.plate == p}
        group = next(m.group for m in metrics if m.plate == p)
        cells = [f"{row[a].rmse:7.2f} N ({row[a].rrmse:4.1f}%)" for a in ("ap", "ml", "vertical")]
        lines.append(f"{p:10s} {group:10s} {cells[0]:>20s} {cells[1]:>20s} {cells[2]:>24s}")
    return "\n".join(lines)
