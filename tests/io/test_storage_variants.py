""".mot/.sto headers as OpenSim 3, OpenSim 4 and SIMM write them, CRLF, a byte-order mark, tab or space separated
labels: read to the same table, and written back by our writer to a file that reads the same again."""
from __future__ import annotations

import numpy as np
import pytest

from engine.errors import DataError
from engine.io.storage import read_storage, write_storage

# Written by OpenSim 4.6 (opensim PyPI package): STOFileAdapter.write of a TimeSeriesTable with a label holding a
# space, and Storage.printResult (OpenSim 3's layout, which OpenSim 4 still writes for its tools' results).
OPENSIM4_STO = ("inDegrees=no\nDataType=double\nversion=3\nOpenSimVersion=4.6-2026-06-22-85aaf64\nendheader\n"
                "time\tknee_angle\tknee_beta\tpelvis tx\n0\t0\t-0\t0.3333333333333333\n"
                "0.01\t0.1\t-0.05\t1.333333333333333\n0.02\t0.2\t-0.1\t2.333333333333333\n")
OPENSIM3_MOT = ("Coordinates\nversion=1\nnRows=3\nnColumns=3\ninDegrees=yes\nendheader\n"
                "time\tknee_angle\tknee_beta\n      0.00000000\t      0.00000000\t     -0.00000000\n"
                "      0.01000000\t      0.10000000\t     -0.05000000\n"
                "      0.02000000\t      0.20000000\t     -0.10000000\n")
SIMM_MOT = ("name walk\ndatacolumns 3\ndatarows 3\notherdata 1\nrange 0 0.02\nendheader\n"
            "time knee_angle knee_beta\n0 0 -0\n0.01 0.1 -0.05\n0.02 0.2 -0.1\n")
TIME = [0.0, 0.01, 0.02]
COLUMNS = {"knee_angle": [0.0, 0.1, 0.2], "knee_beta": [-0.0, -0.05, -0.1]}


def write(tmp_path, text, name="x.mot", newline="\n", bom=False):
    path = tmp_path / name
    path.write_bytes(("\ufeff" if bom else "").encode() + text.replace("\n", newline).encode())
    return path


def check(table):
    np.testing.assert_array_equal(table.time, TIME)
    for label, values in COLUMNS.items():
        np.testing.assert_array_equal(table.column(label), values)
    return table


def round_trip(table, tmp_path):
    write_storage(tmp_path / "ours.sto", table)
    again = read_storage(tmp_path / "ours.sto")
    assert again.labels == table.labels and again.in_degrees == table.in_degrees and again.name == table.name
    assert again.header == {"version": "1", **table.header}      # our writer states a version when none was read
    np.testing.assert_array_equal(again.data, table.data)
    np.testing.assert_array_equal(again.time, table.time)


@pytest.mark.parametrize("newline,bom", [("\n", False), ("\r\n", False), ("\r\n", True), ("\n", True)])
def test_opensim4_sto(tmp_path, newline, bom):
    table = check(read_storage(write(tmp_path, OPENSIM4_STO, "t.sto", newline, bom)))
    assert table.labels[-1] == "pelvis tx" and table.in_degrees is False
    assert table.header == {"DataType": "double", "version": "3", "OpenSimVersion": "4.6-2026-06-22-85aaf64"}
    np.testing.assert_array_equal(table.column("pelvis tx"), [1 / 3, 1.333333333333333, 2.333333333333333])
    round_trip(table, tmp_path)


@pytest.mark.parametrize("newline,bom", [("\n", False), ("\r\n", True)])
def test_opensim3_mot(tmp_path, newline, bom):
    table = check(read_storage(write(tmp_path, OPENSIM3_MOT, "ik.mot", newline, bom)))
    assert table.name == "Coordinates" and table.in_degrees is True and table.header == {"version": "1"}
    round_trip(table, tmp_path)


def test_simm_motion_header(tmp_path):
    table = check(read_storage(write(tmp_path, SIMM_MOT)))
    assert table.name == "name walk" and table.in_degrees is None
    assert table.comments == ("otherdata 1", "range 0 0.02")
    round_trip(table, tmp_path)


def test_counts_missing_and_labels_space_separated(tmp_path):
    text = OPENSIM3_MOT.replace("nRows=3\nnColumns=3\ninDegrees=yes\n", "").replace("time\tknee_angle\tknee_beta",
                                                                                    "time  knee_angle   knee_beta")
    table = check(read_storage(write(tmp_path, text)))
    assert table.in_degrees is None
    round_trip(table, tmp_path)


@pytest.mark.parametrize("mutate,fragment", [
    (lambda t: t.replace("datarows 3", "datarows 4"), "nRows is 4 but the file holds 3 rows"),
    (lambda t: t.replace("datacolumns 3", "datacolumns x"), "nColumns is 'x', not a whole number"),
    (lambda t: t.replace("endheader\n", ""), "no 'endheader' line"),
])
def test_refused_simm_headers(tmp_path, mutate, fragment):
    path = write(tmp_path, mutate(SIMM_MOT))
    with pytest.raises(DataError) as info:
        read_storage(path)
    assert info.value.file == str(path) and fragment in str(info.value)
