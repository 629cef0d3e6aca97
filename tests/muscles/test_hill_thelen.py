"""Thelen 2003 curves against the published closed forms, their limits, and OpenSim's forward f-v map.

The force-velocity multiplier is checked against an independent implementation of
the forward relation OpenSim integrates (Thelen 2003 eqs. 6-7 with OpenSim's linear
extrapolations, ``Thelen2003Muscle::calcdlceN``): for many forces F, ``f_v(v(F)) = F``.
"""
from __future__ import annotations

import numpy as np
import pytest

from engine.muscles.forces.hill import thelen

# gait2392 / gait2354 values and OpenSim 4 defaults
PARAMS = [dict(Af=0.3, Flen=1.8, thr=0.95), dict(Af=0.25, Flen=1.4, thr=0.95)]


def dlce_opensim(a, F, Af, Flen, thr):
    """Normalised fibre velocity for force multiple F = a f_l f_v (f_l = 1), written from Thelen 2003
    eqs. 6-7 and OpenSim's extrapolation rules (an independent forward map)."""
    k = 0.25 + 0.75 * a
    asy_e = a * Flen

    def eq6(Fm):
        if Fm <= a:
            b = a + Fm / Af
            db = 1 / Af
        else:
            b = (2 + 2 / Af) * (a * Flen - Fm) / (Flen - 1)
            db = -(2 + 2 / Af) / (Flen - 1)
        return k * (Fm - a) / b, k / b - k * (Fm - a) / b ** 2 * db

    if 0 < F < asy_e * thr:
        return eq6(F)[0]
    F0 = 0.0 if F <= 0 else thr * asy_e
    v0, slope = eq6(F0)
    return v0 + slope * (F - F0)


def test_active_force_length_closed_form():
    K = 0.5
    assert thelen.active_force_length(1.0, K) == 1.0
    assert thelen.active_force_length(1 + np.sqrt(K), K) == pytest.approx(np.exp(-1), rel=1e-15)
    assert thelen.active_force_length(1 - np.sqrt(K), K) == pytest.approx(np.exp(-1), rel=1e-15)
    assert thelen.active_force_length(0.6, 0.45) == pytest.approx(np.exp(-0.16 / 0.45), rel=1e-15)


def test_passive_force_length_closed_form_and_limits():
    k, e0 = 4.0, 0.6
    assert thelen.passive_force_length(1.0, k, e0) == 0.0
    assert thelen.passive_force_length(0.8, k, e0) == 0.0
    assert thelen.passive_force_length(1 + e0, k, e0) == pytest.approx(1.0, rel=1e-15)
    half = (np.exp(k / 2) - 1) / (np.exp(k) - 1)
    assert thelen.passive_force_length(1 + e0 / 2, k, e0) == pytest.approx(half, rel=1e-14)


def test_tendon_force_length_limits_and_continuity():
    e0 = 0.033
    assert thelen.tendon_force_length(1.0, e0) == 0.0
    assert thelen.tendon_force_length(0.99, e0) == 0.0
    assert thelen.tendon_force_length(1 + e0, e0) == pytest.approx(1.0, rel=1e-14)
    e3 = np.exp(3)
    e_toe = 99 * e0 * e3 / (166 * e3 - 67)
    assert e_toe == pytest.approx(0.609 * e0, rel=2e-3)      # the paper's rounded 0.609 e0
    left, right = thelen.tendon_force_length([1 + e_toe - 1e-9, 1 + e_toe + 1e-9], e0)
    assert left == pytest.approx(0.33, abs=1e-6) and right == pytest.approx(0.33, abs=1e-6)


@pytest.mark.parametrize("p", PARAMS)
def test_force_velocity_limits(p):
    fv = lambda v, a=1.0: thelen.force_velocity(v, p["Af"], p["Flen"], p["thr"], a)  # noqa: E731
    assert fv(0.0) == 1.0
    assert fv(-1.0) == 0.0                     # at v_max (a = 1) the fibre produces no force
    assert fv(-1.5) == 0.0                     # faster: OpenSim's max(0, .)
    assert fv(-0.25, 0.0) == 0.0               # k = 0.25 at a = 0
    # Thelen 2003 eq. 6, shortening, F = 0.5: b = 1 + 0.5/Af, v = -0.5/b
    assert fv(-0.5 / (1 + 0.5 / p["Af"])) == pytest.approx(0.5, rel=1e-14)
    # lengthening tends to Flen, but OpenSim extrapolates linearly past thr * Flen
    v0 = thelen.extrapolation_velocity(p["Af"], p["Flen"], p["thr"])
    assert fv(v0) == pytest.approx(p["thr"] * p["Flen"], rel=1e-14)
    assert fv(v0 + 1.0) > p["Flen"]


@pytest.mark.parametrize("p", PARAMS)
@pytest.mark.parametrize("a", [1.0, 0.5, 0.1])
def test_force_velocity_inverts_opensims_forward_map(p, a):
    forces = np.concatenate([np.linspace(1e-3, 0.999, 40), np.linspace(1.001, 2.2, 60)]) * a
    v = np.array([dlce_opensim(a, F, p["Af"], p["Flen"], p["thr"]) for F in forces])
    fv = thelen.force_velocity(v, p["Af"], p["Flen"], p["thr"], a)
    assert np.abs(fv * a - forces).max() < 1e-12


@pytest.mark.parametrize("p", PARAMS)
def test_force_velocity_is_continuous_and_increasing(p):
    v0 = thelen.extrapolation_velocity(p["Af"], p["Flen"], p["thr"])
    v = np.linspace(-1.0, v0 + 1.0, 200001)
    fv = thelen.force_velocity(v, p["Af"], p["Flen"], p["thr"])
    assert np.all(np.diff(fv) > 0)
    assert np.abs(np.diff(fv)).max() < 1e-3    # no jump at 0 or at the extrapolation point
    h = 1e-7
    slopes = [(thelen.force_velocity(x + h, p["Af"], p["Flen"], p["thr"])
               - thelen.force_velocity(x - h, p["Af"], p["Flen"], p["thr"])) / (2 * h) for x in (0.0, v0)]
    left = (1.0 - thelen.force_velocity(-h, p["Af"], p["Flen"], p["thr"])) / h
    right = (thelen.force_velocity(h, p["Af"], p["Flen"], p["thr"]) - 1.0) / h
    assert left == pytest.approx(1 + 1 / p["Af"], rel=1e-5)          # d fv/dv at 0-, from eq. 6
    assert right == pytest.approx(2 + 2 / p["Af"], rel=1e-5)         # at 0+, from eq. 7: a kink at 0
    below = (thelen.force_velocity(v0, p["Af"], p["Flen"], p["thr"])
             - thelen.force_velocity(v0 - h, p["Af"], p["Flen"], p["thr"])) / h
    assert slopes[1] == pytest.approx(below, rel=1e-4)                # C1 at the extrapolation point
