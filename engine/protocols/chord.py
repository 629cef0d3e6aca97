"""The chord function of the Helen Hayes / Davis model and Plug-in Gait (Davis et al. 1991, Hum Mov Sci
10:575-587): a distal joint centre J from the proximal joint centre P, a marker M on the joint's lateral side
and a plane. J lies in the plane through P and M, at the distance ``delta`` from M (half the joint's width plus
the marker's radius), and the segment's axis P -> J is perpendicular to M -> J (M on the joint's flexion axis).
So J is on the circle of diameter PM (Thales), at the angle ``theta = acos(delta / |PM|)`` from M -> P:

    J = M + delta (cos(theta) e1 - sin(theta) e2)

with ``e1`` the unit vector M -> P and ``e2`` the unit in-plane vector perpendicular to it on the marker's side
(lateral). In Plug-in Gait the plane holds a wand ``W`` (thigh or tibia wand), lateral of the line PM, and ``e2``
is the part of M -> W perpendicular to ``e1``. Helen Hayes sets without wands have a marker ``A`` in front of the
joint on the segment's midline (suprapatella, tibial tuberosity): J is then the point of that circle with A in
the plane through J perpendicular to the flexion axis M -> J, ``(A - M) . (J - M) = delta**2``; of its two
solutions the one with ``e2`` lateral (``e1 x (A - M)`` points medially on the right side in a right-handed lab
frame: forward x up = right). Arrays (F, 3) in metres, the lab's frame; NaN where an input is.
"""
from __future__ import annotations

import numpy as np


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def chord(proximal: np.ndarray, marker: np.ndarray, lateral: np.ndarray, delta: float) -> np.ndarray:
    """The joint centre J (F, 3) m from the proximal centre, the marker and ``lateral`` (F, 3), a direction
    (or a point's offset from the marker) in the plane, lateral of the line marker -> proximal; ``delta`` m the
    marker -> J distance. NaN in a frame where the marker is no further than ``delta`` from the proximal centre
    (no such centre); ValueError when ``delta`` is not positive."""
    if not delta > 0:
        raise ValueError(f"the joint's marker-to-centre distance must be positive, got {delta * 1e3:g} mm")
    e1 = proximal - marker
    length = np.linalg.norm(e1, axis=-1)
    length = np.where(length > delta, length, np.nan)
    e1 = e1 / length[..., None]
    e2 = _unit(lateral - np.sum(lateral * e1, axis=-1, keepdims=True) * e1)
    cos = (delta / length)[..., None]
    return marker + delta * (cos * e1 - np.sqrt(1.0 - cos ** 2) * e2)


def chord_midline(proximal: np.ndarray, marker: np.ndarray, anterior: np.ndarray, delta: float,
                  side: str) -> np.ndarray:
    """The joint centre J (F, 3) m with the ``anterior`` marker (F, 3) in its sagittal plane (perpendicular to
    marker -> J), on ``side`` 'R' or 'L'. NaN in a frame where no such point exists."""
    e1 = _unit(proximal - marker)
    length = np.linalg.norm(proximal - marker, axis=-1)
    cos = delta / np.where(length > delta, length, np.nan)
    sin = np.sqrt(1.0 - cos ** 2)
    h = anterior - marker
    g = h - np.sum(h * e1, axis=-1, keepdims=True) * e1
    size = np.linalg.norm(g, axis=-1)
    along = (np.sum(h * e1, axis=-1) * cos - delta) / (sin * size)     # cosine of e2 with g
    along = np.where(np.abs(along) <= 1.0, along, np.nan)
    across = np.cross(e1, g / size[..., None]) * (-1.0 if side == "R" else 1.0)
    e2 = along[..., None] * g / size[..., None] + np.sqrt(1.0 - along ** 2)[..., None] * across
    return chord(proximal, marker, e2, delta)
