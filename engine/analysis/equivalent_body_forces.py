"""The body force equivalent to a joint's generalized forces, as OpenSim's InverseDynamicsTool reports it
(``joints_to_report_body_forces``; OpenSim's ``Joint::calcEquivalentSpatialForce``).

Not a joint reaction (:mod:`.joint_reactions` holds those): the spatial force ``F = [moment; force]`` on the
child, at the origin of the joint's frame on the child, whose work through the joint's own motion is the joint's
generalized forces, ``H^T F = tau_joint`` with ``H`` (6 x nv_joint) the joint's motion subspace (the columns of the
child's joint frame's Jacobian for the joint's speeds, world axes). OpenSim solves it as a pseudo-inverse, in two
parts: the force from the linear rows, the moment from the angular rows, each the minimum-norm least-squares
solution; where both can produce the generalized forces, the one with the larger ``|H^T F| / |F|`` takes them and
the other takes what is left. A joint with rotations only gets a pure moment, a free joint its translations'
forces and its rotations' moments, a knee whose translations follow its angle a pure moment about its axis.
"""
from __future__ import annotations

import numpy as np

from .. import algorithms as alg
from ..data import Data
from ..errors import SettingsError
from ..spatial import skew
from ..tree import compile_tree

_SIGNIFICANT = np.finfo(float).eps ** 0.875          # SimTK::SignificantReal


def _min_norm(HT, f):
    """``(x, fitted)``: the minimum-norm least-squares solution of ``HT x = f`` and ``HT x`` (zeros for rank 0)."""
    x = np.linalg.lstsq(HT, f, rcond=None)[0]
    return x, HT @ x


def split_generalized_forces(Hw, Hv, f) -> tuple:
    """``(moment, force)`` (3,), (3,) whose work through the joint's motion ``Hw``, ``Hv`` (3, n) (angular and
    linear rows of its motion subspace) is its generalized forces ``f`` (n,), as OpenSim splits them (module
    notes)."""
    Fw, fw = _min_norm(Hw.T, f)
    Fv, fv = _min_norm(Hv.T, f)
    if np.linalg.norm(fv) > _SIGNIFICANT and np.linalg.norm(fw) > _SIGNIFICANT:
        if np.linalg.norm(fw) / np.linalg.norm(Fw) > np.linalg.norm(fv) / np.linalg.norm(Fv):
            Fv = _min_norm(Hv.T, f - fw)[0]
        else:
            Fw = _min_norm(Hw.T, f - fv)[0]
    return Fw, Fv


def equivalent_body_forces(model, Q, tau, joints) -> np.ndarray:
    """(T, len(joints), 6) world axes ``[moment (N m); force (N)]``: for each named joint at each configuration
    ``Q[f]`` (T, nq), the spatial force on its child at the origin of the joint's frame on the child equivalent to
    the joint's part of ``tau[f]`` (T, nv; N m, N). SettingsError for a joint with a coordinate coupled to another
    (its generalized force is not one of ``tau``'s)."""
    tree = compile_tree(model)
    data = Data(model)
    found = []
    for name in joints:
        joint = model.joint(name)
        coupled = [c.name for c in joint.coordinates if tree.coordinates[c.name].vi < 0]
        if coupled:
            raise SettingsError(f"its coordinates {', '.join(coupled)} follow others (coupled), so the joint's "
                                "generalized forces are not all known", element=f"joint '{name}'")
        _, _, v0, nv = tree.joint_q[name]
        found.append((joint.child, np.asarray(joint.child_offset.p, float), slice(v0, v0 + nv)))
    out = np.zeros((len(Q), len(found), 6))
    for f, q in enumerate(Q):
        for j, (child, offset, speeds) in enumerate(found):
            if speeds.stop == speeds.start:
                continue
            J = alg.frame_jacobian(model, data, q, child)[:, speeds]
            r = alg.frame_placement(model, data, child).R @ offset        # body origin -> joint frame origin
            Hv = J[3:] - skew(r) @ J[:3]
            out[f, j, :3], out[f, j, 3:] = split_generalized_forces(J[:3], Hv, tau[f, speeds])
    return out
