"""Millard 2012 muscle curves as OpenSim builds them (``SmoothSegmentedFunctionFactory``).

Each builder takes the curve's properties under OpenSim's names (the nested dicts
that the .osim importer stores in ``Muscle.parameters``, e.g.
``parameters['ActiveForceLengthCurve']``); a property the file omits takes
OpenSim 4's default. Curves are dimensionless: normalised fibre length
``l / l_opt``, normalised fibre velocity ``v / (l_opt v_max)`` (lengthening
positive), normalised tendon length ``l_T / l_s``, force multiples of ``F_max``.
"""
from __future__ import annotations

from ....errors import ModelError
from .bezier import SmoothSegmentedFunction, corner_control_points, scale_curviness

ACTIVE_FORCE_LENGTH_DEFAULTS = {
    "min_norm_active_fiber_length": 0.47 - 0.0259, "transition_norm_fiber_length": 0.73,
    "max_norm_active_fiber_length": 1.8123, "shallow_ascending_slope": 0.8616, "minimum_value": 0.1,
}
FORCE_VELOCITY_DEFAULTS = {
    "concentric_slope_at_vmax": 0.0, "concentric_slope_near_vmax": 0.25, "isometric_slope": 5.0,
    "eccentric_slope_at_vmax": 0.0, "eccentric_slope_near_vmax": 0.15,
    "max_eccentric_velocity_force_multiplier": 1.4, "concentric_curviness": 0.6, "eccentric_curviness": 0.9,
}
FIBER_FORCE_LENGTH_DEFAULTS = {"strain_at_zero_force": 0.0, "strain_at_one_norm_force": 0.7}
TENDON_FORCE_LENGTH_DEFAULTS = {"strain_at_one_norm_force": 0.049}
_OPTIONAL_FIBER = ("stiffness_at_low_force", "stiffness_at_one_norm_force", "curviness")
_OPTIONAL_TENDON = ("stiffness_at_one_norm_force", "norm_force_at_toe_end", "curviness")


def _properties(spec, defaults, optional, what):
    spec = dict(spec or {})
    known = set(defaults) | set(optional) | {"type", "name"}
    unknown = sorted(set(spec) - known)
    if unknown:
        raise ModelError(f"unknown properties {', '.join(unknown)}", what)
    out = dict(defaults)
    for key in list(defaults) + list(optional):
        if key in spec:
            value = spec[key]
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ModelError(f"{key} must be one number, got {value!r}", what)
            out[key] = float(value)
    return out


def _check(condition, message, what):
    if not condition:
        raise ModelError(message, what)


def active_force_length_curve(spec=None, what: str = "ActiveForceLengthCurve") -> SmoothSegmentedFunction:
    """Active force-length multiplier ``f_l(l/l_opt)``: five corners, 1 at 1, ``minimum_value`` outside.

    The ascending limb rises from ``min_norm_active_fiber_length`` to
    ``transition_norm_fiber_length``, then a shallow ascending plateau of slope
    ``shallow_ascending_slope`` reaches the peak 1 at ``l/l_opt = 1``; the
    descending limb ends at ``max_norm_active_fiber_length`` (curviness 1).
    """
    p = _properties(spec, ACTIVE_FORCE_LENGTH_DEFAULTS, (), what)
    x0, x1, x2, x3 = (p["min_norm_active_fiber_length"], p["transition_norm_fiber_length"], 1.0,
                      p["max_norm_active_fiber_length"])
    ylow, dydx = p["minimum_value"], p["shallow_ascending_slope"]
    eps = 1.4901161193847656e-08
    _check(x0 >= 0 and x1 > x0 + eps and x2 > x1 + eps and x3 > x2 + eps,
           f"needs 0 <= min_norm_active_fiber_length ({x0}) < transition_norm_fiber_length ({x1}) < 1 < "
           f"max_norm_active_fiber_length ({x3})", what)
    _check(ylow >= 0, f"minimum_value must be >= 0, got {ylow}", what)
    _check(0 <= dydx < (1 - ylow) / (x2 - x1),
           f"shallow_ascending_slope must be in [0, {(1 - ylow) / (x2 - x1):g}), got {dydx}", what)
    c = scale_curviness(1.0)
    x_delta = 0.05 * x2
    xs = x2 - x_delta
    y0, dydx0 = 0.0, 0.0
    y1 = 1.0 - dydx * (xs - x1)
    dydx01 = 1.25 * (y1 - y0) / (x1 - x0)
    x01, y01 = x0 + 0.5 * (x1 - x0), y0 + 0.5 * (y1 - y0)
    x1s, y1s, dydx1s = x1 + 0.5 * (xs - x1), y1 + 0.5 * (1 - y1), dydx
    y2, dydx2, y3, dydx3 = 1.0, 0.0, 0.0, 0.0
    x23 = (x2 + x_delta) + 0.5 * (x3 - (x2 + x_delta))
    y23 = y2 + 0.5 * (y3 - y2)
    dydx23 = (y3 - y2) / ((x3 - x_delta) - (x2 + x_delta))
    corners = [(x0, ylow, dydx0, x01, y01, dydx01), (x01, y01, dydx01, x1s, y1s, dydx1s),
               (x1s, y1s, dydx1s, x2, y2, dydx2), (x2, y2, dydx2, x23, y23, dydx23),
               (x23, y23, dydx23, x3, ylow, dydx3)]
    return _segments(corners, c, 0.0, 0.0, what)


def force_velocity_curve(spec=None, what: str = "ForceVelocityCurve") -> SmoothSegmentedFunction:
    """Force-velocity multiplier ``f_v(v/(l_opt v_max))``: 0 at -1, 1 at 0, ``fmaxE`` at 1 (four corners)."""
    p = _properties(spec, FORCE_VELOCITY_DEFAULTS, (), what)
    fmax_e = p["max_eccentric_velocity_force_multiplier"]
    dydx_c, dydx_near_c = p["concentric_slope_at_vmax"], p["concentric_slope_near_vmax"]
    dydx_iso = p["isometric_slope"]
    dydx_e, dydx_near_e = p["eccentric_slope_at_vmax"], p["eccentric_slope_near_vmax"]
    _check(fmax_e > 1, f"max_eccentric_velocity_force_multiplier must be > 1, got {fmax_e}", what)
    _check(0 <= dydx_c < 1, f"concentric_slope_at_vmax must be in [0, 1), got {dydx_c}", what)
    _check(dydx_c < dydx_near_c <= 1,
           f"concentric_slope_near_vmax must be in (concentric_slope_at_vmax, 1], got {dydx_near_c}", what)
    _check(dydx_iso > 1, f"isometric_slope must be > 1, got {dydx_iso}", what)
    _check(0 <= dydx_e < fmax_e - 1, f"eccentric_slope_at_vmax must be in [0, {fmax_e - 1:g}), got {dydx_e}", what)
    _check(dydx_e <= dydx_near_e < fmax_e - 1,
           f"eccentric_slope_near_vmax must be in [eccentric_slope_at_vmax, {fmax_e - 1:g}), got {dydx_near_e}", what)
    for key in ("concentric_curviness", "eccentric_curviness"):
        _check(0 <= p[key] <= 1, f"{key} must be in [0, 1], got {p[key]}", what)
    cc, ce = scale_curviness(p["concentric_curviness"]), scale_curviness(p["eccentric_curviness"])
    xc, yc, xiso, yiso, xe, ye = -1.0, 0.0, 0.0, 1.0, 1.0, fmax_e
    x_near_c = -0.9
    y_near_c = yc + 0.5 * dydx_near_c * (x_near_c - xc) + 0.5 * dydx_c * (x_near_c - xc)
    x_near_e = 0.9
    y_near_e = ye + 0.5 * dydx_near_e * (x_near_e - xe) + 0.5 * dydx_e * (x_near_e - xe)
    corners = [((xc, yc, dydx_c, x_near_c, y_near_c, dydx_near_c), cc),
               ((x_near_c, y_near_c, dydx_near_c, xiso, yiso, dydx_iso), cc),
               ((xiso, yiso, dydx_iso, x_near_e, y_near_e, dydx_near_e), ce),
               ((x_near_e, y_near_e, dydx_near_e, xe, ye, dydx_e), ce)]
    pts = [corner_control_points(*k, c, what) for k, c in corners]
    return SmoothSegmentedFunction([p[0] for p in pts], [p[1] for p in pts], dydx_c, dydx_e, what)


def fiber_force_length_curve(spec=None, what: str = "FiberForceLengthCurve") -> SmoothSegmentedFunction:
    """Passive fibre force-length multiplier ``f_p(l/l_opt)``: 0 up to ``1 + strain_at_zero_force``, 1 at
    ``1 + strain_at_one_norm_force``. Without the optional stiffnesses and curviness, OpenSim's fitted
    values are used: ``k_iso = 2 / (e1 - e0)``, ``k_low = 0.2``, curviness 0.75."""
    p = _properties(spec, FIBER_FORCE_LENGTH_DEFAULTS, _OPTIONAL_FIBER, what)
    e0, e1 = p["strain_at_zero_force"], p["strain_at_one_norm_force"]
    given = [k for k in _OPTIONAL_FIBER if k in p]
    if given and len(given) != len(_OPTIONAL_FIBER):
        raise ModelError(f"{', '.join(_OPTIONAL_FIBER)} must all be given or all be left out "
                         f"(given: {', '.join(given)})", what)
    _check(e1 > e0, f"strain_at_one_norm_force ({e1}) must exceed strain_at_zero_force ({e0})", what)
    if given:
        k_low, k_iso, curviness = p["stiffness_at_low_force"], p["stiffness_at_one_norm_force"], p["curviness"]
    else:
        k_low, k_iso, curviness = 0.2, 2.0 / (e1 - e0), 0.75
    _check(k_iso > 1 / (e1 - e0), f"stiffness_at_one_norm_force must exceed {1 / (e1 - e0):g}, got {k_iso}", what)
    _check(0 < k_low < 1 / (e1 - e0), f"stiffness_at_low_force must be in (0, {1 / (e1 - e0):g}), got {k_low}", what)
    _check(0 <= curviness <= 1, f"curviness must be in [0, 1], got {curviness}", what)
    c = scale_curviness(curviness)
    x_zero, x_iso = 1 + e0, 1 + e1
    delta = min(0.1 / k_iso, 0.1 * (x_iso - x_zero))
    x_low = x_zero + delta
    x_foot = x_zero + 0.5 * (x_low - x_zero)
    y_low = k_low * (x_low - x_foot)
    corners = [(x_zero, 0.0, 0.0, x_low, y_low, k_low), (x_low, y_low, k_low, x_iso, 1.0, k_iso)]
    return _segments(corners, c, 0.0, k_iso, what)


def tendon_force_length_curve(spec=None, what: str = "TendonForceLengthCurve") -> SmoothSegmentedFunction:
    """Tendon force-length multiplier ``f_t(l_T/l_s)``: 0 at 1, 1 at ``1 + strain_at_one_norm_force``,
    linear from ``norm_force_at_toe_end``. Without the optional properties, OpenSim's fitted values:
    ``k_iso = 1.375 / e_iso``, toe end at 2/3, curviness 0.5."""
    p = _properties(spec, TENDON_FORCE_LENGTH_DEFAULTS, _OPTIONAL_TENDON, what)
    e_iso = p["strain_at_one_norm_force"]
    given = [k for k in _OPTIONAL_TENDON if k in p]
    if given and len(given) != len(_OPTIONAL_TENDON):
        raise ModelError(f"{', '.join(_OPTIONAL_TENDON)} must all be given or all be left out "
                         f"(given: {', '.join(given)})", what)
    _check(e_iso > 0, f"strain_at_one_norm_force must be > 0, got {e_iso}", what)
    if given:
        k_iso, f_toe, curviness = p["stiffness_at_one_norm_force"], p["norm_force_at_toe_end"], p["curviness"]
    else:
        k_iso, f_toe, curviness = 1.375 / e_iso, 2.0 / 3.0, 0.5
    _check(0 < f_toe < 1, f"norm_force_at_toe_end must be in (0, 1), got {f_toe}", what)
    _check(k_iso > 1 / e_iso, f"stiffness_at_one_norm_force must exceed {1 / e_iso:g}, got {k_iso}", what)
    _check(0 <= curviness <= 1, f"curviness must be in [0, 1], got {curviness}", what)
    c = scale_curviness(curviness)
    x_iso = 1.0 + e_iso
    x_toe = (f_toe - 1) / k_iso + x_iso
    x_foot = 1.0 + (x_toe - 1.0) / 10.0
    y_toe_mid = 0.5 * f_toe
    x_toe_mid = (y_toe_mid - 1.0) / k_iso + x_iso
    dydx_toe_mid = y_toe_mid / (x_toe_mid - x_foot)
    x_toe_ctrl = x_foot + 0.5 * (x_toe_mid - x_foot)
    y_toe_ctrl = dydx_toe_mid * (x_toe_ctrl - x_foot)
    corners = [(1.0, 0.0, 0.0, x_toe_ctrl, y_toe_ctrl, dydx_toe_mid),
               (x_toe_ctrl, y_toe_ctrl, dydx_toe_mid, x_toe, f_toe, k_iso)]
    return _segments(corners, c, 0.0, k_iso, what)


def _segments(corners, c, dydx_lo, dydx_hi, what):
    pts = [corner_control_points(*k, c, what) for k in corners]
    return SmoothSegmentedFunction([p[0] for p in pts], [p[1] for p in pts], dydx_lo, dydx_hi, what)
