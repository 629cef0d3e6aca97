"""What a scene's run shows (the seed's section VI-B): whether the lift still holds the body, and the pressure on
the watched parts of the skin."""
from __future__ import annotations

import io

import numpy as np

from engine.io.atomic import write_bytes


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


def pressure_summary(scene, result, frame: int = -1) -> dict:
    """``{group: (peak Pa, 95th percentile Pa, number of vertices loaded)}`` of the watched skin groups at ``frame``."""
    out = {}
    pressure = result.pressure[frame]
    for name, mask in scene.watch.items():
        if isinstance(mask, np.ndarray) and mask.dtype == bool and mask.any():
            p = pressure[mask]
            out[name] = (float(p.max()), float(np.percentile(p, 95)), int((p > 0).sum()))
    return out


def save_run(path, scene, result) -> None:
    """The run as a NumPy archive (time, q, v, pressure, contact force, the skin's rest mesh and weights, the
    sheets' positions), written atomically."""
    buffer = io.BytesIO()
    np.savez_compressed(buffer, time=result.time, q=result.q, v=result.v, pressure=result.pressure,
                        contact_force=result.contact_force, contacts=result.contacts,
                        skin_vertices=scene.skin.mesh.vertices, skin_triangles=scene.skin.mesh.triangles,
                        skin_bone=scene.skin.bone, skin_weight=scene.skin.weight, bodies=np.array(scene.skin.bodies),
                        **{f"sheet_{k}": v for k, v in result.sheets.items()})
    write_bytes(path, buffer.getvalue())
