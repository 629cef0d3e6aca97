"""Functions of one coordinate, as used by general joints and coordinate couplers.

These mirror OpenSim's ``Constant``, ``LinearFunction``, ``PolynomialFunction``,
``NaturalCubicSpline``, ``SimmSpline``, ``PiecewiseLinearFunction`` and
``MultiplierFunction``. Each one compiles to a short *chain* of elementary
pooled functions (see ``engine.kernels._functions``) that the numba kernels
evaluate with their first and second derivatives; :meth:`Function.evaluate`
calls that same kernel, so Python and kernels can never disagree.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import ModelError
from ..kernels import _functions as kf


def _vector(values, what: str, min_len: int = 1) -> np.ndarray:
    arr = np.asarray(values, dtype=float).reshape(-1)
    if arr.size < min_len:
        raise ModelError(f"needs at least {min_len} values, got {arr.size}", what)
    if not np.all(np.isfinite(arr)):
        raise ModelError("contains NaN or infinite values", what)
    return arr


def _knots(x, y, what: str, min_len: int = 2):
    x = _vector(x, f"{what} x", min_len)
    y = _vector(y, f"{what} y", min_len)
    if x.size != y.size:
        raise ModelError(f"x has {x.size} values but y has {y.size}", what)
    if np.any(np.diff(x) <= 0):
        raise ModelError("x values must be strictly increasing", what)
    return x, y


class Function:
    """Base class: a scalar function of one coordinate (SI units in and out)."""

    kind: str = ""

    def elements(self) -> list[tuple[int, np.ndarray]]:
        """Elementary pooled functions ``(kind code, params)``, innermost first."""
        raise NotImplementedError

    def to_dict(self) -> dict:
        raise NotImplementedError

    def evaluate(self, x, derivative: int = 0) -> np.ndarray:
        """Value (``derivative=0``), first or second derivative at ``x`` (scalar or array)."""
        if derivative not in (0, 1, 2):
            raise ValueError(f"derivative must be 0, 1 or 2, got {derivative}")
        xs = np.atleast_1d(np.asarray(x, dtype=float))
        funcs, pool = kf.pool_of(self.elements())
        chain = np.arange(funcs.size, dtype=np.int64)
        out = np.empty(xs.size)
        for i, xi in enumerate(xs):
            out[i] = kf.eval_chain(chain, chain.size, funcs, pool, xi)[derivative]
        return out.reshape(np.shape(x)) if np.ndim(x) else float(out[0])

    def __call__(self, x):
        return self.evaluate(x)

    def __eq__(self, other):
        return type(self) is type(other) and _dict_equal(self.to_dict(), other.to_dict())

    def __hash__(self):
        return hash(repr(self.to_dict()))


def _dict_equal(a, b) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_dict_equal(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple, np.ndarray)) or isinstance(b, (list, tuple, np.ndarray)):
        return np.array_equal(np.asarray(a), np.asarray(b))
    return a == b


@dataclass(frozen=True, eq=False)
class Constant(Function):
    value: float
    kind = "constant"

    def __post_init__(self):
        object.__setattr__(self, "value", float(_vector([self.value], "constant")[0]))

    def elements(self):
        return [(kf.CONSTANT, np.array([self.value]))]

    def to_dict(self):
        return {"type": self.kind, "value": self.value}


@dataclass(frozen=True, eq=False)
class Linear(Function):
    """``slope * x + intercept`` (OpenSim LinearFunction coefficients ``slope intercept``)."""

    slope: float = 1.0
    intercept: float = 0.0
    kind = "linear"

    def __post_init__(self):
        s, b = _vector([self.slope, self.intercept], "linear function")
        object.__setattr__(self, "slope", float(s))
        object.__setattr__(self, "intercept", float(b))

    def elements(self):
        return [(kf.LINEAR, np.array([self.slope, self.intercept]))]

    def to_dict(self):
        return {"type": self.kind, "slope": self.slope, "intercept": self.intercept}


@dataclass(frozen=True, eq=False)
class Polynomial(Function):
    """Polynomial with ``coefficients`` from the highest order to the constant term."""

    coefficients: tuple
    kind = "polynomial"

    def __post_init__(self):
        object.__setattr__(self, "coefficients", tuple(_vector(self.coefficients, "polynomial coefficients")))

    def elements(self):
        return [(kf.POLYNOMIAL, np.array(self.coefficients))]

    def to_dict(self):
        return {"type": self.kind, "coefficients": list(self.coefficients)}


class _PiecewiseCubic(Function):
    """Shared storage of knot-based functions: knots and per-interval cubic coefficients."""

    x: tuple
    y: tuple

    def _coefficients(self, x, y):
        raise NotImplementedError

    def elements(self):
        x = np.array(self.x)
        y = np.array(self.y)
        b, c, d = self._coefficients(x, y)
        return [(kf.PIECEWISE_CUBIC, np.concatenate([x, y, b, c, d]))]

    def to_dict(self):
        return {"type": self.kind, "x": list(self.x), "y": list(self.y)}


@dataclass(frozen=True, eq=False)
class PiecewiseLinear(_PiecewiseCubic):
    x: tuple
    y: tuple
    kind = "piecewise_linear"

    def __post_init__(self):
        x, y = _knots(self.x, self.y, "piecewise linear function")
        object.__setattr__(self, "x", tuple(x))
        object.__setattr__(self, "y", tuple(y))

    def _coefficients(self, x, y):
        slope = np.diff(y) / np.diff(x)
        b = np.append(slope, slope[-1])
        return b, np.zeros_like(x), np.zeros_like(x)


@dataclass(frozen=True, eq=False)
class NaturalCubicSpline(_PiecewiseCubic):
    """Cubic spline with zero second derivative at both ends; linear beyond the knots."""

    x: tuple
    y: tuple
    kind = "natural_cubic_spline"

    def __post_init__(self):
        x, y = _knots(self.x, self.y, "natural cubic spline")
        object.__setattr__(self, "x", tuple(x))
        object.__setattr__(self, "y", tuple(y))

    def _coefficients(self, x, y):
        if x.size == 2:
            slope = (y[1] - y[0]) / (x[1] - x[0])
            return np.full(2, slope), np.zeros(2), np.zeros(2)
        from scipy.interpolate import CubicSpline     # imported when a spline is built (scipy.interpolate
        cs = CubicSpline(x, y, bc_type="natural")     # imports scipy.optimize: a second of a launch otherwise)
        d3, c2, b1, _ = cs.c  # scipy stores highest power first per interval
        b_end = cs(x[-1], 1)
        return np.append(b1, b_end), np.append(c2, 0.0), np.append(d3, 0.0)


@dataclass(frozen=True, eq=False)
class SimmSpline(_PiecewiseCubic):
    """OpenSim's SimmSpline: a cubic spline whose end third derivatives match those of
    the cubics through the first and last four knots (Forsythe, Malcolm and Moler's
    end condition); linear beyond the knots with the end slopes."""

    x: tuple
    y: tuple
    kind = "simm_spline"

    def __post_init__(self):
        x, y = _knots(self.x, self.y, "SIMM spline")
        object.__setattr__(self, "x", tuple(x))
        object.__setattr__(self, "y", tuple(y))

    def _coefficients(self, x, y):
        n = x.size
        if n == 2:
            slope = (y[1] - y[0]) / (x[1] - x[0])
            return np.full(2, slope), np.zeros(2), np.zeros(2)
        h = np.diff(x)
        delta = np.diff(y) / h
        # Unknowns: sigma_i = (second derivative at knot i) / 6, i = 0..n-1.
        diag = np.empty(n)
        rhs = np.empty(n)
        upper = np.zeros(n)
        lower = np.zeros(n)
        diag[1:-1] = 2.0 * (h[:-1] + h[1:])
        upper[2:] = h[1:]          # coefficient of sigma_{i+1} in row i (banded storage)
        lower[:-2] = h[:-1]        # coefficient of sigma_{i-1} in row i
        rhs[1:-1] = delta[1:] - delta[:-1]
        diag[0] = -h[0]
        upper[1] = h[0]
        diag[-1] = -h[-1]
        lower[-2] = h[-1]
        if n > 3:
            # Third derivative at each end from the divided differences of 4 points.
            dd3_start = (delta[2] - delta[1]) / (x[3] - x[1]) - (delta[1] - delta[0]) / (x[2] - x[0])
            dd3_end = (delta[-1] - delta[-2]) / (x[-1] - x[-3]) - (delta[-2] - delta[-3]) / (x[-2] - x[-4])
            rhs[0] = dd3_start * h[0] ** 2 / (x[3] - x[0])
            rhs[-1] = -dd3_end * h[-1] ** 2 / (x[-1] - x[-4])
        else:
            rhs[0] = 0.0
            rhs[-1] = 0.0
        from scipy.linalg import solve_banded
        sigma = solve_banded((1, 1), np.vstack([upper, diag, lower]), rhs)
        b = np.empty(n)
        b[:-1] = delta - h * (sigma[1:] + 2.0 * sigma[:-1])
        b[-1] = delta[-1] + h[-1] * (sigma[-2] + 2.0 * sigma[-1])
        d = np.append(np.diff(sigma) / h, 0.0)
        return b, 3.0 * sigma, d


@dataclass(frozen=True, eq=False)
class Multiplier(Function):
    """``scale * function(x)`` (OpenSim MultiplierFunction)."""

    function: Function
    scale: float = 1.0
    kind = "multiplier"

    def __post_init__(self):
        if not isinstance(self.function, Function):
            raise ModelError("wraps something that is not a function", "multiplier function")
        object.__setattr__(self, "scale", float(_vector([self.scale], "multiplier scale")[0]))

    def elements(self):
        return self.function.elements() + [(kf.LINEAR, np.array([self.scale, 0.0]))]

    def to_dict(self):
        return {"type": self.kind, "scale": self.scale, "function": self.function.to_dict()}


@dataclass(frozen=True, eq=False)
class Composition(Function):
    """``outer(inner(x))``: how a joint axis driven by a coupled coordinate is evaluated."""

    outer: Function
    inner: Function
    kind = "composition"

    def elements(self):
        return self.inner.elements() + self.outer.elements()

    def to_dict(self):
        return {"type": self.kind, "outer": self.outer.to_dict(), "inner": self.inner.to_dict()}


IDENTITY = Linear(1.0, 0.0)
