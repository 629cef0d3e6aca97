"""Every scalar coordinate of a motion as a column, as motion files and curves show them."""
from __future__ import annotations

import numpy as np

from ..model.joints import FreeJoint, SphericalJoint
from ..spatial import quat_to_matrix, to_body_fixed_xyz
from ..tree import compile_tree


def coordinate_values(model, Q) -> tuple[tuple[str, ...], np.ndarray]:
    """``(labels, values)``: all scalar coordinates (coupled ones with their own values) of ``Q`` (frames x nq),
    free and spherical joints as body-fixed X-Y-Z angles (and translations). Rotations in degrees, as OpenSim
    writes motions; translations in m."""
    tree = compile_tree(model)
    labels, columns = [], []
    for el in model.ordered_elements:
        if isinstance(el, (FreeJoint, SphericalJoint)):
            q0, *_ = tree.joint_q[el.name]
            j = q0 + (3 if isinstance(el, FreeJoint) else 0)
            angles = np.degrees([to_body_fixed_xyz(quat_to_matrix(x)) for x in Q[:, j:j + 4]])
            if isinstance(el, FreeJoint):
                labels += [f"{el.name}_tx", f"{el.name}_ty", f"{el.name}_tz"]
                columns += [Q[:, q0], Q[:, q0 + 1], Q[:, q0 + 2]]
            labels += [f"{el.name}_rx", f"{el.name}_ry", f"{el.name}_rz"]
            columns += list(angles.T)
        for c in (el.coordinates if hasattr(el, "coordinates") else [model.coordinate(n) for n in
                                                                    el.coordinate_names()]):
            slot = tree.coordinates[c.name]
            if c.is_dependent:
                values = c.coupler.evaluate(Q[:, tree.coordinates[c.coupled_to].qi])
            else:
                values = Q[:, slot.qi]
            labels.append(c.name)
            columns.append(np.degrees(values) if c.kind == "rotational" else values)
    return tuple(labels), np.column_stack(columns)
