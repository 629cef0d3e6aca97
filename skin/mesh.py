"""Triangle surfaces: vertices (m) and triangles, with normals and vertex areas."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.errors import ModelError

from ._kernels_mesh import vertex_normals_areas


@dataclass(frozen=True)
class TriangleMesh:
    """A triangle surface: ``vertices`` (n, 3) m and ``triangles`` (t, 3) vertex indices,
    counter-clockwise seen from the side the normals point to."""

    vertices: np.ndarray
    triangles: np.ndarray

    def __post_init__(self):
        x = np.ascontiguousarray(self.vertices, dtype=float)
        t = np.ascontiguousarray(self.triangles, dtype=np.int64)
        if x.ndim != 2 or x.shape[1] != 3 or not np.isfinite(x).all():
            raise ModelError(f"vertices must be a finite (n, 3) array, got shape {x.shape}", "mesh")
        if t.ndim != 2 or t.shape[1] != 3 or (t.size and (t.min() < 0 or t.max() >= len(x))):
            raise ModelError(f"triangles must be (t, 3) indices into {len(x)} vertices", "mesh")
        object.__setattr__(self, "vertices", x)
        object.__setattr__(self, "triangles", t)

    @property
    def n_vertices(self) -> int:
        return len(self.vertices)

    def normals_areas(self, x=None) -> tuple[np.ndarray, np.ndarray]:
        """Unit vertex normals (n, 3) and vertex areas (n,) m^2 at positions ``x`` (default: the rest
        vertices)."""
        x = self.vertices if x is None else np.ascontiguousarray(x, dtype=float)
        normals = np.empty_like(x)
        areas = np.empty(len(x))
        vertex_normals_areas(x, self.triangles, normals, areas)
        return normals, areas

    def edges(self) -> np.ndarray:
        """Unique undirected edges (e, 2), smaller index first."""
        t = self.triangles
        e = np.sort(np.concatenate([t[:, [0, 1]], t[:, [1, 2]], t[:, [2, 0]]]), axis=1)
        return np.unique(e, axis=0)

    def enclosed_volume(self, x=None) -> float:
        """Signed volume (m^3) enclosed by the surface (positive for outward normals of a closed surface)."""
        x = self.vertices if x is None else x
        a, b, c = (x[self.triangles[:, i]] for i in range(3))
        return float(np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6.0)


def grid_sheet(width: float, depth: float, nx: int, ny: int) -> TriangleMesh:
    """A flat rectangular sheet in the x-z plane (y = 0), ``width`` along x and ``depth`` along z (m),
    ``nx`` x ``ny`` vertices, normals up (+y)."""
    if nx < 2 or ny < 2:
        raise ModelError(f"a sheet needs at least 2 x 2 vertices, got {nx} x {ny}", "sheet")
    xs = np.linspace(-width / 2, width / 2, nx)
    zs = np.linspace(-depth / 2, depth / 2, ny)
    X, Z = np.meshgrid(xs, zs, indexing="ij")
    vertices = np.column_stack([X.ravel(), np.zeros(X.size), Z.ravel()])
    idx = np.arange(nx * ny).reshape(nx, ny)
    a, b, c, d = idx[:-1, :-1].ravel(), idx[1:, :-1].ravel(), idx[1:, 1:].ravel(), idx[:-1, 1:].ravel()
    # counter-clockwise seen from +y: (x, z) -> (x+, z) -> (x+, z+) runs clockwise from above, so reverse
    triangles = np.concatenate([np.column_stack([a, c, b]), np.column_stack([a, d, c])])
    return TriangleMesh(vertices, triangles)
