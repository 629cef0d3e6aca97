"""Skin-device contact (seed section V): penalty along the skin's normal (eq. 6) and Martins-Oden regularised
Coulomb friction (eq. 7), found through a uniform-grid broad phase over the skin's vertices."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.errors import SettingsError

from . import _kernels_contact as _k


@dataclass(frozen=True)
class ContactParameters:
    """Table I: ``stiffness`` k_contact (N/m per device vertex), ``friction`` F_c (N), ``eps`` the velocity
    threshold (m/s) below which friction is viscous, ``reach`` (m): how far a device vertex looks for its
    closest skin vertex (deeper penetrations are not seen; a few skin edge lengths)."""

    stiffness: float = 1000.0
    friction: float = 0.5
    eps: float = 0.1
    reach: float = 0.03

    def __post_init__(self):
        for name in ("stiffness", "eps", "reach"):
            if not getattr(self, name) > 0:
                raise SettingsError(f"{name} must be positive, got {getattr(self, name)!r}", "contact parameters")
        if not self.friction >= 0:
            raise SettingsError(f"friction must be non-negative, got {self.friction!r}", "contact parameters")


class SkinGrid:
    """The broad phase: the skin's vertices binned in a uniform grid of cell ``reach``."""

    def __init__(self, x: np.ndarray, reach: float):
        self.x = np.ascontiguousarray(x, float)
        if not np.isfinite(self.x).all() or np.ptp(self.x, axis=0).max() > 1e3:
            raise FloatingPointError("the skin's vertices are not finite or spread over more than a kilometre")
        self.h = float(reach)
        self.lo = self.x.min(axis=0) - 1e-9
        self.dims = np.maximum(np.ceil((self.x.max(axis=0) - self.lo) / self.h).astype(np.int64), 1)
        self.start = np.empty(int(np.prod(self.dims)) + 1, np.int64)
        self.order = np.empty(len(self.x), np.int64)
        self.near = np.empty(len(self.start) - 1, np.bool_)
        _k.build_grid(self.x, self.h, self.lo, self.dims, self.start, self.order, self.near)

    def closest(self, p) -> int:
        """Index of the skin vertex closest to ``p`` within ``reach`` (-1 if none)."""
        p = np.asarray(p, float)
        return int(_k.closest(self.x, self.h, self.lo, self.dims, self.start, self.order, self.near, p[0], p[1], p[2]))


def contact(grid: SkinGrid, normals, xdot, p, pn, pdot, params: ContactParameters, f_skin, f_normal):
    """Contact of device vertices ``p`` (N, 3) with outward normals ``pn`` moving at ``pdot`` with the skin of
    ``grid`` (unit outward ``normals``, velocities ``xdot``): adds the skin's forces to ``f_skin`` (n, 3) N and
    their normal parts' magnitudes to ``f_normal`` (n,); returns the device's forces (N, 3) N and the number of
    contacts."""
    p = np.ascontiguousarray(p, float)
    f_device = np.empty_like(p)
    count = _k.contact_forces(grid.x, normals, xdot, grid.h, grid.lo, grid.dims, grid.start, grid.order, grid.near, p,
                              np.ascontiguousarray(pn, float), np.ascontiguousarray(pdot, float), params.stiffness,
                              params.friction, params.eps, f_skin, f_normal, f_device)
    return f_device, count
