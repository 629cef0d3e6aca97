"""Rigid bodies, frames fixed on them, and their display geometry."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..errors import ModelError
from ..spatial import SE3
from . import _check


@dataclass(frozen=True)
class Mesh:
    """A display mesh on a body: file name as written in the model, scale and placement.

    The file is only looked up when the model is shown; models work without it.
    """

    file: str
    scale: tuple = (1.0, 1.0, 1.0)
    placement: SE3 = field(default_factory=SE3)
    color: tuple | None = None

    def __post_init__(self):
        object.__setattr__(self, "scale", tuple(_check.vector(self.scale, f"mesh '{self.file}'", "scale", 3)))


MAX_MASS = 1e4    # kg: no segment, prosthesis or device of a motion analysis weighs more; beyond this the
#                   dynamics overflow to NaN (1e308 kg) long before a user notices


@dataclass(frozen=True, eq=False)
class Body:
    """A rigid body.

    Attributes
    ----------
    name : str
    mass : float
        kg; must be positive (at most ``MAX_MASS``) unless ``massless`` is set (then mass and inertia are zero,
        as for OpenSim's massless 'base' bodies welded to ground).
    com : (3,) array
        Centre of mass in the body frame, m.
    inertia : (3, 3) array
        Inertia about the centre of mass in body axes, kg m^2 (the seed's ``I_G``, eq. 45).
    meshes : tuple of Mesh
    massless : bool
    """

    name: str
    mass: float
    com: np.ndarray = field(default_factory=lambda: np.zeros(3))
    inertia: np.ndarray = field(default_factory=lambda: np.zeros((3, 3)))
    meshes: tuple = ()
    massless: bool = False

    def __post_init__(self):
        what = f"body '{self.name}'"
        _check.name(self.name, "body")
        mass = _check.finite(self.mass, what, "mass")
        if self.massless:
            if mass != 0.0:
                raise ModelError(f"is declared massless but has mass {mass} kg", what)
        elif mass <= 0.0:
            raise ModelError(f"mass must be positive, got {mass} kg (declare the body massless if intended)", what)
        elif mass > MAX_MASS:
            raise ModelError(f"mass of {mass:g} kg is beyond any body a motion analysis models (at most {MAX_MASS:g} kg;"
                             f" a mass in grams, or a typing error?)", what)
        object.__setattr__(self, "mass", mass)
        object.__setattr__(self, "com", _check.vector(self.com, what, "centre of mass", 3))
        object.__setattr__(self, "inertia", _check.inertia(self.inertia, what, mass))
        object.__setattr__(self, "meshes", tuple(self.meshes))

    def __eq__(self, other):
        return (isinstance(other, Body) and self.name == other.name and self.mass == other.mass
                and np.array_equal(self.com, other.com) and np.array_equal(self.inertia, other.inertia)
                and self.meshes == other.meshes and self.massless == other.massless)

    __hash__ = object.__hash__


@dataclass(frozen=True)
class Frame:
    """A frame fixed on a body, a rod tip or another frame (OpenSim's PhysicalOffsetFrame).

    ``placement`` is this frame's placement in its ``parent``.
    """

    name: str
    parent: str
    placement: SE3 = field(default_factory=SE3)

    def __post_init__(self):
        _check.name(self.name, "frame")
        _check.name(self.parent, f"frame '{self.name}' parent")
        if not isinstance(self.placement, SE3):
            raise ModelError("placement must be an SE3", f"frame '{self.name}'")
