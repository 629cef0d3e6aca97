"""A programmatic full-body model of ~37 DoF for benchmarks, with or without a 6-segment PCS blade.

Segment sizes follow de Leva (1996) proportions for a 1.75 m, 70 kg subject; the
right leg ends in a socket carrying a J-shaped blade. Joint types are those
Pinocchio shares with us (free, spherical, revolute, universal), so the rigid
variant can be rebuilt in Pinocchio from the same compiled tree.
"""
from __future__ import annotations

import numpy as np

from engine.model import (Body, Coordinate, FreeJoint, Marker, Material, Model, RevoluteJoint, Rod, RodSegment,
                          Section, SphericalJoint, UniversalJoint, WeldJoint)
from engine.spatial import SE3, axis_angle

H, MASS = 1.75, 70.0


def _body(name, frac_mass, length, com_frac, radii=(0.3, 0.3, 0.12), axis=1):
    m = frac_mass * MASS
    r = np.array(radii) * length
    inertia = m * r ** 2
    com = np.zeros(3)
    com[axis] = -com_frac * length
    return Body(name, m, com, np.diag(inertia))


def build(with_blade: bool = True) -> Model:
    s = H / 1.741
    L = dict(pelvis=0.10 * s, trunk=0.53 * s, head=0.20 * s, uarm=0.28 * s, farm=0.27 * s, hand=0.09 * s,
             thigh=0.42 * s, shank=0.43 * s, foot=0.26 * s, stump=0.13)
    bodies = [_body("pelvis", 0.11, 0.2, 0.0), _body("torso", 0.32, L["trunk"], -0.5), _body("head", 0.069, L["head"], -0.5)]
    joints = [FreeJoint("pelvis_free", "ground", "pelvis", SE3(np.eye(3), [0, 0.95, 0])),
              SphericalJoint("lumbar", "pelvis", "torso", SE3(np.eye(3), [0, 0.05, 0])),
              SphericalJoint("neck", "torso", "head", SE3(np.eye(3), [0, L["trunk"], 0]))]
    markers = [Marker(n, "pelvis", p) for n, p in (("RASI", (0.1, 0.02, 0.12)), ("LASI", (0.1, 0.02, -0.12)),
                                                    ("RPSI", (-0.1, 0.03, 0.05)), ("LPSI", (-0.1, 0.03, -0.05)))]
    markers += [Marker("C7", "torso", (-0.05, 0.5, 0)), Marker("CLAV", "torso", (0.08, 0.45, 0)),
                Marker("T10", "torso", (-0.1, 0.25, 0)), Marker("STRN", "torso", (0.1, 0.3, 0)),
                Marker("LFHD", "head", (0.08, 0.12, -0.06)), Marker("RFHD", "head", (0.08, 0.12, 0.06)),
                Marker("LBHD", "head", (-0.08, 0.12, -0.06)), Marker("RBHD", "head", (-0.08, 0.12, 0.06))]
    for side, z in (("r", 1.0), ("l", -1.0)):
        S = side.upper()
        bodies += [_body(f"humerus_{side}", 0.027, L["uarm"], 0.58), _body(f"ulna_{side}", 0.011, L["farm"], 0.46),
                   _body(f"radius_{side}", 0.005, L["farm"], 0.46), _body(f"hand_{side}", 0.006, L["hand"], 0.5)]
        joints += [SphericalJoint(f"shoulder_{side}", "torso", f"humerus_{side}", SE3(np.eye(3), [0, 0.45, 0.18 * z])),
                   RevoluteJoint(f"elbow_{side}", f"humerus_{side}", f"ulna_{side}", SE3(np.eye(3), [0, -L["uarm"], 0]),
                                 coordinates=(Coordinate(f"elbow_flex_{side}", range=(0, 2.6)),), axis=(0, 0, 1)),
                   RevoluteJoint(f"radioulnar_{side}", f"ulna_{side}", f"radius_{side}", SE3(np.eye(3), [0, -0.02, 0.02 * z]),
                                 coordinates=(Coordinate(f"pro_sup_{side}"),), axis=(0, 1, 0)),
                   UniversalJoint(f"wrist_{side}", f"radius_{side}", f"hand_{side}", SE3(np.eye(3), [0, -L["farm"], 0]),
                                  coordinates=(Coordinate(f"wrist_flex_{side}"), Coordinate(f"wrist_dev_{side}")),
                                  axis1=(0, 0, 1), axis2=(1, 0, 0))]
        markers += [Marker(f"{S}SHO", f"humerus_{side}", (0, 0.03, 0.02 * z)),
                    Marker(f"{S}UPA", f"humerus_{side}", (0, -0.15, 0.04 * z)),
                    Marker(f"{S}ELB", f"humerus_{side}", (-0.02, -L["uarm"], 0.03 * z)),
                    Marker(f"{S}FRM", f"ulna_{side}", (0, -0.15, 0.03 * z)),
                    Marker(f"{S}WRA", f"radius_{side}", (0.02, -L["farm"], 0.02 * z)),
                    Marker(f"{S}WRB", f"ulna_{side}", (-0.02, -L["farm"], 0.02 * z)),
                    Marker(f"{S}FIN", f"hand_{side}", (0, -0.08, 0))]
        bodies.append(_body(f"femur_{side}", 0.1416, L["thigh"], 0.41))
        joints.append(SphericalJoint(f"hip_{side}", "pelvis", f"femur_{side}", SE3(np.eye(3), [-0.05, -0.07, 0.085 * z])))
        markers += [Marker(f"{S}THI", f"femur_{side}", (0.03, -0.2, 0.07 * z)),
                    Marker(f"{S}KNE", f"femur_{side}", (0, -L["thigh"], 0.05 * z))]
        if side == "l":
            bodies += [_body("tibia_l", 0.0433, L["shank"], 0.45), _body("foot_l", 0.0137, L["foot"], 0.0),
                       _body("toes_l", 0.002, 0.08, 0.0)]
            joints += [RevoluteJoint("knee_l", "femur_l", "tibia_l", SE3(np.eye(3), [0, -L["thigh"], 0]),
                                     coordinates=(Coordinate("knee_angle_l", range=(-2.4, 0.1)),), axis=(0, 0, 1)),
                       UniversalJoint("ankle_l", "tibia_l", "foot_l", SE3(np.eye(3), [0, -L["shank"], 0]),
                                      coordinates=(Coordinate("ankle_angle_l"), Coordinate("subtalar_angle_l")),
                                      axis1=(0, 0, 1), axis2=(1, 0, 0)),
                       RevoluteJoint("mtp_l", "foot_l", "toes_l", SE3(np.eye(3), [0.17, -0.05, 0]),
                                     coordinates=(Coordinate("mtp_angle_l"),), axis=(0, 0, 1))]
            markers += [Marker("LTIB", "tibia_l", (0.03, -0.2, -0.06)), Marker("LANK", "tibia_l", (0, -L["shank"], -0.04)),
                        Marker("LHEE", "foot_l", (-0.05, -0.03, 0)), Marker("LTOE", "toes_l", (0.05, 0, 0))]
        else:
            bodies += [Body("stump_r", 1.6, (0, -0.06, 0), np.diag([0.004, 0.001, 0.004])),
                       Body("socket_r", 1.0, (0, -0.08, 0), np.diag([0.004, 0.002, 0.004]))]
            joints += [RevoluteJoint("knee_r", "femur_r", "stump_r", SE3(np.eye(3), [0, -L["thigh"], 0]),
                                     coordinates=(Coordinate("knee_angle_r", range=(-2.4, 0.1)),), axis=(0, 0, 1)),
                       WeldJoint("socket_weld", "stump_r", "socket_r", SE3(np.eye(3), [0, -0.05, 0]))]
            markers += [Marker("RSCK1", "socket_r", (0.05, -0.08, 0.04)), Marker("RSCK2", "socket_r", (-0.05, -0.1, 0.04))]
    rods = []
    if with_blade:
        carbon = Material("carbon", 60e9, 5e9, 1600.0)
        sec = Section.rectangle(0.07, 0.012)
        curv = [0.0, 0.0, -4.0, -6.0, -5.0, 0.0]
        lengths = [0.14, 0.12, 0.09, 0.09, 0.09, 0.12]
        segs = [RodSegment(Ls, sec, carbon, rest_strain=(0, 0, k, 1, 0, 0)) for Ls, k in zip(lengths, curv)]
        rods.append(Rod("blade", "socket_r", segs, offset=SE3(axis_angle([0, 0, 1], -np.pi / 2), [0.03, -0.15, 0])))
        total = sum(lengths)
        for i in range(21):
            markers.append(Marker(f"BLD{i + 1:02d}", "blade", (0, 0, 0.006 if i % 2 else -0.006), s=total * i / 20))
    return Model("fullbody" + ("_blade" if with_blade else ""), bodies, joints, rods, markers=markers)
