"""Bodies are drawn with their mesh files when every one is found (scaled and placed as the model says), and
with generated bones otherwise, the files not found listed; the bones follow their bodies."""
from xml.etree import ElementTree

import numpy as np
from vtkmodules.util.numpy_support import vtk_to_numpy
from vtkmodules.vtkFiltersSources import vtkCubeSource
from vtkmodules.vtkIOGeometry import vtkSTLWriter

from engine.display.bones import bone_surfaces
from engine.model import Mesh
from engine.spatial import SE3
from hybridgui.viewport.skeleton import CLOSED, body_geometry
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
    generated_bone = body_geometry(model, [tmp_path / "elsewhere"], missing)["upper"]
    generated = np.array(generated_bone.GetBounds()).reshape(3, 2)
    assert np.allclose(generated[1], [-0.3, 0.0])       # the generated bone from shoulder to elbow
    assert missing == ["body 'upper': mesh file cube.stl not found; the body is drawn as a generated shape"]
    # a mesh file may be open: only generated bones are marked closed (their back faces culled)
    assert drawn["upper"].GetFieldData().GetArray(CLOSED) is None
    assert generated_bone.GetFieldData().GetArray(CLOSED) is not None


def vtp_points(path) -> np.ndarray:
    """The points of an ASCII VTK XML PolyData file, read from its XML (not by VTK)."""
    piece = ElementTree.parse(path).getroot().find("PolyData/Piece")
    values = np.array(piece.find("Points/DataArray").text.split(), float).reshape(-1, 3)
    assert len(values) == int(piece.get("NumberOfPoints"))
    return values


def test_opensim_meshes_are_found_in_the_users_geometry_folder(make_window, test_data):
    window = make_window()
    geometry = test_data / "opensim" / "Geometry"
    window.set_geometry_paths([str(geometry)])
    window.open_model_file(test_data / "opensim" / "gait2354" / "subject01_simbody.osim")
    model = window.document.model
    actors = window.scene.layers["bodies"].actors
    drawn = 0
    for body in model.bodies:
        if not body.meshes or body.name == "torso":
            continue
        expected = np.vstack([vtp_points(geometry / m.file) * m.scale @ m.placement.R.T + m.placement.p
                              for m in body.meshes])
        points = vtk_to_numpy(actors[body.name].GetMapper().GetInput().GetPoints().GetData())
        assert points.shape == expected.shape and np.allclose(points, expected, atol=2e-6), body.name
        drawn += len(body.meshes)
    assert drawn == 15
    assert any(not np.allclose(m.scale, 1.0) for b in model.bodies for m in b.meshes)    # scaled with the body
    missing = window.scene.missing_meshes
    assert sorted(m.split()[4] for m in missing) == ["hat_jaw.vtp", "hat_ribs.vtp", "hat_skull.vtp", "hat_spine.vtp"]
    assert all(m.startswith("body 'torso'") for m in missing)
    assert actors["torso"].GetMapper().GetInput().GetNumberOfPoints() > 0        # drawn as a generated shape
    assert window.statusBar().currentMessage().startswith("4 mesh files not found")
    # without the folder, every mesh is missing, and the bodies are generated shapes
    window.set_geometry_paths([])
    assert len(window.scene.missing_meshes) == 19


def test_generated_bones_follow_their_bodies(shown):
    scene = shown.scene
    bones = bone_surfaces(shown.document.model)
    for frame in (0, len(scene.content.time) // 2):
        scene.show_frame(frame)
        for name in ("pelvis", "torso", "femur_l", "tibia_l", "humerus_r"):
            i = scene.poses.body_names.index(name)
            world = bones[name].points @ scene.poses.body_R[frame, i].T + scene.poses.body_p[frame, i]
            actor = scene.layers["bodies"].actors[name]
            M = np.array([[actor.GetMatrix().GetElement(r, c) for c in range(4)] for r in range(4)])
            drawn = vtk_to_numpy(actor.GetMapper().GetInput().GetPoints().GetData())[:len(world)]
            assert np.allclose(drawn @ M[:3, :3].T + M[:3, 3], world, atol=1e-6), name


def test_culling_back_faces_changes_no_pixel(shown):
    """The generated bones, the markers' spheres, the ground-reaction arrows and the blade are closed and wound
    outwards: their back faces are culled (a software-rendered frame would rasterise and shade them), which must
    hide nothing seen (a pixel or two at seams aside); culling their front faces instead must change the picture."""
    window, doc = shown, shown.document
    scene, reader = window.scene, window.view.reader
    for name in ("bodies", "blade", "muscles", "markers", "grf"):
        window.set_layer_visible(name, True)
    layers = scene.layers
    markers = layers["markers"]
    groups = {"bodies": list(layers["bodies"].actors.values()), "blade": [r.actor for r in layers["blade"].rods],
              "markers": [markers.model_dots.actor, markers.trial_dots.actor], "grf": layers["grf"].actors}
    loaded = [f for f in range(doc.n_frames) if any(np.isfinite(cop[f]).all() for _, _, _, cop in layers["grf"].arrows)]
    doc.set_frame(loaded[len(loaded) // 2])
    assert any(a.GetVisibility() for a in groups["grf"])

    def pixels():
        window.view.window.Render()
        reader.image()
        return vtk_to_numpy(reader.pixels).astype(int)

    for group, actors in groups.items():
        assert actors and all(a.GetProperty().GetBackfaceCulling() for a in actors), group
        for view in ("oblique", "sagittal"):
            window.look(view)
            culled = pixels()
            for actor in actors:
                actor.GetProperty().BackfaceCullingOff()
            drawn = pixels()
            for actor in actors:
                actor.GetProperty().FrontfaceCullingOn()
            front_culled = pixels()
            for actor in actors:
                actor.GetProperty().FrontfaceCullingOff()
                actor.GetProperty().BackfaceCullingOn()
            # the same picture but for a few pixels where a seam between two triangles lets a back face through
            assert (np.abs(culled - drawn).max(axis=1) > 0).sum() <= 10, (group, view)
            assert (np.abs(front_culled - drawn).max(axis=1) > 8).sum() > 100, (group, view)
