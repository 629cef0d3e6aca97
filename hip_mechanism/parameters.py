"""The 2-UPR/URR hip mechanism's description (seed 003): geometry, limits, masses and inertias, in SI units.

Frames (seed section 2.2, Figure 5): the base frame O-XYZ has its origin at the middle of A2A3, X along OA1, Y
along OA2; the platform frame o-xyz has its origin at the middle of B2B3, x along oB1, y along oB2. Base points
A1 = (a1, 0, 0), A2 = (0, a2, 0), A3 = (0, -a3, 0); platform points (platform axes) B1 = (b1, 0, 0),
B2 = (0, b2, 0), B3 = (0, -b3, 0). The seed's equilateral triangles of sides 2a and 2b are the case
a1 = sqrt(3) a, a2 = a3 = a (its eq. 5 writes sqrt(3) a for a1). Limb 1 (A1B1, length l1) is the passive URR limb;
limbs 2 and 3 are the actuated UPR limbs whose lengths l2, l3 are the actuators' strokes.

Links (seed section 6): limb 1's lower rod (at A1, centre of mass e11 from A1) and upper rod (at B1, e12 from
B1); each actuated limb's cylinder (at Ai, ei1 from Ai) and piston (at Bi, ei2 from Bi). Each link's inertia is
given about its centre of mass in its limb frame (z along the limb, the universal joint's axes: see
``hip_mechanism._geometry``); the platform's about its centre of mass in platform axes.

The seed gives the geometry (section 5.1), the masses and the inertias (eq. 41, written "kg/m2"; read here as
kg m^2). It does not give the centres of mass along the limbs, the actuators' strokes and rated force, nor the
joints' limits: the defaults below are ours and say so (``NOT_FROM_SEED``); the joint limits default to the
workspace the seed states (alpha in [-60, 60] deg, beta in [-90, 35] deg), the strokes to [210, 380] mm, the
lengths that workspace needs (211.9 to 378.9 mm) rounded outward to 5 mm.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from engine.errors import ModelError

GRAVITY = np.array([0.0, 0.0, -9.807])   # m/s^2, base axes (seed section 7: g = [0, 0, -9807] mm/s^2)

NOT_FROM_SEED = ("e11", "e12", "e_cylinder", "e_piston", "stroke_min", "stroke_max", "actuator_force_limit",
                 "platform_com", "characteristic_length")


def _diag(*values):
    return tuple(tuple(float(values[i]) if i == j else 0.0 for j in range(3)) for i in range(3))


@dataclasses.dataclass(frozen=True)
class MechanismParameters:
    """An immutable description of the mechanism (SI: m, rad, kg, kg m^2, N, N/m).

    Geometry (seed section 5.1): ``l1`` passive limb length; ``a1, a2, a3`` |OA1|, |OA2|, |OA3|;
    ``b1, b2, b3`` |oB1|, |oB2|, |oB3|. Limits: ``alpha_range``, ``beta_range`` (rad) the passive limb's
    universal joint (whose angles are (beta, -alpha), so these bound the platform's angles directly);
    ``stroke_min``, ``stroke_max`` (m) the actuated limbs' lengths. ``actuator_force_limit`` (N) the actuators'
    rated force (bearing capacity). ``k`` (N/m) the limbs' equivalent spring constant of eq. 16 (seed: 1000 N/mm).
    ``characteristic_length`` (m) divides the moment rows of the full Jacobian before its condition number
    (dexterity, eq. 19) is taken, so that it does not depend on the length unit.
    Masses (kg): ``m_platform`` (mp), ``m_lower_rod`` (m11), ``m_upper_rod`` (m12), ``m_cylinder`` (mi1),
    ``m_piston`` (mi2). Centres of mass: ``platform_com`` (platform axes, m), ``e11``, ``e12``, ``e_cylinder``
    (ei1), ``e_piston`` (ei2) (m). Inertias (kg m^2, 3x3 about the centre of mass): ``I_platform`` (Ip, platform
    axes) and ``I_lower_rod``, ``I_upper_rod``, ``I_cylinder``, ``I_piston`` (limb frame).
    """

    l1: float = 0.310
    a1: float = 0.105
    a2: float = 0.060
    a3: float = 0.060
    b1: float = 0.070
    b2: float = 0.040
    b3: float = 0.040
    alpha_range: tuple = (math.radians(-60.0), math.radians(60.0))
    beta_range: tuple = (math.radians(-90.0), math.radians(35.0))
    stroke_min: float = 0.210
    stroke_max: float = 0.380
    actuator_force_limit: float = 2000.0
    k: float = 1.0e6
    characteristic_length: float = 0.070
    m_platform: float = 1.5
    m_lower_rod: float = 0.9
    m_upper_rod: float = 0.75
    m_cylinder: float = 1.2
    m_piston: float = 0.75
    platform_com: tuple = (0.070 / 3.0, 0.0, 0.0)
    e11: float = 0.310 / 4.0
    e12: float = 0.310 / 4.0
    e_cylinder: float = 0.080
    e_piston: float = 0.080
    I_platform: tuple = _diag(0.348, 0.174, 0.174)
    I_lower_rod: tuple = _diag(0.316, 0.296, 0.0)
    I_upper_rod: tuple = _diag(0.316, 0.296, 0.0)
    I_cylinder: tuple = _diag(0.316, 0.296, 0.0)
    I_piston: tuple = _diag(0.316, 0.296, 0.0)

    def __post_init__(self):
        _validate(self)

    def replace(self, **changes) -> "MechanismParameters":
        """A new description with ``changes`` (validated)."""
        return dataclasses.replace(self, **changes)

    @property
    def geometry(self) -> np.ndarray:
        """The kernels' geometry array ``[l1, a1, a2, a3, b1, b2, b3]`` (m)."""
        return np.array([self.l1, self.a1, self.a2, self.a3, self.b1, self.b2, self.b3])

    @property
    def limits(self) -> np.ndarray:
        """The kernels' limits array ``[alpha_min, alpha_max, beta_min, beta_max, stroke_min, stroke_max]``."""
        return np.array([*self.alpha_range, *self.beta_range, self.stroke_min, self.stroke_max])

    def links(self):
        """``[(name, limb, end, e, mass, inertia 3x3)]`` of the six limb links; ``end`` 0: the centre of mass is
        ``e`` from Ai along the limb, 1: ``e`` from Bi back along it."""
        return [("lower_rod_1", 0, 0, self.e11, self.m_lower_rod, np.array(self.I_lower_rod)),
                ("upper_rod_1", 0, 1, self.e12, self.m_upper_rod, np.array(self.I_upper_rod)),
                ("cylinder_2", 1, 0, self.e_cylinder, self.m_cylinder, np.array(self.I_cylinder)),
                ("piston_2", 1, 1, self.e_piston, self.m_piston, np.array(self.I_piston)),
                ("cylinder_3", 2, 0, self.e_cylinder, self.m_cylinder, np.array(self.I_cylinder)),
                ("piston_3", 2, 1, self.e_piston, self.m_piston, np.array(self.I_piston))]


def _validate(p: MechanismParameters) -> None:
    def positive(name):
        value = getattr(p, name)
        if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
            raise ModelError(f"must be a positive number, not {value!r}", name)

    for name in ("l1", "a1", "a2", "a3", "b1", "b2", "b3", "stroke_min", "stroke_max", "actuator_force_limit", "k",
                 "characteristic_length", "m_platform", "m_lower_rod", "m_upper_rod", "m_cylinder", "m_piston"):
        positive(name)
    for name in ("e11", "e12", "e_cylinder", "e_piston"):
        value = getattr(p, name)
        if not (math.isfinite(value) and value >= 0):
            raise ModelError(f"must be a distance >= 0, not {value!r}", name)
    for name in ("alpha_range", "beta_range"):
        lo, hi = getattr(p, name)
        if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
            raise ModelError(f"must be [min, max] with min < max, not {[lo, hi]!r}", name)
        if name == "alpha_range" and (lo <= -math.pi / 2 or hi >= math.pi / 2):
            raise ModelError("must lie inside (-90, 90) degrees: at alpha = +-90 degrees the passive limb lies "
                             "along its universal joint's axis (a singular pose)", name)
    if p.stroke_min >= p.stroke_max:
        raise ModelError(f"the shortest stroke {p.stroke_min * 1e3:g} mm must be below the longest "
                         f"{p.stroke_max * 1e3:g} mm", "stroke_min")
    if p.e11 > p.l1 or p.e12 > p.l1:
        raise ModelError("the passive rods' centres of mass must lie on the limb (e11, e12 <= l1)", "e11")
    if len(p.platform_com) != 3 or not all(math.isfinite(c) for c in p.platform_com):
        raise ModelError("must be three finite coordinates", "platform_com")
    for name in ("I_platform", "I_lower_rod", "I_upper_rod", "I_cylinder", "I_piston"):
        inertia = np.asarray(getattr(p, name), dtype=float)
        if inertia.shape != (3, 3) or not np.all(np.isfinite(inertia)) or not np.allclose(inertia, inertia.T):
            raise ModelError("must be a symmetric 3x3 matrix of finite numbers", name)
        if np.linalg.eigvalsh(inertia).min() < -1e-12 * max(1.0, np.abs(inertia).max()):
            raise ModelError("must be positive semi-definite (an inertia)", name)
    _check_closure(p)


def _check_closure(p: MechanismParameters) -> None:
    """The loops close at the reference pose (alpha = beta = 0) with strokes inside their limits (eqs. 5-6)."""
    if not (p.alpha_range[0] <= 0.0 <= p.alpha_range[1] and p.beta_range[0] <= 0.0 <= p.beta_range[1]):
        raise ModelError("the joint limits must contain the reference pose alpha = beta = 0", "alpha_range")
    # eq. 5 at alpha = beta = 0: p = (a1 - b1, 0, l1); eq. 6: l2 = |p + (0, b2, 0) - (0, a2, 0)|, l3 likewise
    for limb, (a, b) in ((2, (p.a2, p.b2)), (3, (p.a3, p.b3))):
        length = math.sqrt((p.a1 - p.b1) ** 2 + (b - a) ** 2 + p.l1 ** 2)
        if not p.stroke_min <= length <= p.stroke_max:
            raise ModelError(
                f"the mechanism cannot close at its reference pose: limb {limb} would need {length * 1e3:.1f} mm, "
                f"outside its stroke [{p.stroke_min * 1e3:g}, {p.stroke_max * 1e3:g}] mm", f"limb {limb}")


SEED = MechanismParameters()
"""The seed's mechanism (sections 5.1 and 7), with our defaults where the seed gives no value (NOT_FROM_SEED)."""
