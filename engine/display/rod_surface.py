"""The swept surface of a PCS rod (the blade) at a configuration: cross-section rectangles along the centreline.

Stations are spread along each segment; at each one the rod's frame comes from the engine
(``rod_frames``: the first column is the centreline tangent, the others the section axes y and z)
and the rectangle is the section's display ``width`` (along y) by ``thickness`` (along z). Sections
without display sizes use the rectangle with the same area and second moments
(``width = sqrt(12 I_z / A)``, ``thickness = sqrt(12 I_y / A)``). Sizes are interpolated linearly
between segment centres, so a tapered rod looks smooth.
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


def rod_surface(model, data, rod: str, q, per_segment: int = 8) -> RodSurface:
    """The surface of ``rod`` at configuration ``q`` (fills ``data`` by forward kinematics)."""
    r = model.rod(rod)
    s, segment = stations(r, per_segment)
    forward_kinematics(model, data, q)
    R, p = rod_frames(model, data, rod, s)
    centres = 0.5 * (r.boundaries[:-1] + r.boundaries[1:])
    sizes = np.array([section_size(seg.section) for seg in r.segments])
    width = np.interp(s, centres, sizes[:, 0])
    thickness = np.interp(s, centres, sizes[:, 1])
    y = 0.5 * width[:, None] * R[:, :, 1]
    z = 0.5 * thickness[:, None] * R[:, :, 2]
    corners = np.stack([p + y + z, p - y + z, p - y - z, p + y - z], axis=1)
    return RodSurface(s, segment, p, corners, R)
