"""A whole-body controller that makes the default athlete hop in place (task-space inverse dynamics).

Every integrator step it solves one quadratic program over the accelerations ``a`` (nv) and the
forces ``f`` of the intact foot's contact points that touch the floor (or are about to, in the
planned stance):

* equalities: the floating base's rows of ``M a + nle = J_f^T f + J_b^T f_blade``, and the
  blade's strain accelerations planned as zero (its modes are far faster than the motion; the
  simulation lets it flex);
* inequalities: the foot's forces unilateral and inside a linearised friction cone;
* the forces on the foot's points outside its stance are the floor's (measured), like the blade's;
* weighted tasks: every actuated joint towards the reference (PD on its spline, plus the foot
  placement below), the pelvis upright, and in the stance the centre-of-mass acceleration
  ``(sum f + f_blade) / m + g`` of the reference with feedback, and foot points that stay put.

The blade's force is not a choice: it is the state of the compressed blade. In the stance the
plan makes the blade limb push with half the reference's vertical force (``f_blade``, spread
over its loaded points as the floor loads them, horizontally the floor's own forces): when the
blade pushes less, that torque extends the limb and compresses the blade further, when more,
the limb yields. The foot's forces make up the rest. The torques follow as
``tau = M a + nle - J_f^T f - J_b^T f_blade`` on the actuated rows. In flight both limbs are
placed ahead of the centre of mass by a fraction of its speed and of its distance from home
(Raibert's foot placement).

It keeps the hops going for two cycles before the fore-aft drift it does not fully correct
grows; the demo records two hops.
"""
from __future__ import annotations

import numpy as np
from qpsolvers import solve_qp

from .. import algorithms as alg
from ..errors import SettingsError
from ..algorithms.kinematics import frame_id
from ..kernels._passes import frame_classical_acceleration, kinematics
from .reference import HoppingInPlace

JOINT = (400.0, 40.0)             # joint servo (1/s^2, 1/s)
PELVIS = (400.0, 40.0)            # pelvis orientation servo
COM = ((60.0, 20.0), (100.0, 20.0), (100.0, 20.0))   # centre of mass (x, y, z), foot stance
CONTACT_DAMPING = 60.0            # 1/s, foot points brought to rest
WEIGHTS = {"joint": 1.0, "stance_leg": 0.3, "pelvis": 20.0, "pelvis_flight": 2.0, "com": 200.0,
           "contact": 200.0, "a": 1e-6, "f": 1e-8}
FRICTION = 0.7                    # the plan's cone, inside the floor's 0.8
NEAR = 0.002                      # m: a point of the foot this close to the floor in its stance may take force
PLACEMENT_SPEED = 0.25            # s: foot placed ahead of the centre of mass by this times its speed
PLACEMENT_POSITION = 0.3          # foot placed ahead by this times its distance from home
PLACEMENT_TIME = 0.05             # s, smoothing of the placement offsets
BLADE_SHARE = 0.5                 # of the reference's vertical force carried by the blade
LEG_LENGTH = 0.9                  # m


def _log_so3(R) -> np.ndarray:
    c = np.clip((np.trace(R) - 1.0) / 2.0, -1.0, 1.0)
    angle = np.arccos(c)
    w = np.array([R[2, 1] - R[1, 2], R[0, 2] - R[2, 0], R[1, 0] - R[0, 1]])
    return w * (0.5 if angle < 1e-9 else angle / (2.0 * np.sin(angle)))


class HoppingController:
    """Joint torques for the default athlete to hop in place (:class:`HoppingInPlace`).

    ``com_mean`` (m, world) is the mean centre of mass the reference oscillates about; ``springs`` the
    simulation's passive joint springs (the returned torques are the active part). Call it at
    every integrator step with the floor's forces and penetrations of the previous step.
    """

    def __init__(self, model, reference: HoppingInPlace, com_mean, springs=()):
        self.model, self.reference = model, reference
        # the simulation's passive joint springs (JointSpring): known forces in the plan
        self.springs = [(model.tree.coordinates[s.coordinate], s) for s in springs]
        self.com_mean = np.asarray(com_mean, float)
        self.data = model.create_data()
        tree = model.tree
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
        self.offsets = {g: np.zeros(2) for g in self.side}     # placement (hip flexion, adduction), rad
        self._last_t = None

    def __call__(self, t: float, q, v, forces: dict, depths: dict) -> np.ndarray:
        """Joint forces ``tau`` (nv; zero on the base and the blade) at time ``t`` (s) for the state
        ``(q, v)``; ``forces`` and ``depths`` map each contact point to the floor's force on it (N,
        world) and its penetration (m, positive in the floor)."""
        m, d, nv = self.model, self.data, self.model.nv
        ref = self.reference
        planned = ref.stance(t)
        foot = [n for n in self.groups["foot_l"] if "foot_l" in planned and depths[n] > -NEAR]
        # points the floor pushes on that the plan does not choose forces for: the blade's, and the
        # foot's outside its stance
        blade = [n for n in self.groups["blade"] if forces[n][1] > 0.0]
        stray = [n for n in self.groups["foot_l"] if n not in foot and forces[n][1] > 0.0]
        c = alg.center_of_mass(m, d, q)
        cd = alg.spatial_momentum(m, d, q, v)[3:] / self.mass
        M = alg.crba(m, d, q)
        h = alg.nle(m, d, q, v)
        for slot, sp in self.springs:
            h[slot.vi] += sp.stiffness * (q[slot.qi] - sp.rest) + sp.damping * v[slot.vi]
        f_blade = np.zeros(nv)
        blade_cmd = {}
        if blade and planned:
            # the blade limb pushes with its share of the reference's vertical force, spread over its
            # loaded points in proportion to their loads; the horizontal forces are the floor's
            total = sum(forces[n][1] for n in blade)
            share = BLADE_SHARE * self.mass * self.reference.vertical_force(t)
            blade_cmd = {n: np.array([forces[n][0], share * forces[n][1] / total, forces[n][2]]) for n in blade}
        elif blade:
            blade_cmd = {n: forces[n] for n in blade}
        blade_cmd.update({n: forces[n] for n in stray})
        if blade_cmd:
            names = list(blade_cmd)
            for Ji, n in zip(alg.point_jacobians(m, d, q, names), names):
                f_blade += Ji.T @ blade_cmd[n]
        nf = 3 * len(foot)
        J = alg.point_jacobians(m, d, q, foot) if foot else np.zeros((0, 3, nv))
        rows, rhs, weights = [], [], []

        def task(A, b, w):
            rows.append(A)
            rhs.append(b)
            weights.append(np.broadcast_to(w, len(b)))

        # joints
        qr, vr, ar = ref.joints(t, self.joint_names)
        blade_total = sum(blade_cmd.values(), np.zeros(3))
        dq = self._placement(t, c, cd)
        A = np.zeros((len(self.joint_v), nv + nf))
        A[np.arange(len(self.joint_v)), self.joint_v] = 1.0
        kp, kd = JOINT
        w = np.full(len(self.joint_v), WEIGHTS["joint"])
        if foot:
            w[[i for i, n in enumerate(self.joint_names) if n.endswith("_l") and n.startswith(("hip", "knee"))]] = \
                WEIGHTS["stance_leg"]
        task(A, ar + kp * (qr + dq - q[self.joint_q]) + kd * (vr - v[self.joint_v]), w)
        # pelvis upright (body-frame angular acceleration of the free joint)
        R = alg.frame_placement(m, d, "pelvis").R
        A = np.zeros((3, nv + nf))
        A[:, :3] = np.eye(3)
        kp, kd = PELVIS
        task(A, kp * _log_so3(R.T) - kd * v[:3], WEIGHTS["pelvis"] if planned else WEIGHTS["pelvis_flight"])
        if foot:
            # centre of mass: m c'' = sum f + f_blade + m g (the blade's part is known)
            c_ref, cd_ref, cdd_ref = ref.com(t)
            kp, kd = np.array(COM).T
            cdd = cdd_ref + kp * (self.com_mean + c_ref - c) + kd * (cd_ref - cd)
            A = np.zeros((3, nv + nf))
            for i in range(len(foot)):
                A[:, nv + 3 * i:nv + 3 * i + 3] = np.eye(3) / self.mass
            task(A, cdd - np.array(m.gravity) - blade_total / self.mass, WEIGHTS["com"])
            # foot points stay where they are
            Jdv = self._bias(q, v, foot)
            for i in range(len(foot)):
                A = np.zeros((3, nv + nf))
                A[:, :nv] = J[i]
                task(A, -CONTACT_DAMPING * (J[i] @ v) - Jdv[i], WEIGHTS["contact"])
        A = np.vstack(rows)
        b = np.concatenate(rhs)
        W = np.concatenate(weights)
        P = A.T @ (W[:, None] * A)
        P[np.arange(nv), np.arange(nv)] += WEIGHTS["a"]
        P[np.arange(nv, nv + nf), np.arange(nv, nv + nf)] += WEIGHTS["f"]
        qv = -A.T @ (W * b)
        # the floating base's dynamics; strain accelerations zero
        nb, ns = len(self.base), len(self.strains)
        Aeq = np.zeros((nb + ns, nv + nf))
        Aeq[:nb, :nv] = M[self.base]
        for i in range(len(foot)):
            Aeq[:nb, nv + 3 * i:nv + 3 * i + 3] = -J[i][:, self.base].T
        Aeq[nb + np.arange(ns), self.strains] = 1.0
        beq = np.concatenate([f_blade[self.base] - h[self.base], np.zeros(ns)])
        G, hin = self._cone(len(foot), nv)
        x = solve_qp(P, qv, G, hin, Aeq, beq, solver="quadprog")
        if x is None:
            raise SettingsError(f"the hopping controller's QP has no solution at t = {t:.4f} s", "demo simulation")
        a, f = x[:nv], x[nv:].reshape(-1, 3)
        tau = M @ a + h - f_blade
        for i in range(len(foot)):
            tau -= J[i].T @ f[i]
        out = np.zeros(nv)
        out[self.joint_v] = tau[self.joint_v]
        return out

    def _placement(self, t: float, c, cd) -> np.ndarray:
        """Offsets (rad) of the hips' references that place both limbs for the next landing, updated in flight."""
        dt = 0.0 if self._last_t is None else t - self._last_t
        self._last_t = t
        c_ref, cd_ref, _ = self.reference.com(t)
        dq = np.zeros(len(self.joint_names))
        i = self._index
        dx = PLACEMENT_SPEED * cd[0] + PLACEMENT_POSITION * (c[0] - self.com_mean[0])
        dz = PLACEMENT_SPEED * (cd[2] - cd_ref[2]) + PLACEMENT_POSITION * (c[2] - self.com_mean[2] - c_ref[2])
        target = np.array([dx, dz]) / LEG_LENGTH
        for group, s in self.side.items():
            if not self.reference.stance(t):
                self.offsets[group] += min(1.0, dt / PLACEMENT_TIME) * (target - self.offsets[group])
            flex, add = self.offsets[group]
            dq[i[f"hip_flexion{s}"]] += flex
            # positive adduction moves the left foot to +z and the right foot to -z
            dq[i[f"hip_adduction{s}"]] += add if s == "_l" else -add
        return dq

    def _bias(self, q, v, names) -> np.ndarray:
        """J-dot v of the named points (m/s^2, world), gravity excluded."""
        k = self.model.tree.k
        d = self.data
        kinematics(k.nodes, k.segs, k.funcs, k.fpool, k.gravity, d.ws, d.scr, q, v, np.zeros_like(v), 2, False)
        out = np.empty((len(names), 3))
        acc = np.empty(6)
        for j, n in enumerate(names):
            frame_classical_acceleration(k.frames, d.ws, self.frames[n], acc)
            out[j] = acc[3:]
        return out

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
