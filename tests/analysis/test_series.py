"""Series of a result: the values the engine computed, named with units; CSV tables of any selection."""
import csv

import numpy as np
import pytest

from engine.analysis.inverse_dynamics import plate_samples
from engine.io.analysis_outputs import coordinate_table
from engine.analysis.series import GROUPS, result_series
from engine.io.series_csv import write_series_csv
from engine.errors import SettingsError
from engine.tree import compile_tree
from engine.trial.filtering import lowpass_plates

from .gait2354_result import analysed


@pytest.fixture(scope="module")
def result(test_data):
    return analysed(str(test_data))[0]


def test_every_group_has_its_series_with_units(result):
    series = result_series(result)
    labels = [s.label for s in series]
    assert len(labels) == len(set(labels))
    assert [g for g in GROUPS if any(s.group == g for s in series)] == [g for g in GROUPS if "blade" not in g]
    by = {s.label: s for s in series}
    assert by["knee_angle_r"].unit == "deg" and by["pelvis_tx"].unit == "m"
    # both inverse dynamics ran: each set of generalized forces is named by its loads
    assert by["knee_angle_r_moment (measured loads)"].unit == "N m" and by["pelvis_ty_force (estimated)"].unit == "N"
    assert by["knee_angle_r_moment (measured loads)"].kind == "measured"
    assert by["knee_angle_r_moment (estimated)"].kind == "estimated" and "knee_angle_r_moment" not in by
    assert by["soleus_r force"].unit == "N" and by["soleus_r activation"].unit == "1"
    assert by["IK marker error RMS"].unit == "mm"
    assert all(s.time is result.motion.time or np.array_equal(s.time, result.motion.time) for s in series)


def test_values_are_the_results_own(result):
    by = {s.label: s for s in result_series(result)}
    table = coordinate_table(result.model, result.motion.time, result.ik.q)
    assert np.array_equal(by["hip_flexion_l"].values, table.column("hip_flexion_l"))
    k = compile_tree(result.model).v_names.index("ankle_angle_r")
    assert np.array_equal(by["ankle_angle_r_moment (estimated)"].values, result.qp.tau[:, k])
    assert np.array_equal(by["ankle_angle_r_moment (measured loads)"].values, result.classic.tau[:, k])
    assert np.array_equal(by["GRF foot_r vertical (estimated)"].values, result.qp.groups["foot_r"].force[:, 1])
    measured = plate_samples(result.trial.plates[0], result.motion.time)[0]
    assert np.array_equal(by[f"GRF plate {result.trial.plates[0].name} vertical (measured)"].values, measured[:, 1])
    assert np.allclose(by["IK marker error RMS"].values, 1000 * result.ik.rms, equal_nan=True)
    # the measured and estimated vertical forces of one foot share a channel (drawn together)
    right = by["GRF plate right vertical (measured)"].channel
    assert right == by[f"GRF {right.split()[0]} vertical (estimated)"].channel


def test_csv_has_a_time_column_units_and_exact_values(result, tmp_path):
    chosen = [s for s in result_series(result) if s.label in ("knee_angle_r", "GRF foot_l vertical (estimated)")]
    path = tmp_path / "curves.csv"
    write_series_csv(path, chosen)
    rows = list(csv.reader(path.open()))
    assert rows[0] == ["time [s]", "GRF foot_l vertical (estimated) [N]", "knee_angle_r [deg]"]
    data = np.array(rows[1:], float)
    assert np.array_equal(data[:, 0], result.motion.time)
    assert np.array_equal(data[:, 1], chosen[0].values) and np.array_equal(data[:, 2], chosen[1].values)
    with pytest.raises(SettingsError, match="no series"):
        write_series_csv(path, [])


def test_plates_as_scored_are_the_plates_through_the_validations_filter(result):
    """gait2354 is validated against plates low-passed at the coordinates' 6 Hz: those curves are shown beside the
    recorded ones, in the same channel."""
    by = {s.label: s for s in result_series(result)}
    filtered, _ = lowpass_plates(result.trial, result.motion.cutoff, result.motion.order, result.motion.edges)
    for plate in filtered.plates:
        expected = plate_samples(plate, result.motion.time)[0][:, 1]
        scored = by[f"GRF plate {plate.name} vertical (measured, as scored)"]
        assert scored.kind == "scored" and np.allclose(scored.values, expected, rtol=0, atol=1e-9)
        assert scored.channel == by[f"GRF plate {plate.name} vertical (measured)"].channel
        assert not np.allclose(scored.values, by[f"GRF plate {plate.name} vertical (measured)"].values, atol=1.0)
