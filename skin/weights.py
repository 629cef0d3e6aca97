"""Skinning weights (the seed's alpha_ij): smooth across joints, from each vertex's distance to the bodies'
flesh volumes; a residual limb carries its own skin alone beyond a short band below the knee."""
from __future__ import annotations

import numpy as np

from engine.errors import ModelError

from .surface import world_distances
from .volumes import TaperedCapsule

INFLUENCES = 4     # bones per vertex
FALLOFF = 0.015    # m: a bone's weight falls by e for each FALLOFF its volume is farther than the nearest
BRIM = 0.02        # m below the knee centre: about the tibial plateau, where a transtibial socket's brim begins


def skinning_weights(distances: np.ndarray, falloff: float = FALLOFF, influences: int = INFLUENCES):
    """``bone`` (n, K) int and ``weight`` (n, K) from signed distances (n, m) of n vertices to m volumes:
    ``alpha_ij ~ exp(-(d_ij - min_j d_ij) / falloff)`` over the K nearest volumes, normalised to sum 1.
    The weights vary smoothly over the skin and blend the bones near a joint."""
    K = min(influences, distances.shape[1])
    bone = np.argsort(distances, axis=1)[:, :K]
    d = np.take_along_axis(distances, bone, axis=1)
    weight = np.exp(-(d - d[:, :1]) / falloff)
    weight[weight < 1e-4] = 0.0
    weight /= weight.sum(axis=1, keepdims=True)
    return np.ascontiguousarray(bone, dtype=np.int64), np.ascontiguousarray(weight)


def carried_alone(bone: np.ndarray, weight: np.ndarray, limb: int, depth: np.ndarray, band: float = BRIM):
    """``weight`` (n, K) with bone ``limb`` carrying alone the vertices beyond a plane: at ``depth`` t (n,) m past
    the plane every other bone's weight is scaled by ``1 - smoothstep(t / band)`` (1 at the plane, 0 from ``band``
    on, continuous with its slope), then the row renormalised. Vertices at ``depth <= 0`` keep their weights;
    every vertex at a positive depth must have ``limb`` among its bones."""
    x = np.clip(depth / band, 0.0, 1.0)[:, None]
    keep = 1.0 - x * x * (3.0 - 2.0 * x)
    out = np.where(bone == limb, weight, weight * keep)
    orphan = (depth > 0) & ~(bone == limb).any(axis=1)
    if orphan.any():
        raise ModelError(f"{int(orphan.sum())} vertices beyond the plane (first {int(np.argmax(orphan))}) do not have "
                         f"bone {limb} among their bones", "skin weights")
    return np.ascontiguousarray(out / out.sum(axis=1, keepdims=True))


def volume_weights(volumes: dict, R: np.ndarray, p: np.ndarray, x: np.ndarray, falloff: float = FALLOFF):
    """``bone``, ``weight`` (n, K) of world points ``x`` (n, 3) from the flesh ``volumes`` (``{body: shape}``) at world
    rotations ``R`` (m, 3, 3) and origins ``p`` (m, 3): ``skinning_weights`` of the distances, then each residual limb
    (a ``TaperedCapsule``) carrying alone its points beyond ``BRIM`` below the knee centre (``carried_alone``)."""
    d = world_distances(volumes, R, p, x)
    bone, weight = skinning_weights(d, falloff)
    for j, shape in enumerate(volumes.values()):
        if isinstance(shape, TaperedCapsule):
            # the limb's own points (its flesh the nearest; it contains the thigh's distal sphere, so it ties with the
            # thigh at most), by their depth below the knee centre along the limb's axis
            axis = (shape.end - shape.start) / np.linalg.norm(shape.end - shape.start)
            depth = ((x - p[j]) @ R[j] - shape.start) @ axis
            weight = carried_alone(bone, weight, j, np.where(d[:, j] <= d.min(axis=1) + 1e-9, depth, -np.inf))
    return bone, weight
