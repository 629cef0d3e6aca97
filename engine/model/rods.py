"""Cosserat rods discretised with the Piecewise Constant Strain (PCS) model.

A rod is a chain of segments along its local x axis (the centreline tangent),
with cross-section axes y and z. Segment ``i`` has a constant 6D strain
``xi_i = (kappa_x, kappa_y, kappa_z, eps_x, eps_y, eps_z)`` (seed eqs. 5-6):
torsion, two bendings (1/m), stretch and two shears (dimensionless; an
unstretched rod has ``eps = (1, 0, 0)``). ``free_modes`` selects which of the six
are generalized coordinates (the seed keeps the three angular ones); the
others stay at ``rest_strain``. A rod is attached to a parent body or frame at
``offset`` and may carry child bodies at its tip (the frame named after the rod).

Stiffness and damping (seed eq. 26) follow from the material:
``K_i = L_i diag(G J, E I_y, E I_z, E A, G A, G A)`` restricted to the free modes,
and likewise ``D_i`` with the Kelvin-Voigt viscosities in place of ``E, G``.
The generalized coordinates of a free mode are the strain values themselves,
so ``q_rest`` is the rest strain of the free modes.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..errors import ModelError
from ..spatial import SE3
from . import _check

MODES = ("kx", "ky", "kz", "ex", "ey", "ez")
ANGULAR_MODES = ("kx", "ky", "kz")
STRAIGHT = (0.0, 0.0, 0.0, 1.0, 0.0, 0.0)


@dataclass(frozen=True)
class Material:
    """Elastic and viscous constants: E, G in Pa, density in kg/m^3, viscosities in Pa s."""

    name: str
    youngs_modulus: float
    shear_modulus: float
    density: float
    extensional_viscosity: float = 0.0
    shear_viscosity: float = 0.0

    def __post_init__(self):
        what = f"material '{self.name}'"
        _check.name(self.name, "material")
        for f in ("youngs_modulus", "shear_modulus", "density"):
            object.__setattr__(self, f, _check.positive(getattr(self, f), what, f))
        for f in ("extensional_viscosity", "shear_viscosity"):
            object.__setattr__(self, f, _check.positive(getattr(self, f), what, f, allow_zero=True))


@dataclass(frozen=True)
class Section:
    """Cross-section: area (m^2), second moments about y and z (m^4), torsion constant (m^4).

    ``width`` (along y) and ``thickness`` (along z), in metres, are for display only.
    """

    area: float
    second_moment_y: float
    second_moment_z: float
    torsion_constant: float
    width: float = 0.0
    thickness: float = 0.0

    def __post_init__(self):
        for f in ("area", "second_moment_y", "second_moment_z", "torsion_constant"):
            object.__setattr__(self, f, _check.positive(getattr(self, f), "rod section", f))
        for f in ("width", "thickness"):
            object.__setattr__(self, f, _check.positive(getattr(self, f), "rod section", f, allow_zero=True))

    @staticmethod
    def rectangle(width: float, thickness: float) -> "Section":
        """Solid rectangle ``width`` (y) by ``thickness`` (z), torsion constant of a thin strip
        corrected for aspect ratio (Roark's formula)."""
        b, t = max(width, thickness), min(width, thickness)
        J = b * t ** 3 * (1.0 / 3.0 - 0.21 * (t / b) * (1.0 - (t / b) ** 4 / 12.0))
        return Section(width * thickness, width * thickness ** 3 / 12.0, thickness * width ** 3 / 12.0, J,
                       width, thickness)


@dataclass(frozen=True)
class RodSegment:
    length: float
    section: Section
    material: Material
    free_modes: tuple = ANGULAR_MODES
    rest_strain: tuple = STRAIGHT
    strain_range: tuple | None = None  # ((lo, hi) per free mode) for IK; None: unbounded

    def __post_init__(self):
        what = "rod segment"
        object.__setattr__(self, "length", _check.positive(self.length, what, "length"))
        if not isinstance(self.section, Section) or not isinstance(self.material, Material):
            raise ModelError("needs a Section and a Material", what)
        modes = tuple(self.free_modes)
        bad = [m for m in modes if m not in MODES]
        if bad or len(set(modes)) != len(modes):
            raise ModelError(f"free_modes must be distinct names among {MODES}, got {modes}", what)
        object.__setattr__(self, "rest_strain", tuple(_check.vector(self.rest_strain, what, "rest strain", 6)))
        ranges = None
        if self.strain_range is not None:
            try:
                ranges = [tuple(float(v) for v in r) for r in self.strain_range]
            except (TypeError, ValueError):
                raise ModelError("strain_range must be (low, high) number pairs", what) from None
            if (len(ranges) != len(modes) or any(len(r) != 2 or np.isnan(r).any() or r[0] > r[1] for r in ranges)):
                raise ModelError("strain_range needs one (low, high) pair with low <= high per free mode", what)
        # modes are kept in the canonical order kx..ez, their ranges with them
        order = sorted(range(len(modes)), key=lambda i: MODES.index(modes[i]))
        object.__setattr__(self, "free_modes", tuple(modes[i] for i in order))
        if ranges is not None:
            object.__setattr__(self, "strain_range", tuple(ranges[i] for i in order))

    def stiffness_diagonal(self) -> np.ndarray:
        """``diag(G J, E I_y, E I_z, E A, G A, G A)``: stiffness per unit length of the 6 modes."""
        s, m = self.section, self.material
        return np.array([m.shear_modulus * s.torsion_constant, m.youngs_modulus * s.second_moment_y,
                         m.youngs_modulus * s.second_moment_z, m.youngs_modulus * s.area,
                         m.shear_modulus * s.area, m.shear_modulus * s.area])

    def damping_diagonal(self) -> np.ndarray:
        """Kelvin-Voigt viscous coefficients per unit length of the 6 modes."""
        s, m = self.section, self.material
        return np.array([m.shear_viscosity * s.torsion_constant, m.extensional_viscosity * s.second_moment_y,
                         m.extensional_viscosity * s.second_moment_z, m.extensional_viscosity * s.area,
                         m.shear_viscosity * s.area, m.shear_viscosity * s.area])

    def line_inertia(self) -> tuple[float, np.ndarray]:
        """Mass per length (kg/m) and rotational inertia per length about the centreline (kg m)."""
        s, rho = self.section, self.material.density
        return rho * s.area, rho * np.diag([s.second_moment_y + s.second_moment_z, s.second_moment_y,
                                            s.second_moment_z])


@dataclass(frozen=True)
class Rod:
    """A PCS rod attached to ``parent`` at ``offset``; its tip is a frame named ``name``.

    ``quadrature`` is the number of Gauss-Legendre points per segment used to
    integrate the rod's inertia along its arclength (seed eq. 23).
    """

    name: str
    parent: str
    segments: tuple
    offset: SE3 = field(default_factory=SE3)
    quadrature: int = 3

    def __post_init__(self):
        what = f"rod '{self.name}'"
        _check.name(self.name, "rod")
        _check.name(self.parent, f"{what} parent")
        segs = tuple(self.segments)
        if not segs:
            raise ModelError("needs at least one segment", what)
        for i, sg in enumerate(segs):
            if not isinstance(sg, RodSegment):
                raise ModelError(f"segment {i + 1} is not a RodSegment", what)
        object.__setattr__(self, "segments", segs)
        if not isinstance(self.offset, SE3):
            raise ModelError("offset must be an SE3 placement", what)
        if int(self.quadrature) != self.quadrature or not 1 <= self.quadrature <= 20:
            raise ModelError(f"quadrature must be an integer from 1 to 20, got {self.quadrature}", what)
        object.__setattr__(self, "quadrature", int(self.quadrature))

    @property
    def length(self) -> float:
        return float(sum(s.length for s in self.segments))

    @property
    def boundaries(self) -> np.ndarray:
        """Arclengths ``L_0 = 0, L_1, ..., L_ns`` of the segment ends (seed's L_i), m."""
        return np.concatenate([[0.0], np.cumsum([s.length for s in self.segments])])

    def segment_at(self, s: float) -> tuple[int, float]:
        """Segment index (0-based) and arclength inside it for a point at arclength ``s``."""
        L = self.boundaries
        if not (-1e-12 <= s <= L[-1] + 1e-12):
            raise ModelError(f"arclength {s} m is outside the rod (0 to {L[-1]} m)", f"rod '{self.name}'")
        i = int(np.clip(np.searchsorted(L, s, side="right") - 1, 0, len(self.segments) - 1))
        return i, float(np.clip(s - L[i], 0.0, self.segments[i].length))

    def coordinate_names(self) -> list[str]:
        return [f"{self.name}_s{i + 1}_{m}" for i, sg in enumerate(self.segments) for m in sg.free_modes]
