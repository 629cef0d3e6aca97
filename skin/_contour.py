"""Iso-surface of a sampled scalar field by VTK's flying edges (with ``mesh_file``, the modules of ``skin`` that use VTK)."""
from __future__ import annotations

import numpy as np
from vtkmodules.util.numpy_support import numpy_to_vtk, vtk_to_numpy
from vtkmodules.vtkCommonDataModel import vtkImageData
from vtkmodules.vtkFiltersCore import vtkCleanPolyData, vtkFlyingEdges3D, vtkTriangleFilter


def iso_surface(field: np.ndarray, origin, spacing: float, level: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Vertices (n, 3) and triangles (t, 3) of ``field == level``; ``field`` (nx, ny, nz) sampled at
    ``origin + spacing * (i, j, k)``. Triangles wind counter-clockwise seen from where the field is larger."""
    image = vtkImageData()
    image.SetDimensions(*field.shape)
    image.SetOrigin(*map(float, origin))
    image.SetSpacing(spacing, spacing, spacing)
    image.GetPointData().SetScalars(numpy_to_vtk(np.ascontiguousarray(field.transpose(2, 1, 0)).ravel(), deep=True))
    contour = vtkFlyingEdges3D()
    contour.SetInputData(image)
    contour.SetValue(0, level)
    contour.ComputeNormalsOff()
    contour.ComputeGradientsOff()
    clean = vtkCleanPolyData()
    clean.SetInputConnection(contour.GetOutputPort())
    triangles = vtkTriangleFilter()
    triangles.SetInputConnection(clean.GetOutputPort())
    triangles.Update()
    poly = triangles.GetOutput()
    vertices = vtk_to_numpy(poly.GetPoints().GetData()).astype(float)
    cells = vtk_to_numpy(poly.GetPolys().GetConnectivityArray()).reshape(-1, 3).astype(np.int64)
    return vertices, cells
