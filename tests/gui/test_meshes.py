"""Bodies are drawn with their mesh files when every one is found (scaled and placed as the model says), and
with generated shapes otherwise, the files not found listed."""
import numpy as np
from vtkmodules.vtkFiltersSources import vtkCubeSource
from vtkmodules.vtkIOGeometry import vtkSTLWriter

from engine.model import Mesh
from engine.spatial import SE3
from hybridgui.viewport.skeleton import body_geometry
from tests.muscles.path_models import wrap_model


def test_mesh_files_are_used_when_found(tmp_path):
    cube = vtkCubeSource()          # a unit cube centred at the origin
    writer = vtkSTLWriter()
    writer.SetFileName(str(tmp_path / "cube.stl"))
    writer.SetInputConnection(cube.GetOutputPort())
    writer.Write()
    model = wrap_model()
    mesh = Mesh("cube.stl", scale=(0.1, 0.2, 0.1), placement=SE3(np.eye(3), [0.0, -0.15, 0.0]))
    bodies = [b if b.name != "upper" else type(b)(b.name, b.mass, b.com, b.inertia, meshes=(mesh,))
              for b in model.bodies]
    model = model.replace(bodies=bodies)
    missing = []
    drawn = body_geometry(model, [tmp_path], missing)
    assert missing == []
    bounds = np.array(drawn["upper"].GetBounds()).reshape(3, 2)
    assert np.allclose(bounds, [[-0.05, 0.05], [-0.25, -0.05], [-0.05, 0.05]], atol=1e-6)
    # without the file (another folder), the generated bone is drawn instead
    generated = np.array(body_geometry(model, [tmp_path / "elsewhere"], missing)["upper"].GetBounds()).reshape(3, 2)
    assert generated[1, 0] < -0.3 and generated[1, 1] > 0.0       # the capsule from shoulder to elbow
    assert missing == ["body 'upper': mesh file cube.stl not found; the body is drawn as a generated shape"]
