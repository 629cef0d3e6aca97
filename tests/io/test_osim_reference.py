"""The three OpenSim example models, imported, against OpenSim 4.6 at 20 poses each.

Quantities and tolerances: body origins and markers within 1e-6 m, body
rotations within 1e-6, the mass matrix and the inverse dynamics vectors
``tau_gravity`` and ``tau_id`` within 1e-6 relative (to the largest entry of
the reference at that pose), all in the reference's coordinate order (mapped
by name). The straight-line lengths and moment arms of the muscles without
wrap objects check the imported path points, conditional points and moving
points against OpenSim too.
"""
from __future__ import annotations

import numpy as np
import pytest

from engine import algorithms as alg
from engine.data import Data
from engine.io.osim import read_osim
from engine.model.muscles import ConditionalPathPoint, MovingPathPoint
from engine.tree import compile_tree

MODELS = {
    "arm26": "arm26/arm26.osim",
    "gait10dof18musc": "gait10dof18musc/subject01.osim",
    "gait2354": "gait2354/subject01_simbody.osim",
}
TOL = 1e-6


class Case:
    """One imported model, its reference, and our values at the reference poses."""

    def __init__(self, folder, test_data):
        self.model = read_osim(test_data / "opensim" / MODELS[folder])
        self.ref = dict(np.load(test_data / "opensim" / folder / "reference" / "model_reference.npz"))
        self.names = [str(n) for n in self.ref["coordinate_names"]]
        slots = compile_tree(self.model).coordinates
        self.qi = [slots[n].qi for n in self.names]
        self.vi = [slots[n].vi for n in self.names]
        self.data = Data(self.model)

    def q(self, pose, values=None):
        q = alg.neutral(self.model)
        q[self.qi] = self.ref["q"][pose] if values is None else values
        return q

    def speeds(self, values):
        v = np.zeros(self.model.nv)
        v[self.vi] = values
        return v


@pytest.fixture(scope="module", params=list(MODELS))
def case(request, test_data):
    return Case(request.param, test_data)


def poses(case):
    return range(case.ref["q"].shape[0])


def test_every_reference_coordinate_is_an_independent_coordinate_of_the_same_unit(case):
    assert case.model.nv == len(case.names) == case.model.nq
    rotational = [case.model.coordinate(n).kind == "rotational" for n in case.names]
    assert rotational == [bool(r) for r in case.ref["coordinate_is_rotational"]]
    assert case.ref["q"].shape[0] == 20


def test_body_origins_and_rotations(case):
    worst_p = worst_r = 0.0
    for p in poses(case):
        alg.forward_kinematics(case.model, case.data, case.q(p))
        for b, name in enumerate(case.ref["body_names"]):
            X = alg.frame_placement(case.model, case.data, str(name))
            worst_p = max(worst_p, np.abs(X.p - case.ref["body_pos"][p, b]).max())
            worst_r = max(worst_r, np.abs(X.R - case.ref["body_rot"][p, b]).max())
    assert worst_p <= TOL, f"body origins off by {worst_p:.3e} m"
    assert worst_r <= TOL, f"body rotations off by {worst_r:.3e}"


def test_marker_positions(case):
    order = [m.name for m in case.model.markers]
    index = [order.index(str(n)) for n in case.ref["marker_names"]]
    worst = max(np.abs(alg.marker_positions(case.model, case.data, case.q(p))[index] - case.ref["marker_pos"][p]).max()
                for p in poses(case))
    assert worst <= TOL, f"markers off by {worst:.3e} m"


def relative(ours, ref):
    return float(np.abs(ours - ref).max() / np.abs(ref).max())


def test_mass_matrix(case):
    worst = max(relative(alg.crba(case.model, case.data, case.q(p))[np.ix_(case.vi, case.vi)], case.ref["M"][p])
                for p in poses(case))
    assert worst <= TOL, f"mass matrix off by {worst:.3e} (relative)"


def test_gravity_and_inverse_dynamics(case):
    worst_g = worst_id = 0.0
    for p in poses(case):
        q = case.q(p)
        g = alg.generalized_gravity(case.model, case.data, q)[case.vi]
        tau = alg.rnea(case.model, case.data, q, case.speeds(case.ref["u"][p]), case.speeds(case.ref["udot"][p]))
        worst_g = max(worst_g, relative(g, case.ref["tau_gravity"][p]))
        worst_id = max(worst_id, relative(tau[case.vi], case.ref["tau_id"][p]))
    assert worst_g <= TOL, f"tau_gravity off by {worst_g:.3e} (relative)"
    assert worst_id <= TOL, f"tau_id off by {worst_id:.3e} (relative)"


# --------------------------------------------------------------- muscle paths
def path_lengths(case, q, muscles):
    """Straight-line lengths through the active points, with OpenSim's rules: a conditional point is
    active within its range widened by 1e-5; a moving point's coordinate is clamped to its range."""
    model, tree = case.model, compile_tree(case.model)
    alg.forward_kinematics(model, case.data, q)
    placements = {}
    out = []
    for muscle in muscles:
        points = []
        for pt in muscle.path.points:
            if isinstance(pt, ConditionalPathPoint):
                lo, hi = pt.range
                if not lo - 1e-5 <= q[tree.coordinates[pt.coordinate].qi] <= hi + 1e-5:
                    continue
            location = np.array(pt.location)
            if isinstance(pt, MovingPathPoint):
                for k, spec in enumerate((pt.x, pt.y, pt.z)):
                    if spec is not None:
                        value = np.clip(q[tree.coordinates[spec[0]].qi], *model.coordinate(spec[0]).range)
                        location[k] = spec[1](value)
            if pt.parent not in placements:
                placements[pt.parent] = alg.frame_placement(model, case.data, pt.parent)
            points.append(placements[pt.parent].act(location))
        out.append(sum(np.linalg.norm(b - a) for a, b in zip(points, points[1:])))
    return np.array(out)


def unwrapped(case):
    index = [k for k, n in enumerate(case.ref["muscle_names"]) if not case.model.muscle(str(n)).path.wraps]
    return index, [case.model.muscle(str(case.ref["muscle_names"][k])) for k in index]


def test_lengths_of_muscles_without_wrapping(case):
    index, muscles = unwrapped(case)
    assert muscles, "every model has muscles without wrap objects"
    worst = max(np.abs(path_lengths(case, case.q(p), muscles) - case.ref["muscle_length"][p, index]).max()
                for p in poses(case))
    assert worst <= TOL, f"muscle lengths off by {worst:.3e} m"


def test_moment_arms_of_muscles_without_wrapping(case):
    """Moment arm = -dL/dq (central differences, step 1e-6), at the ten IK poses."""
    index, muscles = unwrapped(case)
    h = 1e-6
    worst = 0.0
    for p in range(10):
        for j in range(len(case.names)):
            qp, qm = case.ref["q"][p].copy(), case.ref["q"][p].copy()
            qp[j] += h
            qm[j] -= h
            arm = -(path_lengths(case, case.q(p, qp), muscles) - path_lengths(case, case.q(p, qm), muscles)) / (2 * h)
            worst = max(worst, np.abs(arm - case.ref["moment_arm"][p, index, j]).max())
    assert worst <= TOL, f"moment arms off by {worst:.3e} m"
