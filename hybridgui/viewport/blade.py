"""The rods (the blade): a surface swept along the centreline from the engine's rod frames, bending with the
rod's strains, optionally coloured per segment by bending strain or bending moment (``engine.analysis.rod_loads``).
"""
from __future__ import annotations

import numpy as np
from vtkmodules.vtkCommonDataModel import vtkPolyData
from vtkmodules.vtkRenderingCore import vtkActor, vtkPolyDataMapper

from engine.analysis.rod_loads import bending_moment, bending_strain

from . import style
from .vtk_util import cells, set_points, set_scalars

COLOURINGS = ("none", "bending strain", "bending moment")
"""What the blade can be coloured by."""
UNITS = {"bending strain": "1/m", "bending moment": "N m"}

# faces of the swept rectangle: (corner a, corner b, which frame axis is the outward normal, sign)
_FACES = ((0, 1, 2, 1.0), (1, 2, 1, -1.0), (2, 3, 2, -1.0), (3, 0, 1, 1.0))


def _topology(n: int):
    """Quads of the four faces (2 n points each) and the two end caps (4 points each)."""
    quads = []
    for face in range(4):
        base = 2 * n * face
        for i in range(n - 1):
            a, b = base + 2 * i, base + 2 * (i + 1)
            quads.append([a, a + 1, b + 1, b])
    cap = 8 * n
    quads += [[cap, cap + 3, cap + 2, cap + 1], [cap + 4, cap + 5, cap + 6, cap + 7]]
    return np.asarray(quads).ravel(), [4] * len(quads)


class _Rod:
    """One rod's actor and the per-segment values it is coloured by (T, segments), if any."""

    def __init__(self, renderer, name: str, n_stations: int):
        self.name = name
        self.polydata = vtkPolyData()
        connectivity, sizes = _topology(n_stations)
        self.polydata.SetPolys(cells(connectivity, sizes))
        self.mapper = vtkPolyDataMapper()
        self.mapper.SetInputData(self.polydata)
        self.mapper.ScalarVisibilityOff()
        self.actor = vtkActor()
        self.actor.SetMapper(self.mapper)
        prop = self.actor.GetProperty()
        prop.SetColor(*style.BLADE)
        prop.SetSpecular(0.6)
        prop.SetSpecularPower(60.0)
        prop.BackfaceCullingOn()        # the swept box is closed (end caps) and wound outwards
        renderer.AddActor(self.actor)
        self.values: dict[str, np.ndarray] = {}
        self.surface = None

    def update(self, surface, values) -> None:
        self.surface = surface
        R, C = surface.frames, surface.corners
        xyz, normals = [], []
        for a, b, axis, sign in _FACES:
            xyz.append(np.stack([C[:, a], C[:, b]], axis=1).reshape(-1, 3))
            normals.append(np.repeat(sign * R[:, :, axis], 2, axis=0))
        xyz += [C[0], C[-1]]
        normals += [np.tile(-R[0, :, 0], (4, 1)), np.tile(R[-1, :, 0], (4, 1))]
        set_points(self.polydata, np.concatenate(xyz))          # the same stations every frame: arrays kept
        set_scalars(self.polydata.GetPointData(), np.concatenate(normals), "normals")
        if values is not None:
            per_station = values[surface.segment]
            face_values = np.repeat(per_station, 2)
            set_scalars(self.polydata.GetPointData(), np.concatenate(
                [face_values] * 4 + [np.full(4, per_station[0]), np.full(4, per_station[-1])]), "bending")
        self.polydata.Modified()


class BladeLayer:
    """Every rod of the model, drawn at the frames of ``poses``; ``tau`` (T, nv) gives bending moments; ``legend(lut,
    title)`` is told the colouring shown (None, None when the blade is not coloured)."""

    def __init__(self, renderer, model, poses, tau=None, legend=None):
        self.poses = poses
        self.rods = []
        for rod in model.rods:
            r = _Rod(renderer, rod.name, len(poses.rod(rod.name, 0).s))
            r.values["bending strain"] = bending_strain(model, rod.name, poses.Q)
            if tau is not None:
                r.values["bending moment"] = bending_moment(model, rod.name, tau)
            self.rods.append(r)
        self.colouring = "none"
        self._frame = 0
        self._legend = legend

    def available_colourings(self) -> list[str]:
        """The colourings this model and result allow."""
        return ["none"] + [c for c in COLOURINGS[1:] if any(c in r.values for r in self.rods)]

    def set_colouring(self, colouring: str) -> None:
        self.colouring = colouring
        for r in self.rods:
            values = r.values.get(colouring)
            if values is None:
                r.mapper.ScalarVisibilityOff()
                continue
            r.mapper.SetLookupTable(style.bending_colours(float(np.nanmax(values)) if values.size else 1.0))
            r.mapper.UseLookupTableScalarRangeOn()
            r.mapper.ScalarVisibilityOn()
        coloured = [r for r in self.rods if colouring in r.values]
        if self._legend is not None:
            self._legend(coloured[0].mapper.GetLookupTable() if coloured else None,
                         f"blade {colouring} ({UNITS[colouring]})" if coloured else None)
        self.show_frame(self._frame)

    def show_frame(self, frame: int) -> None:
        self._frame = frame
        for r in self.rods:
            values = r.values.get(self.colouring)
            r.update(self.poses.rod(r.name, frame), None if values is None else values[frame])

    def set_visible(self, visible: bool) -> None:
        for r in self.rods:
            r.actor.SetVisibility(visible)

    def rod_of(self, actor) -> str | None:
        return next((r.name for r in self.rods if r.actor is actor), None)
