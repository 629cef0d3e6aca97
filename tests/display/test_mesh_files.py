"""Mesh files are looked up as OpenSim looks them up: absolute paths, the model's folder, its Geometry subfolder,
the user's folders, then an OpenSim installation's Geometry folder."""
from engine.display.mesh_files import find_mesh, geometry_folders


def test_the_search_follows_opensims_order(tmp_path):
    model = tmp_path / "lab" / "model.osim"
    user, home = tmp_path / "mine", tmp_path / "opensim"
    for folder in (model.parent / "Geometry", user, home / "Geometry"):
        folder.mkdir(parents=True)
    folders = geometry_folders([model, None], [str(user)], {"OPENSIM_HOME": str(home)})
    assert folders[:2] == [model.parent, model.parent / "Geometry"]
    assert folders.index(user) < folders.index(home / "Geometry") == len(folders) - 1
    for folder in (home / "Geometry", user, model.parent / "Geometry", model.parent):   # each one shadows the next
        (folder / "bone.vtp").write_text("")
        assert find_mesh("bone.vtp", folders) == folder / "bone.vtp"
    assert find_mesh("other.vtp", folders) is None
    assert find_mesh(str(user / "bone.vtp"), []) == user / "bone.vtp"
