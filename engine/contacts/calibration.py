"""The soles' height against the floor, calibrated from poses where the feet stand on it.

A foot's candidates are laid out in its sole's plane at a provisional depth (``engine.contacts.sole``); the
calibration moves them along the sole's normal by the median, over the calibration frames, of the height of the
foot's lowest candidate above the floor: in a static trial (feet flat) every frame; in a trial with force
plates, the frames where a plate carries more than half of its peak vertical load and the foot is the one over
its centre of pressure (in any such frame of a stance the foot's lowest point is on the floor: the heel early,
the whole sole at mid-stance, the metatarsal heads late). Only the candidates on the hindfoot (heel, metatarsal heads) calibrate: the toes
bend at their joint (and in a simulation without contacts on them may pass through the floor). A foot never seen on a plate takes the mean
correction of the feet that were, and a foot with no calibration at all keeps the provisional depth; the notes
say which.
"""
from __future__ import annotations

import numpy as np

from .. import algorithms as alg
from ..data import Data

LOADED_SHARE = 0.5       # a plate's frames above this share of its peak vertical force calibrate
REACH = 0.25             # m: a foot calibrates on a plate only if its candidates' centre is this near the CoP


def stance_frames(model, Q, plates, groups: dict) -> dict:
    """``{group: frame indices}``: the frames of ``Q`` where a plate carries more than half its peak and the
    group's candidates (``groups``: group -> candidate names) are the nearest to its centre of pressure, within
    ``REACH`` horizontally. ``plates``: per plate ``(force (T, 3) N, cop (T, 3) m, loaded (T,), normal (3,))`` at
    the frames of ``Q``."""
    data = Data(model)
    names = [n for g in groups for n in groups[g]]
    X = alg.frame_positions_batch(model, data, Q, names)
    centres, k = {}, 0
    for g, members in groups.items():
        centres[g] = X[:, k:k + len(members)].mean(axis=1)
        k += len(members)
    out = {g: [] for g in groups}
    for force, cop, loaded, normal in plates:
        normal = np.asarray(normal, float)
        vertical = force @ normal
        if not loaded.any():
            continue
        strong = np.flatnonzero(loaded & (vertical > LOADED_SHARE * vertical[loaded].max()))
        for f in strong:
            distance = {}
            for g, c in centres.items():
                d = c[f] - cop[f]
                distance[g] = np.linalg.norm(d - (d @ normal) * normal)
            g = min(distance, key=distance.get)
            if distance[g] < REACH:
                out[g].append(int(f))
    return {g: np.array(sorted(set(f)), int) for g, f in out.items()}


def sole_corrections(model, Q, frames: dict, groups: dict, floor: float) -> dict:
    """``{group: m}``: how far above the floor (``floor`` m along up) each group's lowest candidate is, median over
    its ``frames`` of ``Q`` (groups without frames are left out)."""
    up = model.up
    data = Data(model)
    out = {}
    for g, idx in frames.items():
        if len(idx):
            X = alg.frame_positions_batch(model, data, Q[idx], groups[g])
            out[g] = float(np.median((X @ up).min(axis=1)) - floor)
    return out
