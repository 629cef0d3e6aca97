""".mot/.sto files: every shared file reads and round-trips exactly; malformed files are rejected."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import DataError, SettingsError
from engine.io.storage import Table, read_storage, write_storage


def storage_files(test_data):
    root = test_data / "opensim"
    return sorted(p for p in root.rglob("*") if p.suffix in (".mot", ".sto"))


def same(a: Table, b: Table):
    np.testing.assert_array_equal(a.time, b.time)
    np.testing.assert_array_equal(a.data, b.data)
    numbers = ~np.isnan(a.data)
    assert np.array_equal(np.signbit(a.data[numbers]), np.signbit(b.data[numbers]))   # -0.0 stays -0.0
    assert (a.name, a.labels, a.in_degrees, a.header, a.comments, a.time_label) == \
           (b.name, b.labels, b.in_degrees, b.header, b.comments, b.time_label)


def test_grf_file(test_data):
    table = read_storage(test_data / "opensim" / "gait2354" / "subject01_walk1_grf.mot")
    assert table.name == "subject01_walk1_grf.mot" and table.in_degrees is True
    assert table.data.shape == (1501, 18) and table.labels[:2] == ("ground_force_vx", "ground_force_vy")
    assert table.labels[-1] == "1_ground_torque_z"
    # first row of the file: "0  101.5119767  745.4661142  -47.44870554 ..."
    np.testing.assert_array_equal(table.data[0, :3], [101.5119767, 745.4661142, -47.44870554])
    np.testing.assert_array_equal(table.time[:4], [0.0, 0.0017, 0.0033, 0.005])


def test_ik_file_with_comment_lines(test_data):
    table = read_storage(test_data / "opensim" / "gait2354" / "subject01_walk1_ik.mot")
    assert table.name == "Coordinates" and table.in_degrees is True and table.data.shape == (73, 23)
    assert "Angles are in degrees." in table.comments
    np.testing.assert_array_equal(table.column("pelvis_tilt")[0], 5.18629404)


def test_every_shared_storage_file_round_trips_exactly(test_data, tmp_path):
    files = storage_files(test_data)
    assert len(files) >= 14
    for path in files:
        table = read_storage(path)
        out = tmp_path / path.name
        write_storage(out, table)
        same(read_storage(out), table)


values = st.floats(allow_nan=True, allow_infinity=True, width=64)


@settings(max_examples=60, deadline=None, database=None)
@given(rows=st.integers(0, 5), cols=st.integers(1, 4), data=st.data(), degrees=st.sampled_from([True, False, None]))
def test_round_trip_is_exact_for_any_number(tmp_path_factory, rows, cols, data, degrees):
    time = np.cumsum(data.draw(st.lists(st.floats(0, 1e3), min_size=rows, max_size=rows)))
    body = np.array(data.draw(st.lists(values, min_size=rows * cols, max_size=rows * cols))).reshape(rows, cols)
    table = Table(name="results", labels=[f"c{k}" for k in range(cols)], time=time, data=body, in_degrees=degrees,
                  header={"version": "1", "DataType": "double"}, comments=("free text",))
    path = tmp_path_factory.mktemp("sto") / "t.sto"
    write_storage(path, table)
    same(read_storage(path), table)


def test_write_rejects_labels_that_cannot_be_read_back(tmp_path):
    table = Table(name="", labels=["a\tb"], time=[0.0], data=[[1.0]])
    with pytest.raises(SettingsError):
        write_storage(tmp_path / "x.sto", table)


def lines_of(text):
    return text.splitlines()


@pytest.mark.parametrize("mutate,fragment", [
    (lambda t: t.replace("endheader", "endhead"), "endheader"),
    (lambda t: "\n".join(lines_of(t)[:200]), "nRows is 1501 but the file holds 193 rows"),
    (lambda t: t.replace("nColumns=19", "nColumns=18"), "nColumns is 18"),
    (lambda t: t.replace("inDegrees=yes", "inDegrees=maybe"), "inDegrees"),
    (lambda t: t.replace("nRows=1501", "nRows=many"), "nRows"),
    (lambda t: t.replace("\ntime\t", "\nframe\t"), "first column must be time"),
    (lambda t: "\n".join(lines_of(t)[:10] + [lines_of(t)[10] + "\t3.0"] + lines_of(t)[11:]), "line 11"),
    (lambda t: "\n".join(lines_of(t)[:10] + ["\t".join(lines_of(t)[10].split("\t")[:-1])] + lines_of(t)[11:]),
     "line 11"),
    (lambda t: "\n".join(lines_of(t)[:12] + ["NaN" + lines_of(t)[12][lines_of(t)[12].index("\t"):]]
                         + lines_of(t)[13:]), "line 13"),
    (lambda t: "\n".join(lines_of(t)[:12] + [lines_of(t)[12].replace("\t", "\tabc", 1)] + lines_of(t)[13:]),
     "line 13, column 'ground_force_vx'"),
    (lambda t: "\n".join(lines_of(t)[:12] + ["0.5" + lines_of(t)[12][lines_of(t)[12].index("\t"):]]
                         + lines_of(t)[13:]), "goes backwards"),
    (lambda t: t[:t.index("endheader") + 10], "no column labels"),
])
def test_malformed_storage_raises_data_error(tmp_path, test_data, mutate, fragment):
    text = (test_data / "opensim" / "gait2354" / "subject01_walk1_grf.mot").read_text()
    path = tmp_path / "bad.mot"
    path.write_text(mutate(text))
    with pytest.raises(DataError) as info:
        read_storage(path)
    assert info.value.file == str(path) and fragment in str(info.value)
