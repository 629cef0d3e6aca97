"""Bodies: mass, centre of mass and inertia about it (OpenSim's Ixx Iyy Izz Ixy Ixz Iyz)."""
from __future__ import annotations

from ...model import Body


def read_bodies(doc, frames, meshes) -> list[Body]:
    """One :class:`~engine.model.Body` per ``<Body>``; zero-mass bodies become massless (with a warning).

    Inertias are taken as they are: one that is not positive definite or breaks
    the triangle inequality is an error (see :class:`~engine.model.Body`).
    """
    bodies = []
    for element in frames.bodies:
        name = frames.name_of[element]
        what = f"body '{name}'"
        mass = doc.number(element, "mass", what)
        com = doc.numbers(element, "mass_center", what, 3, [0.0, 0.0, 0.0])
        inertia = doc.numbers(element, "inertia", what, 6)
        massless = mass == 0.0
        if massless:
            doc.warn(f"{what} has zero mass in the file; imported as massless (it adds no inertia)")
        bodies.append(Body(name, mass, com, inertia, tuple(meshes.get(name, ())), massless))
    return bodies
