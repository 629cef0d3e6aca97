"""Small helpers between NumPy arrays and VTK objects."""
from __future__ import annotations

import numpy as np
from vtkmodules.util.numpy_support import numpy_to_vtk, numpy_to_vtkIdTypeArray, vtk_to_numpy
from vtkmodules.vtkCommonCore import vtkDataArray, vtkPoints
from vtkmodules.vtkCommonDataModel import vtkCellArray, vtkPolyData
from vtkmodules.vtkCommonMath import vtkMatrix4x4
from vtkmodules.vtkCommonTransforms import vtkTransform
from vtkmodules.vtkFiltersGeneral import vtkTransformFilter


def set_matrix(matrix: vtkMatrix4x4, R, p) -> None:
    """Fill a 4x4 VTK matrix with rotation ``R`` (3x3) and translation ``p`` (3,)."""
    M = np.eye(4)
    M[:3, :3] = R
    M[:3, 3] = p
    matrix.DeepCopy(M.ravel())


def transform_filter(source, A, p) -> vtkPolyData:
    """The output of ``source`` (an algorithm) mapped by ``x -> A x + p`` (A a 3x3 linear map)."""
    M = np.eye(4)
    M[:3, :3] = A
    M[:3, 3] = p
    transform = vtkTransform()
    transform.SetMatrix(M.ravel())
    f = vtkTransformFilter()
    f.SetTransform(transform)
    f.SetInputConnection(source.GetOutputPort())
    f.Update()
    return f.GetPolyDataOutput()


def points(xyz) -> vtkPoints:
    """VTK points holding a copy of ``xyz`` (n, 3)."""
    out = vtkPoints()
    out.SetData(numpy_to_vtk(np.ascontiguousarray(xyz, dtype=float).reshape(-1, 3), deep=True))
    return out


def set_points(polydata: vtkPolyData, xyz) -> None:
    """Give ``polydata`` the points ``xyz`` (n, 3): written into its points array when it holds n points already
    (a frame of the same shape: no new array, no new VTK object), else a new array."""
    xyz = np.asarray(xyz, dtype=float).reshape(-1, 3)
    held = polydata.GetPoints()
    if held is not None and held.GetNumberOfPoints() == len(xyz) and held.GetDataType() == 11:   # VTK_DOUBLE
        vtk_to_numpy(held.GetData())[:] = xyz
        held.Modified()
    else:
        polydata.SetPoints(points(xyz))


def set_scalars(attributes, values, name: str) -> None:
    """Give point or cell ``attributes`` (``GetPointData()``, ``GetCellData()``) the scalars ``values`` (n,) or
    normals (n, 3) named ``name`` (``"normals"`` sets the normals), in place when an array of that shape is there."""
    values = np.asarray(values, dtype=float)
    held = attributes.GetNormals() if name == "normals" else attributes.GetScalars()
    if held is not None and held.GetName() == name and held.GetNumberOfTuples() == len(values) \
            and held.GetNumberOfComponents() == (values.shape[1] if values.ndim == 2 else 1):
        vtk_to_numpy(held)[:] = values
        held.Modified()
    elif name == "normals":
        attributes.SetNormals(scalars(values, name))
    else:
        attributes.SetScalars(scalars(values, name))


def cells(connectivity, sizes) -> vtkCellArray:
    """A cell array from flat point ids ``connectivity`` and the number of points ``sizes`` of each cell."""
    offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    out = vtkCellArray()
    out.SetData(numpy_to_vtkIdTypeArray(offsets, deep=True),
                numpy_to_vtkIdTypeArray(np.asarray(connectivity, dtype=np.int64), deep=True))
    return out


def scalars(values, name: str = "values") -> vtkDataArray:
    """A VTK float array holding a copy of ``values``."""
    out = numpy_to_vtk(np.ascontiguousarray(values, dtype=float), deep=True)
    out.SetName(name)
    return out
