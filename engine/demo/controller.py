"""A whole-body controller that makes the default athlete run in place (task-space inverse dynamics).

Every integrator step it solves one quadratic program over the accelerations ``a`` (nv) and the
forces ``f`` of the contact points of the limb in its planned stance (:class:`RunningInPlace`):
the intact foot's points that touch the floor or are about to, or the blade's loaded points.

* equalities: the floating base's rows of ``M a + nle = J^T f + f_known`` (``f_known``: the
  floor's measured forces on points outside their limb's stance), the blade's strain
  accelerations planned as zero (its modes are far faster than the motion; the simulation lets
  it flex), and the blade's vertical forces (below);
* inequalities: the chosen forces unilateral and inside a linearised friction cone;
* weighted tasks: every actuated joint towards the reference (PD on its spline, plus the foot
  placement below; the stance limb's hip and knee weakly, the swing limb's joints firmly), the
  pelvis upright, and in the stance the centre-of-mass acceleration ``(sum f + f_known) / m + g``
  of the reference with feedback, the centroidal angular momentum brought to zero, and the
  stance limb's points that stay put.

The blade's vertical force is not a choice: it is the state of the compressed blade. In its stance
the plan makes the blade push with the reference's vertical force (spread over its loaded points
as the floor loads them): when the blade pushes less, that torque extends the limb and compresses
the blade further, when more, the limb yields. Its horizontal forces are chosen like the foot's,
its points held still horizontally. The torques follow as ``tau = M a + nle - J^T f - f_known`` on
the actuated rows. The swing limb is placed ahead of the centre of mass by a fraction of its speed
and of its distance from home (Raibert's foot placement), in the world: the pelvis's tilt is
taken out of the hip angles.

It keeps running for three strides (all that was tried), drifting forward by about 0.1 m per stride and
sideways by a few centimetres, which the foot placement corrects only slowly; the demo records two, with each
plate where its limb lands.
"""
from __future__ import annotations

import numpy as np

from .. import algorithms as alg
from ..data import Data
from ..errors import SettingsError
from ..algorithms.kinematics import frame_id
from ..spatial import skew
from ..qp import solve_qp
from ..tree import compile_tree
from .reference import RunningInPlace

JOINT = (400.0, 40.0)             # joint servo (1/s^2, 1/s)
PELVIS = (400.0, 40.0)            # pelvis orientation servo
COM = ((60.0, 20.0), (100.0, 20.0), (100.0, 20.0))   # centre of mass (x, y, z) in a stance
CONTACT_DAMPING = 60.0            # 1/s, stance points brought to rest
WEIGHTS = {"joint": 1.0, "stance_leg": 0.3, "swing_leg": 20.0, "pelvis": 200.0, "pelvis_flight": 2.0, "com": 200.0,
           "momentum": 20.0, "contact": 200.0, "a": 1e-6, "f": 1e-8}
MOMENTUM_GAIN = 10.0              # 1/s: centroidal angular momentum brought to zero in a stance
FRICTION = 0.7                    # the plan's cone, inside the floor's 0.8
NEAR = 0.002                      # m: a point of the foot this close to the floor in its stance may take force
MIN_FORCE = 20.0                  # N: below this planned vertical force the blade's forces are the floor's
PLACEMENT_SPEED = 0.25            # s: foot placed ahead of the centre of mass by this times its speed
PLACEMENT_POSITION = 0.3          # foot placed ahead by this times its distance from home
PLACEMENT_TIME = 0.05             # s, smoothing of the placement offsets
LEG_LENGTH = 0.9                  # m


def _log_so3(R) -> np.ndarray:
    c = np.clip((np.trace(R) - 1.0) / 2.0, -1.0, 1.0)
    angle = np.arccos(c)
    w = np.array([R[2, 1] - R[1, 2], R[0, 2] - R[2, 0], R[1, 0] - R[0, 1]])
    return w * (0.5 if angle < 1e-9 else angle / (2.0 * np.sin(angle)))


class RunningController:
    """Joint torques for the default athlete to run in place (:class:`RunningInPlace`).

    ``com_mean`` (m, world) is the mean centre of mass the reference oscillates about; ``springs`` the
    simulation's passive joint springs (the returned torques are the active part). Call it at
    every integrator step with the floor's forces and penetrations of the previous step.
    """

    def __init__(self, model, reference: RunningInPlace, com_mean, springs=()):
        self.model, self.reference = model, reference
        # the simulation's passive joint springs (JointSpring): known forces in the plan
        self.springs = [(compile_tree(model).coordinates[s.coordinate], s) for s in springs]
        self.com_mean = np.asarray(com_mean, float)
        self.data = Data(model)
        tree = compile_tree(model)
        self.mass = float(tree.k.nodes["mass"].sum())
        segs = tree.k.segs
        self.strains = np.sort(segs["v"][segs["q"] >= 0])
        strain_set = set(self.strains.tolist())
        self.joint_names = [c.name for c in model.all_coordinates if not c.locked and c.coupled_to is None
                            and tree.coordinates[c.name].vi not in strain_set]
        self.joint_q = np.array([tree.coordinates[n].qi for n in self.joint_names])
        self.joint_v = np.array([tree.coordinates[n].vi for n in self.joint_names])
        self.base = np.arange(6)
        self.groups = {}
        for c in model.contacts:
            self.groups.setdefault(c.group, []).append(c.name)
        self.frames = {c.name: frame_id(model, c.name) for c in model.contacts}
        self.side = {"foot_l": "_l", "blade": "_r"}
        self._index = {n: i for i, n in enumerate(self.joint_names)}
        self.legs = {}
        for group, sd in self.side.items():
            leg = [i for i, n in enumerate(self.joint_names)
                   if n.endswith(sd) and n.startswith(("hip", "knee", "ankle"))]
            self.legs[group] = {"all": leg, "stance": [i for i in leg if not self.joint_names[i].startswith("ankle")]}
        self.offsets = {g: np.zeros(2) for g in self.side}     # placement (hip flexion, adduction), rad
        self._last_t = None

    def __call__(self, t: float, q, v, forces: dict, depths: dict) -> np.ndarray:
        """Joint forces ``tau`` (nv; zero on the base and the blade) at time ``t`` (s) for the state
        ``(q, v)``; ``forces`` and ``depths`` map each contact point to the floor's force on it (N,
        world) and its penetration (m, positive in the floor)."""
        m, d, nv = self.model, self.data, self.model.nv
        ref = self.reference
        planned = ref.stance(t)
        # the points whose forces the plan chooses: the limb in its stance, where it touches or is about to
        chosen = [n for n in self.groups["foot_l"] if "foot_l" in planned and depths[n] > -NEAR]
        # the blade's vertical force is the state of the compressed blade: in its stance the plan makes it push
        # with the reference's vertical force (spread over its points as the floor loads them) and chooses only
        # its horizontal forces
        vertical = {}
        planned_vertical = self.mass * ref.vertical_force(t)
        loaded = [n for n in self.groups["blade"] if forces[n][1] > MIN_FORCE / 4]
        if "blade" in planned and planned_vertical > MIN_FORCE and loaded:
            total = sum(forces[n][1] for n in loaded)
            vertical = {n: planned_vertical * forces[n][1] / total for n in loaded}
            chosen += loaded
        # points the floor pushes on outside their limb's stance: known forces
        known = {n: forces[n] for g in self.groups for n in self.groups[g] if n not in chosen and forces[n][1] > 0.0}
        c = alg.center_of_mass(m, d, q)
        momentum = alg.spatial_momentum(m, d, q, v)
        cd = momentum[3:] / self.mass
        M = alg.crba(m, d, q)
        h = alg.nle(m, d, q, v)
        for slot, sp in self.springs:
            h[slot.vi] += sp.stiffness * (q[slot.qi] - sp.rest) + sp.damping * v[slot.vi]
        f_known = np.zeros(nv)
        for Ji, n in zip(alg.point_jacobians(m, d, q, list(known)) if known else (), known):
            f_known += Ji.T @ known[n]
        nf = 3 * len(chosen)
        J = alg.point_jacobians(m, d, q, chosen) if chosen else np.zeros((0, 3, nv))
        points = {n: alg.frame_placement(m, d, n).p for n in list(chosen) + list(known)}
        rows, rhs, weights = [], [], []

        def task(A, b, w):
            rows.append(A)
            rhs.append(b)
            weights.append(np.broadcast_to(w, len(b)))

        def on_forces(block):
            A = np.zeros((3, nv + nf))
            for i, n in enumerate(chosen):
                A[:, nv + 3 * i:nv + 3 * i + 3] = block(n)
            return A

        # joints: the stance limb's hip and knee follow the body, the swing limb is placed
        qr, vr, ar = ref.joints(t, self.joint_names)
        R = alg.frame_placement(m, d, "pelvis").R
        dq = self._placement(t, c, cd, R)
        A = np.zeros((len(self.joint_v), nv + nf))
        A[np.arange(len(self.joint_v)), self.joint_v] = 1.0
        kp, kd = JOINT
        w = np.full(len(self.joint_v), WEIGHTS["joint"])
        for group, leg in self.legs.items():
            if group in planned and chosen:
                w[leg["stance"]] = WEIGHTS["stance_leg"]
            elif group not in planned:
                w[leg["all"]] = WEIGHTS["swing_leg"]
        task(A, ar + kp * (qr + dq - q[self.joint_q]) + kd * (vr - v[self.joint_v]), w)
        # pelvis upright (body-frame angular acceleration of the free joint)
        A = np.zeros((3, nv + nf))
        A[:, :3] = np.eye(3)
        kp, kd = PELVIS
        task(A, kp * _log_so3(R.T) - kd * v[:3], WEIGHTS["pelvis"] if planned else WEIGHTS["pelvis_flight"])
        if chosen:
            # centre of mass: m c'' = sum f + f_known + m g
            known_total = sum(known.values(), np.zeros(3))
            c_ref, cd_ref, cdd_ref = ref.com(t)
            kp, kd = np.array(COM).T
            cdd = cdd_ref + kp * (self.com_mean + c_ref - c) + kd * (cd_ref - cd)
            task(on_forces(lambda n: np.eye(3) / self.mass), cdd - np.array(m.gravity) - known_total / self.mass,
                 WEIGHTS["com"])
            # centroidal angular momentum: sum (p - c) x f = -k L
            L = momentum[:3] - np.cross(c, self.mass * cd)
            moment = sum((np.cross(points[n] - c, f) for n, f in known.items()), np.zeros(3))
            task(on_forces(lambda n: skew(points[n] - c)), -MOMENTUM_GAIN * L - moment, WEIGHTS["momentum"])
            # the stance limb's points stay where they are
            Jdv = self._bias(q, v, chosen)
            for i in range(len(chosen)):
                A = np.zeros((3, nv + nf))
                A[:, :nv] = J[i]
                task(A, -CONTACT_DAMPING * (J[i] @ v) - Jdv[i],
                     WEIGHTS["contact"] * (np.array([1.0, 0.0, 1.0]) if chosen[i] in vertical else 1.0))
        A = np.vstack(rows)
        b = np.concatenate(rhs)
        W = np.concatenate(weights)
        P = A.T @ (W[:, None] * A)
        P[np.arange(nv), np.arange(nv)] += WEIGHTS["a"]
        P[np.arange(nv, nv + nf), np.arange(nv, nv + nf)] += WEIGHTS["f"]
        qv = -A.T @ (W * b)
        # the floating base's rows, M a + h = J^T f + f_known; strain accelerations zero; the blade's vertical forces
        base = self.base
        nb, ns = len(base), len(self.strains)
        Aeq = np.zeros((nb + ns + len(vertical), nv + nf))
        Aeq[:nb, :nv] = M[base]
        for i in range(len(chosen)):
            Aeq[:nb, nv + 3 * i:nv + 3 * i + 3] = -J[i][:, base].T
        Aeq[nb + np.arange(ns), self.strains] = 1.0
        beq = np.concatenate([f_known[base] - h[base], np.zeros(ns), list(vertical.values())])
        for r, n in enumerate(vertical):
            Aeq[nb + ns + r, nv + 3 * chosen.index(n) + 1] = 1.0
        G, hin = self._cone(len(chosen), nv)
        x, reason = solve_qp(P, qv, G, hin, Aeq, beq)
        if x is None:
            raise SettingsError(f"the running controller's QP has no solution at t = {t:.4f} s ({reason})",
                                "demo simulation")
        a, f = x[:nv], x[nv:].reshape(-1, 3)
        tau = M @ a + h - f_known
        for i in range(len(chosen)):
            tau -= J[i].T @ f[i]
        out = np.zeros(nv)
        out[self.joint_v] = tau[self.joint_v]
        return out

    def _placement(self, t: float, c, cd, R) -> np.ndarray:
        """Offsets (rad) of the hips' references that place each limb for its next landing, updated while it swings."""
        dt = 0.0 if self._last_t is None else t - self._last_t
        self._last_t = t
        c_ref, cd_ref, _ = self.reference.com(t)
        dq = np.zeros(len(self.joint_names))
        i = self._index
        dx = PLACEMENT_SPEED * cd[0] + PLACEMENT_POSITION * (c[0] - self.com_mean[0])
        dz = PLACEMENT_SPEED * (cd[2] - cd_ref[2]) + PLACEMENT_POSITION * (c[2] - self.com_mean[2] - c_ref[2])
        # in the world: the pelvis's pitch (about z) and roll (about x) turn the legs with it
        target = np.array([dx, dz]) / LEG_LENGTH + np.array([-np.arcsin(R[1, 0]), np.arcsin(R[2, 1])])
        for group, s in self.side.items():
            if group not in self.reference.stance(t):
                self.offsets[group] += min(1.0, dt / PLACEMENT_TIME) * (target - self.offsets[group])
            flex, add = self.offsets[group]
            dq[i[f"hip_flexion{s}"]] += flex
            # positive adduction moves the left foot to +z and the right foot to -z
            dq[i[f"hip_adduction{s}"]] += add if s == "_l" else -add
        return dq

    def _bias(self, q, v, names) -> np.ndarray:
        """J-dot v of the named points (m/s^2, world), gravity excluded."""
        alg.forward_kinematics(self.model, self.data, q, v, np.zeros_like(v))
        return alg.frame_classical_accelerations(self.model, self.data, [self.frames[n] for n in names])[:, 3:]

    def _cone(self, n: int, nv: int):
        """``G x <= h``: unilateral normal force (world y) inside a four-sided friction pyramid."""
        G = np.zeros((5 * n, nv + 3 * n))
        for j in range(n):
            x, y, z = nv + 3 * j, nv + 3 * j + 1, nv + 3 * j + 2
            r = 5 * j
            G[r, y] = -1.0
            G[r + 1, x], G[r + 1, y] = 1.0, -FRICTION
            G[r + 2, x], G[r + 2, y] = -1.0, -FRICTION
            G[r + 3, z], G[r + 3, y] = 1.0, -FRICTION
            G[r + 4, z], G[r + 4, y] = -1.0, -FRICTION
        return G, np.zeros(5 * n)
