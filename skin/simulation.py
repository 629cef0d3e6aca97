"""Forward dynamics of a skinned body on devices (seed eq. 1, Fig. 1):

    M(q) a + nle(q, v) = tau_joint + tau_rod + J^T f,        f = f_contact + f_friction (eqs. 6-7, 12)

integrated by a Lie-group Runge-Kutta method of order 4 (RKMK4, as the engine's ``simulate``; the seed's
explicit RK4) or, with ``scene.integrator = "linearly-implicit-euler"``, by a linearly implicit Euler step whose
stiffness holds the joint springs (eq. 2) and the contacts seen through the skin, ``J^T k n n^T J`` (eq. 11): one
contact pass per step instead of four, and a step no longer bound by the contacts' stiffness on the light limbs (the
sling: 2e-3 s instead of 1e-3). Each evaluation skins the body (eq. 3), finds the contacts through the grid, maps the skin
forces to the bones' wrenches (``J_S^T f``) and hands them to the engine's inverse dynamics as node wrenches,
which applies them through the bones' Jacobians (``J_B^T``); ``a`` solves ``M a = tau - (nle - J^T f)``. The
rods (the blade) add their own elastic and viscous forces when ``scene.elastic_rods`` (their stiffest
bending and torsion modes reach 2e5 rad/s, so an explicit step must then be about 1e-5 s); by default the
rods keep their initial strains and move rigidly with their inertia (their accelerations are zero and the
rest of eq. 1 is solved for). Rigid devices follow their prescribed motion at every stage; sheets take one
implicit step of Liu et al.'s solver per body step after the body's: the skin's friction of the step's start acts on
them as an external force, its normal force (eq. 6) as contact springs inside the implicit step, each sheet vertex
against the skin vertex it met at the body step's last stage (at ``t + dt``; the implicit step's single pass, moved
to where the step put the skin), so that contact as stiff as the sheet does not limit the step (``skin.sheet``); a
rigid device under a sheet (the sling's bed) holds it up by contact springs of the same step, each sheet vertex
against its closest device vertex. The body meets each sheet where it was at the step's start.
"""
from __future__ import annotations

import time as _time
from dataclasses import dataclass, field

import numpy as np

from engine.algorithms import (crba_batch, forward_kinematics, frame_jacobians_batch, integrate, rnea_batch,
                               rod_forces)
from engine.algorithms.compiled import dexpinv
from engine.data import Data
from engine.progress import Progress, run
from engine.tree import compile_tree

from . import _kernels_contact as _kc
from . import _kernels_skin as _ks
from ._kernels_mesh import vertex_areas, vertex_normals
from .broad_phase import VerletLists
from .scene import Scene
from .sheet import LocalGlobalSolver

SHEET_TOL = 1e-6    # m: a sheet's local/global iterations stop once no vertex moves more than this
SHEET_ITERATIONS = 10   # at most, from the inertial prediction x + dt u (Liu et al.)


@dataclass
class SimulationResult:
    """What a run produced, sampled every ``record_every`` steps: ``time`` (T,) s, ``q`` (T, nq), ``v`` (T, nv),
    ``pressure`` (T, n) Pa per skin vertex (normal contact force over the vertex's area), ``sheet_pressure``
    (T, n) Pa the sheets' share of it (what a sensor between the skin and a sling reads), ``contact_force``
    (T, 3) N the total force of the devices on the skin, ``contacts`` (T,) device vertices in contact,
    ``sheets`` ``{name: (T, N, 3)}`` sheet positions (m), ``wall_seconds`` the time spent stepping."""

    scene: str
    time: np.ndarray
    q: np.ndarray
    v: np.ndarray
    pressure: np.ndarray
    sheet_pressure: np.ndarray
    contact_force: np.ndarray
    contacts: np.ndarray
    sheets: dict = field(default_factory=dict)
    wall_seconds: float = 0.0
    notes: list = field(default_factory=list)

    @property
    def speed(self) -> float:
        """Simulated seconds per wall-clock second."""
        return float(self.time[-1] - self.time[0]) / max(self.wall_seconds, 1e-12)


class Simulator:
    """Steps a :class:`Scene`; holds the mutable state (``t``, ``q``, ``v``, the sheets' positions and
    velocities) and the work arrays."""

    def __init__(self, scene: Scene):
        self.scene = scene
        model, skin = scene.model, scene.skin
        self.data = Data(model)
        self.frames = skin.frames(model)
        self.t = 0.0
        self.q = np.array(scene.q0, float)
        self.v = np.zeros(model.nv) if scene.v0 is None else np.array(scene.v0, float)
        self.sheet_x = [s.mesh.vertices.copy() for s in scene.sheets]
        self.sheet_v = [np.zeros_like(x) for x in self.sheet_x]
        self.solvers = [LocalGlobalSolver(s, 1.0 / scene.dt ** 2) for s in scene.sheets]
        gravity = np.asarray(model.gravity, float)
        self.sheet_gravity = [s.masses[:, None] * gravity for s in scene.sheets]
        # the rigid devices' vertices and normals stacked, at their placement before the motion
        rest = [d.mesh.vertices @ d.placement0.R.T + d.placement0.p for d in scene.devices]
        normals = [d.mesh.normals_areas()[0] @ d.placement0.R.T for d in scene.devices]
        self.rest = np.ascontiguousarray(np.concatenate(rest) if rest else np.zeros((0, 3)))
        self.rest_n = np.ascontiguousarray(np.concatenate(normals) if normals else np.zeros((0, 3)))
        self.bounds = np.concatenate([[0], np.cumsum([len(x) for x in rest])]).astype(np.int64)
        D = len(scene.devices)
        self.dR, self.dp = np.tile(np.eye(3), (D, 1, 1)), np.zeros((D, 3))
        self.dw, self.dpdot = np.zeros((D, 3)), np.zeros((D, 3))
        self.device_forces = np.zeros((D, 3))
        sizes = np.concatenate([[0], np.cumsum([len(x) for x in self.sheet_x])]).astype(int)
        self.sheet_slices = [slice(a, b) for a, b in zip(sizes[:-1], sizes[1:])]
        self.P, self.Pn, self.Pdot = np.zeros((sizes[-1], 3)), np.zeros((sizes[-1], 3)), np.zeros((sizes[-1], 3))
        self.f_sheet = np.zeros((sizes[-1], 3))
        self.sheet_idx = np.full(sizes[-1], -1, np.int64)        # each sheet vertex's skin vertex at the last pass
        self.sheet_anchor = np.zeros((sizes[-1], 6))             # its position and outward normal
        self.support_idx = np.full(sizes[-1], -1, np.int64)       # each sheet vertex's rigid-device vertex
        self.support_anchor = np.zeros((sizes[-1], 6))           # its position and outward normal
        self.supports = None                                     # the rigid devices' vertices and normals
        self.support_lists = VerletLists(len(self.rest), sizes[-1], scene.contact.reach,
                                         ("rigid device vertex", "sheet vertex"))
        self.sheet_soft = np.concatenate([scene.dt / s.masses for s in scene.sheets]) if scene.sheets else np.zeros(0)
        n = skin.n_vertices
        self.x, self.xdot = np.empty((n, 3)), np.empty((n, 3))
        self.normals, self.areas = np.zeros((n, 3)), np.empty(n)
        self.done = np.zeros(n, np.bool_)          # the skin vertices whose velocity a contact pass has computed
        self.y = np.empty((len(self.rest) + len(self.P), 3))     # every device vertex, as device_points stacks them
        self.lists = VerletLists(n, len(self.y), scene.contact.reach)
        self.f_skin, self.f_normal, self.k_skin = np.zeros((n, 3)), np.zeros(n), np.zeros((n, 2))
        self.f_rigid = np.zeros(n)                                # the rigid devices' share of f_normal
        self.rows, self.rates = np.empty((0, 0)), np.empty(0)     # the implicit step's contact rows
        self.bone_w = np.empty((len(skin.bodies), 6))
        self.fext = np.zeros((1, compile_tree(model).n_nodes, 6))
        self.count = 0
        rod_v = {compile_tree(model).coordinates[c].vi for r in model.rods for c in compile_tree(model).coordinates
                 if c.startswith(f"{r.name}_s")}
        self.free = np.array([i for i in range(model.nv) if i not in rod_v], np.int64)
        self.zero = np.zeros((1, model.nv))

    def device_placements(self, t) -> None:
        """The rigid devices' motions at ``t`` into ``dR``, ``dp``, ``dw``, ``dpdot``; the sheets' vertices, normals
        and velocities into ``P``, ``Pn``, ``Pdot``."""
        for d, device in enumerate(self.scene.devices):
            if device.motion is not None:
                self.dR[d], self.dp[d], self.dw[d], self.dpdot[d] = device.motion.placement(t)
        for sheet, x, u, sl in zip(self.scene.sheets, self.sheet_x, self.sheet_v, self.sheet_slices):
            self.P[sl] = x
            vertex_normals(x, sheet.mesh.triangles, self.Pn[sl])
            self.Pdot[sl] = u

    def forces(self, t, q, v) -> np.ndarray:
        """The skin's contact forces at ``(t, q, v)`` into ``f_skin`` / ``f_normal`` (the sheets' into ``f_sheet``,
        each rigid device's total into ``device_forces``); returns them as node wrenches (1, nodes, 6) for the
        engine's inverse dynamics."""
        s = self.scene
        skin, c = s.skin, s.contact
        forward_kinematics(s.model, self.data, q, v)
        R, p, w, pdot = self.frames(self.data, True)
        self.bone_R = R
        _ks.deform(R, p, skin.bone, skin.weight, skin.local, self.x)
        self.device_placements(t)
        sk = (self.done, skin.mesh.triangles, R, w, pdot, skin.bone, skin.weight, skin.local)
        _kc.device_points(self.rest, self.bounds, self.dR, self.dp, self.P, self.y)
        near, candidates = self.lists.update(self.x, self.y)
        self.count = _kc.contact_pass(self.x, self.normals, self.xdot, sk, c.reach, near, candidates, self.rest,
                                      self.rest_n, self.bounds,
                                      self.dR, self.dp, self.dw, self.dpdot, self.P, self.Pn, self.Pdot, self.sheet_soft, c.stiffness,
                                      c.friction, c.eps, self.f_skin, self.f_normal, self.k_skin, self.f_sheet,
                                      self.sheet_idx, self.sheet_anchor, self.device_forces, self.f_rigid)
        _ks.bone_wrenches(R, skin.bone, skin.weight, skin.local, self.f_skin, self.bone_w)
        self.fext[:] = 0.0
        _ks.node_wrenches(p, self.frames.nodes, self.bone_w, self.fext[0])
        return self.fext

    def acceleration(self, t, q, v) -> np.ndarray:
        """``a`` of eq. 1 at ``(t, q, v)``."""
        s = self.scene
        model = s.model
        fext = self.forces(t, q, v)
        rhs = s.stiffness.torque(q, v) - rnea_batch(model, self.data, q[None], v[None], self.zero, fext)[0]
        M = crba_batch(model, self.data, q[None])[0]
        a = np.zeros(model.nv)
        if s.elastic_rods or len(self.free) == model.nv:
            if s.elastic_rods:
                rhs += rod_forces(model, q, v)
            a[:] = np.linalg.solve(M, rhs)
        else:
            f = self.free
            a[f] = np.linalg.solve(M[np.ix_(f, f)], rhs[f])
        return a

    def step(self) -> None:
        """One step of the body (``scene.integrator``), then one implicit step of each sheet."""
        if self.scene.integrator == "rk4":
            self._rk4_step()
        else:
            self._implicit_step()
        self._sheet_steps()
        self.t += self.scene.dt

    def _rk4_step(self) -> None:
        """One RKMK4 step of the body; the sheets' friction of the first stage, their contacts of the last."""
        s = self.scene
        model, dt, t, q, v = s.model, s.dt, self.t, self.q, self.v
        nodes = compile_tree(model).k.nodes
        a1 = self.acceleration(t, q, v)
        self.sheet_forces = self.f_sheet.copy()
        k1 = v
        d2 = 0.5 * dt * k1
        v2 = v + 0.5 * dt * a1
        k2 = np.empty_like(v)
        dexpinv(nodes, d2, v2, k2)
        a2 = self.acceleration(t + 0.5 * dt, integrate(model, q, d2), v2)
        d3 = 0.5 * dt * k2
        v3 = v + 0.5 * dt * a2
        k3 = np.empty_like(v)
        dexpinv(nodes, d3, v3, k3)
        a3 = self.acceleration(t + 0.5 * dt, integrate(model, q, d3), v3)
        d4 = dt * k3
        v4 = v + dt * a3
        k4 = np.empty_like(v)
        dexpinv(nodes, d4, v4, k4)
        a4 = self.acceleration(t + dt, integrate(model, q, d4), v4)
        self.q = integrate(model, q, dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4))
        self.v = v + dt / 6.0 * (a1 + 2 * a2 + 2 * a3 + a4)

    def _implicit_step(self) -> None:
        """One linearly implicit Euler step of the body: with ``K`` the stiffness of the joint springs and of the
        contacts seen through the skin (``J^T k n n^T J``, eq. 11, each device vertex held where it is) and ``D`` the
        joint dampers', ``(M + dt D + dt^2 K) dv = dt (M a - dt (K v - J^T k n n . u))``, ``v += dv``,
        ``q = q (+) dt v``, each device vertex moving on at its velocity ``u`` through the step (a sheet carrying the
        body moves with it; held still, it would take ``k dt`` N s/m of the lift away per contact): one contact pass
        per step, and contact as stiff as the sheet no longer limits the step. The sheets then meet the skin
        vertices they met at the step's start, moved to where the step put them."""
        s = self.scene
        model, skin, dt, q, v = s.model, s.skin, s.dt, self.q, self.v
        f = self.free
        fext = self.forces(self.t, q, v)
        self.sheet_forces = self.f_sheet.copy()
        rhs = s.stiffness.torque(q, v) - rnea_batch(model, self.data, q[None], v[None], self.zero, fext)[0]
        M = crba_batch(model, self.data, q[None])[0]
        kq, kv = s.stiffness.gains(q)
        JB = frame_jacobians_batch(model, self.data, q[None], skin.bodies)[0][0]
        if self.rows.shape[0] < skin.n_vertices:
            self.rows, self.rates = np.empty((skin.n_vertices, len(f))), np.empty(skin.n_vertices)
        m = _kc.normal_rows(self.bone_R, skin.bone, skin.weight, skin.local, JB, self.normals, self.k_skin, f,
                            self.rows, self.rates)
        K = self.rows[:m].T @ self.rows[:m]
        moving = self.rows[:m].T @ self.rates[:m]
        K[np.diag_indices_from(K)] += kq[f]
        A = M[np.ix_(f, f)] + dt * dt * K
        A[np.diag_indices_from(A)] += dt * kv[f]
        dv = np.linalg.solve(A, dt * (rhs[f] - dt * (K @ v[f] - moving)))
        self.v = v.copy()
        self.v[f] += dv
        self.q = integrate(model, q, dt * self.v)
        if s.sheets:
            forward_kinematics(model, self.data, self.q)
            R, p = self.frames(self.data)
            _ks.deform(R, p, skin.bone, skin.weight, skin.local, self.x)
            met = self.sheet_idx >= 0
            self.sheet_anchor[met, :3] = self.x[self.sheet_idx[met]]

    def _supports(self, t) -> None:
        """Each sheet vertex's closest rigid-device vertex at ``t`` within the contact's reach (the devices placed once
        when none moves; Verlet lists) into ``support_idx``, ``support_anchor``."""
        s = self.scene
        if self.supports is None or any(d.motion is not None for d in s.devices):
            X, N = np.empty_like(self.rest), np.empty_like(self.rest_n)
            for d, device in enumerate(s.devices):
                R, p = np.eye(3), np.zeros(3)
                if device.motion is not None:
                    R, p, _, _ = device.motion.placement(t)
                rows = slice(self.bounds[d], self.bounds[d + 1])
                X[rows] = self.rest[rows] @ R.T + p
                N[rows] = self.rest_n[rows] @ R.T
            self.supports = (X, N)
        X, N = self.supports
        sheets = np.concatenate(self.sheet_x)
        near, candidates = self.support_lists.update(X, sheets)
        _kc.support_planes(sheets, X, N, s.contact.reach, near, candidates, self.support_idx, self.support_anchor)

    def _sheet_steps(self) -> None:
        """One implicit step of each sheet to ``t + dt``: the skin's friction (``sheet_forces``) as an external force,
        its normal force as contact springs (``sheet_idx``, ``sheet_anchor``), the rigid devices under it as contact
        springs too (``support_idx``, ``support_anchor``: a sling lies on its bed)."""
        s = self.scene
        dt = s.dt
        if s.sheets and s.devices:
            self._supports(self.t + dt)
        for i, sheet in enumerate(s.sheets):
            x, u, sl = self.sheet_x[i], self.sheet_v[i], self.sheet_slices[i]
            f = self.sheet_gravity[i] + self.sheet_forces[sl]
            contact = (self.sheet_idx[sl], self.sheet_anchor[sl], s.contact.stiffness)
            support = (self.support_idx[sl], self.support_anchor[sl]) if s.devices else None
            y = x + dt * u
            new = self.solvers[i].solve(y, y, f, sheet.pinned_positions(self.t + dt), SHEET_ITERATIONS, SHEET_TOL,
                                        contact=contact, support=support)
            self.sheet_v[i] = (new - x) / dt
            self.sheet_x[i] = new

    def record(self) -> tuple:
        """Pressure (n,) Pa, the sheets' share of it (n,) Pa, total skin force (3,) N and contacts at the current
        state (the skin's vertex areas at it; ``forces`` computed its normals)."""
        self.forces(self.t, self.q, self.v)
        vertex_areas(self.x, self.scene.skin.mesh.triangles, self.areas)
        return (self.f_normal / self.areas, (self.f_normal - self.f_rigid) / self.areas, self.f_skin.sum(axis=0),
                self.count)


_DIVERGED = (FloatingPointError, np.linalg.LinAlgError)   # what a state gone non-finite raises, stepping or recording


def _diverged(t: float, exc: Exception, dt: float) -> str:
    """The note that ends a run whose state went non-finite at ``t`` s."""
    return f"the simulation diverged at {t:.4f} s ({exc}); the run stops there (take a smaller step than {dt} s)"


def simulate(scene: Scene, duration: float | None = None, record_every: int = 10, progress=None) -> SimulationResult:
    """Run ``scene`` for ``duration`` s (default the scene's), recording every ``record_every`` steps;
    ``progress(fraction)`` is called at each record."""
    report = None if progress is None else (lambda p: progress(p.fraction))
    return run(simulation_steps(scene, duration, record_every), report)


def simulation_steps(scene: Scene, duration: float | None = None, record_every: int = 10):
    """:func:`simulate` as a step generator (``engine.progress``): yields a ``Progress`` at each record (the fraction of
    the steps done, the simulated time in the message) and returns the :class:`SimulationResult`; closing it stops
    the run there (a worker thread's Cancel)."""
    sim = Simulator(scene)
    steps = int(round((scene.duration if duration is None else duration) / scene.dt))
    times, Q, V, P, S, F, C = [], [], [], [], [], [], []
    sheets = {s.name: [] for s in scene.sheets}
    wall = 0.0
    notes = []
    for k in range(steps + 1):
        if k % record_every == 0 or k == steps:
            try:
                pressure, on_sheets, force, count = sim.record()
            except _DIVERGED as exc:         # a step can leave a non-finite state without raising (RK4's sum, the solve)
                notes.append(_diverged(sim.t, exc, scene.dt))
                break
            times.append(sim.t)
            Q.append(sim.q.copy())
            V.append(sim.v.copy())
            P.append(pressure.astype(np.float32))
            S.append(on_sheets.astype(np.float32))
            F.append(force)
            C.append(count)
            for s, x in zip(scene.sheets, sim.sheet_x):
                sheets[s.name].append(x.astype(np.float32))
            yield Progress("simulating", k / max(steps, 1), f"{sim.t:.3f} s simulated")
        if k == steps:
            break
        t0 = _time.perf_counter()
        try:
            sim.step()
        except _DIVERGED as exc:
            notes.append(_diverged(sim.t, exc, scene.dt))
            break
        wall += _time.perf_counter() - t0
    return SimulationResult(scene.name, np.array(times), np.array(Q), np.array(V), np.array(P), np.array(S),
                            np.array(F), np.array(C), {n: np.array(x) for n, x in sheets.items()}, wall, notes)
