"""A coupled coordinate (OpenSim's CoordinateCouplerConstraint) is written with its own value in ik.mot, the
curves and their CSV, as OpenSim's InverseKinematicsTool writes it (tests/data/opensim/coupled_knee: a planar leg
whose patella coordinate ``knee_beta`` is a spline of ``knee_angle``; the reference is OpenSim 4.6's ik.mot)."""
from __future__ import annotations

import csv

import numpy as np
import pytest

from engine.io.analysis_outputs import write_outputs
from engine.analysis.pipeline import AnalysisSettings, analysis_steps
from engine.progress import run
from engine.analysis.series import result_series
from engine.io.series_csv import write_series_csv
from engine.io.contacts_file import load_contacts
from engine.io.osim import read_osim
from engine.io.setup_xml import ik_settings_from_setup, read_ik_setup
from engine.io.storage import read_storage
from engine.io.trc import read_trc

CONTACTS = """format: hybridlab-contacts
version: 1
units: {length: m}
contacts:
  - {name: heel, parent: tibia, offset: [-0.03, -0.43, 0], group: foot}
  - {name: toe, parent: tibia, offset: [0.12, -0.43, 0], group: foot}
"""


@pytest.fixture(scope="module")
def analysed(test_data, tmp_path_factory):
    folder = test_data / "opensim" / "coupled_knee"
    out = tmp_path_factory.mktemp("coupled")
    (out / "contacts.yaml").write_text(CONTACTS)
    model = load_contacts(out / "contacts.yaml", read_osim(folder / "coupled_knee.osim"))
    settings = AnalysisSettings(axes="Y-up, X-forward")
    settings.ik = ik_settings_from_setup(model, read_ik_setup(folder / "ik_setup.xml"))
    result = run(analysis_steps(model, read_trc(folder / "coupled_knee.trc"), settings))
    write_outputs(result, out)
    return result, out, read_storage(folder / "reference" / "ik.mot")


def test_the_reference_moves_the_coupled_coordinate_apart_from_its_independent(analysed):
    reference = analysed[2]
    beta, knee = reference.column("knee_beta"), reference.column("knee_angle")
    assert np.ptp(beta) > 30.0 and np.abs(beta - knee).max() > 20.0      # degrees: a wrong column shows


def test_ik_mot_matches_opensim_column_by_column(analysed):
    _, out, reference = analysed
    ours = read_storage(out / "ik.mot")
    assert ours.labels == reference.labels and ours.in_degrees and reference.in_degrees
    np.testing.assert_allclose(ours.time, reference.time, atol=1e-9)
    for label in reference.labels:
        limit = 1e-4 if label in ("pelvis_tx", "pelvis_ty") else 0.01     # m; degrees
        assert np.abs(ours.column(label) - reference.column(label)).max() < limit, label


def test_curves_and_their_csv_hold_the_coupled_value(analysed, tmp_path):
    result, _, reference = analysed
    angles = {s.channel: s for s in result_series(result) if s.group == "angles"}
    assert set(reference.labels) <= set(angles)
    for label in ("knee_angle", "knee_beta"):
        assert np.abs(angles[label].values - reference.column(label)).max() < 0.01, label
    path = tmp_path / "curves.csv"
    write_series_csv(path, [angles["knee_angle"], angles["knee_beta"]])
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header, values = rows[0], np.array(rows[1:], dtype=float)
    assert header[1].startswith("knee_angle") and header[2].startswith("knee_beta")
    assert np.abs(values[:, 2] - reference.column("knee_beta")).max() < 0.01
