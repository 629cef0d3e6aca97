"""Argument checks at the door of every algorithm (clear messages, no kernel crashes)."""
from __future__ import annotations

import numpy as np


def q(model, x) -> np.ndarray:
    arr = np.ascontiguousarray(x, dtype=float)
    if arr.shape != (model.nq,):
        raise ValueError(f"q: expected (nq,)=({model.nq},), got {arr.shape}")
    return arr


def v(model, x, name: str = "v") -> np.ndarray:
    arr = np.ascontiguousarray(x, dtype=float)
    if arr.shape != (model.nv,):
        raise ValueError(f"{name}: expected (nv,)=({model.nv},), got {arr.shape}")
    return arr


def batch(model, X, width: int, name: str) -> np.ndarray:
    arr = np.ascontiguousarray(X, dtype=float)
    if arr.ndim != 2 or arr.shape[1] != width:
        raise ValueError(f"{name}: expected (frames, {width}), got {arr.shape}")
    return arr
