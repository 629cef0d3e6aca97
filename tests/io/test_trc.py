"""TRC files: the OpenSim trials read in metres, exact round trips, malformed files rejected."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import DataError, SettingsError
from engine.io.trc import read_trc, write_trc
from engine.trial import Markers, Trial


@pytest.fixture(scope="module")
def walk_path(test_data):
    return test_data / "opensim" / "gait2354" / "subject01_walk1.trc"


def test_gait2354_walk_trial(walk_path):
    trial = read_trc(walk_path)
    m = trial.markers
    assert m.rate == 60.0 and m.n_frames == 151 and len(m.names) == 41
    assert m.names[:3] == ("R.ASIS", "L.ASIS", "V.Sacral") and m.names[-1] == "Top.Head"
    # first data row of the file: "1  0.000000  617.247620  1055.275020  170.781980 ..." (mm)
    np.testing.assert_array_equal(m.positions[0, 0], [617.247620e-3, 1055.275020e-3, 170.781980e-3])
    np.testing.assert_array_equal(m.time[:3], [0.0, 0.017, 0.033])
    assert trial.conversions == ["positions converted from mm to m"] and trial.warnings == []
    assert trial.metadata["header"]["Units"] == "mm"


@pytest.mark.parametrize("units", ["mm", "cm", "m"])
def test_round_trip_is_exact(tmp_path, walk_path, units):
    trial = read_trc(walk_path)
    path = tmp_path / "out.trc"
    write_trc(path, trial, units=units)
    again = read_trc(path)
    assert again.markers.names == trial.markers.names and again.markers.rate == trial.markers.rate
    np.testing.assert_array_equal(again.markers.time, trial.markers.time)
    np.testing.assert_array_equal(again.markers.positions, trial.markers.positions)
    assert again.metadata["header"]["Units"] == units


finite = st.floats(min_value=-1e300, max_value=1e300, allow_nan=False, allow_infinity=False)


@settings(max_examples=60, deadline=None, database=None)
@given(values=st.lists(finite, min_size=12, max_size=12), missing=st.lists(st.booleans(), min_size=4, max_size=4),
       units=st.sampled_from(["mm", "cm", "m"]), rate=st.floats(1.0, 5000.0))
def test_round_trip_is_exact_for_any_number(tmp_path_factory, values, missing, units, rate):
    P = np.array(values).reshape(2, 2, 3)
    P[np.array(missing).reshape(2, 2)] = np.nan
    trial = Trial(Markers(("A", "B"), [0.0, 1.0 / rate], P, rate))
    path = tmp_path_factory.mktemp("trc") / "x.trc"
    write_trc(path, trial, units=units)
    again = read_trc(path)
    np.testing.assert_array_equal(again.markers.positions, P)
    assert np.array_equal(np.signbit(again.markers.positions), np.signbit(P))
    assert again.markers.rate == rate and again.markers.time[1] == 1.0 / rate


def test_write_rejects_unknown_units(tmp_path, walk_path):
    with pytest.raises(SettingsError):
        write_trc(tmp_path / "x.trc", read_trc(walk_path), units="in")


def edit(text: str, line: int, new: str | None) -> str:
    lines = text.splitlines()
    if new is None:
        del lines[line - 1]
    else:
        lines[line - 1] = new
    return "\n".join(lines) + "\n"


def replace_field(text: str, line: int, field: int, value: str) -> str:
    fields = text.splitlines()[line - 1].split("\t")
    fields[field] = value
    return edit(text, line, "\t".join(fields))


@pytest.mark.parametrize("mutate,fragment", [
    (lambda t: t[:len(t) // 2], "line"),                                        # cut mid-row
    (lambda t: "\n".join(t.splitlines()[:100]) + "\n", "NumFrames is 151 but the file holds 94 rows"),
    (lambda t: edit(t, 10, t.splitlines()[9] + "\t1.0\t2.0"), "line 10"),
    (lambda t: replace_field(t, 3, 0, "NaN"), "DataRate"),
    (lambda t: replace_field(t, 3, 0, "-60"), "DataRate"),
    (lambda t: replace_field(t, 3, 2, "abc"), "NumFrames"),
    (lambda t: replace_field(t, 3, 3, "40"), "NumMarkers is 40 but 41 marker names"),
    (lambda t: replace_field(t, 8, 1, "nan"), "line 8"),
    (lambda t: replace_field(t, 8, 1, "0.1"), "does not increase"),
    (lambda t: replace_field(t, 9, 5, "12,5"), "line 9, marker L.ASIS X"),
    (lambda t: replace_field(t, 9, 5, "inf"), "line 9, marker L.ASIS X"),
    (lambda t: edit(t, 2, "DataRate\tCameraRate\tNumFrames\tNumMarkers"), "Units"),
    (lambda t: "x" + t, "not a TRC file"),
    (lambda t: "", "not a TRC file"),
])
def test_malformed_trc_raises_data_error(tmp_path, walk_path, mutate, fragment):
    path = tmp_path / "bad.trc"
    path.write_text(mutate(walk_path.read_text()))
    with pytest.raises(DataError) as info:
        read_trc(path)
    assert info.value.file == str(path) and fragment in str(info.value)


def test_missing_markers_and_unknown_units(tmp_path, walk_path):
    text = replace_field(walk_path.read_text(), 9, 2, "")                   # line 9 = frame 3: R.ASIS X missing
    text = replace_field(text, 3, 4, "furlongs")
    path = tmp_path / "odd.trc"
    path.write_text(text)
    trial = read_trc(path)
    assert np.isnan(trial.markers.positions[2, 0]).all()                     # incomplete sample -> missing
    assert np.isfinite(trial.markers.positions[2, 1]).all()
    assert np.isfinite(np.delete(trial.markers.positions, 2, axis=0)).all()
    assert any("only some coordinates" in w for w in trial.warnings)
    assert any("'furlongs': positions taken as mm" in w for w in trial.warnings)
    np.testing.assert_array_equal(trial.markers.positions[0, 0], [0.61724762, 1.05527502, 0.17078198])
