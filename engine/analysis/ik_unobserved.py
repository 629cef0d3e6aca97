"""Coordinates that no fitted marker informs in a frame (a segment whose markers all vanished), found from the
inverse kinematics' normal equations, and the note that says which were held, over which frames.

A coordinate moves the markers below it in the tree; when none of them is present (or all weigh 0) and no
coordinate task names it, its row of ``H = J^T W J`` is zero. The Levenberg-Marquardt step then solves
``lambda d_i = 0`` for it (``engine.analysis._ik``: the damping keeps the step well posed), so it keeps the value the
solve started from, an extrapolation of the frames before or a fresh start's pose; :func:`hold` then sets it to the
neighbouring solved frame's value, which changes no residual. That is reported, never left silent.
"""
from __future__ import annotations

import numpy as np

from ..trial.intervals import runs

UNSEEN = 1e-10   # H_ii below this times the frame's total marker weight (m^2): no marker within 10 um moves with it


def unobserved(info, targets, weights) -> np.ndarray:
    """(T, nv) bool: velocity coordinate ``i`` informed by no marker nor task at frame ``f``, i.e. the Gauss-Newton
    ``H_ii`` at the frame's solution, ``info[f, i]`` (the IK kernel's, ``engine.analysis._ik.solve_frames``), is at
    most :data:`UNSEEN` times the frame's summed weight of present markers.

    ``targets`` (T, K, 3) m (NaN missing), ``weights`` (T, K) the markers' weights the frames were solved with."""
    present = ~np.isnan(targets[:, :, 0])
    total = np.where(present, weights, 0.0).sum(axis=1)
    return (info <= UNSEEN * total[:, None]) | (total <= 0.0)[:, None]


def hold(Q, mask, v2q) -> None:
    """Set in place each scalar coordinate over each run of frames where ``mask`` (T, nv) says no marker informs it
    to its value at the frame before the run (at the frame after, for a run that begins the trial). No residual
    depends on it there (no present marker below it, no task on it), so the fit is unchanged."""
    T = len(Q)
    for i in np.flatnonzero(mask.any(axis=0)):
        qi = v2q[i]
        if qi < 0 or mask[:, i].all():
            continue
        for a, b in runs(mask[:, i]):
            Q[a:b + 1, qi] = Q[a - 1, qi] if a > 0 else Q[b + 1, qi] if b + 1 < T else Q[a, qi]


def describe_unobserved(v_names, time, mask, solved) -> list[str]:
    """Notes naming the coordinates no marker informs in any solved frame (kept at the first pose's value, the
    default), and each coordinate unobserved in some solved frames, with its time spans and frame count (frames
    with no marker at all are said elsewhere)."""
    never, parts = [], []
    for i, name in enumerate(v_names):
        held = mask[:, i] & solved
        if not held.any():
            continue
        if held.sum() == solved.sum():
            never.append(name)
            continue
        spans = ", ".join(f"{time[a]:.3f}-{time[b]:.3f} s" for a, b in runs(held))
        parts.append(f"{name} {spans} ({int(held.sum())} frames)")
    notes = []
    if never:
        notes.append("coordinates no fitted marker informs in any frame, kept at their default: " + ", ".join(never))
    if parts:
        notes.append("coordinates no fitted marker informed, held at the neighbouring frame's value: "
                     + "; ".join(parts))
    return notes
