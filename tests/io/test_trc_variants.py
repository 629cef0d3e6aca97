"""TRC files as labs and programs write them: each variant OpenSim's TRCFileAdapter or Mokka reads is read to the
same numbers as the plain file; what they refuse is refused with a DataError naming the line."""
from __future__ import annotations

from decimal import Decimal

import numpy as np
import pytest

from engine.errors import DataError
from engine.io.trc import read_trc, write_trc

NAMES = ("R.ASIS", "L Knee Lat", "Top.Head")
# positions (mm) of the three markers at three frames; NaN = missing
MM = np.array([[[617.2, 1055.3, 170.8], [590.1, 540.2, -80.5], [650.0, 1700.25, 10.0]],
               [[620.0, 1056.0, 171.0], [592.0, 541.0, -81.0], [651.0, 1701.0, 11.0]],
               [[623.5, 1057.5, 172.5], [np.nan, np.nan, np.nan], [652.0, 1702.0, 12.0]]])


def plain(units="mm", shift=0, header_gap="\t", end="\n"):
    """The variant-free file: tab separated, missing marker as empty fields, rate 100 Hz."""
    head = ["PathFileType\t4\t(X/Y/Z)\tlab.trc",
            header_gap.join(["DataRate", "CameraRate", "NumFrames", "NumMarkers", "Units", "OrigDataRate",
                             "OrigDataStartFrame", "OrigNumFrames"]),
            header_gap.join(["100.0", "100.0", "3", "3", units, "100.0", "1", "3"]),
            "Frame#\tTime\t" + "\t\t\t".join(NAMES), "\t\t" + "\t".join(f"{a}{k}" for k in (1, 2, 3) for a in "XYZ"),
            ""]
    rows = []
    for f in range(3):
        values = ["" if np.isnan(v) else str(Decimal(repr(float(v))).scaleb(shift)) for v in MM[f].ravel()]
        rows.append("\t".join([str(f + 1), f"{f / 100:.2f}"] + values))
    return end.join(head + rows) + end


def metres(mm):
    """The correctly rounded metres of the millimetre decimals (what a reader must give)."""
    return np.vectorize(lambda v: v if np.isnan(v) else float(Decimal(repr(float(v))).scaleb(-3)))(mm)


def check(path, expected_mm=MM):
    trial = read_trc(path)
    m = trial.markers
    assert m.names == NAMES and m.rate == 100.0
    np.testing.assert_array_equal(m.time, [0.0, 0.01, 0.02])
    np.testing.assert_array_equal(m.positions, metres(expected_mm))
    assert np.array_equal(np.isnan(m.positions), np.isnan(expected_mm))
    return trial


def write(tmp_path, text, name="lab.trc", encoding="utf-8"):
    path = tmp_path / name
    path.write_bytes(text.encode(encoding))
    return path


def test_plain_file(tmp_path):
    assert check(write(tmp_path, plain())).warnings == []


def test_runs_of_tabs_in_the_header_lines(tmp_path):
    # as a lab pipeline writes it: "100.0<TAB><TAB>100.0<TAB><TAB>3..." (the file refused by issue 15)
    check(write(tmp_path, plain(header_gap="\t\t")))
    check(write(tmp_path, plain(header_gap="  \t ")))


def test_crlf_bom_and_trailing_tabs(tmp_path):
    text = plain(end="\r\n")
    check(write(tmp_path, "\ufeff" + text))
    trailing = "\n".join(line + "\t\t" for line in plain().splitlines()) + "\n"
    check(write(tmp_path, trailing))


@pytest.mark.parametrize("units,shift", [("mm", 0), ("cm", -1), ("m", -3), ("millimeters", 0)])
def test_units(tmp_path, units, shift):
    check(write(tmp_path, plain(units, shift)))


def test_missing_frame_numbers(tmp_path):
    lines = plain().splitlines()
    for k in range(6, 9):
        lines[k] = "\t" + lines[k].split("\t", 1)[1]
    check(write(tmp_path, "\n".join(lines) + "\n"))


@pytest.mark.parametrize("gap", ["NaN", "nan", "-nan(ind)", "1.#QNAN", " "])
def test_nan_spellings_and_blanks_are_gaps(tmp_path, gap):
    text = plain().replace("\t\t\t\t652.0", f"\t{gap}\t{gap}\t{gap}\t652.0")
    assert f"{gap}\t652.0" in text
    check(write(tmp_path, text))


def test_rows_that_stop_before_their_last_markers(tmp_path):
    lines = plain().splitlines()
    lines[7] = "\t".join(lines[7].split("\t")[:2 + 6])          # frame 2 without Top.Head
    lines[6] = "\t".join(lines[6].split("\t")[:2 + 4])          # frame 1: L Knee Lat cut after X, Top.Head left out
    expected = MM.copy()
    expected[1, 2] = np.nan
    expected[0, 1:] = np.nan
    trial = check(write(tmp_path, "\n".join(lines) + "\n"), expected)
    assert any("2 rows stop before their last markers" in w for w in trial.warnings)


def test_space_separated_file(tmp_path):
    names = ("RASIS", "LKNE", "HEAD")
    text = plain().replace("R.ASIS", "RASIS").replace("L Knee Lat", "LKNE").replace("Top.Head", "HEAD")
    lines = text.splitlines()
    lines[8] = lines[8].replace("\t\t\t\t", "\tNaN\tNaN\tNaN\t")
    text = "\n".join(" ".join(line.split("\t")) for line in lines) + "\n"
    trial = read_trc(write(tmp_path, text))
    assert trial.markers.names == names
    np.testing.assert_array_equal(trial.markers.positions, metres(MM))


def test_opensim_written_trc_round_trips_with_our_writer(test_data, tmp_path):
    """coupled_knee.trc was written by OpenSim 4.6's TRCFileAdapter (OrigDataStartFrame 0, a tab after every
    label, 17 significant digits); our reading and writing of it gives back the same numbers."""
    source = test_data / "opensim" / "coupled_knee" / "coupled_knee.trc"
    trial = read_trc(source)
    row = source.read_text().splitlines()[6].split("\t")
    assert trial.markers.positions[0, 0, 0] == float(row[2]) / 1000.0 and trial.markers.n_frames == 41
    for units in ("mm", "m"):
        write_trc(tmp_path / "again.trc", trial, units=units)
        again = read_trc(tmp_path / "again.trc")
        np.testing.assert_array_equal(again.markers.positions, trial.markers.positions)
        np.testing.assert_array_equal(again.markers.time, trial.markers.time)


@pytest.mark.parametrize("mutate,fragment", [
    (lambda t: t.replace("\t652.0\t1702.0\t12.0", "\t652.0\t1702.0\t12.0\t5.0"), "line 9: 12 columns, more than"),
    (lambda t: t[:-6], "line 9: 10 columns of 11 on the last line, which has no line end"),
    (lambda t: t.replace("Frame#\tTime", "Time\tFrame#"), "line 4: the column labels must start with Frame#"),
    (lambda t: t.replace("100.0\t100.0\t3\t3\tmm\t100.0\t1\t3", "100.0\t100.0\t3"), "line 3: 8 header fields"),
    (lambda t: t.replace("\t0.01\t", "\t\t"), "line 8: the time is ''"),
    (lambda t: t.replace("\t0.01\t", "\t0.02\t"), "line 9: the time 0.02 does not increase"),
])
def test_refused_variants_name_the_line(tmp_path, mutate, fragment):
    path = write(tmp_path, mutate(plain()))
    with pytest.raises(DataError) as info:
        read_trc(path)
    assert info.value.file == str(path) and fragment in str(info.value)
