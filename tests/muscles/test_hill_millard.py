"""Millard 2012 curves against OpenSim's own and the properties they are built to have.

- value and slope against OpenSim 4.6's evaluation of its default curves (tests/data/opensim/millard2012),
- d2y/dx2 = 0 at those points and C2 continuity across them,
- monotonicity where the curve is meant to be monotone,
- values fixed by OpenSim's documented defaults (f_l(1) = 1, f_v(0) = 1, f_v(-1) = 0,
  f_v(1) = 1.4, f_p(1.7) = 1, f_t(1.049) = 1, f_l = 0.1 outside the active range),
- the Bezier evaluation itself against an independent Bernstein-polynomial evaluation.
"""
from __future__ import annotations

import csv

import numpy as np
import pytest
from scipy.special import comb

from engine.errors import ModelError
from engine.muscles.forces.hill import millard
from engine.muscles.forces.hill.bezier import corner_control_points

def slope(curve, x):
    return float(curve(np.array([x]), 1)[0])


CURVES = {
    "active": millard.active_force_length_curve,
    "force-velocity": millard.force_velocity_curve,
    "passive": millard.fiber_force_length_curve,
    "tendon": millard.tendon_force_length_curve,
}


def opensim_curve(test_data, kind):
    """(x, y, dy/dx) of OpenSim 4.6's own evaluation of the curve with its default properties
    (tests/data/opensim/millard2012/curves.csv, made by make_curves.py beside it)."""
    with open(test_data / "opensim" / "millard2012" / "curves.csv", newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if r["curve"] == kind]
    return tuple(np.array([float(r[k]) for r in rows]) for k in ("x", "y", "dydx"))


@pytest.mark.parametrize("kind", CURVES)
def test_values_and_slopes_are_opensims(test_data, kind):
    """Across each curve's domain and beyond (where the curves are extrapolated linearly)."""
    curve = CURVES[kind]()
    x, y, dydx = opensim_curve(test_data, kind)
    assert len(x) > 30
    assert np.allclose(curve(x), y, rtol=0, atol=1e-10)
    assert np.allclose(curve(x, 1), dydx, rtol=1e-8, atol=1e-9)


@pytest.mark.parametrize("kind", CURVES)
def test_c2_continuity_across_every_segment_end(kind):
    """Value and slope agree on both sides of each end point; the second derivative is 0 there and
    tends to 0 from both sides (it shrinks in proportion to the distance)."""
    curve = CURVES[kind]()
    for x in curve.knots:
        y, dydx, d2 = (float(curve(x, k)) for k in (0, 1, 2))
        assert d2 == 0.0 or abs(d2) < 1e-9, f"d2y/dx2 = {d2} at the end point {x}"
        for h in (1e-9, -1e-9):
            assert float(curve(x + h)) == pytest.approx(y + dydx * h, abs=1e-13 * max(1.0, abs(y)) + 1e-6 * abs(h * dydx))
            assert float(curve(x + h, 1)) == pytest.approx(dydx, abs=1e-5 * max(1.0, abs(dydx)))
            far, near = abs(float(curve(x + 1e3 * h, 2))), abs(float(curve(x + h, 2)))
            assert near <= 0.01 * far + 1e-6, f"d2y/dx2 does not tend to 0 at {x} ({near} at {h}, {far} at {1e3 * h})"
    # inside segments the second derivative agrees with a finite difference of the slope
    xs = np.linspace(*curve.domain, 2001)[1:-1]
    fd = (curve(xs + 1e-7, 1) - curve(xs - 1e-7, 1)) / 2e-7
    assert np.allclose(curve(xs, 2), fd, rtol=1e-4, atol=1e-4 * np.abs(fd).max())


def test_monotone_where_meant_to_be():
    x = np.linspace(-1.2, 1.2, 20001)
    assert np.all(np.diff(millard.force_velocity_curve()(x)) >= 0)
    x = np.linspace(0.9, 2.0, 20001)
    assert np.all(np.diff(millard.fiber_force_length_curve()(x)) >= 0)
    x = np.linspace(0.95, 1.1, 20001)
    assert np.all(np.diff(millard.tendon_force_length_curve()(x)) >= 0)
    fl = millard.active_force_length_curve()
    up, down = np.linspace(0.4441, 1.0, 10001), np.linspace(1.0, 1.8123, 10001)
    assert np.all(np.diff(fl(up)) >= -1e-15) and np.all(np.diff(fl(down)) <= 1e-15)


def test_values_from_opensims_documented_defaults():
    fl, fv = millard.active_force_length_curve(), millard.force_velocity_curve()
    fp, ft = millard.fiber_force_length_curve(), millard.tendon_force_length_curve()
    assert float(fl(1.0)) == pytest.approx(1.0, abs=1e-14)
    assert np.allclose(fl([0.2, 0.4441, 1.8123, 2.5]), 0.1, atol=1e-14)    # minimum_value outside
    assert np.allclose(fv([-1.5, -1.0, 0.0, 1.0, 1.5]), [0.0, 0.0, 1.0, 1.4, 1.4], atol=1e-14)
    assert float(fp(1.0)) == 0.0 and float(fp(1.7)) == pytest.approx(1.0, abs=1e-14)
    assert float(ft(1.0)) == 0.0 and float(ft(1.049)) == pytest.approx(1.0, abs=1e-12)   # on the linear part
    assert float(ft(1.1)) == pytest.approx(1.0 + (1.375 / 0.049) * 0.051, rel=1e-12)   # linear beyond


def test_a_files_curve_parameters_change_the_curve():
    default = millard.active_force_length_curve()
    floored = millard.active_force_length_curve({"type": "ActiveForceLengthCurve", "minimum_value": 0.0})
    assert float(floored(0.3)) == 0.0 and float(default(0.3)) == pytest.approx(0.1)
    stiff = millard.tendon_force_length_curve({"strain_at_one_norm_force": 0.033})
    assert float(stiff(1.033)) == pytest.approx(1.0, abs=1e-12)
    custom = millard.fiber_force_length_curve({"strain_at_zero_force": 0.0, "strain_at_one_norm_force": 0.6,
                                               "stiffness_at_low_force": 0.3, "stiffness_at_one_norm_force": 5.0,
                                               "curviness": 0.5})
    assert slope(custom, 1.6) == pytest.approx(5.0, rel=1e-9)


def bernstein(points, u):
    return sum(comb(5, i) * u ** i * (1 - u) ** (5 - i) * points[i] for i in range(6))


def test_bezier_evaluation_against_bernstein_polynomials():
    px, py = corner_control_points(1.0, 0.0, 0.0, 1.7, 1.0, 2 / 0.7, 0.7)
    from engine.muscles.forces.hill.bezier import SmoothSegmentedFunction
    f = SmoothSegmentedFunction([px], [py], 0.0, 2 / 0.7)
    u = np.linspace(0, 1, 1001)
    assert np.abs(f(bernstein(px, u)) - bernstein(py, u)).max() < 1e-13


def test_invalid_parameters_name_the_curve():
    with pytest.raises(ModelError, match="muscle 'x' ForceVelocityCurve.*max_eccentric"):
        millard.force_velocity_curve({"max_eccentric_velocity_force_multiplier": 0.9}, "muscle 'x' ForceVelocityCurve")
    with pytest.raises(ModelError, match="all be given"):
        millard.tendon_force_length_curve({"curviness": 0.5})
    with pytest.raises(ModelError, match="unknown properties"):
        millard.active_force_length_curve({"min_norm_active_fibre_length": 0.5})
