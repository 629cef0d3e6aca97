"""The bodies: their mesh files when found, otherwise generated shapes (``engine.display.shapes``); the mesh
files not found (or of a format without a reader) are listed, so that the user is told.

One actor per body, moved each frame by the body's placement from the engine.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
from vtkmodules.vtkCommonDataModel import vtkPolyData
from vtkmodules.vtkCommonMath import vtkMatrix4x4
from vtkmodules.vtkFiltersCore import vtkAppendPolyData, vtkPolyDataNormals
from vtkmodules.vtkFiltersSources import vtkCylinderSource, vtkSphereSource
from vtkmodules.vtkIOGeometry import vtkOBJReader, vtkSTLReader
from vtkmodules.vtkIOPLY import vtkPLYReader
from vtkmodules.vtkIOXML import vtkXMLPolyDataReader
from vtkmodules.vtkRenderingCore import vtkActor, vtkPolyDataMapper

from engine.display.shapes import Capsule, body_shapes

from . import style
from .vtk_util import set_matrix, transform_filter

_READERS = {".vtp": vtkXMLPolyDataReader, ".stl": vtkSTLReader, ".obj": vtkOBJReader,
            ".ply": vtkPLYReader}


CAPSULE_SIDES = 12
ELLIPSOID_SIDES = (24, 16)
"""Tessellation of the generated shapes (smooth-shaded): on a software renderer the bodies' vertices cost
more than their pixels, and these halve the bodies' share of a frame against 24 and (32, 20) with no visible
facets at the sizes shown (benchmarks/bench_gui.py)."""


def _capsule(shape: Capsule) -> vtkPolyData:
    axis = shape.end - shape.start
    length = float(np.linalg.norm(axis))
    source = vtkCylinderSource()
    source.SetCapsuleCap(True)
    source.SetLatLongTessellation(True)
    source.SetResolution(CAPSULE_SIDES)
    source.SetRadius(shape.radius)
    source.SetHeight(length)
    y = axis / length
    x = np.cross(y, [0.0, 0.0, 1.0] if abs(y[2]) < 0.9 else [1.0, 0.0, 0.0])
    x /= np.linalg.norm(x)
    R = np.column_stack([x, y, np.cross(x, y)])
    return transform_filter(source, R, 0.5 * (shape.start + shape.end))


def _ellipsoid(shape) -> vtkPolyData:
    source = vtkSphereSource()
    source.SetThetaResolution(ELLIPSOID_SIDES[0])
    source.SetPhiResolution(ELLIPSOID_SIDES[1])
    source.SetRadius(1.0)
    return transform_filter(source, shape.axes @ np.diag(shape.radii), shape.centre)


def _mesh(body, folders, missing: list) -> vtkPolyData | None:
    """The body's meshes merged (in the body frame), or None unless every mesh file is found and readable;
    the files that are not are added to ``missing`` (one sentence each)."""
    if not body.meshes:
        return None
    parts = vtkAppendPolyData()
    problems = []
    for mesh in body.meshes:
        suffix = Path(mesh.file).suffix.lower()
        reader_class = _READERS.get(suffix)
        found = next((Path(f) / mesh.file for f in folders if (Path(f) / mesh.file).is_file()), None)
        if found is None:
            problems.append(f"body '{body.name}': mesh file {mesh.file} not found")
        elif reader_class is None:
            problems.append(f"body '{body.name}': mesh file {found} has no reader ({suffix or 'no suffix'}; "
                            f"read: {', '.join(_READERS)})")
        else:
            reader = reader_class()
            reader.SetFileName(str(found))
            parts.AddInputData(transform_filter(reader, mesh.placement.R @ np.diag(mesh.scale), mesh.placement.p))
    if problems:
        missing += [f"{p}; the body is drawn as a generated shape" for p in problems]
        return None
    parts.Update()
    return parts.GetOutput()


def _generated(shapes) -> vtkPolyData | None:
    if not shapes:
        return None
    parts = vtkAppendPolyData()
    for shape in shapes:
        parts.AddInputData(_capsule(shape) if isinstance(shape, Capsule) else _ellipsoid(shape))
    normals = vtkPolyDataNormals()
    normals.SetInputConnection(parts.GetOutputPort())
    normals.SetFeatureAngle(60.0)
    normals.Update()
    return normals.GetOutput()


def body_geometry(model, mesh_folders=(), missing: list | None = None) -> dict:
    """``{body: polydata}`` in each body's frame: its mesh files when all are found, else generated shapes;
    the mesh files not found (or not readable) are added to ``missing`` (one sentence each, naming the body,
    the file and that a generated shape is drawn instead)."""
    shapes = body_shapes(model)
    missing = [] if missing is None else missing
    out = {}
    for body in model.bodies:
        polydata = _mesh(body, mesh_folders, missing) or _generated(shapes[body.name])
        if polydata is not None:
            out[body.name] = polydata
    return out


class SkeletonLayer:
    """Body actors drawing ``geometry`` (from :func:`body_geometry`, shared between layers of one model)."""

    def __init__(self, renderer, geometry: dict, poses):
        self.poses = poses
        self.actors: dict[str, vtkActor] = {}
        for name, polydata in geometry.items():
            mapper = vtkPolyDataMapper()
            mapper.SetInputData(polydata)
            actor = vtkActor()
            actor.SetMapper(mapper)
            prop = actor.GetProperty()
            prop.SetColor(*style.BONE)
            prop.SetSpecular(0.25)
            prop.SetSpecularPower(30.0)
            actor.SetUserMatrix(vtkMatrix4x4())
            renderer.AddActor(actor)
            self.actors[name] = actor
        self._rows = [poses.body_names.index(name) for name in self.actors]
        self._names = {id(a): name for name, a in self.actors.items()}

    def show_frame(self, frame: int) -> None:
        R, p = self.poses.body_R[frame], self.poses.body_p[frame]
        for actor, i in zip(self.actors.values(), self._rows):
            set_matrix(actor.GetUserMatrix(), R[i], p[i])

    def set_visible(self, visible: bool) -> None:
        for actor in self.actors.values():
            actor.SetVisibility(visible)

    def body_of(self, actor) -> str | None:
        """The body an actor draws (None if it is not one of this layer's)."""
        return self._names.get(id(actor))
