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


def sensor_pressure(x, normals, force, areas, diameter: float = SENSOR_DIAMETER) -> np.ndarray:
    """What a tactile sensor's cell centred on each skin vertex reads (Pa): the normal contact force (N) on the skin
    vertices within ``diameter``/2 m of it (positions ``x`` (n, 3) m, world frame) whose unit ``normals`` (n, 3) agree
    with the centre's (cosine above ``SENSOR_NORMALS``: a sensor lies on one surface, so skin folded against it or an
    arm against the trunk is not in its cell) over their area (m^2). A cell smaller than the skin's spacing holds its
    own vertex only and reads the vertex's pressure."""
    x = np.asarray(x, float)
    normals = np.asarray(normals, float)
    force = np.asarray(force, float)
    areas = np.asarray(areas, float)
    if not diameter > 0:
        raise SettingsError(f"a sensor cell's diameter must be positive, got {diameter} m", "sensor")
    pairs = cKDTree(x).query_pairs(diameter / 2, output_type="ndarray")
    pairs = pairs[np.einsum("ij,ij->i", normals[pairs[:, 0]], normals[pairs[:, 1]]) > SENSOR_NORMALS]
    f, a = force.copy(), areas.copy()
    np.add.at(f, pairs[:, 0], force[pairs[:, 1]])
    np.add.at(f, pairs[:, 1], force[pairs[:, 0]])
    np.add.at(a, pairs[:, 0], areas[pairs[:, 1]])
    np.add.at(a, pairs[:, 1], areas[pairs[:, 0]])
    return f / a


def _sensor_reading(scene, result, frame: int, diameter: float, pressure=None):
    """The sensor cells' readings (n,) Pa and the vertices' normal forces (n,) N at record ``frame``: the forces (the
    recorded ``pressure`` (T, n) Pa, default ``result.pressure``, times each vertex's area at that pose) of the cell's
    vertices at the pose over their areas at rest. A sensor's cell has a fixed area; the skin's own area changes only
    where linear blend skinning folds it (behind a flexed knee its triangles collapse to a third of their area and one
    record read 3.4 MPa there), so the skin's rest area stands for the cell's."""
    x = scene.skin.vertices(scene.model, Data(scene.model), result.q[frame])
    normals, areas = scene.skin.mesh.normals_areas(x)
    force = (result.pressure if pressure is None else pressure)[frame] * areas
    return sensor_pressure(x, normals, force, scene.skin.mesh.normals_areas()[1], diameter), force


def sensor_summary(scene, result, frame: int = -1, diameter: float = SENSOR_DIAMETER) -> dict:
    """``{group: (sensor peak Pa, normal force N)}`` of the watched skin groups at ``frame``, the peak as a tactile
    sensor with cells of ``diameter`` m reads it (:func:`sensor_pressure` over the skin's rest areas, see
    ``_sensor_reading``)."""
    reading, force = _sensor_reading(scene, result, frame, diameter)
    return {name: (float(reading[mask].max()), float(force[mask].sum())) for name, mask in _watched(scene)}


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
    """``{group: (95th percentile Pa, peak Pa, normal force N)}`` of the watched skin groups as the sling's tactile
    sensor reads them over ``window`` (start, end) s, with cells of ``diameter`` m on the skin (as
    :func:`sensor_summary`'s). The seed's sensor lies between the skin and the sling sheet, so it reads the sheets'
    contact only (``result.sheet_pressure``), not the bed's under the hanging hands or heels. The reading is the 95th
    percentile of the group's loaded cells (reading above zero) pooled over the window's records: a pressure map's
    high end over the area the sling touches, which one cell's spike in one record (at the seed's sizes a 1.9 MPa
    cell behind a knee) cannot move, where the highest cell's mean over the records follows that spike (the peak, the
    second figure, is that: each cell's mean over the records, the group's highest). The force is the group's mean
    normal force from the sheets. A group the sheets never touch reads 0."""
    frames = np.flatnonzero((result.time >= window[0] - 1e-9) & (result.time <= window[1] + 1e-9))
    if not len(frames):
        raise SettingsError(f"no record between {window[0]:.3f} and {window[1]:.3f} s", f"scene '{scene.name}'")
    readings = np.empty((len(frames), scene.skin.n_vertices))
    force = np.zeros(scene.skin.n_vertices)
    for i, k in enumerate(frames):
        readings[i], f = _sensor_reading(scene, result, k, diameter, result.sheet_pressure)
        force += f / len(frames)
    out = {}
    for name, mask in _watched(scene):
        group = readings[:, mask]
        loaded = group[group > 0]
        out[name] = (float(np.percentile(loaded, 95)) if len(loaded) else 0.0, float(group.mean(axis=0).max()),
                     float(force[mask].sum()))
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
