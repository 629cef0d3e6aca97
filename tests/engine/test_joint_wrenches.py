"""Joint reaction loads against Pinocchio's ``data.f`` after ``rnea``, with and without external loads, and the
closed-form reaction of one pendulum."""
import numpy as np
import pinocchio as pin
import pytest

from engine import algorithms as alg
from engine.data import Data
from engine.model import Body, Coordinate, Model, RevoluteJoint
from engine.tree import compile_tree
from tests.engine.random_trees import build_model, build_pinocchio, index_maps, random_specs

RTOL = 1e-9


def close(ours, ref):
    scale = max(1.0, float(np.abs(ref).max()))
    err = float(np.abs(np.asarray(ours) - np.asarray(ref)).max())
    assert err <= RTOL * scale, f"max error {err:.3e} exceeds {RTOL:.0e} x {scale:.3e}"


def _world_about_centre(M: pin.SE3, f: pin.Force) -> np.ndarray:
    """Pinocchio's local force of a joint as [moment about the joint centre; force] in world axes."""
    return np.concatenate([M.rotation @ f.angular, M.rotation @ f.linear])


@pytest.mark.parametrize("floating", [True, False], ids=["floating", "fixed"])
def test_joint_wrenches_equal_pinocchio_forces(floating, rng):
    specs = random_specs(rng, n_bodies=24, floating=floating)
    model = build_model(specs)
    pm, _, _ = build_pinocchio(specs)
    pd = pm.createData()
    qperm, P = index_maps(model, pm, specs)
    joints = [f"j{i}" for i, s in enumerate(specs) if s.kind != "weld"]
    T = 4
    Q = np.array([alg.integrate(model, alg.neutral(model), rng.normal(size=model.nv)) for _ in range(T)])
    V, A = rng.normal(size=(T, model.nv)), rng.normal(size=(T, model.nv))
    # a random world wrench (about the world origin) on a few bodies' nodes, the same given to Pinocchio
    data = Data(model)
    loaded = rng.choice([i for i, s in enumerate(specs) if s.kind != "weld"], size=3, replace=False)
    fext = np.zeros((T, compile_tree(model).n_nodes, 6))
    pin_fext = [[pin.Force.Zero() for _ in range(pm.njoints)] for _ in range(T)]
    for t in range(T):
        qp = np.empty(pm.nq)
        qp[qperm] = Q[t]
        pin.forwardKinematics(pm, pd, qp)
        for i in loaded:
            w = rng.normal(size=6)                   # [moment about origin; force]
            node = compile_tree(model).k.frames[compile_tree(model).body_frame[f"b{i}"]]["node"]
            fext[t, node] += w
            jid = pm.getJointId(f"j{i}")
            pin_fext[t][jid] += pd.oMi[jid].actInv(pin.Force(w[3:], w[:3]))
    tau, W, centre = alg.joint_wrenches_batch(model, data, Q, V, A, joints, fext)
    close(tau, alg.rnea_batch(model, data, Q, V, A, fext))
    for t in range(T):
        qp = np.empty(pm.nq)
        qp[qperm] = Q[t]
        pin.rnea(pm, pd, qp, P.T @ V[t], P.T @ A[t], pin.StdVec_Force(pin_fext[t]))
        pin.forwardKinematics(pm, pd, qp)          # rnea leaves data.oMi as it was
        for k, name in enumerate(joints):
            jid = pm.getJointId(name)
            close(W[t, k], _world_about_centre(pd.oMi[jid], pd.f[jid]))
            close(centre[t, k], pd.oMi[jid].translation)


def test_pendulum_reaction_in_closed_form():
    """A point-like bob on a massless rod of length l turning about z at rate w and w_dot under gravity -y: the
    pivot pushes it with m (a_bob + g), a_bob = centripetal + tangential acceleration."""
    m, l, th, w, wd = 2.0, 0.7, 0.4, 1.3, -0.8
    body = Body("bob", mass=m, com=(0.0, -l, 0.0), inertia=np.eye(3) * 1e-9)
    model = Model("pendulum", [body], [RevoluteJoint("pivot", "ground", "bob", coordinates=(Coordinate("th"),),
                                                     axis=(0.0, 0.0, 1.0))], gravity=(0.0, -9.81, 0.0))
    _, W, _ = alg.joint_wrenches_batch(model, Data(model), [[th]], [[w]], [[wd]], ["pivot"])
    r = l * np.array([np.sin(th), -np.cos(th), 0.0])              # bob from the pivot
    a_bob = np.cross([0, 0, wd], r) + np.cross([0, 0, w], np.cross([0, 0, w], r))
    force = m * (a_bob + np.array([0.0, 9.81, 0.0]))
    moment = np.cross(r, m * a_bob) + np.cross(r, m * np.array([0.0, 9.81, 0.0]))
    np.testing.assert_allclose(W[0, 0, 3:], force, rtol=1e-7, atol=1e-7)
    np.testing.assert_allclose(W[0, 0, :3], moment, rtol=1e-6, atol=1e-6)


def test_unknown_joint_is_named():
    specs = random_specs(np.random.default_rng(1), n_bodies=3, floating=False)
    model = build_model(specs)
    with pytest.raises(Exception, match="nope"):
        alg.joint_wrenches_batch(model, Data(model), [alg.neutral(model)], [np.zeros(model.nv)],
                                 [np.zeros(model.nv)], ["nope"])
