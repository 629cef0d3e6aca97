"""The force plates' measured loads, summed per what the inverse dynamics applied them to.

A plate given a body (an ExternalLoads file; ``IDResult.bodies``) loads that body (or frame, or contact point) at
every frame; any other plate loads, frame by frame while it is loaded, the contact candidate nearest its centre of
pressure (``engine.analysis.inverse_dynamics.nearest_candidates``), here counted for that candidate's contact group.
The side of a load is ``side_of`` of what it was applied to (``calcn_r``, ``r_foot``, ``RFT``, a blade's group): the
clinical summary's measured ground reactions per side and, for a rod (a running blade), per its group; a target whose
name gives no side is named in the notes (its load is in no side's ground reaction).
"""
from __future__ import annotations

import numpy as np

from ..algorithms.batch import frame_positions_batch
from ..analysis.gait_phases import side_of
from ..analysis.inverse_dynamics import nearest_candidates, plate_samples
from ..data import Data


def plate_loads(result) -> tuple[dict, dict, list[str]]:
    """``({target: (T, 3) N world}, {target: (T,) bool}, notes)``: the loaded plates' forces at the analysed frames
    ``result.motion.time`` summed per body / contact group they were applied to (module notes), and the frames where
    one of those plates is loaded (past its own threshold, ``ForcePlate.threshold``) for that target; the notes name
    a plate whose load could not be attributed, and a target with no side. Empty without plates or without the
    inverse dynamics with the measured loads."""
    model, time, classic = result.model, result.motion.time, result.classic
    plates = [p for p in result.trial.plates if p.loaded.any()]
    if classic is None or not plates:
        return {}, {}, []
    loads, on, notes, by = {}, {}, [], {}
    positions = None
    groups = np.array([c.group for c in model.contacts])
    for plate in plates:
        force, _, cop, loaded = plate_samples(plate, time)
        body = classic.bodies.get(plate.name)
        if body is not None:
            loads[body] = loads.get(body, 0.0) + force
            on[body] = on.get(body, False) | loaded
            by.setdefault(body, []).append(plate.name)
            continue
        if not len(groups):
            notes.append(f"plate {plate.name}: its load is not attributed to a side: the analysis recorded no body "
                         "for it and the model has no contact candidates")
            continue
        if positions is None:
            positions = frame_positions_batch(model, Data(model), result.motion.q, [c.name for c in model.contacts])
        nearest = nearest_candidates(positions, cop, loaded, plate.normal)
        for g in sorted(set(groups[nearest[loaded]])):
            k = loaded & (groups[np.maximum(nearest, 0)] == g)
            loads[g] = loads.get(g, 0.0) + np.where(k[:, None], force, 0.0)
            on[g] = on.get(g, False) | k
            by.setdefault(g, []).append(plate.name)
    for target, names in by.items():
        if side_of(target) not in ("Left", "Right"):
            notes.append(f"plate{'s' if len(names) > 1 else ''} {', '.join(names)}: applied to {target}, whose name "
                         "gives no side (engine.analysis.gait_phases.side_of): that load is in no side's ground "
                         "reaction")
    return loads, on, notes
