"""Skins with their weights and device surfaces read from mesh files (skin.mesh_file)."""
from __future__ import annotations

import numpy as np
import pytest

from engine.data import Data
from engine.errors import DataError, ModelError
from skin.device import RigidDevice
from skin.mesh_file import read_mesh, read_skin, write_skin


def test_a_skin_written_with_its_weights_reads_back_and_deforms_as_before(athlete, coarse_skin, pose, tmp_path):
    path = tmp_path / "skin.vtp"
    write_skin(coarse_skin, path)
    skin = read_skin(athlete, path)
    assert skin.bodies == coarse_skin.bodies
    np.testing.assert_array_equal(skin.mesh.vertices, coarse_skin.mesh.vertices)
    np.testing.assert_array_equal(skin.mesh.triangles, coarse_skin.mesh.triangles)
    np.testing.assert_array_equal(skin.bone, coarse_skin.bone)
    np.testing.assert_array_equal(skin.weight, coarse_skin.weight)
    data = Data(athlete)
    np.testing.assert_array_equal(skin.vertices(athlete, data, pose), coarse_skin.vertices(athlete, data, pose))


def test_a_skin_file_naming_another_body_or_with_weights_off_one_is_an_error(athlete, coarse_skin, tmp_path):
    from dataclasses import replace
    bodies = list(coarse_skin.bodies)
    bodies[1] = "wing"
    path = tmp_path / "wing.vtp"
    write_skin(replace(coarse_skin, bodies=tuple(bodies)), path)
    with pytest.raises(ModelError, match="wing.vtp: the skin's bone 'wing' is not a body of the model"):
        read_skin(athlete, path)
    weight = coarse_skin.weight.copy()
    weight[7] *= 1.5
    skin = replace(coarse_skin)
    object.__setattr__(skin, "weight", weight)          # a Skin refuses such weights: only a file can hold them
    path = tmp_path / "weights.vtp"
    write_skin(skin, path)
    with pytest.raises(DataError, match=r"vertex 7: its weights .* must be non-negative and sum to 1") as raised:
        read_skin(athlete, path)
    assert "weights.vtp" in str(raised.value)
    with pytest.raises(DataError, match="a skin with weights is a .vtp file"):
        read_skin(athlete, tmp_path / "skin.stl")


def test_a_device_surface_from_an_obj_file_is_split_into_triangles(tmp_path):
    """A 1 m x 0.5 m board of two quads in an OBJ file written by hand: four triangles, its area kept, normals up."""
    path = tmp_path / "board.obj"
    path.write_text("v 0 0 0\nv 0.5 0 0\nv 1 0 0\nv 0 0 -0.5\nv 0.5 0 -0.5\nv 1 0 -0.5\nf 1 2 5 4\nf 2 3 6 5\n")
    mesh = read_mesh(path)
    assert mesh.n_vertices == 6 and mesh.triangles.shape == (4, 3)
    normals, areas = mesh.normals_areas()
    assert areas.sum() == pytest.approx(0.5, rel=1e-12)
    np.testing.assert_allclose(normals, np.tile([0.0, 1.0, 0.0], (6, 1)), atol=1e-12)
    assert RigidDevice("board", mesh).mesh is mesh


@pytest.mark.parametrize("name, text, problem", [
    ("board.dxf", "", "a mesh file must be one of .vtp, .vtk, .stl, .obj, .ply"),
    ("missing.obj", None, "the mesh file does not exist"),
    ("points.obj", "v 0 0 0\nv 1 0 0\n", "holds no surface"),
])
def test_a_file_that_is_not_a_mesh_is_an_error_naming_it(tmp_path, name, text, problem):
    path = tmp_path / name
    if text is not None:
        path.write_text(text)
    with pytest.raises(DataError, match=problem) as raised:
        read_mesh(path)
    assert name in str(raised.value)


def _edited(skin, path, edit):
    """``skin`` written to ``path``, then the file's PolyData changed by ``edit(poly)`` and written again."""
    from vtkmodules.vtkIOXML import vtkXMLPolyDataReader, vtkXMLPolyDataWriter
    write_skin(skin, path)
    reader = vtkXMLPolyDataReader()
    reader.SetFileName(str(path))
    reader.Update()
    poly = reader.GetOutput()
    edit(poly)
    writer = vtkXMLPolyDataWriter()
    writer.SetFileName(str(path))
    writer.SetInputData(poly)
    assert writer.Write()
    return path


def test_a_skin_file_with_polygons_that_are_not_triangles_is_an_error_naming_the_polygon(athlete, coarse_skin,
                                                                                          tmp_path):
    """Two triangles' six point ids regrouped as three 2-point polygons: every cell has at most 3 points and the ids
    still fill rows of 3, so only the cells' own sizes show it."""
    from vtkmodules.util.numpy_support import numpy_to_vtkIdTypeArray
    from vtkmodules.vtkCommonDataModel import vtkCellArray
    t = coarse_skin.mesh.triangles
    offsets = np.r_[np.arange(0, 3 * 5 + 1, 3), 17, 19, np.arange(21, 3 * len(t) + 1, 3)]

    def regroup(poly):
        cells = vtkCellArray()
        cells.SetData(numpy_to_vtkIdTypeArray(offsets, deep=True),
                      numpy_to_vtkIdTypeArray(np.ascontiguousarray(t.ravel()), deep=True))
        poly.SetPolys(cells)

    path = _edited(coarse_skin, tmp_path / "pairs.vtp", regroup)
    with pytest.raises(DataError, match=r"polygon 5 has 2 points: .* \(3 are not\)") as raised:
        read_skin(athlete, path)
    assert "pairs.vtp" in str(raised.value)


@pytest.mark.parametrize("array, vertex, value, problem", [
    ("bone", 4, 0.5, r"vertex 4: its bone indices \[0.5, .*\] must be integers"),
    ("weight", 9, np.nan, r"vertex 9: its weights \[nan, .*\] must be finite"),
    ("points", 11, np.inf, r"vertex 11: its position \[inf, .*\] must be finite"),
])
def test_fractional_bones_and_non_finite_weights_or_points_are_errors_naming_file_and_vertex(
        athlete, coarse_skin, tmp_path, array, vertex, value, problem):
    from vtkmodules.util.numpy_support import numpy_to_vtk, vtk_to_numpy

    def spoil(poly):
        if array == "points":
            values = vtk_to_numpy(poly.GetPoints().GetData()).copy()
        else:
            values = vtk_to_numpy(poly.GetPointData().GetArray(array)).astype(float)
        values = values.reshape(len(values), -1)
        values[vertex, 0] = value
        data = numpy_to_vtk(np.ascontiguousarray(values), deep=True)
        if array == "points":
            poly.GetPoints().SetData(data)
        else:
            data.SetName(array)
            poly.GetPointData().RemoveArray(array)
            poly.GetPointData().AddArray(data)

    path = _edited(coarse_skin, tmp_path / f"{array}.vtp", spoil)
    with pytest.raises(DataError, match=problem) as raised:
        read_skin(athlete, path)
    assert f"{array}.vtp" in str(raised.value)
