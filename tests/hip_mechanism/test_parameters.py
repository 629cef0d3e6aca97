"""The mechanism's parameters and their file (format header, seed units, exact round trip, clear errors)."""
import math

import numpy as np
import pytest
import yaml

from engine.errors import ModelError
from hip_mechanism.parameters import SEED
from hip_mechanism.parameters_file import load_parameters, save_parameters


def test_the_seeds_values():
    assert (SEED.l1, SEED.a1, SEED.a2, SEED.a3, SEED.b1, SEED.b2, SEED.b3) == (
        0.310, 0.105, 0.060, 0.060, 0.070, 0.040, 0.040)
    assert (SEED.m_platform, SEED.m_lower_rod, SEED.m_upper_rod, SEED.m_cylinder, SEED.m_piston) == (
        1.5, 0.9, 0.75, 1.2, 0.75)
    assert np.allclose(np.diag(SEED.I_platform), [0.348, 0.174, 0.174])
    assert np.allclose(np.diag(SEED.I_cylinder), [0.316, 0.296, 0.0])


def test_file_round_trip_is_exact_and_a_file_in_the_seeds_units_reads_the_same(tmp_path):
    params = SEED.replace(l1=0.3123456789, alpha_range=(math.radians(-55.5), math.radians(50.0)))
    path = tmp_path / "hip.yaml"
    save_parameters(params, path)
    text = path.read_text()
    assert text.splitlines()[1:3] == ["format: hybridlab-hip-mechanism", "version: 1"]
    assert "l1: 0.3123456789" in text and "length: m" in text
    assert load_parameters(path) == params
    save_parameters(load_parameters(path), tmp_path / "again.yaml")
    assert (tmp_path / "again.yaml").read_text() == text
    document = yaml.safe_load(text)
    document["units"].update(length="mm", angle="deg", stiffness="N/mm")
    for section in ("geometry", "centres_of_mass"):
        for key, value in document[section].items():
            document[section][key] = [x * 1e3 for x in value] if isinstance(value, list) else value * 1e3
    for key in ("stroke_min", "stroke_max"):
        document["limits"][key] *= 1e3
    document["limits"]["alpha"] = [-55.5, 50.0]
    document["limits"]["beta"] = [-90.0, 35.0]
    document["stiffness"] = {"k": 1000.0, "characteristic_length": 70.0}
    seed_units = yaml.safe_dump(document)
    (tmp_path / "mm.yaml").write_text(seed_units)
    loaded = load_parameters(tmp_path / "mm.yaml")
    for field in ("l1", "a1", "b3", "stroke_max", "k", "e_piston", "alpha_range", "beta_range", "platform_com"):
        assert np.allclose(getattr(loaded, field), getattr(params, field), rtol=1e-14), field


def test_a_geometry_that_cannot_close_is_refused():
    with pytest.raises(ModelError, match="cannot close at its reference pose: limb 2"):
        SEED.replace(stroke_max=0.300)
    with pytest.raises(ModelError, match="positive"):
        SEED.replace(b2=-0.01)


def test_bad_files_name_the_file_and_the_element(tmp_path):
    path = tmp_path / "hip.yaml"
    save_parameters(SEED, path)
    text = path.read_text()
    (tmp_path / "units.yaml").write_text(text.replace("  length: m\n", "  length: km\n"))
    with pytest.raises(ModelError, match=r"units.yaml: units"):
        load_parameters(tmp_path / "units.yaml")
    (tmp_path / "missing.yaml").write_text(text.replace("  b3: 0.04\n", ""))
    with pytest.raises(ModelError, match=r"missing.yaml: geometry.b3: is missing"):
        load_parameters(tmp_path / "missing.yaml")
    (tmp_path / "short.yaml").write_text(text.replace("stroke_min: 0.21", "stroke_min: 0.33"))
    with pytest.raises(ModelError, match=r"short.yaml: limb 2: the mechanism cannot close"):
        load_parameters(tmp_path / "short.yaml")
