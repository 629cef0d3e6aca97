"""CSV tables of the mechanism's results (written atomically; mm, degrees, N, W at the edges).

No cell is ever NaN: values are finite by construction (a singular frame's forces are 0 and marked), and a
value that is not finite (an unbounded bearing capacity) is written as an empty cell; the ``limit`` column
says in words which limit a row hits.
"""
from __future__ import annotations

import csv
import math

import numpy as np

from engine.io.atomic import atomic_write

from .demands import Demands
from .maps import FIELDS, PerformanceMaps, flag_text

DEMAND_COLUMNS = ("time_s", "alpha_deg", "beta_deg", "l2_mm", "l3_mm", "dl2_mm_s", "dl3_mm_s", "f2_N", "f3_N",
                  "p2_W", "p3_W", "load_alpha_Nm", "load_beta_Nm", "dexterity", "stroke_margin_mm",
                  "joint_margin_deg", "within_limits", "limit")
MAP_COLUMNS = ("alpha_deg", "beta_deg", "inside", "limit", "l2_mm", "l3_mm", "dexterity", "stiffness_min",
               "stiffness_max", "translational_stiffness_min_N_mm", "translational_stiffness_max_N_mm",
               "bearing_capacity_N", "stroke_margin_mm", "joint_margin_deg")


def _cell(x) -> str:
    if isinstance(x, str):
        return x
    x = float(x)
    return repr(x) if math.isfinite(x) else ""


def demand_rows(d: Demands):
    deg, mm = np.degrees, 1e3
    for t in range(len(d.time)):
        yield [d.time[t], *deg(d.q[t]), *(d.lengths[t] * mm), *(d.speeds[t] * mm), *d.forces[t], *d.power[t],
               *d.load[t], d.dexterity[t], d.stroke_margin[t] * mm, deg(d.joint_margin[t]),
               "yes" if d.flags[t] == 0 else "no", d.limit_text(t)]


def map_rows(m: PerformanceMaps):
    f = {name: getattr(m, name) for name in FIELDS}
    for i, a in enumerate(m.alpha):
        for j, b in enumerate(m.beta):
            yield [math.degrees(a), math.degrees(b), "yes" if f["flags"][i, j] == 0 else "no",
                   flag_text(f["flags"][i, j]), f["l2"][i, j] * 1e3, f["l3"][i, j] * 1e3, f["dexterity"][i, j],
                   f["stiffness_min"][i, j], f["stiffness_max"][i, j],
                   f["translational_stiffness_min"][i, j] * 1e-3, f["translational_stiffness_max"][i, j] * 1e-3,
                   f["bearing_capacity"][i, j], f["stroke_margin"][i, j] * 1e3, math.degrees(f["joint_margin"][i, j])]


def _write(path, columns, rows, notes=()):
    with atomic_write(path) as fh:
        for note in notes:
            fh.write(f"# {note}\n")
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(columns)
        for row in rows:
            writer.writerow([_cell(x) for x in row])


def write_demands(path, demands: Demands) -> None:
    """The actuators' demands, one row a frame, the notes as leading ``#`` lines."""
    _write(path, DEMAND_COLUMNS, demand_rows(demands), demands.notes)


def write_maps(path, maps: PerformanceMaps) -> None:
    """The performance maps, one row a grid pose (stiffness_min/max: K's eigenvalues, SI mixed units)."""
    _write(path, MAP_COLUMNS, map_rows(maps))
