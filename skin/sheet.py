"""Deformable sheets as mass-spring systems (seed eqs. 4-5), solved by Liu et al.'s fast mass-spring method
(ACM TOG 32(6) 2013): each implicit (backward Euler) step minimises

    g(x) = w/2 (x - y)^T M (x - y) + sum_e k/2 (|x_k - x_l| - r_e)^2 - f . x,   w = 1/dt^2 (0 for statics)

by alternating a local step (each spring's rest-length direction ``d_e``, closed form) and a global step
(one linear solve with a matrix factored once), which is block coordinate descent: ``g`` never increases.

The skin's contact on the sheet (seed eq. 6) is part of the same minimisation, so that a contact as stiff as the
sheet (the seed sets ``k_contact = k_sheet``) does not limit the step: each sheet vertex ``k`` that has a skin vertex
``idx(k)`` (position ``a_k``, outward normal ``n_k``, found at the step's start) adds

    k_contact/2 max(0, n_k . (a_k - x_k))^2  =  min over t in H_k of k_contact/2 |x_k - t|^2

(``H_k`` the half-space outside the skin), a spring to its projection on ``H_k`` (Liu et al.'s treatment of any
energy that is a squared distance to a set; Bouaziz et al. 2014's projective dynamics): the local step projects,
the global matrix gains ``k_contact`` on the contact vertices' diagonal and is factored again when a vertex gains a
contact. A vertex with a spring in the matrix but no contact keeps a spring to its own position, which changes
nothing at the minimum, so the matrix also holds springs ``BUFFER`` edges around the contact vertices, where contact
spreads next: it is factored again only when contact spreads beyond them (or when fewer than half the vertices that
had a contact at the last factorization still have one). A rigid device under the sheet (a bed) adds springs of a
second kind the same way.

The springs are the mesh's edges: on ``grid_sheet`` structural springs along x and z and one shear diagonal per cell,
no bending springs. A sheet pinned at its corner vertices has no converged static sag under refinement (a point
support of a membrane is a log singularity); held by patches of a size in metres (``PinRegion``, ``corner_patches``:
a strap over a finite width) its sag converges (order 1.1 to 1.3, the patches' inner corners being singular); pinned
along two opposite edges its centre converges faster than h^2 to a value between two elastic catenaries:
docs/mass-spring-sheet.md.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import splu

from engine.errors import ModelError

from . import _kernels_sheet as _k
from .mesh import TriangleMesh

BUFFER = 2      # sheet edges around the contact vertices that also get a contact spring in the factored matrix
REGION_TOL = 1e-9   # a PinRegion's faces, relative to the mesh's bounding-box diagonal


@dataclass(frozen=True)
class PinRegion:
    """A patch of a sheet held by its device (a strap or a clip over a finite width, not a point): every vertex of
    the sheet's rest mesh inside the axis-aligned box from ``lo`` to ``hi`` (3,) (world frame, m; faces included,
    up to ``REGION_TOL`` of the mesh's size, so that a vertex computed onto a face is not lost to rounding)."""

    lo: tuple
    hi: tuple

    def vertices(self, mesh: TriangleMesh) -> np.ndarray:
        """Indices of ``mesh``'s vertices inside the box, ascending."""
        v = mesh.vertices
        tol = REGION_TOL * float(np.linalg.norm(np.ptp(v, axis=0)))
        inside = np.all((v >= np.asarray(self.lo, float) - tol) & (v <= np.asarray(self.hi, float) + tol), axis=1)
        return np.flatnonzero(inside)


def patch_axes(mesh: TriangleMesh, size: float, what: str, where: str) -> tuple[int, int]:
    """The two in-plane axes of a flat sheet (its rest mesh's bounding box's thinnest axis is its normal), for a
    corner patch reaching ``size`` m into it along each; raises ModelError (``what`` names the value, ``where`` the
    setting) unless ``0 < size <`` half the sheet's shorter side (a patch of no size holds one vertex, whose sag does
    not converge; one as large as half the side reaches the next corner's)."""
    v = mesh.vertices
    lo, hi = v.min(axis=0), v.max(axis=0)
    normal = int(np.argmin(hi - lo))
    a, b = (axis for axis in range(3) if axis != normal)
    if not 0.0 < size < 0.5 * min(hi[a] - lo[a], hi[b] - lo[b]):
        raise ModelError(f"{what} {size!r} m is not in (0, half the sheet's shorter side "
                         f"{0.5 * min(hi[a] - lo[a], hi[b] - lo[b]):g} m)", where)
    return a, b


def corner_patches(mesh: TriangleMesh, size: float) -> tuple[PinRegion, ...]:
    """The four square patches of side ``size`` (m) at the corners of a flat sheet (its rest mesh's bounding box;
    the box's thinnest axis is its normal and is taken whole), in the order (-, -), (-, +), (+, -), (+, +) of the
    two other axes (x then z for ``grid_sheet``)."""
    lo, hi = mesh.vertices.min(axis=0), mesh.vertices.max(axis=0)
    a, b = patch_axes(mesh, size, "corner patch size", "corner patches")
    patches = []
    for end_a in (0, 1):
        for end_b in (0, 1):
            p_lo, p_hi = lo.copy(), hi.copy()
            for axis, end in ((a, end_a), (b, end_b)):
                if end == 0:
                    p_hi[axis] = lo[axis] + size
                else:
                    p_lo[axis] = hi[axis] - size
            patches.append(PinRegion(tuple(p_lo), tuple(p_hi)))
    return tuple(patches)


@dataclass(frozen=True)
class MassSpringSheet:
    """A sheet: its rest surface ``mesh`` (world frame, m; the springs are its edges at their rest lengths),
    total ``mass`` (kg, Table I's sum_k M(k, k), lumped to the vertices by area), spring ``stiffness``
    k_sheet (N/m, Table I), the vertices held by the device (the sling's hooks): ``pinned`` vertex indices
    (integers, each once) and the vertices of each ``regions`` patch (:class:`PinRegion`, e.g. :func:`corner_patches`:
    a patch of a size in metres holds the same part of the sheet whatever its mesh), together :attr:`held`, and their
    ``motion`` (``placement(t) -> (R, p, w, pdot)``, see ``skin.device``; None: fixed)."""

    name: str
    mesh: TriangleMesh
    mass: float = 10.0
    stiffness: float = 1000.0
    pinned: tuple = ()
    motion: object = None
    regions: tuple = ()

    def __post_init__(self):
        if not (self.mass > 0 and self.stiffness > 0):
            raise ModelError("mass and stiffness must be positive", f"sheet '{self.name}'")
        where = f"sheet '{self.name}'"
        pins, seen = [], {}
        for pin in self.pinned:
            if not (isinstance(pin, (int, np.integer)) and not isinstance(pin, bool)
                    or isinstance(pin, (float, np.floating)) and float(pin).is_integer()):
                raise ModelError(f"pinned vertex {pin!r} is not a vertex index (an integer)", where)
            if not 0 <= pin < self.mesh.n_vertices:
                raise ModelError(f"pinned vertex {pin!r} does not lie in [0, {self.mesh.n_vertices})", where)
            if int(pin) in seen:
                raise ModelError(f"pinned vertex {int(pin)} is named twice", where)
            pins.append(int(pin))
            seen[int(pin)] = "the pinned vertices"
        held = list(pins)
        for i, region in enumerate(self.regions):
            if not isinstance(region, PinRegion):
                raise ModelError(f"pin region {i} is {region!r}, not a PinRegion", where)
            lo, hi = np.asarray(region.lo, float), np.asarray(region.hi, float)
            what = f"pin region {i} (from ({', '.join(f'{c:.6g}' for c in lo)}) to ({', '.join(f'{c:.6g}' for c in hi)}) m)"
            if lo.shape != (3,) or hi.shape != (3,) or not np.all(np.isfinite(lo) & np.isfinite(hi) & (lo <= hi)):
                raise ModelError(f"{what} is not a box: lo and hi must be 3 finite coordinates with lo <= hi", where)
            inside = region.vertices(self.mesh)
            if len(inside) == 0:
                raise ModelError(f"{what} holds no vertex of the mesh", where)
            for v in inside.tolist():
                if v in seen:
                    raise ModelError(f"vertex {v} is held twice: by {seen[v]} and by {what}", where)
                seen[v] = what
            held.extend(inside.tolist())
        edges = self.mesh.edges()
        rest = np.linalg.norm(self.mesh.vertices[edges[:, 0]] - self.mesh.vertices[edges[:, 1]], axis=1)
        _, areas = self.mesh.normals_areas()
        object.__setattr__(self, "pinned", tuple(pins))
        object.__setattr__(self, "regions", tuple(self.regions))
        object.__setattr__(self, "_held", tuple(held))
        object.__setattr__(self, "_edges", edges)
        object.__setattr__(self, "_rest", rest)
        object.__setattr__(self, "_masses", self.mass * areas / areas.sum())

    @property
    def held(self) -> tuple:
        """Every vertex the device holds: ``pinned`` in the order given, then each region's vertices ascending;
        :meth:`pinned_positions` lists them so."""
        return self._held

    @property
    def edges(self) -> np.ndarray:
        """Springs (e, 2): the mesh's edges."""
        return self._edges

    @property
    def rest_lengths(self) -> np.ndarray:
        """r_kl (e,) m."""
        return self._rest

    @property
    def masses(self) -> np.ndarray:
        """Lumped vertex masses (n,) kg: the diagonal of M."""
        return self._masses

    def pinned_positions(self, t: float) -> np.ndarray:
        """World positions (p, 3) of the :attr:`held` vertices at time ``t``."""
        x = self.mesh.vertices[list(self.held)]
        if self.motion is None:
            return x
        R, p, _, _ = self.motion.placement(t)
        return x @ R.T + p

    def energy(self, x) -> float:
        """Eq. 5's elastic energy (J) at positions ``x`` (n, 3)."""
        return float(_k.spring_energy(np.ascontiguousarray(x, float), self._edges, self._rest, self.stiffness))


class LocalGlobalSolver:
    """Liu et al.'s solver for ``sheet`` with inertia weight ``w`` (1/dt^2 for a step of ``dt`` s, 0 for
    statics): the global matrix ``w M + k L`` on the free vertices is factored once."""

    def __init__(self, sheet: MassSpringSheet, w: float):
        self.sheet = sheet
        self.w = float(w)
        self.factorizations = 0
        n = sheet.mesh.n_vertices
        e = sheet.edges
        ne = len(e)
        A = sp.csr_matrix((np.r_[np.ones(ne), -np.ones(ne)], (np.r_[np.arange(ne), np.arange(ne)],
                                                              np.r_[e[:, 0], e[:, 1]])), shape=(ne, n))
        Q = (self.w * sp.diags(sheet.masses) + sheet.stiffness * (A.T @ A)).tocsc()
        self.pinned = np.zeros(n, bool)
        self.pinned[list(sheet.held)] = True
        self.free = np.flatnonzero(~self.pinned)
        self.fixed = np.flatnonzero(self.pinned)                # the pins sorted: the solver's order
        self.pins = np.array(sheet.held, np.int64)               # the sheet's order, which fixed_positions follow
        if self.w == 0 and len(self.fixed) == 0:
            raise ModelError("a sheet with no held vertex has no static equilibrium", f"sheet '{sheet.name}'")
        self.Q_free = Q[self.free][:, self.free].tocsc()
        self.Q_fp = Q[self.free][:, self.fixed].tocsr()       # a diagonal added to Q leaves it as it is
        self.members = (np.zeros(0, np.int64), np.zeros(0, np.int64))   # the vertices with a contact spring of
        self.member_masks = (np.zeros(n, bool), np.zeros(n, bool))      # each kind in the matrix, and as masks
        self.adjacent = (A.T @ A).tocsr()                     # nonzero between neighbours
        self.needed = (0, 0)                                  # each kind's vertices with a contact at the factoring
        self.k_contact = 0.0
        self.nobody, self.none = np.zeros(0, np.int64), np.full(n, -1, np.int64)   # a kind without contacts: its
        self.nowhere = np.zeros((n, 6))                       # members, idx and anchors
        self.rhs, self.rhs_free = np.empty((n, 3)), np.empty((len(self.free), 3))     # the global step's work arrays
        self._factor()

    def _factor(self) -> None:
        """Factor the free block of ``Q`` plus ``k_contact`` on the members' diagonal, once per kind of contact
        (symmetric positive definite: a symmetric ordering and no pivoting give sparser factors, 25% faster
        solves)."""
        extra = np.zeros(self.sheet.mesh.n_vertices)
        for members in self.members:
            extra[members] += self.k_contact
        Q = self.Q_free + sp.diags(extra[self.free]) if extra.any() else self.Q_free
        self.Q_ff = splu(Q.tocsc(), permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=0.0, options={"SymmetricMode": True})
        self.factorizations += 1

    def _use_contact(self, kinds, k_contact: float) -> None:
        """Make the factored matrix hold a contact spring of each kind at each free vertex with such a contact
        (``kinds``: one ``idx`` (n,) per kind, ``>= 0`` where the vertex has one)."""
        needs = [(idx >= 0) & ~self.pinned for idx in kinds]
        if k_contact == self.k_contact and all(
                not (need & ~member).any() and 2 * int(need.sum()) >= needed
                for need, member, needed in zip(needs, self.member_masks, self.needed)):
            return
        grown = []
        for need in needs:
            member = need.copy()
            for _ in range(BUFFER if need.any() else 0):
                member |= self.adjacent @ member.astype(float) != 0.0
            grown.append(member & ~self.pinned)
        self.member_masks = tuple(grown)
        self.members = tuple(np.flatnonzero(member) for member in grown)
        self.needed = tuple(int(need.sum()) for need in needs)
        self.k_contact = float(k_contact)
        self._factor()

    def objective(self, x, y, f, contact=None, support=None) -> float:
        """``g(x)`` (J) of the module notes, with the contact springs of ``contact`` and ``support`` (see
        :meth:`solve`)."""
        dx = x - y
        g = 0.5 * self.w * float(np.sum(self.sheet.masses[:, None] * dx * dx)) + self.sheet.energy(x) \
            - float(np.sum(f * x))
        if contact is not None:
            idx, anchor, k_contact = contact
            g += _k.contact_energy(np.ascontiguousarray(x, float), idx, anchor, k_contact)
            if support is not None:
                g += _k.contact_energy(np.ascontiguousarray(x, float), support[0], support[1], k_contact)
        return g

    def solve(self, x0, y, f, fixed_positions, iterations: int = 10, tol: float = 0.0, record: bool = False,
              contact=None, support=None):
        """Minimise ``g`` from ``x0`` (n, 3) with the held vertices at ``fixed_positions`` (p, 3) (in the order of
        ``sheet.held``, as :meth:`MassSpringSheet.pinned_positions` gives them); ``y`` (n, 3) the
        inertial target, ``f`` (n, 3) the external forces (N); ``contact``: ``(idx (n,) int, anchor (n, 6), k_contact
        N/m)``, each vertex's skin vertex (-1: none) with its position and outward unit normal (m, world frame), as
        ``_kernels_contact.contact_forces`` finds them; ``support``: ``(idx (n,) int, anchor (n, 6))`` the same for the
        rigid devices the sheet lies on (the device's vertex and outward normal; the sheet is kept outside), springs
        as stiff as ``contact``'s. Stops after ``iterations`` or when no vertex moved more than ``tol`` m. Returns
        ``x`` and, with ``record``, ``g`` after each iteration."""
        s = self.sheet
        x = np.array(x0, float)
        x[self.pins] = fixed_positions
        base = self.w * s.masses[:, None] * y + f
        rhs_fixed = self.Q_fp @ x[self.fixed]
        planes = [] if contact is None else [(contact[0], contact[1])]
        if support is not None:
            if contact is None:
                raise ValueError("a support's springs take the contact's stiffness: pass contact too")
            planes.append(support)
        if planes or any(len(m) for m in self.members):
            kinds = [p[0] for p in planes] + [self.none] * (2 - len(planes))
            self._use_contact(kinds, contact[2] if contact is not None else self.k_contact)
        springs = []        # each kind's contact springs in the matrix and their planes
        for i, members in enumerate(self.members):
            springs += [members, *planes[i]] if i < len(planes) and len(members) else [self.nobody, self.none,
                                                                                        self.nowhere]
        history = []
        for _ in range(iterations):
            _k.global_rhs(x, s.edges, s.rest_lengths, float(s.stiffness), base, *springs, self.k_contact, self.free,
                          rhs_fixed, self.rhs, self.rhs_free)
            moved = _k.put_free(self.Q_ff.solve(self.rhs_free), self.free, x)
            if record:
                history.append(self.objective(x, y, f, contact, support))
            if moved <= tol:
                break
        return (x, history) if record else x


def static_shape(sheet: MassSpringSheet, gravity=(0.0, -9.80665, 0.0), iterations: int = 20000, tol: float = 1e-12,
                 record: bool = False):
    """The sheet's static equilibrium under gravity (m/s^2) with the pins at their rest positions, by the
    local/global iteration (``w = 0``)."""
    solver = LocalGlobalSolver(sheet, 0.0)
    f = sheet.masses[:, None] * np.asarray(gravity, float)
    x = sheet.mesh.vertices
    return solver.solve(x, x, f, x[list(sheet.held)], iterations, tol, record)
