"""Contact candidates on a prosthesis rod (a running blade): four on its ground-facing side near the tip, as the
seed's Fig. 11 has for the prosthesis.

In the neutral pose (the rod at rest), the ground-facing side is the cross-section axis (``y`` or ``z``) that
points most downwards at the rod's lowest point in its distal half; the candidates sit on that face (half the
section's extent along it), in two rows across the sole at 0.75 of the half-width either side of the centreline:
one row where the face is lowest, the other three quarters of the way from there to the tip (a rod lowest at
its tip gets its rows at 0.85 and 1.0 of its length). They lie on the rod's own surface (the section's
``width`` and ``thickness``; a section without them puts them on the centreline), so no calibration against
the floor is needed.
"""
from __future__ import annotations

import numpy as np

from .. import algorithms as alg

EDGE = 0.75           # the candidates across the sole, fraction of its half-width
TOWARDS_TIP = 0.75    # the second row, fraction of the way from the lowest point to the tip
SAMPLES = 241


def _extents(rod, s):
    """Half the section's extent along its y and z axes (m) at arclength ``s``."""
    section = rod.segments[rod.segment_at(float(s))[0]].section
    return 0.5 * section.width, 0.5 * section.thickness


def rod_candidates(model, data, rod, up, medial) -> tuple[list, str]:
    """``([(name, s, offset in the cross-section frame)], how)`` for ``rod`` with ``data`` at the neutral pose;
    ``medial`` (world, unit) points towards the body's midline."""
    L = rod.length
    s = np.linspace(0.5 * L, L, SAMPLES)
    R, p = alg.rod_frames(model, data, rod.name, s)
    ext = np.array([_extents(rod, x) for x in s])                       # (n, 2): y, z
    down = -np.einsum("nij,i->nj", R, up)[:, 1:]                       # y, z axes' downward components
    heights = p @ up - np.abs(down * ext).max(axis=1)
    low = int(np.argmin(heights))
    axis = int(np.argmax(np.abs(down[low])))                             # 0: y faces the ground, 1: z
    sign = np.sign(down[low, axis])
    s1 = float(s[low])
    rows = (s1, s1 + TOWARDS_TIP * (L - s1)) if L - s1 > 0.05 * L else (0.85 * L, L)
    out = []
    for k, sk in enumerate(rows):
        Rk, pk = alg.rod_frames(model, data, rod.name, [sk])
        half = _extents(rod, sk)
        across = Rk[0][:, 2 - axis]          # the other section axis, world
        for name, direction in (("med", 1.0), ("lat", -1.0)):
            offset = np.zeros(3)
            offset[1 + axis] = sign * half[axis]
            offset[2 - axis] = direction * np.sign(across @ medial or 1.0) * EDGE * half[1 - axis]
            out.append((f"{rod.name}_{name}{k + 1}", float(sk), offset))
    how = (f"rod {rod.name}: on its ground-facing side ({'+-'[int(sign < 0)]}{'yz'[axis]} of its section) at "
           f"s = {rows[0]:.3f} m (lowest at rest) and {rows[1]:.3f} m (towards the tip, length {L:.3f} m), "
           f"{EDGE:g} of the half-width either side")
    return out, how
