"""Force plates: the ground reaction measured by one plate, in the lab frame.

Conventions (all loaders follow them):

* ``force`` is the ground reaction force acting **on the subject** (N), so its
  component along the plate's ``normal`` (the unit vector pointing up, out of the
  plate surface) is positive while someone stands on the plate.
* ``moment`` is the moment of that reaction about the **origin of the lab frame** (N m).
* ``cop`` is the centre of pressure (m): the point of the plate surface plane where
  the reaction has no moment tangent to the surface. It is NaN wherever the normal
  force is below ``threshold`` (N), where it is undefined rather than wild.
* ``free_moment`` is the moment left at the centre of pressure, along ``normal``
  (N m); NaN where the centre of pressure is.

Every vector is expressed in the same frame as the trial's markers (the lab frame
as recorded, or the frame a :meth:`ForcePlate.transformed` rotation produced).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from .intervals import intervals_where

DEFAULT_THRESHOLD = 20.0
"""Normal force (N) below which the centre of pressure is undefined (NaN).

20 N is well above the noise of laboratory plates (typically 1-5 N) and well below
the force of any foot contact (hundreds of N), so contact intervals are kept whole
while an unloaded plate gives no spurious centre of pressure.
"""


def _frozen(array, shape_tail, name):
    out = np.array(array, dtype=float)
    if out.shape[1:] != shape_tail:
        raise ValueError(f"{name} must have shape (n, {', '.join(map(str, shape_tail))}), got {out.shape}")
    out.setflags(write=False)
    return out


def centre_of_pressure(force, moment, surface_point, normal, threshold=DEFAULT_THRESHOLD):
    """Centre of pressure and free moment of a reaction on a plane.

    Parameters
    ----------
    force : (n, 3) N, the reaction on the subject.
    moment : (n, 3) N m, its moment about the frame origin.
    surface_point : (3,) m, any point of the contact surface plane.
    normal : (3,) unit normal of that plane, pointing up (out of the surface).
    threshold : N; where ``force . normal < threshold`` both results are NaN.

    Returns
    -------
    cop : (n, 3) m, the point ``p`` of the plane with ``moment - p x force`` along ``normal``.
    free_moment : (n, 3) N m, ``(moment - cop x force)``, which lies along ``normal``.
    """
    force = np.asarray(force, dtype=float)
    moment = np.asarray(moment, dtype=float)
    point = np.asarray(surface_point, dtype=float)
    normal = np.asarray(normal, dtype=float)
    cop = np.full(force.shape, np.nan)
    free = np.full(force.shape, np.nan)
    normal_force = force @ normal
    loaded = np.isfinite(normal_force) & (normal_force >= threshold)
    if loaded.any():
        f = force[loaded]
        m_point = moment[loaded] - np.cross(point, f)
        r = np.cross(normal, m_point) / normal_force[loaded][:, None]
        cop[loaded] = point + r
        torque = np.einsum("ij,j->i", m_point - np.cross(r, f), normal)
        free[loaded] = torque[:, None] * normal
    return cop, free


@dataclass(frozen=True, eq=False)
class ForcePlate:
    """One force plate's reaction, sampled at ``rate`` from time ``t0``.

    Parameters
    ----------
    name : str, e.g. ``'FP1'`` or the ExternalForce name of a GRF file.
    number : int, 1-based position of the plate in its file.
    type : int or None, the C3D FORCE_PLATFORM:TYPE (None for plates from a GRF .mot).
    rate : Hz.  t0 : s, time of the first sample.
    force, moment, cop, free_moment : (n, 3), see the module docstring.
    normal : (3,) unit vector out of the plate surface (up).
    surface_point : (3,) m, a point of the plate surface plane (the centre of the
        corners for a C3D plate).
    threshold : N, normal force below which ``cop`` and ``free_moment`` are NaN.
    corners : (4, 3) m or None (plates from a GRF .mot have no corners).
    origin : (3,) m or None, the plate's measurement origin (where the transducer
        moments are zero), in the lab frame.
    calibration : (6, 6) or None, the C3D CAL_MATRIX applied to the channels.
    channels : names of the analog channels the plate was computed from.
    """

    name: str
    number: int
    type: int | None
    rate: float
    t0: float
    force: np.ndarray
    moment: np.ndarray
    cop: np.ndarray
    free_moment: np.ndarray
    normal: np.ndarray
    surface_point: np.ndarray
    threshold: float = DEFAULT_THRESHOLD
    corners: np.ndarray | None = None
    origin: np.ndarray | None = None
    calibration: np.ndarray | None = None
    channels: tuple[str, ...] = field(default=())

    def __post_init__(self):
        for name in ("force", "moment", "cop", "free_moment"):
            object.__setattr__(self, name, _frozen(getattr(self, name), (3,), name))
        n = len(self.force)
        if any(len(getattr(self, k)) != n for k in ("moment", "cop", "free_moment")):
            raise ValueError(f"plate {self.name!r}: force, moment, cop and free_moment differ in length")
        normal = np.array(self.normal, dtype=float)
        normal = normal / np.linalg.norm(normal)
        normal.setflags(write=False)
        object.__setattr__(self, "normal", normal)
        point = np.array(self.surface_point, dtype=float).reshape(3)
        point.setflags(write=False)
        object.__setattr__(self, "surface_point", point)
        for name, shape in (("corners", (4, 3)), ("origin", (3,)), ("calibration", (6, 6))):
            value = getattr(self, name)
            if value is not None:
                value = np.array(value, dtype=float).reshape(shape)
                value.setflags(write=False)
                object.__setattr__(self, name, value)
        object.__setattr__(self, "channels", tuple(self.channels))
        if self.corners is not None and not abs(self._turn()) > 0.0:
            raise ValueError(f"plate {self.name!r}: the corners span no area")

    def _turn(self) -> float:
        """Twice the signed area of the corners' first triangle, seen along ``normal`` (m^2; its sign is the
        corners' sense of rotation about the normal)."""
        c = self.corners
        return float(np.cross(c[1] - c[0], c[2] - c[1]) @ self.normal)

    @classmethod
    def from_loads(cls, force, moment, *, normal, surface_point, threshold=DEFAULT_THRESHOLD, **fields):
        """Build a plate from its force and moment (about the origin), computing COP and free moment."""
        cop, free = centre_of_pressure(force, moment, surface_point, normal, threshold)
        return cls(force=force, moment=moment, cop=cop, free_moment=free, normal=normal,
                   surface_point=surface_point, threshold=threshold, **fields)

    # ------------------------------------------------------------------ derived
    @property
    def n_samples(self) -> int:
        return len(self.force)

    @property
    def time(self) -> np.ndarray:
        """(n,) s, the sample times."""
        return self.t0 + np.arange(self.n_samples) / self.rate

    @property
    def normal_force(self) -> np.ndarray:
        """(n,) N, the reaction's component along ``normal`` (the vertical force)."""
        return self.force @ self.normal

    @property
    def loaded(self) -> np.ndarray:
        """(n,) bool, where the normal force reaches ``threshold``."""
        return self.normal_force >= self.threshold

    def loaded_intervals(self) -> list[tuple[float, float]]:
        """Time spans (s, first and last loaded sample) where the normal force reaches ``threshold``."""
        return intervals_where(self.time, self.loaded)

    def covers(self, points) -> np.ndarray | None:
        """(...,) bool: which ``points`` (..., 3) m lie over the plate, projected along ``normal`` into the
        quadrilateral of its ``corners`` (edges included); None for a plate without corners."""
        if self.corners is None:
            return None
        points = np.asarray(points, dtype=float)
        inside = np.ones(points.shape[:-1], bool)
        turn = self._turn()
        for k in range(4):
            a, b = self.corners[k], self.corners[(k + 1) % 4]
            side = np.cross(b - a, points - a) @ self.normal
            inside &= side * np.sign(turn) >= 0.0
        return inside

    # ------------------------------------------------------------------ new plates
    def with_loads(self, force, moment, rate, t0) -> "ForcePlate":
        """The same plate with new force and moment samples (COP and free moment recomputed)."""
        cop, free = centre_of_pressure(force, moment, self.surface_point, self.normal, self.threshold)
        return replace(self, force=force, moment=moment, cop=cop, free_moment=free, rate=float(rate), t0=float(t0))

    def transformed(self, rotation) -> "ForcePlate":
        """The plate with every vector rotated by ``rotation`` (3x3, old frame to new frame)."""
        R = np.asarray(rotation, dtype=float)

        def rot(v):
            return None if v is None else np.asarray(v) @ R.T

        return replace(self, force=rot(self.force), moment=rot(self.moment), cop=rot(self.cop),
                       free_moment=rot(self.free_moment), normal=rot(self.normal),
                       surface_point=rot(self.surface_point), corners=rot(self.corners), origin=rot(self.origin))

    def samples(self, selection) -> "ForcePlate":
        """The plate restricted to a contiguous slice of its samples."""
        start = selection.start or 0
        return replace(self, force=self.force[selection], moment=self.moment[selection], cop=self.cop[selection],
                       free_moment=self.free_moment[selection], t0=float(self.t0 + start / self.rate))
