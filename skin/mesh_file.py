"""Skins and device surfaces from mesh files, read and written with VTK.

A device's surface (``read_mesh``): a VTK PolyData file (``.vtp``, ``.vtk``), ``.stl``, ``.obj`` or ``.ply``, in
metres in the world frame (a device's rest placement); polygons are split into triangles (VTK's triangle filter),
wound counter-clockwise seen from the side the device's surface faces.

A skin with its weights (``read_skin``, ``write_skin``): a ``.vtp`` whose points are the rest surface (m, world frame
with the model at the rest pose), whose polygons are its triangles (counter-clockwise seen from outside), with
the point data arrays ``bone`` (integer, K components: each vertex's bones, indices into ``bodies``) and ``weight``
(K components: alpha_ik of seed eq. 3, each row non-negative and summing to 1), and the field data ``bodies`` (the
bones' body names, strings) and optionally ``q_rest`` (the model's rest configuration, nq values; absent: the
model's neutral pose). Errors name the file and what is wrong in it.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
from vtkmodules.util.numpy_support import numpy_to_vtk, numpy_to_vtkIdTypeArray, vtk_to_numpy
from vtkmodules.vtkCommonCore import vtkPoints, vtkStringArray
from vtkmodules.vtkCommonDataModel import vtkCellArray, vtkPolyData
from vtkmodules.vtkFiltersCore import vtkTriangleFilter
from vtkmodules.vtkIOGeometry import vtkOBJReader, vtkSTLReader
from vtkmodules.vtkIOLegacy import vtkPolyDataReader
from vtkmodules.vtkIOPLY import vtkPLYReader
from vtkmodules.vtkIOXML import vtkXMLPolyDataReader, vtkXMLPolyDataWriter

from engine.errors import DataError, ModelError
from engine.io.atomic import atomic_path

from .mesh import TriangleMesh
from .skinning import Skin

READERS = {".vtp": vtkXMLPolyDataReader, ".vtk": vtkPolyDataReader, ".stl": vtkSTLReader, ".obj": vtkOBJReader,
           ".ply": vtkPLYReader}


def _poly_data(path: Path) -> vtkPolyData:
    reader_type = READERS.get(path.suffix.lower())
    if reader_type is None:
        raise DataError(f"a mesh file must be one of {', '.join(READERS)}, not {path.suffix or 'without extension'}",
                        file=str(path))
    if not path.is_file():
        raise DataError("the mesh file does not exist", file=str(path))
    reader = reader_type()
    reader.SetFileName(str(path))
    reader.Update()
    poly = reader.GetOutput()
    if poly is None or not poly.GetNumberOfPoints() or not poly.GetNumberOfPolys():
        raise DataError("the file holds no surface (no points or no polygons): not a mesh VTK can read",
                        file=str(path))
    return poly


def _triangles(poly: vtkPolyData, path: Path) -> TriangleMesh:
    split = vtkTriangleFilter()
    split.SetInputData(poly)
    split.PassVertsOff()
    split.PassLinesOff()
    split.Update()
    out = split.GetOutput()
    vertices = vtk_to_numpy(out.GetPoints().GetData()).astype(float)
    triangles = vtk_to_numpy(out.GetPolys().GetConnectivityArray()).reshape(-1, 3).astype(np.int64)
    if not np.isfinite(vertices).all():
        raise DataError(f"point {int(np.argmin(np.isfinite(vertices).all(axis=1)))} is not a finite position",
                        file=str(path))
    return TriangleMesh(vertices, triangles)


def read_mesh(path) -> TriangleMesh:
    """The triangle surface of the mesh file ``path`` (module notes), e.g. a device's for
    :class:`skin.device.RigidDevice`."""
    path = Path(path)
    return _triangles(_poly_data(path), path)


def _point_array(poly: vtkPolyData, name: str, path: Path) -> np.ndarray:
    array = poly.GetPointData().GetArray(name)
    if array is None:
        raise DataError(f"a skin file needs the point data array {name!r} (module skin.mesh_file)", file=str(path))
    values = vtk_to_numpy(array)
    return values.reshape(len(values), -1)


def _check_finite(values: np.ndarray, what: str, path: Path) -> None:
    """DataError naming the first vertex (row of ``values``) with a value that is not finite."""
    bad = np.flatnonzero(~np.isfinite(values).all(axis=1))
    if bad.size:
        raise DataError(f"vertex {int(bad[0])}: {what} {values[bad[0]].tolist()} must be finite ({bad.size} vertices' "
                        f"are not)", file=str(path))


def read_skin(model, path) -> Skin:
    """The skin of ``model`` in the ``.vtp`` file ``path`` with its bones and weights (module notes).

    Raises DataError (the file is not such a skin: a polygon that is not a triangle, a point, weight or bone index
    that is not finite, a bone index that is not an integer, each named) or ModelError (a bone is not a body of ``model``, a vertex's
    weights do not sum to 1, ``q_rest`` does not fit the model), naming the file.
    """
    path = Path(path)
    if path.suffix.lower() != ".vtp":
        raise DataError(f"a skin with weights is a .vtp file (VTK XML PolyData), not {path.suffix or 'a file without extension'}",
                        file=str(path))
    poly = _poly_data(path)
    if poly.GetNumberOfCells() != poly.GetNumberOfPolys():
        raise DataError("a skin's cells must all be triangles: the file also holds vertices, lines or strips",
                        file=str(path))
    sizes = np.diff(vtk_to_numpy(poly.GetPolys().GetOffsetsArray()))
    odd = np.flatnonzero(sizes != 3)
    if odd.size:
        raise DataError(f"polygon {int(odd[0])} has {int(sizes[odd[0]])} points: a skin's polygons must all be "
                        f"triangles ({odd.size} are not)", file=str(path))
    points = vtk_to_numpy(poly.GetPoints().GetData()).astype(float)
    _check_finite(points, "its position", path)
    mesh = TriangleMesh(points, vtk_to_numpy(poly.GetPolys().GetConnectivityArray()).reshape(-1, 3))
    bone = _point_array(poly, "bone", path)
    weight = _point_array(poly, "weight", path)
    if bone.shape != weight.shape:
        raise DataError(f"'bone' has {bone.shape[1]} components and 'weight' {weight.shape[1]}: they must match",
                        file=str(path))
    if bone.dtype.kind not in "iu":
        _check_finite(bone, "its bone index", path)
        fractional = np.flatnonzero((bone != np.round(bone)).any(axis=1))
        if fractional.size:
            raise DataError(f"vertex {int(fractional[0])}: its bone indices {bone[fractional[0]].tolist()} must be "
                            f"integers ({fractional.size} vertices' are not)", file=str(path))
    names = poly.GetFieldData().GetAbstractArray("bodies")
    if names is None:
        raise DataError("a skin file needs the field data string array 'bodies'", file=str(path))
    bodies = [names.GetValue(i) for i in range(names.GetNumberOfValues())]
    known = {b.name for b in model.bodies}
    for name in bodies:
        if name not in known:
            raise ModelError(f"{path.name}: the skin's bone {name!r} is not a body of the model", f"model '{model.name}'")
    if bone.min() < 0 or bone.max() >= len(bodies):
        k = int(np.argmax((bone < 0).any(axis=1) | (bone >= len(bodies)).any(axis=1)))
        raise DataError(f"vertex {k}: a bone index outside the {len(bodies)} bodies", file=str(path))
    weight = weight.astype(float)
    _check_finite(weight, "its weights", path)
    off = np.flatnonzero((np.abs(weight.sum(axis=1) - 1.0) > 1e-9) | (weight < 0).any(axis=1))
    if off.size:
        raise DataError(f"vertex {int(off[0])}: its weights {weight[off[0]].tolist()} must be non-negative and sum "
                        f"to 1 ({off.size} vertices are not)", file=str(path))
    q_rest = poly.GetFieldData().GetArray("q_rest")
    if q_rest is not None:
        q_rest = vtk_to_numpy(q_rest).astype(float).ravel()
        if q_rest.shape != (model.nq,) or not np.isfinite(q_rest).all():
            raise DataError(f"q_rest must be {model.nq} finite values (the model's nq), got {q_rest.size}",
                            file=str(path))
    return Skin.bind(model, mesh, bodies, bone.astype(np.int64), weight, q_rest)


def write_skin(skin: Skin, path) -> None:
    """``skin`` as a ``.vtp`` file that :func:`read_skin` reads back (written atomically)."""
    path = Path(path)
    if path.suffix.lower() != ".vtp":
        raise DataError("a skin is written as a .vtp file", file=str(path))
    poly = vtkPolyData()
    points = vtkPoints()
    points.SetData(numpy_to_vtk(np.ascontiguousarray(skin.mesh.vertices), deep=True))
    poly.SetPoints(points)
    cells = vtkCellArray()
    t = skin.mesh.triangles
    cells.SetData(numpy_to_vtkIdTypeArray(np.arange(0, 3 * len(t) + 1, 3), deep=True),
                  numpy_to_vtkIdTypeArray(np.ascontiguousarray(t.ravel()), deep=True))
    poly.SetPolys(cells)
    for name, values in (("bone", skin.bone), ("weight", skin.weight)):
        array = numpy_to_vtk(np.ascontiguousarray(values), deep=True)
        array.SetName(name)
        poly.GetPointData().AddArray(array)
    names = vtkStringArray()
    names.SetName("bodies")
    for body in skin.bodies:
        names.InsertNextValue(body)
    poly.GetFieldData().AddArray(names)
    q_rest = numpy_to_vtk(np.ascontiguousarray(skin.q_rest, dtype=float), deep=True)
    q_rest.SetName("q_rest")
    poly.GetFieldData().AddArray(q_rest)
    with atomic_path(path) as temporary:
        writer = vtkXMLPolyDataWriter()
        writer.SetFileName(str(temporary))
        writer.SetInputData(poly)
        writer.SetDataModeToBinary()
        if not writer.Write():
            raise DataError("VTK could not write the skin", file=str(path))
