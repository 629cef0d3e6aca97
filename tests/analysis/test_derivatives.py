"""Kinematic derivatives: analytic trajectories for every joint type, and the low-pass filter."""
import numpy as np

from engine.algorithms import neutral
from engine.analysis.derivatives import motion_from_coordinates
from engine.spatial import axis_angle, matrix_to_quat
from engine.tree import compile_tree
from tests.engine.hybrid_models import hybrid_chain

EX, EZ = np.array([1.0, 0, 0]), np.array([0, 0, 1.0])


def rotation_and_rates(t, k):
    """R(t) = Rz(sin(k t)) Rx(0.5 t^2) with its exact body angular velocity and acceleration."""
    a, ad, add = np.sin(k * t), k * np.cos(k * t), -k * k * np.sin(k * t)
    b, bd, bdd = 0.5 * t * t, t, 1.0
    Rx = axis_angle(EX, b)
    R = axis_angle(EZ, a) @ Rx
    w = ad * Rx.T @ EZ + bd * EX
    alpha = add * Rx.T @ EZ - ad * bd * np.cross(EX, Rx.T @ EZ) + bdd * EX
    return R, w, alpha


def test_velocities_and_accelerations_of_every_joint_type_are_exact():
    model = hybrid_chain(floating=True)
    tree = compile_tree(model)
    time = np.linspace(0.0, 1.0, 1001)
    Q = np.tile(neutral(model), (time.size, 1))
    V = np.zeros((time.size, model.nv))
    A = np.zeros((time.size, model.nv))
    q0, _, v0, _ = tree.joint_q["root"]
    s0, _, sv0, _ = tree.joint_q["shoulder"]
    scalars = [(tree.coordinates[n].qi, tree.coordinates[n].vi) for n in tree.coordinates]
    for f, t in enumerate(time):
        R, w, alpha = rotation_and_rates(t, 2.0)
        p, pd, pdd = np.array([t ** 3, np.sin(t), 0.5]), np.array([3 * t * t, np.cos(t), 0]), \
            np.array([6 * t, -np.sin(t), 0])
        Q[f, q0:q0 + 3], Q[f, q0 + 3:q0 + 7] = p, matrix_to_quat(R)
        vb = R.T @ pd
        V[f, v0:v0 + 3], V[f, v0 + 3:v0 + 6] = w, vb
        A[f, v0:v0 + 3], A[f, v0 + 3:v0 + 6] = alpha, R.T @ pdd - np.cross(w, vb)
        R2, w2, alpha2 = rotation_and_rates(t, 3.0)
        Q[f, s0:s0 + 4] = matrix_to_quat(R2)
        V[f, sv0:sv0 + 3], A[f, sv0:sv0 + 3] = w2, alpha2
        for j, (qi, vi) in enumerate(scalars):
            Q[f, qi] = 0.3 * np.sin((j + 1) * t)
            V[f, vi] = 0.3 * (j + 1) * np.cos((j + 1) * t)
            A[f, vi] = -0.3 * (j + 1) ** 2 * np.sin((j + 1) * t)
    motion = motion_from_coordinates(model, time, Q, cutoff=None)
    inner = slice(20, -20)
    assert np.abs(motion.q - Q).max() < 1e-12
    assert np.abs(motion.v[inner] - V[inner]).max() < 1e-7
    assert np.abs(motion.a[inner] - A[inner]).max() < 1e-5


def test_low_pass_keeps_slow_motion_and_removes_fast_noise(rng):
    model = hybrid_chain()
    time = np.arange(0, 2.0, 1 / 200)
    Q = np.tile(neutral(model), (time.size, 1))
    slow = 0.5 * np.sin(2 * np.pi * 1.0 * time)
    Q[:, 0] = slow + 0.01 * np.sin(2 * np.pi * 40.0 * time)
    motion = motion_from_coordinates(model, time, Q, cutoff=6.0)
    inner = slice(40, -40)
    assert np.abs(motion.q[inner, 0] - slow[inner]).max() < 2e-3     # 1 Hz passes (gain ~1)
    assert np.abs(motion.v[inner, 0] - np.pi * np.cos(2 * np.pi * time[inner])).max() < 0.05
