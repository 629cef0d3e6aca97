"""``hybrid run`` on gait2354's ScaleTool setup, unchanged: the files it names, against OpenSim 4.6's (the scaling
itself is tested in tests/scaling)."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np

from engine.cli.main import main
from engine.io.osim import read_osim
from tests.io.tools.setup_folders import GAIT2354, setup_folder
from tests.scaling.gait2354_scale import REFERENCE, marker_locations

SCALE = GAIT2354 / "scale"


def test_scale_setup_writes_the_files_it_names_as_opensim(tmp_path, capsys):
    folder = setup_folder(tmp_path / "scale", SCALE, ("subject01_Setup_Scale.xml",))
    assert main(["run", str(folder / "subject01_Setup_Scale.xml")]) == 0
    assert "ScaleTool" in capsys.readouterr().out
    factors = {s.findtext("segment"): np.array(s.findtext("scales").split(), float)
               for s in ET.parse(folder / "subject01_scaleSet_applied.xml").getroot().iter("Scale")}
    theirs = {s.findtext("segment"): np.array(s.findtext("scales").split(), float)
              for s in ET.parse(REFERENCE / "subject01_scaleSet_applied.xml").getroot().iter("Scale")}
    assert set(factors) <= set(theirs) and len(factors) == 12
    for body, f in factors.items():
        assert np.allclose(f, theirs[body], rtol=5e-3, atol=0), body
    scaled = read_osim(folder / "subject01_simbody.osim")        # the placer's output model
    assert abs(scaled.total_mass - 72.6) < 1e-9
    placed = marker_locations(folder / "subject01_simbody.osim")
    tight = marker_locations(REFERENCE / "tight" / "placed_markers.xml")
    assert max(np.linalg.norm(placed[n] - tight[n]) for n in tight) < 1e-3
    assert (folder / "subject01_static_output.mot").is_file()
    for name in ("subject01_scaledOnly.osim", "subject01_simbody.osim"):    # the models written, read back
        same_scaled_model(read_osim(folder / name), read_osim(REFERENCE / name), name)


def same_scaled_model(ours, theirs, name):
    """The model files ``hybrid run`` wrote hold OpenSim's scaled model: masses, inertias, offset frames, muscle
    lengths and path points, to rounding (the scaling is the same arithmetic on the same factors)."""
    assert [b.name for b in ours.bodies] == [b.name for b in theirs.bodies]
    for b in theirs.bodies:
        mine = ours.body(b.name)
        assert abs(mine.mass / b.mass - 1) < 1e-9, (name, b.name)
        assert np.allclose(mine.com, b.com, atol=1e-12) and np.allclose(mine.inertia, b.inertia, rtol=1e-9, atol=1e-15)
    for f in theirs.frames:
        mine = next(x for x in ours.frames if x.name == f.name)
        assert np.allclose(mine.placement.p, f.placement.p, atol=1e-12), (name, f.name)
    for m in theirs.muscles:
        mine = ours.muscle(m.name)
        assert abs(mine.optimal_fiber_length / m.optimal_fiber_length - 1) < 1e-9, (name, m.name)
        assert abs(mine.tendon_slack_length / m.tendon_slack_length - 1) < 1e-9, (name, m.name)
        for p, r in zip(mine.path.points, m.path.points, strict=True):
            assert np.allclose(p.location, r.location, atol=1e-12), (name, m.name, p.name)
