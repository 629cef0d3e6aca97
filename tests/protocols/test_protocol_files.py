"""The built-in marker protocols and landmark placements: read and checked, placed on our athlete and on
OpenSim's gait2354 by its body names, bad files refused with the file and element named, and OpenSim marker
sets written and read back."""
from pathlib import Path

import numpy as np
import pytest

from engine.demo.athlete import build_athlete
from engine.errors import ModelError
from engine.io.osim import read_osim
from engine.io.osim.marker_set import read_marker_set, write_marker_set
from engine.io.protocol_file import builtin, builtin_folder, placements_for, read_protocol
from engine.protocols.description import model_markers

DATA = Path(__file__).parents[1] / "data"
GAIT2354 = DATA / "opensim" / "gait2354" / "scale" / "gait2354_simbody.osim"


@pytest.fixture(scope="module")
def library():
    return builtin()


def test_the_built_in_protocols_are_there(library):
    _, placements, protocols = library
    assert {p.name for p in protocols} == {"plug-in-gait-lower", "plug-in-gait-full", "helen-hayes", "ior-cast",
                                           "cleveland"}
    assert {p.family for p in placements} == {"hybridlab_athlete", "gait2354"}


@pytest.mark.parametrize("amputated", [False, True])
def test_every_lower_body_landmark_is_on_the_athlete(library, amputated):
    catalogue, placements, protocols = library
    model = build_athlete(with_muscles=False, amputated=amputated)
    chosen = placements_for(model, placements)
    assert chosen.family == "hybridlab_athlete"
    points = chosen.points(model, catalogue)
    pig = next(p for p in protocols if p.name == "plug-in-gait-full")
    used = {f"{s or ''}{m.name}": (m.name, s if catalogue[m.landmark].sided else None)
            for m in pig.markers for s in ("R", "L")}
    markers, missing = model_markers(pig, used, points, catalogue)
    # the amputee lacks the right foot and the shank below the residual limb: exactly those markers are missing
    expected = {"RTIB", "RANK", "RMED", "RHEE", "RTOE"} if amputated else set()
    assert set(missing) == expected
    # the Plug-in Gait markers the athlete is built with sit where the landmarks are (within 2 cm)
    own = {m.name: m for m in model.markers}
    for m in markers:
        if m.name in own and m.name in {"RASI", "LASI", "RKNE", "LKNE", "LANK", "LHEE", "C7"}:
            assert own[m.name].parent == m.parent
            assert np.linalg.norm(own[m.name].offset - m.offset) < 0.02, m.name


def test_landmarks_on_gait2354_by_its_body_names(library):
    catalogue, placements, _ = library
    model = read_osim(GAIT2354)
    chosen = placements_for(model, placements)
    assert chosen.family == "gait2354"
    points = chosen.points(model, catalogue)
    # the model's own scale markers on the same landmarks (OpenSim's file, an independent source)
    own = {m.name: m for m in read_marker_set(GAIT2354.parent / "gait2354_Scale_MarkerSet.xml", model)}
    for name, key in (("R.ASIS", ("asis", "R")), ("L.ASIS", ("asis", "L")), ("L.Knee.Lat", ("lateral_epicondyle", "L")),
                      ("R.Ankle.Med", ("medial_malleolus", "R")), ("L.Heel", ("calcaneus", "L"))):
        body, offset = points[key]
        assert body == own[name].parent and np.allclose(offset, own[name].offset, atol=1e-6), name


def test_a_protocol_naming_an_unknown_landmark_is_refused(library, tmp_path):
    catalogue = library[0]
    path = tmp_path / "bad.yaml"
    path.write_text((builtin_folder() / "helen_hayes.yaml").read_text().replace("landmark: fibula_head",
                                                                                "landmark: fibula_top"))
    with pytest.raises(ModelError) as err:
        read_protocol(path, catalogue)
    message = str(err.value)
    assert "bad.yaml" in message and "KNEE2" in message and "fibula_top" in message


def test_a_protocol_whose_alternative_is_not_its_marker_is_refused(library, tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text((builtin_folder() / "cleveland.yaml").read_text().replace("alternatives: [MIDFOOT]",
                                                                              "alternatives: [MIDFOT]"))
    with pytest.raises(ModelError) as err:
        read_protocol(path, library[0])
    assert "bad.yaml" in str(err.value) and "'TOE'" in str(err.value) and "MIDFOT" in str(err.value)


def test_a_protocol_with_a_misspelt_field_is_refused(library, tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text((builtin_folder() / "cleveland.yaml").read_text().replace("aliases: [hee]", "alias: [hee]"))
    with pytest.raises(ModelError, match="unknown field 'alias'"):
        read_protocol(path, library[0])


def test_marker_set_written_and_read_back(library, tmp_path):
    catalogue, placements, protocols = library
    model = build_athlete(with_muscles=False, amputated=False)
    points = placements_for(model, placements).points(model, catalogue)
    protocol = next(p for p in protocols if p.name == "plug-in-gait-lower")
    used = {f"{s}{m.name}": (m.name, s) for m in protocol.markers for s in ("R", "L")}
    markers, _ = model_markers(protocol, used, points, catalogue)
    write_marker_set(tmp_path / "pig.xml", markers)
    back = read_marker_set(tmp_path / "pig.xml", model)
    assert [(m.name, m.parent) for m in back] == [(m.name, m.parent) for m in markers]
    assert all(np.array_equal(a.offset, b.offset) for a, b in zip(back, markers))
