"""The robust loss of inverse kinematics: marker samples far beyond their marker's usual fit lose weight.

Seed eq. 32 weighs every marker sample by its marker's weight. A sample displaced for a few frames (a marker
mislabeled for an instant, knocked, or picked up by the wrong camera) then pulls the pose of those frames. The
robust loss re-weights each sample by iteratively re-weighted least squares: after a fit, each marker's residual
distances over the trial give its scale ``s_k = max(1.4826 * MAD_k, FLOOR / k)`` and *threshold*
``c_k = median_k + k * s_k`` (m; median and median absolute deviation over the frames it is present in, so a
marker fitted 80 mm off all trial long by a model that cannot follow it keeps its weight), and a sample whose
residual ``e`` exceeds its threshold gets the factor (Huber) ``c / e`` or (Cauchy, redescending)
``1 / (1 + ((e - c) / s)^2)``, multiplying its marker's weight; a sample within its threshold keeps its weight
(factor 1), so a clean trial is fitted as without the loss. Huber's factor leaves an outlier the pull of a
sample at the threshold (on gait2354 a heel marker 0.1 m off for two frames still turns the ankle by 3
degrees); Cauchy's leaves it about ``s^2 / (e - c)``.
Markers present in fewer than ``MIN_FRAMES`` frames (a static trial) have no threshold and keep their weights.
A marker wrong for the whole trial has a large median and is not the loss's to find: it is not rigid with its
segment's other markers (``engine.analysis.marker_rigidity``).
"""
from __future__ import annotations

import numpy as np

from ..errors import SettingsError
from ..trial.intervals import runs

LOSSES = ("huber", "cauchy")
MIN_FRAMES = 10
FLOOR = 0.03            # m: a threshold lies at least this far beyond the marker's median residual
MAD_TO_SIGMA = 1.4826   # the MAD of a normal distribution times this is its standard deviation


def check_loss(loss, threshold) -> None:
    """SettingsError unless ``loss`` is None or one of :data:`LOSSES` and ``threshold`` a positive number."""
    if loss is not None and loss not in LOSSES:
        raise SettingsError(f"the IK's robust loss must be one of {', '.join(LOSSES)} or none, got {loss!r}")
    if isinstance(threshold, bool) or not (isinstance(threshold, (int, float)) and np.isfinite(threshold)
                                           and threshold > 0):
        raise SettingsError(f"the IK's robust threshold must be a positive number of MADs, got {threshold!r}")


def marker_scales(errors: np.ndarray, k: float) -> tuple[np.ndarray, np.ndarray]:
    """``(c, s)`` (K,) each, in m, from residual distances ``errors`` (T, K; NaN where missing): each marker's
    threshold and scale (see the module notes); NaN for a marker present in fewer than :data:`MIN_FRAMES`
    frames."""
    c, s = np.full(errors.shape[1], np.nan), np.full(errors.shape[1], np.nan)
    finite = np.isfinite(errors)
    whole = finite.all(axis=0) & (errors.shape[0] >= MIN_FRAMES)
    if whole.any():     # the markers present in every frame at once (the same medians as one by one)
        e = errors[:, whole]
        median = np.median(e, axis=0)
        s[whole] = np.maximum(MAD_TO_SIGMA * np.median(np.abs(e - median), axis=0), FLOOR / k)
        c[whole] = median + k * s[whole]
    for j in np.flatnonzero(~whole):
        e = errors[:, j][finite[:, j]]
        if e.size >= MIN_FRAMES:
            median = np.median(e)
            s[j] = max(MAD_TO_SIGMA * np.median(np.abs(e - median)), FLOOR / k)
            c[j] = median + k * s[j]
    return c, s


def robust_factors(errors: np.ndarray, thresholds: np.ndarray, scales: np.ndarray, loss: str) -> np.ndarray:
    """Weight factors (T, K) in (0, 1] of the samples with residuals ``errors`` (m): 1 within the threshold,
    where missing and for markers without a threshold."""
    c = np.broadcast_to(thresholds, errors.shape)
    beyond = np.isfinite(errors) & np.isfinite(c) & (errors > c)
    factors = np.ones(errors.shape)
    e, cb, sb = errors[beyond], c[beyond], np.broadcast_to(scales, errors.shape)[beyond]
    factors[beyond] = cb / e if loss == "huber" else 1.0 / (1.0 + ((e - cb) / sb) ** 2)
    return factors


def describe_flags(names, time, errors, factors, loss: str) -> list[str]:
    """Notes naming, per marker, the frames whose samples the robust loss down-weighted, with the largest
    residual (mm) and the smallest factor."""
    notes = []
    for j, name in enumerate(names):
        flagged = factors[:, j] < 1.0
        if not flagged.any():
            continue
        spans = ", ".join(f"{time[a]:.3f}" if a == b else f"{time[a]:.3f}-{time[b]:.3f}" for a, b in runs(flagged))
        notes.append(f"marker {name} fitted far beyond its usual residual in {int(flagged.sum())} frames ({spans} s; "
                     f"up to {1000 * np.nanmax(errors[flagged, j]):.0f} mm): down-weighted by the {loss} loss "
                     f"(weight factor down to {factors[flagged, j].min():.3g})")
    return notes
