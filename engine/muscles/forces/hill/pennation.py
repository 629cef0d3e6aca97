"""Fixed-width (constant height) pennation with a rigid tendon, as OpenSim's MuscleFixedWidthPennationModel.

The fibre of length ``l_f`` and the tendon line form a parallelogram of constant
height ``h = l_opt sin(alpha_opt)``; with a rigid tendon of length ``l_s`` the
fibre's projection on the tendon is ``l_MT - l_s``, so

    l_f = sqrt(h^2 + (l_MT - l_s)^2),   cos(alpha) = (l_MT - l_s) / l_f,
    v_f = v_MT cos(alpha)                 (fibre velocity, tendon velocity 0).

Below the minimum fibre length ``h / sin(maximum_pennation_angle)`` (where ``alpha``
would pass the maximum pennation angle) OpenSim holds the fibre at that minimum and
the muscle produces no active force; :func:`rigid_tendon_fibre` reports those samples.
For an unpennated muscle the minimum is 0: it is reached when ``l_MT < l_s`` (slack).
"""
from __future__ import annotations

import numpy as np


def minimum_fibre_length(optimal_fiber_length, pennation_angle, maximum_pennation_angle):
    """m: ``h / sin(maximum_pennation_angle)``, or ``0.01 l_opt`` when the maximum angle is 0."""
    h = optimal_fiber_length * np.sin(pennation_angle)
    return np.where(maximum_pennation_angle > 1e-12, h / np.sin(np.maximum(maximum_pennation_angle, 1e-12)),
                    0.01 * optimal_fiber_length)


def rigid_tendon_fibre(length, speed, optimal_fiber_length, tendon_slack_length, pennation_angle,
                       minimum_length, maximum_pennation_angle):
    """Fibre length (m), cos(pennation), fibre velocity (m/s) and the at-minimum mask.

    ``length``, ``speed``: musculotendon length (m) and lengthening speed (m/s), shape (..., m);
    parameters are (m,) arrays. At the minimum, ``l_f`` is the minimum length, the angle the
    maximum pennation angle (0 for an unpennated muscle), and the fibre velocity 0.
    """
    h = optimal_fiber_length * np.sin(pennation_angle)
    along = length - tendon_slack_length
    min_along = minimum_length * np.cos(maximum_pennation_angle)
    at_min = ~(along >= min_along) | ~(np.sqrt(h * h + along * along) > minimum_length)
    fibre = np.where(at_min, minimum_length, np.sqrt(h * h + along * along))
    safe = np.where(fibre > 0.0, fibre, 1.0)
    pennated = pennation_angle > np.finfo(float).eps
    cos_alpha = np.where(pennated, np.where(at_min, np.cos(maximum_pennation_angle), along / safe), 1.0)
    velocity = np.where(at_min, 0.0, speed * cos_alpha)
    return fibre, cos_alpha, velocity, at_min
