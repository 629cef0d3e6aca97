"""Rigid-tendon Hill-model evaluation of a set of muscles over frames: the bounds of seed eq. 37.

For each muscle at each frame, from its musculotendon length ``l`` and lengthening
speed ``l-dot``:

    f_active_max(l, l-dot) = F_max f_l(l_f / l_opt) f_v(v_f / (l_opt v_max)) cos(alpha)
    f_passive(l)           = F_max f_p(l_f / l_opt) cos(alpha)
    f_max(l, l-dot)        = f_active_max + f_passive       (tension along the tendon at full activation)

with the fibre length ``l_f``, pennation ``alpha`` and fibre velocity ``v_f`` of a
rigid tendon (:mod:`.pennation`). ``f_active_max`` is OpenSim's
``calcInextensibleTendonActiveFiberForce(s, 1)``, which its StaticOptimization
uses. Thelen 2003 muscles use the closed forms of :mod:`.thelen` with activation 1
in the force-velocity curve, Millard 2012 muscles the curves of :mod:`.millard`.
Millard's fibre damping is not included.

What happens at extreme lengths and velocities is OpenSim's behaviour, and every
occurrence is listed in :attr:`RigidTendonForces.notes`:

- fibre at its minimum length: active force 0;
- Thelen, shortening faster than ``v_max``: ``f_v = 0``; lengthening past the
  ``fv_linear_extrap_threshold``: ``f_v`` extended linearly;
- Millard, ``|v| > v_max``: ``f_v`` extended with the curve's end slope; fibre
  length outside the active force-length curve's domain: ``f_l`` held at its
  ``minimum_value``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ....errors import ModelError
from . import millard, thelen
from .pennation import minimum_fibre_length, rigid_tendon_fibre

_THELEN_KEYS = ("KshapeActive", "KshapePassive", "FmaxMuscleStrain", "Af", "Flen", "fv_linear_extrap_threshold",
                "maximum_pennation_angle")
_MILLARD_CURVES = {
    "ActiveForceLengthCurve": millard.active_force_length_curve,
    "ForceVelocityCurve": millard.force_velocity_curve,
    "FiberForceLengthCurve": millard.fiber_force_length_curve,
}


@dataclass(frozen=True)
class RigidTendonForces:
    """Hill-model quantities at every frame (rows) for every muscle (columns, ``names`` order).

    Attributes
    ----------
    fibre_length : m.  cos_pennation : cos(alpha).  norm_fibre_length : ``l_f / l_opt``.
    norm_fibre_velocity : ``v_f / (l_opt v_max)``, lengthening positive.
    active_force_length, force_velocity, passive_force_length : the multipliers ``f_l, f_v, f_p``.
    active_max : N, ``f_active_max(l, l-dot)``, tension along the tendon at activation 1 without the
        passive part.
    passive : N, ``f_passive(l)`` along the tendon.
    max_isometric_force : (m,) N, ``F_max``.
    at_minimum_length : bool, fibre held at its minimum length (active force 0).
    notes : one sentence per muscle and kind of curve limit that was reached, with its frame count.
    """

    names: tuple
    fibre_length: np.ndarray
    cos_pennation: np.ndarray
    norm_fibre_length: np.ndarray
    norm_fibre_velocity: np.ndarray
    active_force_length: np.ndarray
    force_velocity: np.ndarray
    passive_force_length: np.ndarray
    active_max: np.ndarray
    passive: np.ndarray
    max_isometric_force: np.ndarray
    at_minimum_length: np.ndarray
    notes: tuple

    @property
    def f_max(self) -> np.ndarray:
        """N, ``f_active_max + f_passive``: the upper bound of seed eq. 37 with muscle physiology."""
        return self.active_max + self.passive


def _number(muscle, key):
    value = muscle.parameters.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ModelError(f"parameter {key} must be one number, got {value!r}", f"muscle '{muscle.name}'")
    return float(value)


class HillMuscles:
    """The Hill models of ``muscles`` (a sequence of :class:`~engine.muscles.Muscle`), ready to evaluate.

    Build once per model (Millard curves are constructed here), then call
    :meth:`evaluate` with lengths and speeds of any number of frames.
    """

    def __init__(self, muscles):
        muscles = tuple(muscles)
        self.names = tuple(m.name for m in muscles)
        self.kind = tuple(m.model for m in muscles)
        for m in muscles:
            if m.model not in ("thelen2003", "millard2012"):
                raise ModelError(f"muscle model {m.model!r} has no Hill curves here (Thelen 2003 and Millard 2012 "
                                 "are supported)", f"muscle '{m.name}'")
        self.max_isometric_force = np.array([m.max_isometric_force for m in muscles])
        self.optimal_fiber_length = np.array([m.optimal_fiber_length for m in muscles])
        self.tendon_slack_length = np.array([m.tendon_slack_length for m in muscles])
        self.pennation_angle = np.array([m.pennation_angle for m in muscles])
        self.max_contraction_velocity = np.array([m.max_contraction_velocity for m in muscles])
        self.maximum_pennation_angle = np.array([_number(m, "maximum_pennation_angle") for m in muscles])
        self.minimum_length = minimum_fibre_length(self.optimal_fiber_length, self.pennation_angle,
                                                   self.maximum_pennation_angle)
        self._thelen = np.array([i for i, k in enumerate(self.kind) if k == "thelen2003"], np.int64)
        self._thelen_params = {key: np.array([_number(muscles[i], key) for i in self._thelen])
                               for key in _THELEN_KEYS}
        self._millard = np.array([i for i, k in enumerate(self.kind) if k == "millard2012"], np.int64)
        self._curves = {}
        for name, build in _MILLARD_CURVES.items():
            groups: dict = {}
            for i in self._millard:
                m = muscles[i]
                curve = build(m.parameters.get(name), f"muscle '{m.name}' {name}")
                groups.setdefault(curve.key(), (curve, []))[1].append(i)
            self._curves[name] = [(curve, np.array(cols, np.int64)) for curve, cols in groups.values()]

    def evaluate(self, lengths, speeds) -> RigidTendonForces:
        """Evaluate at musculotendon ``lengths`` (T, m) m and lengthening ``speeds`` (T, m) m/s."""
        lengths = np.atleast_2d(np.asarray(lengths, float))
        speeds = np.atleast_2d(np.asarray(speeds, float))
        m = len(self.names)
        if lengths.shape[-1] != m or speeds.shape != lengths.shape:
            raise ValueError(f"lengths and speeds must both be (frames, {m}), got {lengths.shape} and {speeds.shape}")
        fibre, cos_a, vf, at_min = rigid_tendon_fibre(lengths, speeds, self.optimal_fiber_length,
                                                      self.tendon_slack_length, self.pennation_angle,
                                                      self.minimum_length, self.maximum_pennation_angle)
        ln = fibre / self.optimal_fiber_length
        vn = vf / (self.optimal_fiber_length * self.max_contraction_velocity)
        fl, fv, fp = np.empty_like(ln), np.empty_like(ln), np.empty_like(ln)
        notes: list[tuple[int, str]] = []
        if self._thelen.size:
            self._evaluate_thelen(ln, vn, fl, fv, fp, notes)
        if self._millard.size:
            self._evaluate_millard(ln, vn, fl, fv, fp, notes)
        active = np.where(at_min, 0.0, self.max_isometric_force * fl * fv * cos_a)
        passive = self.max_isometric_force * fp * cos_a
        frames = len(ln)
        for j in np.flatnonzero(at_min.any(axis=0)):
            notes.append((j, f"{self.names[j]}: fibre at its minimum length (pennation at its maximum, or the "
                             f"muscle slack) in {int(at_min[:, j].sum())} of {frames} frames: active force 0 there"))
        notes.sort(key=lambda n: n[0])
        return RigidTendonForces(self.names, fibre, cos_a, ln, vn, fl, fv, fp, active, passive,
                                 self.max_isometric_force, at_min, tuple(text for _, text in notes))

    def _evaluate_thelen(self, ln, vn, fl, fv, fp, notes):
        cols, p = self._thelen, self._thelen_params
        fl[:, cols] = thelen.active_force_length(ln[:, cols], p["KshapeActive"])
        fp[:, cols] = thelen.passive_force_length(ln[:, cols], p["KshapePassive"], p["FmaxMuscleStrain"])
        v = vn[:, cols]
        fv[:, cols] = thelen.force_velocity(v, p["Af"], p["Flen"], p["fv_linear_extrap_threshold"])
        fast = v < thelen.max_shortening_velocity()
        extrapolated = v > thelen.extrapolation_velocity(p["Af"], p["Flen"], p["fv_linear_extrap_threshold"])
        frames = len(ln)
        n_fast, n_extrapolated = fast.sum(axis=0), extrapolated.sum(axis=0)
        for k in np.flatnonzero(n_fast | n_extrapolated):
            j = cols[k]
            if n_fast[k]:
                notes.append((j, f"{self.names[j]}: shortening faster than its maximum contraction velocity in "
                                 f"{int(n_fast[k])} of {frames} frames: force-velocity multiplier 0 there"))
            if n_extrapolated[k]:
                notes.append((j, f"{self.names[j]}: lengthening past the force-velocity curve's "
                                 f"fv_linear_extrap_threshold in {int(n_extrapolated[k])} of {frames} "
                                 "frames: force-velocity multiplier extended linearly there"))

    def _evaluate_millard(self, ln, vn, fl, fv, fp, notes):
        frames = len(ln)
        for curve, cols in self._curves["ActiveForceLengthCurve"]:
            x = ln[:, cols]
            fl[:, cols] = curve(x)
            lo, hi = curve.domain
            outside = (x < lo) | (x > hi)
            for k, j in enumerate(cols):
                if outside[:, k].any():
                    notes.append((j, f"{self.names[j]}: normalised fibre length outside the active force-length "
                                     f"curve's domain [{lo:.4g}, {hi:.4g}] in {int(outside[:, k].sum())} of {frames} "
                                     "frames: multiplier held at the curve's minimum_value there"))
        for curve, cols in self._curves["ForceVelocityCurve"]:
            x = vn[:, cols]
            fv[:, cols] = curve(x)
            outside = np.abs(x) > 1.0
            for k, j in enumerate(cols):
                if outside[:, k].any():
                    notes.append((j, f"{self.names[j]}: fibre velocity beyond its maximum contraction velocity in "
                                     f"{int(outside[:, k].sum())} of {frames} frames: force-velocity multiplier "
                                     "extended with the curve's end slope there"))
        for curve, cols in self._curves["FiberForceLengthCurve"]:
            fp[:, cols] = curve(ln[:, cols])
