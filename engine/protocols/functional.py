"""Functional joint centres and axes from two technical clusters' motion, for trials without anatomical markers.

Each cluster's pose per frame (R, d) is its markers' best rigid fit (``Rotation.align_vectors``) to their shape
at the first frame where all are seen (frames with fewer than three seen: missing). A point fixed in both segments
(a ball joint's centre) satisfies ``R1 c1 + d1 = R2 c2 + d2`` in every frame: the symmetrical centre of rotation
estimation (SCoRE, Ehrig et al. 2006, J Biomech 39:2798-2809) solves the stacked ``[R1 -R2] [c1; c2] = d2 - d1``
by least squares. For a hinge the solutions form a line, the symmetrical axis of rotation approach (SARA, Ehrig
et al. 2007, J Biomech 40:2150-2157): its direction is the right singular vector of ``[R1 -R2]`` of the smallest
singular value. Metres, lab frame.
"""
from __future__ import annotations

import numpy as np

MIN_FRAMES = 20      # frames with both clusters seen that a functional fit needs


def cluster_poses(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(R (F, 3, 3), d (F, 3))`` of a cluster from its markers ``points`` (F, n, 3) m (NaN missing): the
    rotation and translation carrying the reference shape (centred at its centroid) to each frame; NaN where
    fewer than three markers are seen. ValueError when no frame sees them all."""
    full = np.flatnonzero(np.isfinite(points[:, :, 0]).all(axis=1))
    if not full.size:
        raise ValueError("no frame sees every marker of the cluster")
    from scipy.spatial.transform import Rotation     # imported when used: the window imports this module
    ref = points[full[0]] - points[full[0]].mean(axis=0)
    R = np.full((len(points), 3, 3), np.nan)
    d = np.full((len(points), 3), np.nan)
    for f, p in enumerate(points):
        seen = np.isfinite(p[:, 0])
        if seen.sum() < 3:
            continue
        centre = p[seen].mean(axis=0)
        rot, _ = Rotation.align_vectors(p[seen] - centre, ref[seen] - ref[seen].mean(axis=0))
        R[f] = rot.as_matrix()
        d[f] = centre - R[f] @ ref[seen].mean(axis=0)
    return R, d


def _stacked(R1, d1, R2, d2):
    both = np.isfinite(d1[:, 0]) & np.isfinite(d2[:, 0])
    if both.sum() < MIN_FRAMES:
        raise ValueError(f"the two clusters are seen together in {int(both.sum())} frames (at least {MIN_FRAMES} "
                         "needed)")
    A = np.concatenate([R1[both], -R2[both]], axis=2).reshape(-1, 6)
    b = (d2[both] - d1[both]).reshape(-1)
    return A, b, both


def score(R1, d1, R2, d2) -> tuple[np.ndarray, np.ndarray, float]:
    """SCoRE: the centre ``c1`` in segment 1's cluster frame, ``c2`` in segment 2's, and the RMS (m) of the two
    placements' mismatch over the frames both are seen."""
    A, b, _ = _stacked(R1, d1, R2, d2)
    c, *_ = np.linalg.lstsq(A, b, rcond=None)
    return c[:3], c[3:], float(np.sqrt(np.mean((A @ c - b) ** 2) * 3))


def sara(R1, d1, R2, d2) -> tuple[np.ndarray, np.ndarray, float]:
    """SARA: a point ``p1`` and unit direction ``u1`` of the hinge axis in segment 1's cluster frame, and the
    ratio of the smallest to the next singular value (small: a well-defined axis)."""
    A, b, _ = _stacked(R1, d1, R2, d2)
    _, s, Vt = np.linalg.svd(A, full_matrices=False)
    c, *_ = np.linalg.lstsq(A, b, rcond=None)
    u = Vt[-1, :3]
    return c[:3], u / np.linalg.norm(u), float(s[-1] / s[-2])


def in_lab(R, d, local) -> np.ndarray:
    """``local`` (3,) in a cluster's frame, per frame in the lab (F, 3); NaN where the cluster is not seen."""
    return np.einsum("fij,j->fi", R, local) + d


def in_cluster(R, d, points) -> np.ndarray:
    """The mean over the frames both are seen of lab ``points`` (F, 3) expressed in the cluster's frame."""
    ok = np.isfinite(d[:, 0]) & np.isfinite(points[:, 0])
    return np.mean(np.einsum("fji,fj->fi", R[ok], points[ok] - d[ok]), axis=0)
