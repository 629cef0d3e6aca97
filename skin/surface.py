"""A closed skin surface around a model's bodies: the smooth union of their flesh volumes
(``skin.volumes``), sampled on a grid and contoured (marching cubes by VTK's flying edges)."""
from __future__ import annotations

import numpy as np

from engine.algorithms import forward_kinematics
from engine.data import Data
from engine.display.shapes import Capsule
from engine.errors import ModelError

from ._contour import iso_surface
from .frames import body_frames
from .mesh import TriangleMesh
from . import _kernels_surface as _ks
from .rest_pose import A_POSE_SPACING
from .volumes import TaperedCapsule, packed

BLEND = 0.01    # m, smooth-union radius: joins of the volumes round off over about this distance


def world_distances(volumes: dict, R: np.ndarray, p: np.ndarray, x: np.ndarray) -> np.ndarray:
    """(k, m) signed distances (m) from world points ``x`` (k, 3) to each body volume, the bodies at world
    rotations ``R`` (m, 3, 3) and origins ``p`` (m, 3), in ``volumes``' order."""
    kind, params = packed(volumes.values())
    x = np.ascontiguousarray(x, float)
    out = np.empty((len(x), len(volumes)))
    _ks.distances(kind, params, np.ascontiguousarray(R, float), np.ascontiguousarray(p, float), x, out)
    return out


def skin_surface(model, volumes: dict, q, spacing: float = 0.012, blend: float = BLEND) -> TriangleMesh:
    """The closed skin (world frame, m) of ``volumes`` (``{body: shape}``) with the model at ``q``,
    sampled every ``spacing`` m (the vertices end up about ``spacing`` apart; 12 mm gives ~14k vertices
    on an adult). Only the largest connected piece is kept; a model whose volumes fall apart in pieces
    of more than 1% of the vertices is an error."""
    data = Data(model)
    forward_kinematics(model, data, q)
    R, p = body_frames(model, data, list(volumes))
    corners = []
    for j, shape in enumerate(volumes.values()):
        if isinstance(shape, (Capsule, TaperedCapsule)):
            reach, centres = shape.radius, [shape.start, shape.end]
        else:
            reach, centres = float(np.max(shape.radii)), [shape.centre]
        reach += 2 * spacing + 3 * blend
        for c in centres:
            w = R[j] @ np.asarray(c, float) + p[j]
            corners += [w - reach, w + reach]
    corners = np.array(corners)
    lo, hi = corners.min(axis=0), corners.max(axis=0)
    n = np.ceil((hi - lo) / spacing).astype(int) + 1
    # the smooth union -b log sum exp(-d / b) of the volumes' distances (m): a signed distance-like field of the
    # union whose creases are rounded over ``blend``
    kind, params = packed(volumes.values())
    field = np.empty(tuple(n))
    _ks.union_field(kind, params, R, p, lo, float(spacing), float(blend), field)
    vertices, triangles = iso_surface(-field, lo, spacing)     # -field: larger inside
    mesh = _largest_piece(vertices, triangles, spacing, lambda x: np.array(list(volumes))[
        np.argmin(world_distances(volumes, R, p, x), axis=1)])
    if mesh.enclosed_volume() < 0:
        mesh = TriangleMesh(mesh.vertices, mesh.triangles[:, ::-1])
    return mesh


def _largest_piece(vertices, triangles, spacing: float, bodies_at) -> TriangleMesh:
    """The largest connected piece of the mesh; ModelError when another holds more than 1% of the vertices, naming the
    ``spacing`` (m) and each piece's bodies (``bodies_at(x)``: the body whose volume is nearest each point)."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components
    e = np.concatenate([triangles[:, [0, 1]], triangles[:, [1, 2]]])
    graph = coo_matrix((np.ones(len(e)), (e[:, 0], e[:, 1])), shape=(len(vertices),) * 2)
    count, label = connected_components(graph, directed=False)
    sizes = np.bincount(label)
    main = int(np.argmax(sizes))
    if (sizes[np.arange(count) != main] > 0.01 * len(vertices)).any():
        apart = sorted((label == k for k in range(count) if k != main), key=lambda m: -m.sum())
        words = "; ".join(f"{int(m.sum())} vertices on {', '.join(sorted(set(bodies_at(vertices[m]))))}"
                          for m in apart)
        raise ModelError(f"the bodies' volumes sampled every {spacing:g} m form {count} separate pieces (the largest "
                         f"{sizes[main]} vertices, apart from it: {words}); "
                         f"the skin must be one closed surface: a finer spacing keeps thin parts joined (the default "
                         f"athlete's skin in the A-pose holds together up to {A_POSE_SPACING:g} m, "
                         f"skin.rest_pose.A_POSE_SPACING)", "skin")
    keep = label == main
    new = -np.ones(len(vertices), np.int64)
    new[keep] = np.arange(keep.sum())
    tri = triangles[keep[triangles[:, 0]]]
    return TriangleMesh(vertices[keep], new[tri])
