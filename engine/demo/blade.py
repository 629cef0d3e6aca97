"""The J-shaped running blade of the default athlete, and its simulated compression test.

Geometry: a 6-segment PCS rod (seed section 3.1: six segments, three angular strain modes each,
rest strain giving the J shape), mounted behind the socket, running down from the mount and
curving forward into the toe that touches the ground. Arclength 0.61 m, width 60 mm, laminate
11 mm thick at the mount tapering to 6.5 mm at the toe (J-shaped sprint blades such as the
Ottobock 1E90 Sprinter and Ossur Cheetah are of this size; Beck et al. 2016, PLoS One
11:e0168298, Fig. 1).
Material: carbon-fibre/epoxy laminate, E = 60 GPa, G = 4 GPa, density 1550 kg/m^3 (typical of
the multidirectional laminates of energy-storing feet; unidirectional-rich lay-ups reach about
100 GPa), and Kelvin-Voigt viscosities giving a damping ratio of 1.8% in the first bending
and torsion modes of the blade clamped at its mount (both near 36 Hz; 1.5-2.0% measured on the
Ossur Flex-Run, Noroozi et al. 2018; Kelvin-Voigt damping grows with frequency, so higher modes
are damped more). Mass 0.50 kg, within the 0.46-0.59 kg quoted for the Ottobock 1E91 Runner.

Stiffness: :func:`compression_test` loads the blade through its mount onto a frictionless floor
(as in the material-testing rigs of Beck et al. 2016) and returns the vertical stiffness.
Published values for J-shaped sprint blades in the categories prescribed to 60-80 kg athletes
span about 15-40 kN/m at neutral alignment (Beck et al. 2016; the per-category table was not
available to us, this is the span of the J-shaped models' values reported there and in
Baum et al. 2013 and Hobara et al. 2013). :data:`STIFFNESS_RANGE` is that span.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import algorithms as alg
from ..data import Data
from ..errors import ModelError
from ..model import Marker, Material, Model, Rod, RodSegment, Section
from ..model.points import ContactPoint
from ..spatial import SE3

CARBON = Material("carbon_epoxy_laminate", youngs_modulus=60e9, shear_modulus=4e9, density=1550.0,
                  extensional_viscosity=9.3e6, shear_viscosity=6.3e5)
WIDTH = 0.060
THICKNESS = (0.011, 0.0065)          # m, at the mount and at the toe
LENGTHS = (0.14, 0.14, 0.09, 0.09, 0.09, 0.06)
CURVATURE = (0.0, 1.0, 5.5, 7.5, 7.0, 3.0)   # rest bending about the lateral axis, 1/m
STIFFNESS_RANGE = (15e3, 40e3)       # N/m, J-shaped sprint blades (see the module docstring)
MOUNT_ANGLE = 0.17                   # rad: the blade leaves the mount pointing down and 10 deg backwards
STRAIN_RANGE = ((-4.0, 4.0), (-4.0, 4.0), (-12.0, 12.0))   # torsion, lateral and sagittal bending about rest


def _thickness(s: float) -> float:
    total = sum(LENGTHS)
    return THICKNESS[0] + (THICKNESS[1] - THICKNESS[0]) * s / total


def segments() -> list[RodSegment]:
    out = []
    s0 = 0.0
    for length, kappa in zip(LENGTHS, CURVATURE):
        h = _thickness(s0 + 0.5 * length)
        # laminate thickness along the rod's y (the bending plane), width along z
        section = Section.rectangle(h, WIDTH)
        rest = (0.0, 0.0, kappa, 1.0, 0.0, 0.0)
        ranges = (STRAIN_RANGE[0], STRAIN_RANGE[1], (kappa + STRAIN_RANGE[2][0], kappa + STRAIN_RANGE[2][1]))
        out.append(RodSegment(length, section, CARBON, rest_strain=rest, strain_range=ranges))
        s0 += length
    return out


def mount_placement(point) -> SE3:
    """The rod's base frame at ``point`` on its parent: x along the blade (down and slightly back),
    y in the sagittal plane (towards the centre of curvature, forward), z lateral."""
    x = np.array([-np.sin(MOUNT_ANGLE), -np.cos(MOUNT_ANGLE), 0.0])
    z = np.array([0.0, 0.0, 1.0])
    y = np.cross(z, x)
    return SE3(np.column_stack([x, y, z]), point)


def rod(parent: str, point, name: str = "blade") -> Rod:
    return Rod(name, parent, segments(), offset=mount_placement(point), quadrature=3)


def total_length() -> float:
    return float(sum(LENGTHS))


def markers(name: str = "blade") -> list[Marker]:
    """21 blade markers: ten pairs across the width along the blade and one at the toe (seed Fig. 8)."""
    total = total_length()
    out = []
    for i in range(10):
        s = total * (i + 0.5) / 10
        h = _thickness(s)
        for side, z in (("L", -0.5 * WIDTH + 0.005), ("R", 0.5 * WIDTH - 0.005)):
            out.append(Marker(f"BLD{i + 1:02d}{side}", name, (0.0, 0.5 * h + 0.007, z), s=s))
    out.append(Marker("BLDTOE", name, (0.007, 0.0, 0.0), s=total))
    return out


CONTACT_ROWS = (0.50, 0.59)     # arclengths of the two rows of contact candidates (m)
CONTACT_EDGE = 0.022            # m from the centreline: the sole's edges, inside the 30 mm half-width


def contacts(name: str = "blade", group: str = "blade") -> list[ContactPoint]:
    """Four contact candidates on the blade's ground side (seed Fig. 11): two rows across the sole,
    one where the unloaded blade is lowest and one towards the toe, each at the medial and lateral edge."""
    out = []
    for row, s in enumerate(CONTACT_ROWS):
        for side, z in (("med", -CONTACT_EDGE), ("lat", CONTACT_EDGE)):
            out.append(ContactPoint(f"blade_{side}{row + 1}", name, (0.0, -0.5 * _thickness(s), z), s=s, group=group))
    return out


@dataclass
class CompressionTest:
    """Vertical loads (N), the mount's vertical displacements (m) and the secant stiffness (N/m)."""
    loads: np.ndarray
    displacements: np.ndarray
    stiffness: float


def compression_test(blade: Rod | None = None, loads=(250.0, 500.0, 750.0, 1000.0, 1250.0, 1500.0)) -> CompressionTest:
    """Press the unloaded blade onto a frictionless floor through its mount.

    The mount is clamped (no rotation, as in a testing machine's fixture) and the floor
    pushes up with a purely vertical force F, shared equally by the two edge points of the
    lowest row of contact candidates. The mount's descent relative to those points (their
    mean), ``d``, is found by static equilibrium of the PCS
    rod (engine.algorithms.static_equilibrium); the stiffness is the secant ``F / d`` at the
    largest load (quadratic fits describe real blades slightly better, Beck et al. 2016).
    """
    blade = blade or rod("ground", (0.0, 0.0, 0.0))
    model = Model("blade_test", rods=[Rod(blade.name, "ground", blade.segments, offset=blade.offset)],
                  contacts=contacts(blade.name), gravity=(0.0, 0.0, 0.0))
    data = Data(model)
    q0 = alg.neutral(model)
    alg.forward_kinematics(model, data, q0)
    rows = {}
    for c in model.contacts:
        rows.setdefault(c.s, []).append(c.name)
    lowest = min(rows.values(), key=lambda names: np.mean([alg.frame_placement(model, data, n).p[1] for n in names]))

    def height():
        return float(np.mean([alg.frame_placement(model, data, n).p[1] for n in lowest]))

    base_height = height()
    displacements = []
    q = q0
    for F in loads:
        share = (0.0, float(F) / len(lowest), 0.0)
        res = alg.static_equilibrium(model, data, q, forces={n: share for n in lowest}, gravity=False)
        if not res.success:
            raise ModelError(f"the compression test did not converge at {F} N ({res.message})", f"rod '{blade.name}'")
        q = res.q
        alg.forward_kinematics(model, data, q)
        displacements.append(height() - base_height)
    d = np.array(displacements)
    return CompressionTest(np.array(loads, float), d, float(loads[-1] / d[-1]))


__all__ = ["rod", "markers", "contacts", "compression_test", "STIFFNESS_RANGE", "CARBON"]
