"""Thelen 2003 muscle curves in closed form, as OpenSim 4's ``Thelen2003Muscle`` evaluates them.

All functions are vectorised: arguments broadcast (frames x muscles arrays with
per-muscle parameter rows). Lengths are normalised (fibre ``l / l_opt``, tendon
``l_T / l_s``), velocities are ``v / (l_opt v_max)`` with lengthening positive,
forces are multiples of ``F_max``. Parameter names are OpenSim's.
"""
from __future__ import annotations

import math

import numpy as np

PARAMETERS = {"FmaxTendonStrain": 0.04, "FmaxMuscleStrain": 0.6, "KshapeActive": 0.45, "KshapePassive": 5.0,
              "Af": 0.25, "Flen": 1.4, "fv_linear_extrap_threshold": 0.95, "maximum_pennation_angle": math.acos(0.1),
              "minimum_activation": 0.01}
"""The curve constants of Thelen (2003) as OpenSim 4's Thelen2003Muscle sets them by default (what a
muscle built without them, e.g. the default model's, uses)."""


def active_force_length(norm_length, KshapeActive):
    """Gaussian ``f_l = exp(-(l~ - 1)^2 / KshapeActive)`` (Thelen 2003 eq. 3 as in OpenSim); ``f_l(1) = 1``."""
    return np.exp(-(np.asarray(norm_length, float) - 1.0) ** 2 / KshapeActive)


def passive_force_length(norm_length, KshapePassive, FmaxMuscleStrain):
    """``f_p = (exp(k (l~ - 1) / e0) - 1) / (exp(k) - 1)`` for ``l~ > 1``, else 0 (Thelen 2003 eq. 2);
    ``f_p(1 + FmaxMuscleStrain) = 1``."""
    x = np.asarray(norm_length, float)
    stretched = np.maximum(x - 1.0, 0.0)
    return np.expm1(KshapePassive * stretched / FmaxMuscleStrain) / np.expm1(KshapePassive)


def tendon_force_length(norm_tendon_length, FmaxTendonStrain):
    """Thelen's tendon curve: exponential toe up to ``F_toe = 0.33``, then linear; 1 at strain
    ``FmaxTendonStrain``; 0 when slack. Uses OpenSim's exact toe strain and stiffness."""
    x = np.asarray(norm_tendon_length, float) - 1.0
    k_toe, f_toe = 3.0, 0.33
    e3 = np.exp(3.0)
    e_toe = 99.0 * FmaxTendonStrain * e3 / (166.0 * e3 - 67.0)
    k_lin = 0.67 / (FmaxTendonStrain - e_toe)
    toe = f_toe / np.expm1(k_toe) * np.expm1(k_toe * np.maximum(x, 0.0) / e_toe)
    return np.where(x > e_toe, k_lin * (x - e_toe) + f_toe, np.where(x > 0.0, toe, 0.0))


def force_velocity(norm_velocity, Af, Flen, fv_linear_extrap_threshold, activation=1.0):
    """Force-velocity multiplier ``f_v``: the inverse of Thelen 2003 eqs. 6-7 as OpenSim implements them.

    With ``k = 0.25 + 0.75 a`` and ``v`` the normalised velocity:

    - shortening (``-k <= v <= 0``): ``f_v = (k + v) / (k - v / Af)``; 0 at ``v = -k``;
    - lengthening: ``f_v = (c Flen + d) / (c + d)``, ``c = v (2 + 2/Af)``, ``d = k (Flen - 1)``,
      up to ``f_v = fv_linear_extrap_threshold * Flen``, then extended along its tangent (OpenSim's
      linear extrapolation, not bounded above);
    - faster shortening than ``v = -k``: ``f_v = 0`` (OpenSim's ``max(0, .)``).

    ``f_v(0) = 1``. OpenSim solves this by Newton's method to 1e-6 in ``v``; this is its exact solution.
    """
    v = np.asarray(norm_velocity, float)
    k = 0.25 + 0.75 * np.asarray(activation, float)
    fv_conc = np.maximum(k + v, 0.0) / (k - np.minimum(v, 0.0) / Af)
    g = 2.0 + 2.0 / Af
    d = k * (Flen - 1.0)
    f0 = fv_linear_extrap_threshold * Flen
    v0 = k * (f0 - 1.0) * (Flen - 1.0) / (g * (Flen - f0))       # velocity where extrapolation starts
    c = np.maximum(v, 0.0) * g
    fv_ecc = (c * Flen + d) / (c + d)
    # dv/dfv of eq. 6 at f0 (OpenSim's calcDdlceDaFalFv, per unit a*fal): k/b + k (f0 - 1) g / ((Flen - 1) b^2)
    b = g * (Flen - f0) / (Flen - 1.0)
    dv_df = k / b + k * (f0 - 1.0) * g / ((Flen - 1.0) * b * b)
    fv_lin = f0 + (v - v0) / dv_df
    return np.where(v <= 0.0, fv_conc, np.where(v < v0, fv_ecc, fv_lin))


def max_shortening_velocity(activation=1.0):
    """Normalised shortening velocity at which ``f_v`` reaches 0: ``-(0.25 + 0.75 a)``."""
    return -(0.25 + 0.75 * np.asarray(activation, float))


def extrapolation_velocity(Af, Flen, fv_linear_extrap_threshold, activation=1.0):
    """Normalised lengthening velocity beyond which ``f_v`` is linearly extrapolated."""
    k = 0.25 + 0.75 * np.asarray(activation, float)
    g = 2.0 + 2.0 / Af
    f0 = fv_linear_extrap_threshold * Flen
    return k * (f0 - 1.0) * (Flen - 1.0) / (g * (Flen - f0))
