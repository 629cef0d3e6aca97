"""Skin-device contact (seed section V): penalty along the skin's normal (eq. 6) and Martins-Oden regularised
Coulomb friction (eq. 7) with Coulomb's cone ``F_c = mu f_n``, found through Verlet lists made with a uniform grid
over the skin's vertices (``skin.broad_phase``; numba, ``_kernels_contact``).

The seed's Table I gives a constant ``F_c = 0.5 N`` per device vertex: the friction a body can get is then the
number of device vertices under it times 0.5 N, so whether a lift holds a body depends on how finely the lift is
meshed. With the cone, the friction a support can give is ``mu`` times the load it carries whatever its mesh, and
a body on a slope of angle ``a`` slides when ``tan a > mu`` (below ``eps`` the friction is viscous, so a body
held on a slope creeps at about ``eps tan a / mu``).
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.errors import SettingsError

FRICTION = 0.4      # skin and clothing on a padded support (cotton on skin or vinyl: mu 0.3-0.5)


@dataclass(frozen=True)
class ContactParameters:
    """``stiffness`` k_contact (N/m per device vertex, Table I), ``friction`` mu (Coulomb's coefficient,
    dimensionless; eq. 7's ``F_c = mu f_n``), ``eps`` the velocity threshold (m/s, Table I) below which friction is
    viscous, ``reach`` (m): how far a device vertex looks for its closest skin vertex (deeper penetrations are not
    seen; a few skin edge lengths)."""

    stiffness: float = 1000.0
    friction: float = FRICTION
    eps: float = 0.01
    reach: float = 0.018     # 1.5 times the seed-size skin spacing (12 mm)

    def __post_init__(self):
        for name in ("stiffness", "eps", "reach"):
            if not getattr(self, name) > 0:
                raise SettingsError(f"{name} must be positive, got {getattr(self, name)!r}", "contact parameters")
        if not self.friction >= 0:
            raise SettingsError(f"friction must be non-negative, got {self.friction!r}", "contact parameters")
