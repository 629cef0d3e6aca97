"""Socket interface pressure: a transtibial socket is a rigid device shaped from the stump's skin (the skin offset
outward by a liner's thickness); the socket's load from inverse dynamics is carried by the liner between them. The
liner is a thin elastic layer on the skin: it presses along the socket wall's normal ``n`` (the device's normal, as the
issue's contact model; the wall is rigid in the limb's frame) as eq. 6 with a stiffness per area ``k = E / t`` (its
compressive modulus over its thickness; in series with the soft tissue's below, when given) and shears with
``k_s = G / t`` (its shear modulus ``G = E / 3``: the liners
are incompressible, Cagle et al. 2018). With ``u = [theta; delta]`` the socket's small rigid displacement relative to
the limb, the wall at stump vertex ``i`` moves by ``d_i = delta + theta x r_i``, tangentially by
``d_t,i = (I - n_i n_i^T) d_i``, and::

    p_i = k max(0, c_i),   c_i = delta_0 + (t - gap_i) - n_i . d_i,
    sum_i A_i (-p_i g_i + B_i^T s_i) = W,   g_i = [r_i x n_i; n_i],   B_i^T s = [r_i x s; s]

where ``gap_i`` is the distance from skin vertex ``i`` to its own wall point (the one moulded on it, ``t`` out along
its normal ``n_i``) along that normal at the frame's pose, ``A_i`` the vertex's area on the rest skin and ``W`` the
load (the socket's push on the limb). The skin the socket holds moves with the limb alone, so ``gap_i = t`` at every
pose (to round-off): the liner is at rest at zero load, and the pose is inert for a socket moulded on the stump,
whose maps are computed on the rest stump once (``Socket.moulded_stump``; ``gaps`` and ``check`` guard walls built by
hand). (The nearest wall point is not the vertex's own where the skin
is concave between close vertices: the neighbour's point, offset along a normal tilted towards the vertex, lies nearer
than ``t``; ``t - gap`` was up to 0.14 mm at four brim vertices of the demo's stump, 9 kPa at zero load.) The liner's
shear traction ``s_i`` is either

- bonded (``friction`` None): ``s_i = k_s d_t,i`` wherever the liner is, pressed or not; ``u`` minimises the convex
  ``sum_i A_i (k/2 max(0, c_i)^2 + k_s/2 |d_t,i|^2) - W . u`` (Newton). On the demo's stances this shear carries
  half of the socket's axial load, and its force over the stump is up to twice the pressure's (docs/socket-pressure.md);
- or slipping on the skin (``friction`` mu): Coulomb's friction regularised as eq. 7 with the tangential displacement in
  place of the velocity, ``s_i = mu p_i d_t,i / max(|d_t,i|, eps_i)``, whose regularisation displacement
  ``eps_i = mu p_i / k_s`` is the liner's own elastic shear at Coulomb's bound: the liner shears elastically
  (``k_s d_t,i``) until its traction reaches ``mu p_i``, and slides beyond (``|s_i| = mu p_i``), so that shear needs
  pressure and the wall's pressure carries what the friction cannot. Not a potential (the bound moves with ``p``): the
  bonded solution is carried to it by damped Newton on the wrench residual, with its non-symmetric Jacobian.

Two options stand for what a rigid limb under a moulded socket leaves out (docs/socket-pressure.md measures them):

- soft tissue under the liner (``tissue``: its thickness ``h`` m, ``tissue_modulus`` ``E_t`` Pa, 100 kPa by default, an
  assumed value of the order of in vivo indentation moduli of limb soft tissue, see ``TISSUE_MODULUS``): a second thin
  layer in series with the liner, each a Winkler layer as the liner is (no load spreads sideways), so that per area
  ``k = 1 / (t / E + h / E_t)`` and ``k_s = 1 / (t / G + h / G_t)`` with ``G_t = E_t / 3`` (the tissue, as the liner,
  nearly incompressible); the pressure compresses the liner by ``p t / E`` and the tissue by ``p h / E_t``. Under the
  slipping liner, liner and tissue shear together (``k_s``) until the traction reaches ``mu p``;
- the socket's pre-compression (``fit``: the fit pressure ``p_0`` Pa at donning): the socket is rectified smaller than
  the limb by the uniform interference ``delta_0 = p_0 / k`` (along the wall's normals), so that with ``u = 0`` every
  stump vertex is pressed by ``p_0``, which on a closed surface is in equilibrium by itself; the load's response comes
  on top of it. The stump is open at the brim, so the fit alone pushes the limb out of the socket by ``p_0`` times the
  brim's opening: the bonded liner's shear, or the slipping liner's friction (which the fit makes available before
  the load comes, ``mu p_0``), holds it, and the solve includes that in the map's totals, which equal the load. Where
  the socket moves away from the skin by more than ``delta_0`` the contact unloads: ``p = k max(0, c)`` is never
  negative (no suction), and the slipping liner's shear goes with its pressure; the bonded liner stays bonded.
  The liner's tangential displacement is measured from the donned fit (``u = 0``).

Without any shear, normal pressure on a limb whose sides are nearly parallel to its axis must wedge: carrying the axial
load through the small axial part of the normals takes pressures many times the load over the area (MPa).

The socket holds only skin that the residual limb carries alone (``skin.weights.carried_alone``: its brim lies where the
thigh's skinning weight ends, about the tibial plateau): skin that the thigh moved in part would slide through the rigid
wall as the knee bends, pressing the liner by millimetres at the brim whatever the load.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from engine.algorithms import forward_kinematics, frame_placement
from engine.data import Data
from engine.errors import ModelError
from engine.progress import Progress, run

from .socket_defaults import LINER_MODULUS, LINER_THICKNESS, THRESHOLD, TISSUE_MODULUS

NEWTON_ITERATIONS = 100      # the socket's Newton solve's limit; a frame not carried to TOLERANCE by then is flagged
TOLERANCE = 1e-10            # the wrench residual's tolerance, relative to the load (or 1 N, 1 N m)
ROTATION_LIMIT = 0.1         # rad: the largest socket rotation the model's small displacements stand for. The wall
                             # moves by theta x r, which leaves out the rotation's second-order part, |r| theta^2 / 2:
                             # 0.65 mm at 0.1 rad over the demo stump's 13 cm, a ninth of a 6 mm liner (and
                             # 1 - sin(theta) / theta = theta^2 / 6 = 0.2% of the first-order part)
STRAIN_LIMIT = 0.3           # the largest nominal compressive strain (compression over thickness) of each layer, liner
                             # and soft tissue, that their linear (Winkler) law stands for: assumed, no published
                             # linear range was found (both stiffen as they are compressed: the tissue, Zheng and Mak
                             # 1999; the liners were tested to a strain or stress maximum, Cagle et al. 2017, J Biomech
                             # Eng 139(4):045001); a solution beyond it is flagged, not the modulus's consequence


@dataclass(frozen=True)
class Socket:
    """A socket on ``body`` (the residual limb) of ``skin``: the stump's vertices ``vertices`` (k,) (indices into the
    skin), the socket's inner wall (:attr:`wall`, k x 3, in ``body``'s frame, m), one point on each stump vertex, given
    as ``hand_wall`` for a wall built by hand (None for a moulded one), with its outward unit ``normals`` (k, 3), and the
    liner (``thickness`` m, ``modulus`` Pa; ``friction``: Coulomb's coefficient of the liner on the skin, or None
    for a liner bonded to it), the soft tissue under it (``tissue`` m thick, 0: the limb rigid under the liner, of
    ``tissue_modulus`` Pa) and the fit pressure ``fit`` Pa of the socket's pre-compression (0: moulded on the unloaded
    stump); ``stump`` (k, 3) m: the stump's vertices in ``body``'s frame that the wall is moulded on (``from_stump``,
    which checks that each wall point lies outside its vertex's skin and near it; the limb alone carries them, so the
    pose is inert, :meth:`gaps`), None for a wall built by hand. One of ``hand_wall`` and ``stump`` is given."""

    skin: object
    body: str
    vertices: np.ndarray
    hand_wall: np.ndarray | None
    normals: np.ndarray
    thickness: float = LINER_THICKNESS
    modulus: float = LINER_MODULUS
    friction: float | None = None
    tissue: float = 0.0
    tissue_modulus: float = TISSUE_MODULUS
    fit: float = 0.0
    stump: np.ndarray | None = None

    def __post_init__(self):
        if not (self.thickness > 0 and self.modulus > 0):
            raise ModelError("liner thickness and modulus must be positive", f"socket on '{self.body}'")
        if not (0 <= self.tissue < np.inf and 0 < self.tissue_modulus < np.inf):
            raise ModelError(f"the soft tissue's thickness must be finite and non-negative and its modulus positive, "
                             f"got {self.tissue!r} m and {self.tissue_modulus!r} Pa", f"socket on '{self.body}'")
        if not 0 <= self.fit < np.inf:
            raise ModelError(f"the fit pressure must be finite and non-negative, got {self.fit!r} Pa",
                             f"socket on '{self.body}'")
        if self.friction is not None and not 0 <= self.friction < np.inf:
            raise ModelError(f"the liner's friction coefficient must be finite and non-negative, got "
                             f"{self.friction!r}", f"socket on '{self.body}'")
        if self.body not in self.skin.bodies:
            raise ModelError(f"the skin has no bone '{self.body}'", "socket")
        if (self.hand_wall is None) == (self.stump is None):
            raise ModelError("a socket's wall is built by hand (its points) or moulded on the stump (its vertices): "
                             + ("both are given" if self.stump is not None else "neither is given"),
                             f"socket on '{self.body}'")
        k = len(self.vertices)
        points = self.hand_wall if self.stump is None else self.stump
        if np.shape(points) != (k, 3) or np.shape(self.normals) != (k, 3):
            raise ModelError(f"the {'wall' if self.stump is None else 'stump'}'s points {np.shape(points)} and normals "
                             f"{np.shape(self.normals)} must both be ({k}, 3), one per stump vertex",
                             f"socket on '{self.body}'")

    @cached_property
    def wall(self) -> np.ndarray:
        """The socket's inner wall (k, 3) m in ``body``'s frame: for a socket moulded on the ``stump``, its vertices
        offset outward along their ``normals`` by the liner's ``thickness`` (derived, never stored: a socket given
        another thickness, ``dataclasses.replace``, has its wall where it was moulded with it); else ``hand_wall``."""
        return self.hand_wall if self.stump is None else self.stump + self.thickness * self.normals

    @cached_property
    def areas(self) -> np.ndarray:
        """The stump vertices' areas (k,) m^2 on the rest skin: the liner's area over each, which the limb carries
        rigidly."""
        return self.skin.mesh.normals_areas()[1][self.vertices]

    @property
    def stiffness(self) -> float:
        """k: the pressure per compression of the liner and the tissue in series, Pa/m (``1 / (t / E + h / E_t)``)."""
        return 1.0 / (self.thickness / self.modulus + self.tissue / self.tissue_modulus)

    @property
    def interference(self) -> float:
        """delta_0: how much smaller than the limb the socket is rectified along its normals (m), ``fit / k``."""
        return self.fit / self.stiffness

    @classmethod
    def from_stump(cls, model, skin, body: str, thickness: float = LINER_THICKNESS, modulus: float = LINER_MODULUS,
                   q=None, friction: float | None = None, tissue: float = 0.0, tissue_modulus: float = TISSUE_MODULUS,
                   fit: float = 0.0) -> "Socket":
        """The socket moulded on the stump: the skin vertices that ``body`` carries alone (its brim where the thigh's
        weight ends, ``skin.weights.carried_alone``), offset outward along their normals by the liner's ``thickness``, at
        pose ``q`` (default the skin's rest pose); the liner bonded to the skin or slipping on it with ``friction``,
        on ``tissue`` m of soft tissue of ``tissue_modulus`` Pa, pre-compressed to the fit pressure ``fit`` Pa."""
        if body not in skin.bodies:
            raise ModelError(f"the skin has no bone '{body}'", "socket")
        j = skin.bodies.index(body)
        share = np.where(skin.bone == j, skin.weight, 0.0).sum(axis=1)
        vertices = np.flatnonzero(share > 1.0 - 1e-12)
        x, T = _skin_in_limb(model, skin, body, skin.q_rest if q is None else q)
        normals = skin.mesh.normals_areas(x)[0][vertices] @ T.R
        x = (x[vertices] - T.p) @ T.R
        socket = cls(skin, body, vertices, None, normals, thickness, modulus, friction, tissue, tissue_modulus, fit, x)
        socket.check(model, q)
        return socket

    @cached_property
    def moulded_stump(self):
        """:meth:`gaps` of a socket moulded on the ``stump``, the same at every pose: its vertices (limb frame), the
        normals, the areas and each vertex's gap to its own wall point (``t``, to round-off: :attr:`wall`)."""
        return self.stump, self.normals, self.areas, np.einsum("ia,ia->i", self.normals, self.wall - self.stump)

    def gaps(self, model, q):
        """Stump vertices' positions ``x`` (limb frame), their wall points' normals ``n``, the vertices' areas (on the
        rest skin: the liner's area over each, which the limb carries rigidly) and the gap (m) from each vertex to its
        own wall point along that point's normal at pose ``q``. For a socket moulded on the stump (``from_stump``, its
        ``stump`` kept) the pose is inert: the limb alone carries the stump's skin, so each vertex stays ``t`` from its own
        wall point at every pose (to round-off) and :meth:`pressure` takes ``moulded_stump`` instead; the gaps (and
        :meth:`check`) matter for a wall built by hand, which they guard."""
        x_world, T = _skin_in_limb(model, self.skin, self.body, q)
        x = (x_world[self.vertices] - T.p) @ T.R
        return x, self.normals, self.areas, np.einsum("ia,ia->i", self.normals, self.wall - x)

    def check(self, model, q=None) -> None:
        """ModelError unless each wall point lies outside its stump vertex's skin (the gap above ``-t / 2``) and within
        ``3 t + 1 cm`` of it."""
        x, _, _, gaps = self.gaps(model, self.skin.q_rest if q is None else q)
        where = f"socket on '{self.body}'"
        if not len(x):
            raise ModelError("the skin has no vertex on the residual limb", where)
        reach = 3 * self.thickness + 0.01
        far = np.linalg.norm(self.wall - x, axis=1) > reach
        if far.any():
            raise ModelError(f"does not enclose the stump: {int(far.sum())} of its {len(x)} skin vertices have their "
                             f"socket wall point farther than {reach:.3f} m (lowest at {x[far, 1].min():.3f} m along "
                             f"the limb)", where)
        inside = gaps < -0.5 * self.thickness
        if inside.any():
            raise ModelError(f"cuts into the stump: the wall lies inside the skin at {int(inside.sum())} vertices "
                             f"(deepest {-gaps[inside].min() * 1e3:.1f} mm)", where)

    @property
    def shear_stiffness(self) -> float:
        """k_s: the shear traction per tangential displacement of the liner and the tissue in series, Pa/m
        (``1 / (t / G + h / G_t)``, ``G = E / 3``, ``G_t = E_t / 3``)."""
        return 1.0 / (3.0 * (self.thickness / self.modulus + self.tissue / self.tissue_modulus))

    def unloaded(self, x, n, areas, gaps) -> dict:
        """The donned socket at zero load (on the stump as :meth:`gaps` gives it, e.g. at the skin's rest pose), which
        the fit pressure alone presses: the fit's nominal ``push`` (N) out of the socket along the limb's axis (y,
        proximal; ``fit`` times the axial part of the brim's ``opening``, m^2, the stump's vector area
        ``-sum_i A_i n_i``: a closed stump's is zero), the axial force the liner's shear ``held`` (N) once the limb
        ``settled`` (m, proximally out of the socket) where the wrench balances, the least and largest pressure there,
        ``low`` and ``high`` (Pa; the nominal ``fit`` on a closed stump), and whether that solve ``converged``."""
        m = self.carry(x, n, areas, gaps, np.zeros(6))
        opening = float(-(areas @ n)[1])
        return {"push": self.fit * opening, "opening": opening, "held": float(-m.by_shear[4]),
                "settled": float(-m.u[4]), "low": float(m.pressure.min()) if len(m.pressure) else 0.0, "high": m.peak,
                "converged": m.converged}

    def pressure(self, model, q, load) -> "SocketPressure":
        """The pressure and shear maps carrying ``load`` (6,) ``[moment about the limb frame's origin; force]``, limb
        axes (N m, N), the socket's push on the limb, with the limb at pose ``q``: :meth:`carry` on :meth:`gaps`, or,
        for a moulded socket, on ``moulded_stump`` (the pose inert: the stump is not skinned per frame)."""
        return self.carry(*(self.gaps(model, q) if self.stump is None else self.moulded_stump), load)

    def carry(self, x, n, areas, gaps, load) -> "SocketPressure":
        """The maps carrying ``load`` (6,) on the stump vertices ``x`` (k, 3) m (limb frame) with the wall's normals
        ``n`` (k, 3), the vertices' ``areas`` (k,) m^2 and their ``gaps`` (k,) m to the wall, as :meth:`gaps` gives
        them: the bonded liner's solution (convex), continued by Newton's method to the liner that
        slips when the socket has a ``friction``."""
        g = np.hstack([np.cross(x, n), n])
        c0 = self.thickness + self.interference - gaps
        k, ks, mu = self.stiffness, self.shear_stiffness, self.friction
        # B_i u = theta x r_i + delta, and its tangential part T_i u = (I - n_i n_i^T) B_i u (the liner's shear)
        B = np.zeros((len(x), 3, 6))
        B[:, :, 3:] = np.eye(3)
        B[:, 0, 1], B[:, 0, 2] = x[:, 2], -x[:, 1]
        B[:, 1, 0], B[:, 1, 2] = -x[:, 2], x[:, 0]
        B[:, 2, 0], B[:, 2, 1] = x[:, 1], -x[:, 0]
        T = B - n[:, :, None] * np.einsum("ia,iab->ib", n, B)[:, None, :]
        Ks = np.einsum("i,iab,iac->bc", ks * areas, T, T)     # the bonded liner's shear stiffness (6, 6)
        W = np.asarray(load, float)

        def bonded(u):
            c = c0 - g @ u
            active = c > 0
            r = (k * areas[active] * c[active]) @ g[active] - Ks @ u + W
            return r, lambda: (g[active].T * (k * areas[active])) @ g[active] + Ks

        def slipping(u):
            p = k * np.maximum(c0 - g @ u, 0.0)
            s, stick, slip, d, e = _traction(T @ u, p, ks, mu)
            r = (p * areas) @ g - np.einsum("i,iab,ia->b", areas, T, s) + W

            def jacobian():
                """-dr/du: the pressure's, the sticking shear's and the sliding shear's (along e, its size mu p)."""
                a = areas * (p > 0)
                H = (g.T * (k * a)) @ g + np.einsum("i,iab,iac->bc", ks * areas * stick, T, T)
                Ts = T[slip]
                turn = mu * p[slip] / d[slip] * areas[slip]
                Te = np.einsum("iab,ia->ib", Ts, e[slip])
                H += np.einsum("i,iab,iac->bc", turn, Ts, Ts) - np.einsum("i,ib,ic->bc", turn, Te, Te)
                H -= np.einsum("i,ib,ic->bc", mu * k * a[slip], Te, g[slip])
                return H

            return r, jacobian

        tolerance = TOLERANCE * max(np.linalg.norm(W), 1.0)
        u, r = _newton(bonded, np.zeros(6), tolerance)
        if mu is not None:
            u, r = _newton(slipping, u, tolerance)
        c = c0 - g @ u
        p = k * np.maximum(c, 0.0)
        shear = ks * np.einsum("iab,b->ia", T, u) if mu is None else _traction(T @ u, p, ks, mu)[0]
        compression = p.max(initial=0.0) * self.thickness / self.modulus
        tissue = p.max(initial=0.0) * self.tissue / self.tissue_modulus
        return SocketPressure(self.vertices, p, shear, areas, -(p * areas) @ g,
                              np.einsum("i,iab,ia->b", areas, B, shear), W, u, bool(np.linalg.norm(r) <= tolerance),
                              compression, compression <= STRAIN_LIMIT * self.thickness
                              and tissue <= STRAIN_LIMIT * self.tissue
                              and float(np.linalg.norm(u[:3])) <= ROTATION_LIMIT, tissue)


def _traction(d, p, ks, mu):
    """The liner's shear traction (k, 3) Pa under tangential displacements ``d`` (k, 3) m and pressures ``p`` (k,) Pa:
    elastic ``ks d`` while within Coulomb's bound ``mu p``, else ``mu p d / |d|``; with the masks ``stick`` and
    ``slip``, ``|d|`` and the unit ``e = d / |d|`` (0 where ``d`` is)."""
    size = np.linalg.norm(d, axis=1)
    slip = ks * size > mu * p
    e = np.divide(d, size[:, None], out=np.zeros_like(d), where=size[:, None] > 0)
    s = np.where(slip[:, None], (mu * p)[:, None] * e, ks * d)
    return s, ~slip, slip, size, e


def _newton(residual, u, tolerance):
    """Damped Newton on the wrench residual ``r(u)`` (``residual(u)`` returns it and a function giving ``-dr/du``):
    at most ``NEWTON_ITERATIONS`` steps, each halved until the residual's norm falls; a singular Jacobian ends it.
    Returns ``u`` and ``r(u)`` (the caller compares it with ``tolerance``)."""
    r, jacobian = residual(u)
    for _ in range(NEWTON_ITERATIONS):
        if np.linalg.norm(r) <= tolerance:
            break
        try:
            step = np.linalg.solve(jacobian(), r)
        except np.linalg.LinAlgError:
            break
        t = 1.0
        for _ in range(30):
            rn, jn = residual(u + t * step)
            if np.linalg.norm(rn) <= np.linalg.norm(r) or t < 1e-6:
                break
            t *= 0.5
        u, r, jacobian = u + t * step, rn, jn
    return u, r


@dataclass(frozen=True)
class SocketPressure:
    """One frame's map: ``pressure`` (k,) Pa and the liner's ``shear`` traction (k, 3) Pa (limb axes, on the limb) on
    the stump's skin vertices ``vertices`` (areas ``areas`` m^2); the wrenches they apply, ``by_pressure`` and
    ``by_shear``, and the ``load`` asked (6,) (limb axes, N m about the limb's origin, N); the socket's rigid
    displacement ``u`` (rad, m); ``converged``: whether the solve carried the load to ``TOLERANCE`` (a result, not
    an exception: a frame that did not is flagged by the map and the report); the liner's largest ``compression``
    (m), the soft tissue's ``tissue_compression`` (m, 0 without tissue) and ``in_range``: whether the solution stays
    within the model's small, linear displacements (each layer's compression at most ``STRAIN_LIMIT`` of its
    thickness, the socket's rotation ``|theta|`` at most ``ROTATION_LIMIT``), flagged as ``converged`` is (the slipping liner leaves them on the demo's
    stances, docs/socket-pressure.md)."""

    vertices: np.ndarray
    pressure: np.ndarray
    shear: np.ndarray
    areas: np.ndarray
    by_pressure: np.ndarray
    by_shear: np.ndarray
    load: np.ndarray
    u: np.ndarray
    converged: bool
    compression: float
    in_range: bool
    tissue_compression: float

    @property
    def carried(self) -> np.ndarray:
        """The wrench (6,) the liner applies to the limb: pressure and shear."""
        return self.by_pressure + self.by_shear

    @property
    def peak(self) -> float:
        return float(self.pressure.max(initial=0.0))

    @property
    def loaded_area(self) -> float:
        """m^2 of skin under pressure."""
        return float(self.areas[self.pressure > 0].sum())

    @property
    def mean(self) -> float:
        """Mean pressure over the loaded area, Pa."""
        area = self.loaded_area
        return float((self.pressure * self.areas).sum() / area) if area > 0 else 0.0

    def regions(self, triangles, threshold: float = THRESHOLD) -> list[dict]:
        """Connected patches of skin above ``threshold`` Pa (through the skin's ``triangles``): their vertices
        (skin indices), area (m^2) and peak (Pa), largest first."""
        hot = np.zeros(int(triangles.max()) + 1, bool)
        hot[self.vertices[self.pressure > threshold]] = True
        e = np.concatenate([triangles[:, [0, 1]], triangles[:, [1, 2]], triangles[:, [2, 0]]])
        e = e[hot[e[:, 0]] & hot[e[:, 1]]]
        graph = coo_matrix((np.ones(len(e)), (e[:, 0], e[:, 1])), shape=(len(hot),) * 2)
        _, label = connected_components(graph, directed=False)
        lookup = dict(zip(self.vertices, range(len(self.vertices))))
        out = []
        for lab in np.unique(label[hot]):
            members = np.flatnonzero(hot & (label == lab))
            rows = [lookup[m] for m in members]
            out.append({"vertices": members, "area": float(self.areas[rows].sum()),
                        "peak": float(self.pressure[rows].max())})
        return sorted(out, key=lambda r: -r["area"])


def _skin_in_limb(model, skin, body, q):
    """The skin's vertices at ``q`` (n, 3) in the world frame and ``body``'s placement."""
    data = Data(model)
    x = skin.vertices(model, data, q)
    forward_kinematics(model, data, q)
    return x, frame_placement(model, data, body)


def pressure_steps(model, socket: Socket, Q, loads, threshold: float = THRESHOLD, frames=None):
    """Per frame of configurations ``Q`` (T, nq) and socket loads ``loads`` (T, 6): ``peak``, ``mean`` (Pa),
    ``area`` (loaded, m^2), ``regions`` (patches above ``threshold``), ``hot_area`` (m^2 above it), the force the map
    carries (T, 3, limb axes, N), the ``pressure`` maps (T, k) Pa on ``socket.vertices``, the liner's and the tissue's
    largest ``compression`` and ``tissue_compression`` (m), the socket's ``rotation`` ``|theta|`` (rad), and
    ``converged`` and ``in_range`` (T,) bool (``SocketPressure``'s; True where not computed); ``frames`` (indices)
    restricts the frames computed (the others stay zero). A step generator (``engine.progress``): yields Progress
    per frame, returns the dict; closing it stops between frames."""
    T = len(Q)
    frames = range(T) if frames is None else [int(f) for f in frames]
    out = {k: np.zeros(T) for k in ("peak", "mean", "area", "regions", "hot_area", "compression", "tissue_compression",
                                     "rotation")}
    out["force"] = np.zeros((T, 3))
    out["pressure"] = np.zeros((T, len(socket.vertices)), np.float32)
    out["converged"] = np.ones(T, bool)
    out["in_range"] = np.ones(T, bool)
    triangles = socket.skin.mesh.triangles
    for i, f in enumerate(frames):
        yield Progress("socket pressure", i / max(len(frames), 1), f"frame {i + 1} of {len(frames)}")
        m = socket.pressure(model, Q[f], loads[f])
        hot = m.regions(triangles, threshold)
        out["peak"][f], out["mean"][f], out["area"][f] = m.peak, m.mean, m.loaded_area
        out["regions"][f], out["hot_area"][f] = len(hot), sum(r["area"] for r in hot)
        out["force"][f] = m.carried[3:]
        out["pressure"][f] = m.pressure
        out["compression"][f], out["tissue_compression"][f] = m.compression, m.tissue_compression
        out["rotation"][f] = np.linalg.norm(m.u[:3])
        out["converged"][f] = m.converged
        out["in_range"][f] = m.in_range
    return out


def pressure_over_trial(model, socket: Socket, Q, loads, threshold: float = THRESHOLD) -> dict:
    """:func:`pressure_steps` over every frame, run to its end."""
    return run(pressure_steps(model, socket, Q, loads, threshold))
