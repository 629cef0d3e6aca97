"""Small soft-rigid hybrid models used by the engine tests."""
from __future__ import annotations

import numpy as np

from engine.model import (Body, ContactPoint, Coordinate, FreeJoint, GeneralJoint, Linear, Marker, Material, Model,
                          Multiplier, NaturalCubicSpline, PrismaticJoint, RevoluteJoint, Rod, RodSegment, Section,
                          SimmSpline, SphericalJoint, TransformAxis, UniversalJoint, WeldJoint,
                          constant_axis)
from engine.spatial import SE3, axis_angle

STEEL = Material("steel", 200e9, 79.3e9, 7850.0)
RUBBERY = Material("soft", 2.0e6, 0.8e6, 1100.0)


def cantilever(n_segments: int, length: float = 1.0, section=None, material=STEEL, modes=("kx", "ky", "kz")):
    """A straight rod clamped to ground along +x; a marker at the tip."""
    section = section or Section.rectangle(0.05, 0.01)
    segs = [RodSegment(length / n_segments, section, material, modes) for _ in range(n_segments)]
    rod = Rod("beam", "ground", segs)
    return Model("cantilever", rods=[rod], markers=[Marker("tip", "beam", s=length)], gravity=(0, 0, 0))


def arc_rod(curvature: float, n_segments: int = 4, length: float = 0.8):
    """A rod whose rest strain bends it about z with constant curvature (1/m)."""
    rest = (0.0, 0.0, curvature, 1.0, 0.0, 0.0)
    segs = [RodSegment(length / n_segments, Section.rectangle(0.04, 0.008), STEEL, rest_strain=rest)
            for _ in range(n_segments)]
    return Model("arc", rods=[Rod("arc", "ground", segs)], gravity=(0, 0, 0))


def hybrid_chain(floating: bool = False, gravity=(0.0, -9.81, 0.0), modes=("kx", "ky", "kz"), material=RUBBERY,
                 damping: float = 0.0, shoulder: str = "spherical"):
    """Rigid links, a curved rod in the middle and a rigid body at the rod tip.

    ``floating``: the first body has a free joint; otherwise it hangs from a revolute joint.
    ``shoulder``: 'spherical' (quaternion) or 'universal' (all velocities are coordinate rates).
    The rod's segments differ in section and rest strain (including linear strains).
    """
    mat = Material(material.name, material.youngs_modulus, material.shear_modulus, material.density,
                   damping, damping)
    bodies = [Body("base", 3.0, (0.0, -0.1, 0.02), np.diag([0.05, 0.02, 0.05])),
              Body("link", 1.2, (0.05, -0.15, 0.0), np.diag([0.02, 0.004, 0.021])),
              Body("foot", 0.8, (0.06, 0.0, 0.01), np.diag([0.002, 0.004, 0.005]))]
    if floating:
        j0 = FreeJoint("root", "ground", "base")
    else:
        j0 = RevoluteJoint("root", "ground", "base", SE3(axis_angle([1, 0, 0], 0.2), [0, 1.5, 0]),
                           coordinates=(Coordinate("root_angle"),), axis=(0.1, 0.2, 1.0))
    place = SE3(np.eye(3), [0.0, -0.2, 0.05])
    sj = (SphericalJoint("shoulder", "base", "link", place) if shoulder == "spherical" else
          UniversalJoint("shoulder", "base", "link", place, coordinates=(Coordinate("sh1"), Coordinate("sh2")),
                         axis1=(1, 0, 0), axis2=(0, 0, 1)))
    joints = [j0, sj,
              RevoluteJoint("ankle", "blade", "foot", SE3(axis_angle([0, 0, 1], 0.3), [0.0, 0.0, 0.0]),
                            coordinates=(Coordinate("ankle_angle"),), axis=(0.0, 0.0, 1.0))]
    segs = [RodSegment(0.12, Section.rectangle(0.05, 0.012), mat, modes, (0.0, 0.0, 2.0, 1.0, 0.0, 0.0)),
            RodSegment(0.10, Section.rectangle(0.05, 0.010), mat, modes, (0.3, 0.5, 4.0, 1.0, 0.01, 0.0)),
            RodSegment(0.14, Section.rectangle(0.04, 0.009), mat, modes, (0.0, -0.2, 1.0, 0.98, 0.0, 0.02))]
    rod = Rod("blade", "link", segs, offset=SE3(axis_angle([0, 0, 1], -1.4), [0.02, -0.3, 0.0]))
    markers = [Marker("m_base", "base", (0.05, 0.02, 0.01)), Marker("m_link", "link", (0.0, -0.2, 0.03)),
               Marker("m_rod1", "blade", (0.0, 0.0, 0.01), s=0.05),
               Marker("m_rod2", "blade", (0.0, 0.02, -0.01), s=0.23),
               Marker("m_rod3", "blade", (0.01, 0.0, 0.0), s=0.36), Marker("m_foot", "foot", (0.1, 0.0, 0.02))]
    contacts = [ContactPoint("c_rod", "blade", (0.0, -0.006, 0.0), s=0.3, group="blade")]
    return Model("hybrid", bodies, joints, [rod], markers=markers, contacts=contacts, gravity=gravity)


def general_joint_model():
    """A chain with OpenSim-style general joints: spline translations of a knee, a coupled coordinate."""
    knee_x = SimmSpline([-2.0944, -1.74533, -1.39626, -1.0472, -0.698132, -0.349066, -0.174533, 0.197344, 0.337395,
                         0.490178, 1.52146, 2.0944],
                        [-0.0032, 0.00179, 0.00411, 0.0041, 0.00212, -0.001, -0.0031, -0.005227, -0.005435,
                         -0.005574, -0.005435, -0.00525])
    knee_y = NaturalCubicSpline([-2.0944, -1.22173, -0.523599, -0.349066, -0.174533, 0.159149, 2.0944],
                                [-0.4226, -0.4082, -0.399, -0.3976, -0.3966, -0.395264, -0.396])
    bodies = [Body("thigh", 7.0, (0.0, -0.17, 0.0), np.diag([0.11, 0.03, 0.12])),
              Body("shank", 3.0, (0.0, -0.18, 0.0), np.diag([0.04, 0.004, 0.04])),
              Body("patella", 0.1, (0.0, 0.0, 0.0), np.diag([1e-4, 1e-4, 1e-4]))]
    hip = GeneralJoint("hip", "ground", "thigh", SE3(np.eye(3), [0, 1.0, 0]),
                       coordinates=(Coordinate("hip_flexion"), Coordinate("hip_adduction"),
                                    Coordinate("pelvis_ty", "translational")),
                       rotations=(TransformAxis((0, 0, 1), "hip_flexion"),
                                  TransformAxis((1, 0, 0), "hip_adduction", Multiplier(Linear(1.0, 0.0), -1.0)),
                                  constant_axis((0, 1, 0))),
                       translations=(constant_axis((1, 0, 0)), TransformAxis((0, 1, 0), "pelvis_ty"),
                                     constant_axis((0, 0, 1))))
    knee = GeneralJoint("knee", "thigh", "shank", coordinates=(Coordinate("knee_angle"),),
                        rotations=(TransformAxis((0, 0, 1), "knee_angle"), constant_axis((0, 1, 0)),
                                   constant_axis((1, 0, 0))),
                        translations=(TransformAxis((1, 0, 0), "knee_angle", knee_x),
                                      TransformAxis((0, 1, 0), "knee_angle", knee_y), constant_axis((0, 0, 1))))
    pat = GeneralJoint("patellofemoral", "thigh", "patella",
                       coordinates=(Coordinate("patella_angle", coupled_to="knee_angle",
                                               coupler=Linear(0.6, 0.05)),),
                       rotations=(TransformAxis((0, 0, 1), "patella_angle"), constant_axis((0, 1, 0)),
                                  constant_axis((1, 0, 0))),
                       translations=(TransformAxis((1, 0, 0), "knee_angle", Linear(0.01, 0.05)),
                                     TransformAxis((0, 1, 0), "patella_angle", Linear(0.02, -0.4)),
                                     constant_axis((0, 0, 1))))
    slide = PrismaticJoint("tx", "shank", "foot", SE3(np.eye(3), [0, -0.4, 0]),
                           coordinates=(Coordinate("foot_tx", "translational"),), axis=(1, 0.2, 0))
    bodies.append(Body("foot", 1.0, (0.05, 0.0, 0.0), np.diag([0.001, 0.003, 0.003])))
    weld = WeldJoint("toe_weld", "foot", "toes", SE3(np.eye(3), [0.15, 0, 0]))
    bodies.append(Body("toes", 0.2, (0.02, 0.0, 0.0), np.diag([1e-4, 2e-4, 2e-4])))
    markers = [Marker("knee_m", "shank", (0.05, 0.0, 0.0)), Marker("pat_m", "patella", (0.01, 0.02, 0.0)),
               Marker("toe_m", "toes", (0.05, 0.0, 0.01))]
    return Model("general", bodies, [hip, knee, pat, slide, weld], markers=markers)
