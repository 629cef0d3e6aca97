"""The swept surface of a PCS rod (the blade) at a configuration: cross-section rectangles along the centreline.

Stations are spread along each segment; at each one the rod's frame comes from the engine
(``rod_frames``: the first column is the centreline tangent, the others the section axes y and z)
and the rectangle is the section's display ``width`` (along y) by ``thickness`` (along z). Sections
without display sizes use the rectangle with the same area and second moments
(``width = sqrt(12 I_z / A)``, ``thickness = sqrt(12 I_y / A)``). Sizes are interpolated linearly
between segment centres, so a tapered rod looks smooth. The stations and sizes do not depend on the configuration:
:class:`RodSurfaces` computes them once per rod, and each frame only places them (``RodSurfaces.at``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..algorithms import forward_kinematics, rod_frames


@dataclass(frozen=True)
class RodSurface:
    """``s`` (n,) arclengths, m; ``segment`` (n,) segment index of each station; ``centreline`` (n, 3) and
    ``corners`` (n, 4, 3) in the world, m (corners at (+y, +z), (-y, +z), (-y, -z), (+y, -z));
    ``frames`` (n, 3, 3) the rod's frames."""

    s: np.ndarray
    segment: np.ndarray
    centreline: np.ndarray
    corners: np.ndarray
    frames: np.ndarray


def section_size(section) -> tuple[float, float]:
    """Display ``(width, thickness)`` of a section, m (see the module notes)."""
    if section.width > 0 and section.thickness > 0:
        return section.width, section.thickness
    return (float(np.sqrt(12.0 * section.second_moment_z / section.area)),
            float(np.sqrt(12.0 * section.second_moment_y / section.area)))


def stations(rod, per_segment: int = 8) -> tuple[np.ndarray, np.ndarray]:
    """Arclengths (n,) from the base to the tip, ``per_segment`` intervals per segment, and each station's
    segment index (a segment boundary belongs to the segment after it; the tip to the last)."""
    L = rod.boundaries
    s = np.concatenate([np.linspace(L[i], L[i + 1], per_segment, endpoint=False) for i in range(len(L) - 1)]
                       + [[L[-1]]])
    segment = np.clip(np.searchsorted(L, s, side="right") - 1, 0, len(rod.segments) - 1)
    return s, segment


class RodSurfaces:
    """The surfaces of ``rod`` of ``model``: its stations (``per_segment`` intervals per segment) and their section
    sizes computed once, placed at each configuration by :meth:`at`."""

    def __init__(self, model, rod: str, per_segment: int = 8):
        r = model.rod(rod)
        self.model, self.rod = model, rod
        self.s, self.segment = stations(r, per_segment)
        centres = 0.5 * (r.boundaries[:-1] + r.boundaries[1:])
        sizes = np.array([section_size(seg.section) for seg in r.segments])
        self._half_width = 0.5 * np.interp(self.s, centres, sizes[:, 0])[:, None]         # (n, 1), m
        self._half_thickness = 0.5 * np.interp(self.s, centres, sizes[:, 1])[:, None]

    def at(self, data, q) -> RodSurface:
        """The surface at configuration ``q`` (fills ``data`` by forward kinematics)."""
        forward_kinematics(self.model, data, q)
        R, p = rod_frames(self.model, data, self.rod, self.s)
        y = self._half_width * R[:, :, 1]
        z = self._half_thickness * R[:, :, 2]
        corners = np.stack([p + y + z, p - y + z, p - y - z, p + y - z], axis=1)
        return RodSurface(self.s, self.segment, p, corners, R)


def rod_surface(model, data, rod: str, q, per_segment: int = 8) -> RodSurface:
    """The surface of ``rod`` at configuration ``q`` (fills ``data`` by forward kinematics); at many configurations,
    :class:`RodSurfaces` computes the stations once."""
    return RodSurfaces(model, rod, per_segment).at(data, q)
