"""Linear blend skinning (seed eq. 3), its Jacobian (eqs. 8-11) and tau_ext = J^T f (eq. 12)."""
from __future__ import annotations

import numpy as np

from engine.algorithms import forward_kinematics, frame_placement, integrate
from engine.data import Data
from skin.frames import body_frames
from skin.skinning import Skin
from skin.surface import world_distances
from skin.volumes import body_volumes
from skin.weights import BRIM, skinning_weights, volume_weights


def test_generated_skin_is_closed_and_weights_are_partitions(any_skin):
    mesh = any_skin.mesh
    edges = np.sort(np.concatenate([mesh.triangles[:, [0, 1]], mesh.triangles[:, [1, 2]],
                                    mesh.triangles[:, [2, 0]]]), axis=1)
    _, counts = np.unique(edges, axis=0, return_counts=True)
    assert (counts == 2).all()          # every edge shared by exactly two triangles: closed, manifold
    assert mesh.enclosed_volume() > 0   # normals outward
    np.testing.assert_allclose(any_skin.weight.sum(axis=1), 1.0, atol=1e-12)
    blended = (any_skin.weight > 0.1).sum(axis=1) > 1
    assert 0.05 < blended.mean() < 0.7  # joints blend bones, segments' middles do not


def test_identity_weights_move_rigidly(athlete, any_skin, pose):
    """One bone per vertex with weight 1: every vertex follows its body's placement from the rest pose exactly."""
    owner = any_skin.bone[:, :1]
    skin = Skin.bind(athlete, any_skin.mesh, any_skin.bodies, owner, np.ones_like(owner, dtype=float), any_skin.q_rest)
    data = Data(athlete)
    x = skin.vertices(athlete, data, pose)
    rest, now = {}, {}
    forward_kinematics(athlete, data, any_skin.q_rest)
    for b in skin.bodies:
        rest[b] = frame_placement(athlete, data, b)
    forward_kinematics(athlete, data, pose)
    for b in skin.bodies:
        now[b] = frame_placement(athlete, data, b)
    for j, b in enumerate(skin.bodies):
        mask = owner[:, 0] == j
        T = now[b] @ rest[b].inverse()
        expected = any_skin.mesh.vertices[mask] @ T.R.T + T.p
        np.testing.assert_allclose(x[mask], expected, rtol=0, atol=1e-14)


def test_jacobian_matches_finite_differences_of_skinning_and_kinematics(athlete, any_skin, pose):
    data = Data(athlete)
    J = any_skin.jacobian(athlete, data, pose)
    h = 1e-6
    worst = 0.0
    for d in range(athlete.nv):
        e = np.zeros(athlete.nv)
        e[d] = h
        xp = any_skin.vertices(athlete, data, integrate(athlete, pose, e))
        xm = any_skin.vertices(athlete, data, integrate(athlete, pose, -e))
        fd = (xp - xm) / (2 * h)
        scale = max(np.abs(fd).max(), 1e-3)
        worst = max(worst, np.abs(J[:, :, d] - fd).max() / scale)
    assert worst < 1e-7


def test_virtual_power_of_skin_forces(athlete, any_skin, pose, velocity, rng):
    """v_dot . f (vertex velocities from eq. 8) equals v . tau_ext (eq. 12), and J v gives the same velocities."""
    data = Data(athlete)
    f = rng.standard_normal((any_skin.n_vertices, 3))
    _, xdot = any_skin.vertices_velocities(athlete, data, pose, velocity)
    tau = any_skin.generalized_forces(athlete, data, pose, f)
    J = any_skin.jacobian(athlete, data, pose)
    power = float(np.sum(xdot * f))
    assert abs(power - velocity @ tau) <= 1e-10 * max(1.0, abs(power))
    np.testing.assert_allclose(np.einsum("icd,d->ic", J, velocity), xdot, rtol=0, atol=1e-12 * np.abs(xdot).max())
    np.testing.assert_allclose(np.einsum("icd,ic->d", J, f), tau, rtol=0, atol=1e-11 * np.abs(tau).max())


def test_the_residual_limb_carries_its_skin_alone_below_the_brim(athlete, coarse_skin):
    """Along the stump's medial and anterior skin lines through the knee plane, the weights are those of the distances
    above the plane, vary without a jump, and beyond BRIM below the knee centre the limb alone carries the skin (the
    thigh's and the other leg's weights gone), as on the generated skin."""
    volumes = body_volumes(athlete, bodies=coarse_skin.bodies)
    data = Data(athlete)
    forward_kinematics(athlete, data, coarse_skin.q_rest)
    R, p = body_frames(athlete, data, list(volumes))
    j = list(volumes).index("tibia_r")
    limb = volumes["tibia_r"]
    step = 2e-5
    depth = np.arange(-0.04, 0.06, step)
    for direction in (np.array([0.0, 0.0, -1.0]), np.array([1.0, 0.0, 0.0])):     # medial, anterior (limb axes)
        # points on the limb's flesh (the thigh's capsule above the knee plane has the same radius)
        local = depth[:, None] * np.array([0.0, -1.0, 0.0]) + limb.radius * direction
        x = local @ R[j].T + p[j]
        bone, weight = volume_weights(volumes, R, p, x)
        dense = np.zeros((len(x), len(volumes)))
        np.add.at(dense, (np.arange(len(x))[:, None], bone), weight)
        plain_bone, plain_weight = skinning_weights(world_distances(volumes, R, p, x))
        above = depth <= 0
        np.testing.assert_allclose(weight[above], plain_weight[above], rtol=0, atol=1e-15)
        np.testing.assert_array_equal(bone[above], plain_bone[above])
        assert (dense[depth >= BRIM, j] == 1.0).all()
        assert dense[(depth > 0.005) & (depth < BRIM - 0.005), j].min() < 1.0     # a blend, not a cut
        # no jump: the weights' slope along the line stays that of smooth functions over centimetres
        assert np.abs(np.diff(dense, axis=0)).max() / step < 200.0
    # the generated skin: the limb's vertices below the brim carry no other bone
    forward_kinematics(athlete, data, coarse_skin.q_rest)
    T = frame_placement(athlete, data, "tibia_r")
    below = ((coarse_skin.mesh.vertices - T.p) @ T.R)[:, 1] < -BRIM - 1e-9
    near = np.argmin(world_distances(volumes, R, p, coarse_skin.mesh.vertices), axis=1) == j
    share = np.where(coarse_skin.bone == j, coarse_skin.weight, 0.0).sum(axis=1)
    assert (below & near).sum() > 10 and (share[below & near] == 1.0).all()
