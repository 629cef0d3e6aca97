"""The bodies: their mesh files when found (looked up as OpenSim does, ``engine.display.mesh_files``, read by VTK's
readers, placed and scaled as the model says), otherwise generated bones (``engine.display.bones``); the mesh
files not found (or of a format without a reader) are listed, so that the user is told.

One actor per body, moved each frame by the body's placement from the engine. Generated bones are closed surfaces
wound outwards, so their back faces are never seen and are culled (a software-rendered frame shades them otherwise);
mesh files may be open, so theirs are drawn.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
from vtkmodules.vtkCommonCore import vtkIntArray
from vtkmodules.vtkCommonDataModel import vtkPolyData
from vtkmodules.vtkCommonMath import vtkMatrix4x4
from vtkmodules.vtkFiltersCore import vtkAppendPolyData, vtkPolyDataNormals
from vtkmodules.vtkIOGeometry import vtkOBJReader, vtkSTLReader
from vtkmodules.vtkIOPLY import vtkPLYReader
from vtkmodules.vtkIOXML import vtkXMLPolyDataReader
from vtkmodules.vtkRenderingCore import vtkActor, vtkPolyDataMapper

from engine.display.bones import bone_surfaces
from engine.display.mesh_files import find_mesh

from . import style
from .vtk_util import cells, points, set_matrix, transform_filter

CLOSED = "closed surface"
"""Field-data array marking a generated bone's polydata: closed, its triangles wound outwards (back faces culled)."""
_READERS = {".vtp": vtkXMLPolyDataReader, ".stl": vtkSTLReader, ".obj": vtkOBJReader,
            ".ply": vtkPLYReader}


def _surface(surface) -> vtkPolyData:
    """A generated bone (``engine.display.bones.Surface``) as smooth-shaded polydata."""
    polydata = vtkPolyData()
    polydata.SetPoints(points(surface.points))
    polydata.SetPolys(cells(surface.triangles.ravel(), np.full(len(surface.triangles), 3)))
    normals = vtkPolyDataNormals()
    normals.SetInputData(polydata)
    normals.SetFeatureAngle(60.0)
    normals.Update()
    out = normals.GetOutput()
    closed = vtkIntArray()
    closed.SetName(CLOSED)
    closed.InsertNextValue(1)
    out.GetFieldData().AddArray(closed)
    return out


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
        found = find_mesh(mesh.file, folders)
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


def body_geometry(model, mesh_folders=(), missing: list | None = None) -> dict:
    """``{body: polydata}`` in each body's frame: its mesh files when all are found, else generated shapes;
    the mesh files not found (or not readable) are added to ``missing`` (one sentence each, naming the body,
    the file and that a generated shape is drawn instead)."""
    bones = bone_surfaces(model)
    missing = [] if missing is None else missing
    out = {}
    for body in model.bodies:
        polydata = _mesh(body, mesh_folders, missing)
        if polydata is None and body.name in bones:
            polydata = _surface(bones[body.name])
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
            prop.SetBackfaceCulling(polydata.GetFieldData().GetArray(CLOSED) is not None)
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
