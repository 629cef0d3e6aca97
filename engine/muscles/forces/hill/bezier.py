"""Smooth segmented functions: quintic Bezier "corner" segments joined C2 (Millard et al. 2013).

Each segment joins a point ``(x0, y0)`` with slope ``dydx0`` to ``(x1, y1)`` with
slope ``dydx1``. Its six control points are ``P0, M0, M0, M1, M1, P1`` where
``M0 = P0 + c (C - P0)``, ``M1 = P1 + c (C - P1)``, ``C`` the intersection of the
two end tangents and ``c`` the curviness (0.1 to 0.9 after OpenSim's scaling
``0.1 + 0.8 curviness``). The doubled control points make the first and second
derivatives of ``x(u)`` and ``y(u)`` parallel at both ends, so ``d2y/dx2 = 0``
there: consecutive segments that share an end point and its slope join with
continuous value, slope and curvature (C2). Outside its domain the function
continues as the straight lines of its end slopes.

``y(x)`` is found by solving ``x(u) = x`` for the Bezier parameter ``u``
(initial guess from a table of 65 samples per segment, then Newton's method to
machine precision), as OpenSim's ``SmoothSegmentedFunction`` does with a spline
first guess and Newton polishing.
"""
from __future__ import annotations

import numpy as np

from ....errors import ModelError

_BERNSTEIN_TO_POWER = np.array([  # rows: power of u (0..5); columns: control point 0..5
    [1, 0, 0, 0, 0, 0],
    [-5, 5, 0, 0, 0, 0],
    [10, -20, 10, 0, 0, 0],
    [-10, 30, -30, 10, 0, 0],
    [5, -20, 30, -20, 5, 0],
    [-1, 5, -10, 10, -5, 1],
], dtype=float)
_TABLE = 65          # samples of x(u) per segment for the first guess of u
_NEWTON_STEPS = 8    # quadratic convergence from a 1/64 first guess: 3-4 steps reach 1e-16


def scale_curviness(curviness: float) -> float:
    """OpenSim's map from a user curviness in [0, 1] to the control-point fraction c in [0.1, 0.9]."""
    return 0.1 + 0.8 * curviness


def corner_control_points(x0, y0, dydx0, x1, y1, dydx1, c, what: str = "curve") -> tuple[np.ndarray, np.ndarray]:
    """Control points ``(px, py)`` (6 each) of a C-shaped quintic Bezier corner.

    ``c`` is the scaled curviness (0 to 1). Raises :class:`ModelError` naming
    ``what`` when the end tangents do not form a C-shaped corner (the segment
    would be S-shaped), as OpenSim's ``calcQuinticBezierCornerControlPoints``.
    """
    if not 0.0 <= c <= 1.0:
        raise ModelError(f"curviness fraction must be in [0, 1], got {c}", what)
    if abs(dydx0 - dydx1) > np.sqrt(np.finfo(float).eps):
        xc = (y1 - y0 - x1 * dydx1 + x0 * dydx0) / (dydx0 - dydx1)
    else:
        xc = 0.5 * (x0 + x1)
    yc = (xc - x1) * dydx1 + y1
    a = (xc - x0) ** 2 + (yc - y0) ** 2
    b = (xc - x1) ** 2 + (yc - y1) ** 2
    d = (x1 - x0) ** 2 + (y1 - y0) ** 2
    if not (d > a and d > b):
        raise ModelError(f"the corner from ({x0:g}, {y0:g}) slope {dydx0:g} to ({x1:g}, {y1:g}) slope {dydx1:g} "
                         "is not C-shaped (its end tangents meet outside the segment)", what)
    x0m, y0m = x0 + c * (xc - x0), y0 + c * (yc - y0)
    x1m, y1m = x1 + c * (xc - x1), y1 + c * (yc - y1)
    return (np.array([x0, x0m, x0m, x1m, x1m, x1], float), np.array([y0, y0m, y0m, y1m, y1m, y1], float))


def _horner(coef, u, order):
    """Value (order 0) or derivative of the quintic with power coefficients ``coef`` (..., 6) at ``u``."""
    k = np.arange(6)
    if order == 0:
        c = coef
    else:
        fall = np.ones(6)
        for j in range(order):
            fall = fall * np.maximum(k - j, 0)
        c = np.zeros_like(coef)
        c[..., :6 - order] = coef[..., order:] * fall[order:]
    out = c[..., 5]
    for j in range(4, -1, -1):
        out = out * u + c[..., j]
    return out


class SmoothSegmentedFunction:
    """A C2 function ``y(x)`` made of quintic Bezier corner segments, linear outside ``[x_lo, x_hi]``.

    Parameters
    ----------
    px, py : (n_segments, 6) control points, segments ordered by increasing x,
        each segment starting where the previous one ends.
    dydx_lo, dydx_hi : slopes of the straight-line extrapolations left of the
        first and right of the last segment.
    name : what the curve is (used in error messages).
    """

    def __init__(self, px, py, dydx_lo: float, dydx_hi: float, name: str = "curve"):
        px = np.atleast_2d(np.asarray(px, float))
        py = np.atleast_2d(np.asarray(py, float))
        if px.shape != py.shape or px.shape[1] != 6:
            raise ModelError(f"control points must be (segments, 6) arrays, got {px.shape} and {py.shape}", name)
        if np.any(np.diff(px, axis=1) < 0):
            raise ModelError("a segment's x control points are not increasing", name)
        self.name = name
        self.px, self.py = px, py
        self.x_lo, self.x_hi = float(px[0, 0]), float(px[-1, -1])
        self.y_lo, self.y_hi = float(py[0, 0]), float(py[-1, -1])
        self.dydx_lo, self.dydx_hi = float(dydx_lo), float(dydx_hi)
        self._cx = px @ _BERNSTEIN_TO_POWER.T
        self._cy = py @ _BERNSTEIN_TO_POWER.T
        u = np.linspace(0.0, 1.0, _TABLE)
        xs = _horner(self._cx[:, None, :], u[None, :], 0)          # (n, K)
        self._table_x = xs.reshape(-1)
        self._table_s = (np.arange(len(px))[:, None] + u[None, :]).reshape(-1)

    @property
    def domain(self) -> tuple[float, float]:
        """``(x_lo, x_hi)``: where the Bezier segments are; outside, the function is linear."""
        return self.x_lo, self.x_hi

    @property
    def knots(self) -> np.ndarray:
        """x of the segment end points (n_segments + 1)."""
        return np.concatenate([self.px[:, 0], self.px[-1:, -1]])

    def _locate(self, x):
        """Segment index and Bezier parameter u of each x inside the domain (x already clipped)."""
        s = np.interp(x, self._table_x, self._table_s)
        seg = np.minimum(s.astype(np.int64), len(self.px) - 1)
        u = s - seg
        cx = self._cx[seg]
        for _ in range(_NEWTON_STEPS):
            dxdu = _horner(cx, u, 1)
            step = np.where(dxdu > 0, (_horner(cx, u, 0) - x) / np.where(dxdu > 0, dxdu, 1.0), 0.0)
            u = np.clip(u - step, 0.0, 1.0)
            if np.all(np.abs(step) < 1e-15):
                break
        return seg, u

    def evaluate(self, x, order: int = 0) -> np.ndarray:
        """``y(x)`` (order 0), ``dy/dx`` (1) or ``d2y/dx2`` (2), any array shape."""
        if order not in (0, 1, 2):
            raise ValueError("order must be 0, 1 or 2")
        x = np.asarray(x, float)
        flat = x.reshape(-1)
        out = np.empty_like(flat)
        inside = (flat >= self.x_lo) & (flat <= self.x_hi)
        left, right = flat < self.x_lo, flat > self.x_hi
        if order == 0:
            out[left] = self.y_lo + self.dydx_lo * (flat[left] - self.x_lo)
            out[right] = self.y_hi + self.dydx_hi * (flat[right] - self.x_hi)
        elif order == 1:
            out[left], out[right] = self.dydx_lo, self.dydx_hi
        else:
            out[left | right] = 0.0
        nan = np.isnan(flat)
        out[nan] = np.nan
        if inside.any():
            xi = flat[inside]
            seg, u = self._locate(xi)
            cx, cy = self._cx[seg], self._cy[seg]
            if order == 0:
                out[inside] = _horner(cy, u, 0)
            else:
                dx, dy = _horner(cx, u, 1), _horner(cy, u, 1)
                if order == 1:
                    out[inside] = dy / dx
                else:
                    out[inside] = (_horner(cy, u, 2) * dx - dy * _horner(cx, u, 2)) / dx ** 3
        return out.reshape(x.shape)

    __call__ = evaluate

    def key(self) -> tuple:
        """Identity of the curve's shape (for grouping muscles that share a curve)."""
        return (self.px.tobytes(), self.py.tobytes(), self.dydx_lo, self.dydx_hi)
