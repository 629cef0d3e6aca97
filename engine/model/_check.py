"""Validation helpers shared by the model description classes (raise ModelError)."""
from __future__ import annotations

import numpy as np

from ..errors import ModelError


def name(value, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ModelError(f"needs a non-empty name, got {value!r}", what)
    if any(ch in value for ch in "\t\n\r"):
        raise ModelError(f"name {value!r} contains a tab or line break", what)
    return value


def flag(value, what: str, field: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ModelError(f"{field} must be true or false, got {value!r}", what)
    return bool(value)


def finite(value, what: str, field: str) -> float:
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ModelError(f"{field} must be a number, got {value!r}", what) from None
    if not np.isfinite(x):
        raise ModelError(f"{field} is {x} (NaN or infinite)", what)
    return x


def positive(value, what: str, field: str, allow_zero: bool = False) -> float:
    x = finite(value, what, field)
    if x < 0 or (x == 0 and not allow_zero):
        raise ModelError(f"{field} must be {'non-negative' if allow_zero else 'positive'}, got {x}", what)
    return x


def vector(value, what: str, field: str, size: int) -> np.ndarray:
    try:
        arr = np.array(value, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        raise ModelError(f"{field} must be {size} numbers, got {value!r}", what) from None
    if arr.size != size:
        raise ModelError(f"{field} must have {size} values, got {arr.size}", what)
    if not np.all(np.isfinite(arr)):
        raise ModelError(f"{field} contains NaN or infinite values: {arr.tolist()}", what)
    arr.setflags(write=False)
    return arr


def unit_vector(value, what: str, field: str) -> np.ndarray:
    arr = vector(value, what, field, 3)
    norm = float(np.linalg.norm(arr))
    if norm < 1e-12:
        raise ModelError(f"{field} must be a non-zero direction, got {arr.tolist()}", what)
    if abs(norm - 1.0) <= 4 * np.finfo(float).eps:
        return arr   # already unit: keep it bit for bit (files round-trip exactly)
    out = arr / norm
    out.setflags(write=False)
    return out


def rotation(value, what: str, field: str) -> np.ndarray:
    try:
        R = np.array(value, dtype=float).reshape(3, 3)
    except (TypeError, ValueError):
        raise ModelError(f"{field} must be a 3x3 rotation matrix", what) from None
    if not np.all(np.isfinite(R)):
        raise ModelError(f"{field} contains NaN or infinite values", what)
    if np.abs(R.T @ R - np.eye(3)).max() > 1e-9 or np.linalg.det(R) < 0:
        raise ModelError(f"{field} is not a proper rotation matrix", what)
    return R


def inertia(value, what: str, mass: float) -> np.ndarray:
    """A 3x3 inertia about the centre of mass: symmetric, positive definite, triangle inequality."""
    try:
        I = np.array(value, dtype=float)
    except (TypeError, ValueError):
        raise ModelError("inertia must be 3 principal moments, 6 values (xx yy zz xy xz yz) or a 3x3 matrix", what) from None
    if I.size == 3:
        I = np.diag(I.reshape(3))
    elif I.size == 6:
        xx, yy, zz, xy, xz, yz = I.reshape(6)
        I = np.array([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])
    elif I.size == 9:
        I = I.reshape(3, 3)
    else:
        raise ModelError(f"inertia must have 3, 6 or 9 values, got {I.size}", what)
    if not np.all(np.isfinite(I)):
        raise ModelError("inertia contains NaN or infinite values", what)
    scale = max(np.abs(I).max(), 1e-300)
    if np.abs(I - I.T).max() > 1e-9 * scale:
        raise ModelError("inertia matrix is not symmetric", what)
    I = 0.5 * (I + I.T)
    if mass == 0.0:
        if np.abs(I).max() != 0.0:
            raise ModelError("a massless body must have zero inertia", what)
        I.setflags(write=False)
        return I
    ev = np.linalg.eigvalsh(I)
    if ev[0] <= 0.0:
        raise ModelError(f"inertia is not positive definite (principal moments {ev.tolist()} kg m^2)", what)
    if ev[0] + ev[1] < ev[2] * (1.0 - 1e-9):
        raise ModelError(
            f"inertia violates the triangle inequality: principal moments {ev.tolist()} kg m^2 "
            "(the two smallest must add up to at least the largest)", what)
    I.setflags(write=False)
    return I
