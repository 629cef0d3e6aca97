"""Rigid trees against Pinocchio: placements, Jacobians, M, RNEA and forward dynamics to 1e-9."""
import numpy as np
import pinocchio as pin
import pytest

from engine import algorithms as alg
from engine.data import Data
from tests.engine.random_trees import build_model, build_pinocchio, index_maps, random_specs

RTOL = 1e-9


def close(ours, ref, rtol=RTOL):
    scale = max(1.0, float(np.abs(ref).max()))
    err = float(np.abs(np.asarray(ours) - np.asarray(ref)).max())
    assert err <= rtol * scale, f"max error {err:.3e} exceeds {rtol:.0e} x {scale:.3e}"


@pytest.fixture(params=[True, False], ids=["floating", "fixed"])
def trees(request, rng):
    specs = random_specs(rng, n_bodies=32, floating=request.param)
    model = build_model(specs)
    pm, joint_of, body_in_joint = build_pinocchio(specs)
    for i in range(len(specs)):
        pm.addFrame(pin.Frame(f"b{i}", joint_of[i], pin.SE3(body_in_joint[i].R, body_in_joint[i].p),
                              pin.FrameType.OP_FRAME))
    qperm, P = index_maps(model, pm, specs)
    return specs, model, pm, qperm, P


def random_state(model, rng):
    q = alg.integrate(model, alg.neutral(model), rng.normal(size=model.nv))
    return q, rng.normal(size=model.nv), rng.normal(size=model.nv)


def test_every_joint_type_is_present(trees):
    specs, model, *_ = trees
    assert len(specs) >= 30
    kinds = {s.kind for s in specs}
    assert {"revolute", "prismatic", "spherical", "universal", "weld"} <= kinds


def test_placements_jacobians_mass_matrix_rnea_and_aba(trees, rng):
    specs, model, pm, qperm, P = trees
    pd = pm.createData()
    data = Data(model)
    for _ in range(5):
        q, v, a = random_state(model, rng)
        qp = np.empty(pm.nq)
        qp[qperm] = q
        vp, ap = P.T @ v, P.T @ a
        pin.forwardKinematics(pm, pd, qp)
        pin.updateFramePlacements(pm, pd)
        pin.computeJointJacobians(pm, pd, qp)
        alg.forward_kinematics(model, data, q)
        for i in range(len(specs)):
            ours = alg.frame_placement(model, data, f"b{i}")
            ref = pd.oMf[pm.getFrameId(f"b{i}")]
            close(ours.R, ref.rotation)
            close(ours.p, ref.translation)
            Jref = pin.getFrameJacobian(pm, pd, pm.getFrameId(f"b{i}"), pin.ReferenceFrame.LOCAL_WORLD_ALIGNED)
            J = alg.frame_jacobian(model, data, q, f"b{i}")
            close(J, np.vstack([Jref[3:], Jref[:3]]) @ P.T)
        close(alg.crba(model, data, q), P @ pin.crba(pm, pd, qp) @ P.T)
        close(alg.rnea(model, data, q, v, a), P @ pin.rnea(pm, pd, qp, vp, ap))
        tau = rng.normal(size=model.nv)
        close(alg.forward_dynamics(model, data, q, v, tau), P @ pin.aba(pm, pd, qp, vp, P.T @ tau))
        close(alg.nle(model, data, q, v), P @ pin.nonLinearEffects(pm, pd, qp, vp))


def test_integrate_matches_pinocchio(trees, rng):
    _, model, pm, qperm, P = trees
    q, v, _ = random_state(model, rng)
    qp = np.empty(pm.nq)
    qp[qperm] = q
    ours = alg.integrate(model, q, v, 0.37)
    ref = pin.integrate(pm, qp, P.T @ v * 0.37)
    close(ours, ref[qperm])
    back = alg.difference(model, q, ours)
    close(back, v * 0.37)


def test_batch_placements_equal_single_frame_placements(trees, rng):
    _, model, *_ = trees
    data = Data(model)
    Q = np.array([random_state(model, rng)[0] for _ in range(4)])
    names = [b.name for b in model.bodies]
    R, p = alg.frame_placements_batch(model, data, Q, names)
    for f, q in enumerate(Q):
        alg.forward_kinematics(model, data, q)
        for k, n in enumerate(names):
            ref = alg.frame_placement(model, data, n)
            assert np.array_equal(R[f, k], ref.R) and np.array_equal(p[f, k], ref.p)
    J, R, p = alg.frame_jacobians_batch(model, data, Q, names)      # frame_jacobian is checked against Pinocchio
    for f, q in enumerate(Q):
        for k, n in enumerate(names):
            assert np.array_equal(J[f, k], alg.frame_jacobian(model, data, q, n))
            ref = alg.frame_placement(model, data, n)
            assert np.array_equal(R[f, k], ref.R) and np.array_equal(p[f, k], ref.p)
