"""Coordinates at the ends of their ranges in an inverse kinematics solution, and the notes that say so.

IK keeps a coordinate within its range only where the model marks it ``clamped``, as OpenSim's IK does (its
AssemblySolver restricts the clamped coordinates alone); an OpenSim model's unclamped coordinates may leave their
ranges, ours where the model says so. Either is said in the analysis notes: a clamped coordinate held at an end
of its range is a fit the range constrained, an unclamped one beyond it a pose the model's author did not expect.
"""
from __future__ import annotations

import numpy as np

from ..tree import compile_tree
from ..trial.intervals import runs

AT_BOUND = 1e-9     # rad, m, strain units: a clamped coordinate this close to an end of its range is held there


def range_contacts(model, q, unobserved=None) -> tuple[np.ndarray, np.ndarray]:
    """``(held, beyond)``, (T, nv) bool each, for configurations ``q`` (T, nq): ``held`` a clamped coordinate at an end
    of its range (within :data:`AT_BOUND`), ``beyond`` an unclamped one outside its range. Where ``unobserved``
    (T, nv) bool (``IKResult.unobserved``; None: none) says no fitted marker informs a coordinate, IK did not place
    it (``engine.analysis.ik_unobserved`` holds it, and says so), and it is neither."""
    tree = compile_tree(model)
    q = np.atleast_2d(q)
    held = np.zeros((len(q), model.nv), bool)
    beyond = np.zeros((len(q), model.nv), bool)
    for s in tree.coordinates.values():
        if s.qi < 0 or s.locked:
            continue
        lo, hi = s.range
        x = q[:, s.qi]
        if s.clamped:
            held[:, s.vi] = (x <= lo + AT_BOUND) | (x >= hi - AT_BOUND)
        else:
            beyond[:, s.vi] = (x < lo) | (x > hi)
    if unobserved is not None:
        held &= ~unobserved
        beyond &= ~unobserved
    return held, beyond


def describe_range_contacts(v_names, time, held, beyond) -> list[str]:
    """Notes naming each coordinate ``held`` at an end of its range (clamped) or ``beyond`` it (not clamped), with
    its time spans and frame count."""
    notes = []
    for mask, what in ((held, "coordinates held at an end of their range by IK (clamped)"),
                       (beyond, "coordinates outside their range (not clamped, IK leaves them free as OpenSim's does)")):
        parts = []
        for i, name in enumerate(v_names):
            if mask[:, i].any():
                spans = ", ".join(f"{time[a]:.3f}-{time[b]:.3f} s" for a, b in runs(mask[:, i]))
                parts.append(f"{name} {spans} ({int(mask[:, i].sum())} frames)")
        if parts:
            notes.append(f"{what}: " + "; ".join(parts))
    return notes


def range_notes(model, ik) -> list[str]:
    """The notes of an IK result ``ik`` (``IKResult`` on ``model``): :func:`describe_range_contacts` of its
    :func:`range_contacts`, coordinates no fitted marker informs left out."""
    return describe_range_contacts(compile_tree(model).v_names, ik.time, *range_contacts(model, ik.q, ik.unobserved))
