"""Skinning weights (the seed's alpha_ij): smooth across joints, from each vertex's distance to the bodies'
flesh volumes."""
from __future__ import annotations

import numpy as np

INFLUENCES = 4     # bones per vertex
FALLOFF = 0.015    # m: a bone's weight falls by e for each FALLOFF its volume is farther than the nearest


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
