"""What a scaling writes: the .osim reads back as the scaled model (and, with OpenSim, loads), the YAML too,
the static pose and the tables; the command line writes them all."""
import csv
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import numpy as np

from engine.cli.main import main
from engine.io.model_file import load_model
from engine.io.osim import read_osim
from engine.io.storage import read_storage
from engine.progress import run as run_steps
from engine.io.osim import document
from engine.io.osim.scale_setup import read_scale_setup
from engine.io.scale_files import scale_from_files, scale_steps, write_scale_outputs
from engine.tree import compile_tree
from tests.scaling.gait2354_scale import FOLDER, SETUP, scaling


def _same_model(a, b):
    assert a.bodies == b.bodies and a.joints == b.joints and a.frames == b.frames and a.markers == b.markers
    for x, y in zip(a.muscles, b.muscles, strict=True):
        assert x.path == y.path and x.optimal_fiber_length == y.optimal_fiber_length
        assert x.tendon_slack_length == y.tendon_slack_length


def test_written_osim_and_yaml_read_back_as_the_scaled_models(tmp_path):
    setup, run = scaling()
    res = run.result
    written = write_scale_outputs(run, setup, tmp_path / "subject.osim")
    _same_model(read_osim(tmp_path / "subject.osim"), res.model)
    _same_model(load_model(tmp_path / "subject.yaml"), res.model)
    _same_model(read_osim(tmp_path / "subject01_scaledOnly.osim"), res.scaled.model)
    assert read_osim(tmp_path / "subject.osim").name == "subject01"
    names = {p.name for p in written}
    assert {"subject01_scaleSet_applied.xml", "subject01_static_output.mot", "subject_pair_residuals.csv",
            "subject_marker_residuals.csv"} <= names
    scales = {s.findtext("segment"): np.array(s.findtext("scales").split(), float)
              for s in ET.parse(tmp_path / "subject01_scaleSet_applied.xml").getroot().iter("Scale")}
    assert all(np.array_equal(scales[b], f) for b, f in res.scaled.factors.items())
    pose = read_storage(tmp_path / "subject01_static_output.mot")
    slot = compile_tree(res.model).coordinates["hip_flexion_r"]
    assert np.isclose(np.radians(pose.column("hip_flexion_r")[0]), res.placement.q[slot.qi], atol=1e-9)
    with open(tmp_path / "subject_pair_residuals.csv") as f:
        pairs = list(csv.DictReader(f))
    assert len(pairs) == 8
    torso = next(r for r in pairs if r["measurement"] == "torso")   # one pair: the factor fits it exactly
    assert abs(float(torso["residual_mm"])) < 1e-3
    with open(tmp_path / "subject_marker_residuals.csv") as f:
        markers = {r["marker"]: r for r in csv.DictReader(f)}
    assert len(markers) == 39 and markers["R.ASIS"]["weight"] == "1000"


def test_one_scaling_reads_the_generic_osim_once(tmp_path, monkeypatch):
    """From the setup, or with the default setup made from the generic model: its .osim parsed once, and the scaled
    .osim files written from that reading, which writing leaves as read (a second writing gives the same files)."""
    parsed = Counter()
    parse = document.parse_bounded
    monkeypatch.setattr(document, "parse_bounded", lambda path, *a: parsed.update([Path(path).name]) or parse(path, *a))
    setup = read_scale_setup(SETUP)
    run = scale_from_files(setup)
    for out in ("a", "b"):
        (tmp_path / out).mkdir()
        write_scale_outputs(run, setup, tmp_path / out / "subject.osim")
    assert parsed == {"gait2354_simbody.osim": 1}
    for name in ("subject.osim", "subject01_scaledOnly.osim"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    parsed.clear()        # gait10dof18musc has its markers (gait2354's are in a marker set file)
    gait = FOLDER.parents[1] / "gait10dof18musc"
    default, default_setup = run_steps(scale_steps(None, gait / "subject01.osim", gait / "subject01_walk.trc", 72.6))
    write_scale_outputs(default, default_setup, tmp_path / "walk.osim")
    assert parsed == {"subject01.osim": 1}


def test_command_line_scales_from_the_setup(tmp_path, capsys):
    code = main(["scale", str(FOLDER / "gait2354_simbody.osim"), "--setup", str(SETUP), "--out",
                 str(tmp_path / "s.osim")])
    assert code == 0
    out = capsys.readouterr().out
    assert "femur_r" in out and "1.1472" in out and "patella_r" in out
    model = read_osim(tmp_path / "s.osim")
    assert abs(model.total_mass - 72.6) < 1e-9 and len(model.markers) == 39


def test_command_line_mass_overrides_the_setups(tmp_path):
    assert main(["scale", str(FOLDER / "gait2354_simbody.osim"), "--setup", str(SETUP), "--mass", "80",
                 "--out", str(tmp_path / "s.yaml")]) == 0
    assert abs(load_model(tmp_path / "s.yaml").total_mass - 80.0) < 1e-9
