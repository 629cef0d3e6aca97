"""Planar arms with closed-form dynamics: seed 004 (2 DoF) and seed 001 (3 DoF, 9 muscles)."""
import numpy as np
import pytest

from engine import algorithms as alg
from engine.data import Data
from engine.model import Body, Coordinate, Model, RevoluteJoint
from engine.spatial import SE3

G = 9.81


def planar_arm(masses, lengths, coms, izz):
    """Links along x joined by revolute joints about z; gravity along -y (angles from the x axis)."""
    bodies, joints = [], []
    parent, offset = "ground", 0.0
    for i, (m, L, lc, iz) in enumerate(zip(masses, lengths, coms, izz)):
        # out-of-plane moments are irrelevant for planar motion; they only keep the inertia physical
        bodies.append(Body(f"link{i + 1}", m, (lc, 0.0, 0.0), np.diag([iz, iz, iz])))
        joints.append(RevoluteJoint(f"joint{i + 1}", parent, f"link{i + 1}", SE3(np.eye(3), [offset, 0, 0]),
                                    coordinates=(Coordinate(f"theta{i + 1}"),), axis=(0, 0, 1)))
        parent, offset = f"link{i + 1}", L
    return Model("arm", bodies, joints, gravity=(0.0, -G, 0.0))


# ---------------------------------------------------------------- seed 004: 2 DoF
M1, M2, L1, LC1, LC2, I1, I2 = 2.1, 1.4, 0.33, 0.16, 0.14, 0.021, 0.012


def seed004(q, qd):
    c2 = np.cos(q[1])
    H = np.array([[M1 * LC1 ** 2 + I1 + M2 * (L1 ** 2 + LC2 ** 2 + 2 * L1 * LC2 * c2) + I2,
                   M2 * (LC2 ** 2 + L1 * LC2 * c2) + I2],
                  [M2 * (LC2 ** 2 + L1 * LC2 * c2) + I2, M2 * LC2 ** 2 + I2]])
    h = -M2 * L1 * LC2 * np.sin(q[1])
    vel = np.array([h * qd[1] ** 2 + 2 * h * qd[0] * qd[1], -h * qd[0] ** 2])
    grav = np.array([(M1 * LC1 + M2 * L1) * G * np.cos(q[0]) + M2 * LC2 * G * np.cos(q[0] + q[1]),
                     M2 * LC2 * G * np.cos(q[0] + q[1])])
    return H, vel, grav


# ---------------------------------------------------------------- seed 001: 3 DoF
C = dict(Iz1=0.0141, Iz2=0.012, Iz3=0.001, L1=0.31, L2=0.27, L3=0.15, Lc1=0.165, Lc2=0.135, Lc3=0.075,
         m1=1.93, m2=1.32, m3=0.35)


def seed001(q, qd):
    k = C
    t1, t2, t3 = q
    d1, d2, d3 = qd
    c2, c3, c23 = np.cos(t2), np.cos(t3), np.cos(t2 + t3)
    M11 = (k["Iz1"] + k["Iz2"] + k["Iz3"] + k["Lc1"] ** 2 * k["m1"]
           + k["m2"] * (k["L1"] ** 2 + k["Lc2"] ** 2 + 2 * k["L1"] * k["Lc2"] * c2)
           + k["m3"] * (k["L1"] ** 2 + k["L2"] ** 2 + k["Lc3"] ** 2 + 2 * k["L1"] * k["L2"] * c2
                        + 2 * k["L1"] * k["Lc3"] * c23 + 2 * k["L2"] * k["Lc3"] * c3))
    M12 = (k["Iz2"] + k["Iz3"] + k["L1"] * k["L2"] * k["m3"] * c2 + k["L1"] * k["Lc2"] * k["m2"] * c2
           + k["L1"] * k["Lc3"] * k["m3"] * c23 + k["L2"] ** 2 * k["m3"] + 2 * k["L2"] * k["Lc3"] * k["m3"] * c3
           + k["Lc2"] ** 2 * k["m2"] + k["Lc3"] ** 2 * k["m3"])
    M13 = k["Iz3"] + k["L1"] * k["Lc3"] * k["m3"] * c23 + k["L2"] * k["Lc3"] * k["m3"] * c3 + k["Lc3"] ** 2 * k["m3"]
    M22 = (k["Iz2"] + k["Iz3"] + k["L2"] ** 2 * k["m3"] + 2 * k["L2"] * k["Lc3"] * k["m3"] * c3
           + k["Lc2"] ** 2 * k["m2"] + k["Lc3"] ** 2 * k["m3"])
    M23 = k["Iz3"] + k["L2"] * k["Lc3"] * k["m3"] * c3 + k["Lc3"] ** 2 * k["m3"]
    M33 = k["Iz3"] + k["Lc3"] ** 2 * k["m3"]
    M = np.array([[M11, M12, M13], [M12, M22, M23], [M13, M23, M33]])
    grav = G * np.array([
        k["Lc1"] * k["m1"] * np.cos(t1) + k["m2"] * (k["L1"] * np.cos(t1) + k["Lc2"] * np.cos(t1 + t2))
        + k["m3"] * (k["L1"] * np.cos(t1) + k["L2"] * np.cos(t1 + t2) + k["Lc3"] * np.cos(t1 + t2 + t3)),
        k["Lc2"] * k["m2"] * np.cos(t1 + t2) + k["m3"] * (k["L2"] * np.cos(t1 + t2) + k["Lc3"] * np.cos(t1 + t2 + t3)),
        k["Lc3"] * k["m3"] * np.cos(t1 + t2 + t3)])
    s2, s3, s23 = np.sin(t2), np.sin(t3), np.sin(t2 + t3)
    A = k["L1"] * (k["m2"] * k["Lc2"] + k["m3"] * k["L2"]) * s2
    B = k["m3"] * k["L1"] * k["Lc3"] * s23
    Cc = k["m3"] * k["L2"] * k["Lc3"] * s3
    # f_2 and f_3 as printed in seed 001; f_1 with the signs its own M implies (the printout of f_1
    # flips the sign of all but its first velocity term, contradicting d M_12 / d theta_2).
    f1 = -A * (2 * d1 * d2 + d2 ** 2) - B * (d2 + d3) * (2 * d1 + d2 + d3) - Cc * d3 * (2 * d1 + 2 * d2 + d3)
    f2 = ((k["L1"] * (k["L2"] * k["m3"] * s2 + k["Lc2"] * k["m2"] * s2 + k["Lc3"] * k["m3"] * s23) * d1
           - k["L2"] * k["Lc3"] * k["m3"] * s3 * d3) * d1
          - k["L2"] * k["Lc3"] * k["m3"] * (d1 + d2 + d3) * s3 * d3 - k["L2"] * k["Lc3"] * k["m3"] * s3 * d2 * d3)
    f3 = k["Lc3"] * k["m3"] * (k["L1"] * s23 * d1 ** 2 + k["L2"] * s3 * d1 ** 2 + 2 * k["L2"] * s3 * d1 * d2
                               + k["L2"] * s3 * d2 ** 2)
    return M, np.array([f1, f2, f3]), grav


def christoffel_velocity_terms(mass_matrix, q, qd, h=1e-6):
    """C(q, qd) qd from the Christoffel symbols of a closed-form M (finite differences in the test)."""
    n = q.size
    dM = np.array([(mass_matrix(q + h * e, qd)[0] - mass_matrix(q - h * e, qd)[0]) / (2 * h) for e in np.eye(n)])
    # dM[k, i, j] = d M_ij / d q_k
    return np.array([sum((dM[k, i, j] - 0.5 * dM[i, j, k]) * qd[j] * qd[k] for j in range(n) for k in range(n))
                     for i in range(n)])


CASES = {
    "seed004-2dof": (lambda: planar_arm([M1, M2], [L1, 0.3], [LC1, LC2], [I1, I2]), seed004),
    "seed001-3dof": (lambda: planar_arm([C["m1"], C["m2"], C["m3"]], [C["L1"], C["L2"], C["L3"]],
                                        [C["Lc1"], C["Lc2"], C["Lc3"]], [C["Iz1"], C["Iz2"], C["Iz3"]]), seed001),
}


@pytest.mark.parametrize("case", CASES)
def test_closed_forms_are_self_consistent(case, rng):
    """The closed-form velocity terms are the Christoffel terms of the closed-form M."""
    _, closed = CASES[case]
    for _ in range(5):
        q = rng.uniform(-np.pi, np.pi, 2 if "2dof" in case else 3)
        qd = rng.normal(size=q.size) * 2
        _, vel, _ = closed(q, qd)
        assert np.abs(vel - christoffel_velocity_terms(closed, q, qd)).max() < 1e-8


@pytest.mark.parametrize("case", CASES)
def test_mass_matrix_gravity_and_velocity_terms_equal_the_closed_forms(case, rng):
    build, closed = CASES[case]
    model = build()
    data = Data(model)
    for _ in range(20):
        q = rng.uniform(-np.pi, np.pi, model.nv)
        qd = rng.normal(size=model.nv) * 3
        M, vel, grav = closed(q, qd)
        assert np.abs(alg.crba(model, data, q) - M).max() < 1e-10
        assert np.abs(alg.generalized_gravity(model, data, q) - grav).max() < 1e-10
        assert np.abs(alg.nle(model, data, q, qd) - grav - vel).max() < 1e-10
