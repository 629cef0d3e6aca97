"""The contact's broad phase: Verlet lists. Each device vertex keeps the skin vertices within the contact's reach
plus a margin (``candidate_lists``, found through a uniform grid), and a contact pass looks for its closest skin
vertex among those alone. The lists stay right while the skin's vertices and the devices' together move less than the
margin: a skin vertex within the reach now was within the reach plus the margin when they were made. So they are made
again only when the largest move of a skin vertex plus the largest of a device vertex since then reaches the margin
(a few steps of the lift, many while a body rests), instead of a grid of the skin at every pass. The closest vertex
found is the one a fresh grid finds (two skin vertices at exactly the same distance aside).
"""
from __future__ import annotations

import numpy as np

from . import _kernels_contact as _kc

MARGIN = 0.5        # of the contact's reach: lists of ~1.5^2 the points a query meets, made again after moves of 9 mm
ROUNDING = 1e-9     # m: the margin less this, against the rounding of the distances the lists were made with


class VerletLists:
    """The candidate lists of ``n_points`` points (the device vertices: the rigid devices' rows, then the sheets', as
    ``_kernels_contact.device_points`` stacks them; or a sheet's vertices over a bed) among ``n_targets`` points (the
    skin's vertices; or the bed's) for a search within ``reach`` (m); ``builds`` counts the times they were made;
    ``names`` are what the targets and the points are, for the error that refuses one not finite."""

    def __init__(self, n_targets: int, n_points: int, reach: float, names=("skin vertex", "device vertex")):
        self.reach = float(reach)
        self.margin = MARGIN * self.reach
        self.names = names
        self.x0 = np.full((n_targets, 3), np.nan)     # where the targets and the points were when the lists were made
        self.y0 = np.full((n_points, 3), np.nan)
        self.near, self.candidates = np.zeros(n_points + 1, np.int64), np.zeros(0, np.int64)
        self.builds = 0

    def update(self, x, y) -> tuple[np.ndarray, np.ndarray]:
        """The lists ``(near, candidates)`` (see ``_kernels_contact.candidate_lists``) of the points at ``y`` (M, 3)
        among the targets at ``x`` (n, 3), made again if they moved too far. A point that is not finite (a diverged
        simulation) moves by NaN or infinity, so the lists are made again, and is refused there, where it costs
        nothing while all are finite: FloatingPointError naming the first such target or point."""
        if not _kc.largest_moves(x, self.x0, y, self.y0) <= self.margin - ROUNDING:
            for name, a in zip(self.names, (x, y)):
                if not np.isfinite(a).all():
                    i = int(np.argmin(np.isfinite(a).all(axis=1)))
                    raise FloatingPointError(f"{name} {i} is not finite: {tuple(float(c) for c in a[i])}")
            self.near, self.candidates = _kc.candidate_lists(x, y, self.reach + self.margin)
            self.x0[:] = x
            self.y0[:] = y
            self.builds += 1
        return self.near, self.candidates
