"""Small models for the muscle-path tests: wrapping over every surface type with a rod, and the seed's arm."""
from __future__ import annotations

import numpy as np

from engine.algorithms import neutral
from engine.data import Data
from engine.model import (Body, Coordinate, GeneralJoint, Linear, Material, Model, NaturalCubicSpline, RevoluteJoint,
                          Rod, RodSegment, Section, TransformAxis, constant_axis)
from engine.model.muscles import (ConditionalPathPoint, GeometryPath, MovingPathPoint, Muscle, PathPoint, PathWrap,
                                  WrapCylinder, WrapEllipsoid, WrapSphere)
from engine.spatial import SE3, axis_angle, body_fixed_xyz
from engine.tree import compile_tree

CARBON = Material("carbon", 7.0e10, 5.0e9, 1600.0)

# The elbow switch of the conditional point of 'via_and_moving' (rad): the point lies on the straight
# path there, so the length is continuous as it appears.
VIA_SWITCH = 0.5
VIA_ORIGIN = np.array([0.03, -0.05, 0.0])        # on 'upper'
VIA_INSERTION = np.array([0.035, -0.06, 0.01])   # on 'lower'


def muscle(name, points, wraps=()):
    return Muscle(name, GeometryPath(tuple(points), tuple(wraps)), "rigid", 500.0, 0.1, 0.2)


def _elbow_placement():
    return SE3(np.eye(3), [0.0, -0.3, 0.0])


def _via_location() -> np.ndarray:
    """A point of 'upper' on the straight line from VIA_ORIGIN to VIA_INSERTION at elbow = VIA_SWITCH
    (twist 0, slide at its coupled value): 40 % of the way."""
    model = wrap_model(with_via=False)
    q = neutral(model)
    q[compile_tree(model).coordinates["elbow"].qi] = VIA_SWITCH
    from engine import algorithms as alg
    data = Data(model)
    alg.forward_kinematics(model, data, q)
    X_upper = alg.frame_placement(model, data, "upper")
    insertion = alg.frame_placement(model, data, "lower").act(VIA_INSERTION)
    on_line = X_upper.act(VIA_ORIGIN) + 0.4 * (insertion - X_upper.act(VIA_ORIGIN))
    return X_upper.inverse().act(on_line)


def wrap_model(with_via: bool = True) -> Model:
    """An arm with a shoulder (revolute), an elbow (general joint: flexion, twist and a slide coupled to
    flexion), a two-segment PCS rod on the forearm carrying a tip body, wrap objects of every type and
    muscles over each of them, one with a point on the rod, one with a conditional and a moving point."""
    bodies = [Body("upper", 2.0, (0.0, -0.15, 0.0), np.diag([0.02, 0.004, 0.02])),
              Body("lower", 1.2, (0.0, -0.12, 0.0), np.diag([0.01, 0.002, 0.01])),
              Body("tip", 0.2, (0.0, -0.03, 0.0), np.diag([1e-4, 1e-4, 1e-4]))]
    shoulder = RevoluteJoint("shoulder", "ground", "upper", SE3(np.eye(3), [0.0, 1.4, 0.0]),
                             coordinates=(Coordinate("shoulder_angle", range=(-1.5, 1.5)),), axis=(0.2, 0.1, 1.0))
    elbow = GeneralJoint(
        "elbow", "upper", "lower", _elbow_placement(),
        coordinates=(Coordinate("elbow", range=(0.0, 2.4)), Coordinate("twist", range=(-0.4, 0.4)),
                     Coordinate("slide", "translational", range=(-0.02, 0.03), coupled_to="elbow",
                                coupler=Linear(0.01, 0.0))),
        rotations=(TransformAxis((0, 0, 1), "elbow"), TransformAxis((1, 0, 0), "twist"), constant_axis((0, 1, 0))),
        translations=(TransformAxis((1, 0, 0), "slide"), constant_axis((0, 1, 0)), constant_axis((0, 0, 1))))
    wrist = RevoluteJoint("wrist", "strip", "tip", coordinates=(Coordinate("wrist_angle", range=(-1.0, 1.0)),))
    segments = (RodSegment(0.1, Section.rectangle(0.03, 0.004), CARBON),
                RodSegment(0.1, Section.rectangle(0.03, 0.003), CARBON, rest_strain=(0.0, 0.5, 2.0, 1.0, 0.0, 0.0)))
    strip = Rod("strip", "lower", segments, SE3(axis_angle([0, 0, 1], -np.pi / 2), [0.0, -0.25, 0.0]))
    wraps = [
        WrapCylinder("elbow_cyl", "upper", _elbow_placement(), "all", radius=0.03, length=0.2),
        WrapCylinder("elbow_cyl_q", "upper", SE3(body_fixed_xyz([0.1, 0.0, 0.3]), [0.0, -0.3, 0.0]), "-x",
                     radius=0.028, length=0.2),
        WrapSphere("elbow_ball", "upper", SE3(np.eye(3), [0.0, -0.3, 0.02]), radius=0.035),
        WrapEllipsoid("elbow_ell", "upper", SE3(body_fixed_xyz([0.3, -0.2, 0.5]), [0.0, -0.3, 0.0]),
                      dimensions=(0.045, 0.035, 0.05)),
        WrapEllipsoid("elbow_ell_q", "upper", SE3(body_fixed_xyz([-0.2, 0.1, 0.2]), [0.0, -0.3, 0.01]), "-y",
                      dimensions=(0.04, 0.03, 0.06)),
        WrapSphere("forearm_ball", "lower", SE3(np.eye(3), [-0.02, -0.17, 0.0]), radius=0.02),
    ]
    muscles = [
        muscle("over_cylinder", [PathPoint("o", "upper", (-0.035, -0.12, 0.01)),
                                 PathPoint("i", "lower", (-0.034, -0.1, -0.02))], [PathWrap("elbow_cyl")]),
        muscle("over_cylinder_quadrant", [PathPoint("o", "upper", (-0.033, -0.14, 0.0)),
                                          PathPoint("i", "lower", (0.03, -0.12, 0.01))], [PathWrap("elbow_cyl_q")]),
        muscle("over_sphere", [PathPoint("o", "upper", (-0.04, -0.15, 0.012)),
                               PathPoint("i", "lower", (-0.042, -0.12, -0.015))], [PathWrap("elbow_ball")]),
        muscle("over_ellipsoid", [PathPoint("o", "upper", (-0.05, -0.12, 0.02)),
                                  PathPoint("i", "lower", (-0.05, -0.1, -0.01))], [PathWrap("elbow_ell")]),
        muscle("over_ellipsoid_quadrant", [PathPoint("o", "upper", (-0.045, -0.13, -0.01)),
                                           PathPoint("i", "lower", (-0.04, -0.11, 0.02))],
               [PathWrap("elbow_ell_q", "midpoint")]),
        muscle("over_ellipsoid_axial", [PathPoint("o", "upper", (-0.05, -0.13, 0.0)),
                                        PathPoint("i", "lower", (-0.045, -0.12, 0.01))],
               [PathWrap("elbow_ell", "axial")]),
        muscle("to_the_rod", [PathPoint("o", "lower", (0.02, -0.1, 0.0)),
                              PathPoint("on_rod", "strip", (0.0, 0.01, 0.004), s=0.12),
                              PathPoint("i", "tip", (0.03, -0.05, 0.0))]),
        muscle("over_two_wraps", [PathPoint("o", "upper", (-0.045, -0.1, 0.0)),
                                  PathPoint("i", "strip", (0.0, -0.012, 0.0), s=0.05)],
               [PathWrap("elbow_cyl"), PathWrap("forearm_ball")]),
    ]
    if with_via:
        muscles.append(muscle("via_and_moving", [
            PathPoint("o", "upper", VIA_ORIGIN),
            ConditionalPathPoint("via", "upper", _via_location(), coordinate="elbow", range=(VIA_SWITCH, 2.4)),
            PathPoint("i", "lower", VIA_INSERTION),
            MovingPathPoint("moving", "lower", (0.0, 0.0, 0.005),
                            x=("slide", NaturalCubicSpline([-0.02, 0.0, 0.01, 0.03], [0.02, 0.025, 0.027, 0.03])),
                            y=("elbow", NaturalCubicSpline([0.0, 0.8, 1.6, 2.4], [-0.1, -0.12, -0.11, -0.13]))),
            PathPoint("end", "tip", (0.0, -0.04, 0.0))]))
    return Model("wrap_test", bodies, [shoulder, elbow, wrist], [strip], muscles=muscles, wrap_objects=wraps,
                 gravity=(0.0, -9.81, 0.0))


def random_poses(model, rng, n: int) -> np.ndarray:
    """``n`` configurations with coordinates uniform in their ranges and rod strains near rest."""
    Q = np.tile(neutral(model), (n, 1))
    for name, slot in compile_tree(model).coordinates.items():
        if slot.qi < 0:
            continue
        lo, hi = slot.range
        if np.isfinite(lo) and np.isfinite(hi):
            Q[:, slot.qi] = rng.uniform(lo, hi, n)
        else:
            Q[:, slot.qi] += rng.normal(scale=0.5, size=n)
    return Q


# --------------------------------------------------------------------------- the seed's 3-DoF arm
# ../shared/seeds/001_*: segment lengths L_i, origins a_i and insertions b_i (m)
ARM_L = (0.31, 0.27, 0.15)
ARM_A = (0.055, 0.055, 0.22, 0.24, 0.04, 0.04, 0.22, 0.06, 0.26)
ARM_B = (0.08, 0.11, 0.03, 0.03, 0.045, 0.045, 0.048, 0.05, 0.03)


def seed_arm() -> Model:
    """The planar 3-DoF, 9-muscle arm: segments along their x axes, joints about z.

    The points are placed on the x axes so that the lengths are the seed's closed forms: muscles
    1, 2, 5, 6 start on ground at -a or +a, muscles 3, 4, 9 on segment 1 at a, 7, 8 on segment 2 at a;
    they end at +b or -b on the segment after the joint(s) they cross.
    """
    L1, L2, _ = ARM_L
    a, b = ARM_A, ARM_B
    bodies = [Body(f"s{i}", m, (0.0, 0.0, 0.0), np.diag([iz / 2, iz / 2, iz]))
              for i, m, iz in ((1, 1.93, 0.0141), (2, 1.32, 0.012), (3, 0.35, 0.001))]
    joints = [RevoluteJoint("j1", "ground", "s1", coordinates=(Coordinate("theta1"),)),
              RevoluteJoint("j2", "s1", "s2", SE3(np.eye(3), [L1, 0, 0]), coordinates=(Coordinate("theta2"),)),
              RevoluteJoint("j3", "s2", "s3", SE3(np.eye(3), [L2, 0, 0]), coordinates=(Coordinate("theta3"),))]

    def x(v):
        return (v, 0.0, 0.0)

    ends = [("ground", -a[0], "s1", b[0]), ("ground", a[1], "s1", b[1]), ("s1", a[2], "s2", b[2]),
            ("s1", a[3], "s2", -b[3]), ("ground", -a[4], "s2", b[4]), ("ground", a[5], "s2", -b[5]),
            ("s2", a[6], "s3", b[6]), ("s2", a[7], "s3", -b[7]), ("s1", a[8], "s3", b[8])]
    muscles = [muscle(f"m{k + 1}", [PathPoint("origin", o, x(xo)), PathPoint("insertion", i, x(xi))])
               for k, (o, xo, i, xi) in enumerate(ends)]
    return Model("seed_arm", bodies, joints, muscles=muscles, gravity=(0.0, -9.81, 0.0))


def seed_arm_closed_forms(theta) -> tuple[np.ndarray, np.ndarray]:
    """The seed's ``l_m`` (9,) and ``R = dl/dq`` (9 x 3) at ``theta`` (3,), transcribed from 001_*."""
    t1, t2, t3 = theta
    L1, L2, _ = ARM_L
    a, b = (0.0,) + ARM_A, (0.0,) + ARM_B   # 1-based as in the seed
    c1, c2, c3, c12, c23 = np.cos(t1), np.cos(t2), np.cos(t3), np.cos(t1 + t2), np.cos(t2 + t3)
    s1, s2, s3, s12, s23 = np.sin(t1), np.sin(t2), np.sin(t3), np.sin(t1 + t2), np.sin(t2 + t3)
    l = np.array([
        np.sqrt(a[1] ** 2 + 2 * a[1] * b[1] * c1 + b[1] ** 2),
        np.sqrt(a[2] ** 2 - 2 * a[2] * b[2] * c1 + b[2] ** 2),
        np.sqrt(b[3] ** 2 + b[3] * (2 * L1 - 2 * a[3]) * c2 + (L1 - a[3]) ** 2),
        np.sqrt(b[4] ** 2 - b[4] * (2 * L1 - 2 * a[4]) * c2 + (L1 - a[4]) ** 2),
        np.sqrt(L1 ** 2 + 2 * L1 * a[5] * c1 + 2 * L1 * b[5] * c2 + a[5] ** 2 + 2 * a[5] * b[5] * c12 + b[5] ** 2),
        np.sqrt(L1 ** 2 - 2 * L1 * a[6] * c1 - 2 * L1 * b[6] * c2 + a[6] ** 2 + 2 * a[6] * b[6] * c12 + b[6] ** 2),
        np.sqrt(b[7] ** 2 + b[7] * (2 * L2 - 2 * a[7]) * c3 + (L2 - a[7]) ** 2),
        np.sqrt(b[8] ** 2 - b[8] * (2 * L2 - 2 * a[8]) * c3 + (L2 - a[8]) ** 2),
        np.sqrt(L2 ** 2 + 2 * L2 * b[9] * c3 + L2 * (2 * L1 - 2 * a[9]) * c2 + b[9] ** 2
                + b[9] * (2 * L1 - 2 * a[9]) * c23 + (L1 - a[9]) ** 2)])
    R = np.zeros((9, 3))
    R[0, 0] = -a[1] * b[1] * s1 / l[0]
    R[1, 0] = a[2] * b[2] * s1 / l[1]
    R[2, 1] = -b[3] * (2 * L1 - 2 * a[3]) * s2 / (2 * l[2])
    R[3, 1] = b[4] * (2 * L1 - 2 * a[4]) * s2 / (2 * l[3])
    R[4, 0] = -a[5] * (L1 * s1 + b[5] * s12) / l[4]
    R[4, 1] = -b[5] * (L1 * s2 + a[5] * s12) / l[4]
    R[5, 0] = a[6] * (L1 * s1 - b[6] * s12) / l[5]
    R[5, 1] = b[6] * (L1 * s2 - a[6] * s12) / l[5]
    R[6, 2] = -b[7] * (2 * L2 - 2 * a[7]) * s3 / (2 * l[6])
    R[7, 2] = b[8] * (2 * L2 - 2 * a[8]) * s3 / (2 * l[7])
    R[8, 1] = (-L2 / 2 * (2 * L1 - 2 * a[9]) * s2 - b[9] / 2 * (2 * L1 - 2 * a[9]) * s23) / l[8]
    R[8, 2] = (-L2 * b[9] * s3 - b[9] / 2 * (2 * L1 - 2 * a[9]) * s23) / l[8]
    return l, R
