"""What a scene's run shows (the seed's section VI-B): whether the lift still holds the body, and the pressure on
the watched parts of the skin."""
from __future__ import annotations

import io

import numpy as np
from scipy.spatial import cKDTree

from engine.data import Data
from engine.errors import SettingsError
from engine.io.atomic import write_bytes


SENSOR_DIAMETER = 0.03     # m: a tactile sensor's cell (the seed's Fig. 5 compares with a tactile sensor's map)
SENSOR_NORMALS = 0.5       # a cell holds the vertices whose normal's cosine with its centre's exceeds this (60 deg)
HANGING_SETTLE = 0.3       # s after the bar stops before the hanging body's sensor window opens (the jolt's decay)
FOLDED = 0.5               # a skin vertex whose area at the pose is below this fraction of its rest area is folded:
                           # linear blend skinning collapses the skin behind a flexed knee (its triangles to a third
                           # of their area), where skin would bulge, so its pressure there is not a sensor's


def body_held(scene, result) -> bool:
    """Whether the support still carries the body at the end: at least half its weight through the skin's contact,
    with the pelvis over the board (the board's x range in the lift's frame, ``scene.watch['board']``)."""
    model = scene.model
    mass = sum(b.mass for b in model.bodies) + sum(sg.line_inertia()[0] * sg.length for r in model.rods
                                                   for sg in r.segments)
    weight = mass * float(np.linalg.norm(model.gravity))
    device = scene.devices[0]
    R, p, _, _ = device.motion.placement(result.time[-1])
    pelvis = result.q[-1, :3]
    local = device.placement0.inverse().act(R.T @ (pelvis - p))
    lo, hi = scene.watch["board"] - device.placement0.p[0]
    return bool(result.contact_force[-1, 1] >= 0.5 * weight and lo <= local[0] <= hi)


def _watched(scene):
    """The watched skin groups of ``scene``: ``(name, mask)`` of its boolean vertex masks that hold a vertex."""
    return [(name, mask) for name, mask in scene.watch.items()
            if isinstance(mask, np.ndarray) and mask.dtype == bool and mask.any()]


def pressure_summary(scene, result, frame: int = -1) -> dict:
    """``{group: (peak Pa, 95th percentile Pa, number of vertices loaded)}`` of the watched skin groups at ``frame``."""
    pressure = result.pressure[frame]
    return {name: (float(pressure[mask].max()), float(np.percentile(pressure[mask], 95)), int((pressure[mask] > 0).sum()))
            for name, mask in _watched(scene)}


def sensor_pressure(x, normals, force, areas, diameter: float = SENSOR_DIAMETER, left_out=None) -> np.ndarray:
    """What a tactile sensor's cell centred on each skin vertex reads (Pa): the normal contact force (N) on the skin
    vertices within ``diameter``/2 m of it (positions ``x`` (n, 3) m, world frame) whose unit ``normals`` (n, 3) agree
    with the centre's (cosine above ``SENSOR_NORMALS``: a sensor lies on one surface, so skin folded against it or an
    arm against the trunk is not in its cell) over their area (m^2). A cell smaller than the skin's spacing holds its
    own vertex only and reads the vertex's pressure. The vertices ``left_out`` (bool (n,), default none) are in no
    cell, and their own cells read NaN (not read)."""
    x = np.asarray(x, float)
    normals = np.asarray(normals, float)
    keep = np.ones(len(x), bool) if left_out is None else ~np.asarray(left_out, bool)
    force = np.where(keep, np.asarray(force, float), 0.0)
    areas = np.where(keep, np.asarray(areas, float), 0.0)
    if not diameter > 0:
        raise SettingsError(f"a sensor cell's diameter must be positive, got {diameter} m", "sensor")
    pairs = cKDTree(x).query_pairs(diameter / 2, output_type="ndarray")
    pairs = pairs[np.einsum("ij,ij->i", normals[pairs[:, 0]], normals[pairs[:, 1]]) > SENSOR_NORMALS]
    f, a = force.copy(), areas.copy()
    np.add.at(f, pairs[:, 0], force[pairs[:, 1]])
    np.add.at(f, pairs[:, 1], force[pairs[:, 0]])
    np.add.at(a, pairs[:, 0], areas[pairs[:, 1]])
    np.add.at(a, pairs[:, 1], areas[pairs[:, 0]])
    reading = np.full(len(x), np.nan)
    reading[keep] = f[keep] / a[keep]
    return reading


def _sensor_reading(scene, result, frame: int, diameter: float, pressure=None):
    """The sensor cells' readings (n,) Pa (NaN for a folded vertex's), the vertices' normal forces (n,) N and which
    vertices are folded (bool (n,)) at record ``frame``: each cell's force (the recorded ``pressure`` (T, n) Pa,
    default ``result.pressure``, times each vertex's area at that pose) over the area it covers at that pose, so that
    a uniform pressure reads as itself at any pose. A vertex whose area at the pose is below ``FOLDED`` of its rest
    area is folded (linear blend skinning collapses the skin behind a flexed knee; its force over its collapsed area
    read 3.4 MPa in one record): it is left out of every cell (``sensor_pressure``'s ``left_out``) and counted."""
    x = scene.skin.vertices(scene.model, Data(scene.model), result.q[frame])
    normals, areas = scene.skin.mesh.normals_areas(x)
    folded = areas < FOLDED * scene.skin.mesh.normals_areas()[1]
    force = (result.pressure if pressure is None else pressure)[frame] * areas
    return sensor_pressure(x, normals, force, areas, diameter, folded), force, folded


def sensor_summary(scene, result, frame: int = -1, diameter: float = SENSOR_DIAMETER) -> dict:
    """``{group: (sensor peak Pa, normal force N, cells left out)}`` of the watched skin groups at ``frame``, the
    peak as a tactile sensor with cells of ``diameter`` m reads it (:func:`sensor_pressure` over the skin's areas at
    that pose, see ``_sensor_reading``), the cells left out those of the group's folded vertices (their force is in
    the group's force, not in its reading). A group whose every cell is left out reads NaN."""
    reading, force, folded = _sensor_reading(scene, result, frame, diameter)
    return {name: (float(np.nanmax(reading[mask])) if (mask & ~folded).any() else float("nan"),
                   float(force[mask].sum()), int(folded[mask].sum())) for name, mask in _watched(scene)}


def hanging_window(scene, result) -> tuple[float, float]:
    """The window (s) over which the sling's tactile sensor is read: from ``HANGING_SETTLE`` s after the last sheet's
    hooks stop rising (its ``motion.end``) to the run's last record. The seed "generated the pose when the body is on
    the sling sheet" and compares its map with a tactile sensor's: a sensor mat under a hanging patient is read over
    seconds of the steady hang, not at one instant of the sway, so the reading is the mean over the body's swinging
    on the hooks (about a second a swing for a body hanging half a metre below them) after the lift's jolt, and the
    rise itself (the body dragged off the bed) is left out. A run that ends before the window opens is an error."""
    start = max(s.motion.end for s in scene.sheets if s.motion is not None) + HANGING_SETTLE
    end = float(result.time[-1])
    if not np.any(result.time >= start - 1e-9):
        raise SettingsError(f"the run ends at {end:.3f} s, before the body hangs still from {start:.3f} s",
                            f"scene '{scene.name}'")
    return start, end


def sensor_window_summary(scene, result, window, diameter: float = SENSOR_DIAMETER) -> dict:
    """``{group: (95th percentile Pa, peak Pa, normal force N, cells left out, their force N)}`` of the watched skin
    groups as the sling's tactile sensor reads them over ``window`` (start, end) s, with cells of ``diameter`` m on
    the skin (as :func:`sensor_summary`'s). The seed's sensor lies between the skin and the sling sheet, so it reads
    the sheets' contact only (``result.sheet_pressure``), not the bed's under the hanging hands or heels. The reading
    is the 95th percentile of the group's loaded cells (reading above zero) pooled over the window's records: a
    pressure map's high end over the area the sling touches, which one cell's spike in one record (at the seed's
    sizes a 1.9 MPa cell behind a knee) cannot move, where the highest cell's mean over the records follows that spike
    (the peak, the second figure, is that: each cell's mean over the records it is read in, the group's highest).
    The force is the group's mean normal force from the sheets. A folded vertex's cell (``_sensor_reading``) is not
    read in that record: the cells left out are the group's vertices folded in any record of the window, and their
    force the mean sheet force on the group's folded vertices (in the group's force, not in its reading). A group the
    sheets never touch reads 0."""
    frames = np.flatnonzero((result.time >= window[0] - 1e-9) & (result.time <= window[1] + 1e-9))
    if not len(frames):
        raise SettingsError(f"no record between {window[0]:.3f} and {window[1]:.3f} s", f"scene '{scene.name}'")
    readings = np.empty((len(frames), scene.skin.n_vertices))
    force = np.zeros(scene.skin.n_vertices)
    folded_force = np.zeros(scene.skin.n_vertices)
    folded = np.zeros(scene.skin.n_vertices, bool)
    for i, k in enumerate(frames):
        readings[i], f, fold = _sensor_reading(scene, result, k, diameter, result.sheet_pressure)
        force += f / len(frames)
        folded_force += np.where(fold, f, 0.0) / len(frames)
        folded |= fold
    out = {}
    for name, mask in _watched(scene):
        group = readings[:, mask]
        loaded = group[group > 0]                                      # NaN (a folded vertex's cell) is not loaded
        read = np.isfinite(group)
        counts = read.sum(axis=0)
        means = np.where(read, group, 0.0).sum(axis=0)[counts > 0] / counts[counts > 0]
        out[name] = (float(np.percentile(loaded, 95)) if len(loaded) else 0.0,
                     float(means.max()) if len(means) else 0.0, float(force[mask].sum()), int(folded[mask].sum()),
                     float(folded_force[mask].sum()))
    return out


def save_run(path, scene, result) -> None:
    """The run as a NumPy archive (time, q, v, pressure and the sheets' share of it, contact force, the skin's rest mesh and weights, the
    sheets' positions), written atomically."""
    buffer = io.BytesIO()
    np.savez_compressed(buffer, time=result.time, q=result.q, v=result.v, pressure=result.pressure,
                        sheet_pressure=result.sheet_pressure,
                        contact_force=result.contact_force, contacts=result.contacts,
                        skin_vertices=scene.skin.mesh.vertices, skin_triangles=scene.skin.mesh.triangles,
                        skin_bone=scene.skin.bone, skin_weight=scene.skin.weight, bodies=np.array(scene.skin.bodies),
                        **{f"sheet_{k}": v for k, v in result.sheets.items()})
    write_bytes(path, buffer.getvalue())
