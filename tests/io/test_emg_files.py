"""EMG from a file beside the trial (.anc, .c3d analog channels, .mot, .csv) reaches the muscle step: read in volts,
added to the trial as its EMG channels, and selected and mapped to muscles from the command line."""
from __future__ import annotations

import numpy as np
import pytest

from engine.cli.analyze import _inputs, analysis_inputs
from engine.cli.main import build_parser
from engine.errors import DataError, SettingsError
from engine.io.c3d import read_c3d
from engine.io.trc import read_trc
from engine.muscles.emg.processing import process_emg
from engine.io.emg_files import read_emg_file, trial_with_emg

RATE = 1000.0


def write_anc(path, t0=0.0, n=2000):
    """Two EMG channels (a 80 Hz burst train, counts of a 16-bit +-5000 mV board) and a plate channel."""
    t = t0 + np.arange(n) / RATE
    burst = (np.sin(2 * np.pi * t) > 0) * np.sin(2 * np.pi * 80 * t)
    counts = np.column_stack([np.round(20000 * burst), np.round(-9000 * burst), np.full(n, 123)]).astype(int)
    head = ["File_Type:\tAnalog R/C ASCII\tGeneration#:\t1", "Board_Type:\tNI\tPolarity:\tBipolar",
            f"Trial_Name:\twalk\tTrial#:\t1\tDuration(Sec.):\t{n / RATE}\t#Channels:\t3",
            "BitsPerChannel:\t16\tPreciseRate:\t1000.000", "", "Name\tEMG1\tEMG2\tF1Z", "Rate\t1000\t1000\t1000",
            "Range\t5000\t5000\t10000"]
    rows = [f"{ti:.5f}\t" + "\t".join(map(str, row)) for ti, row in zip(t, counts)]
    path.write_text("\n".join(head + rows) + "\n")
    return counts * np.array([5.0, 5.0, 10.0]) / 32768


def test_anc_emg_channels_in_volts(tmp_path):
    volts = write_anc(tmp_path / "emg.anc", t0=0.5)
    emg = read_emg_file(tmp_path / "emg.anc")
    assert emg.names == ("EMG1", "EMG2") and emg.rate == RATE and emg.t0 == 0.5 and emg.units == "V"
    np.testing.assert_allclose(emg.data, volts[:, :2], rtol=1e-15)
    processed = process_emg(emg)
    assert processed.excitation.max() == pytest.approx(1.0) and processed.excitation.min() >= 0.0
    assert read_emg_file(tmp_path / "emg.anc", ["F1Z", "EMG2"]).names == ("F1Z", "EMG2")


def test_c3d_analog_channels_named_as_emg(test_data):
    path = test_data / "c3d" / "Sample01" / "Eb015pi.c3d"
    emg = read_emg_file(path, ["CH7", "CH8"])
    trial = read_c3d(path)
    by_name = {c.name: c for c in trial.analogs}
    assert emg.names == ("CH7", "CH8") and emg.rate == by_name["CH7"].rate
    np.testing.assert_array_equal(emg.data[:, 0], by_name["CH7"].data)
    coda = read_emg_file(test_data / "c3d" / "Codamotion" / "codamotion_gaitwands_19970212.c3d")
    assert coda.names[:2] == ("R.Quads", "R.Med.Hams") and len(coda.names) == 8


def test_mot_and_csv_sources(tmp_path):
    t = np.arange(5) / RATE
    (tmp_path / "emg.csv").write_text("time,soleus_r\n" + "".join(f"{a},{b}\n" for a, b in zip(t, t * 2)))
    (tmp_path / "emg.mot").write_text("emg\nendheader\ntime\tsoleus_r\n" + "".join(f"{a}\t{b}\n" for a, b in
                                                                                 zip(t, t * 2)))
    for name in ("emg.csv", "emg.mot"):
        emg = read_emg_file(tmp_path / name)
        assert emg.names == ("soleus_r",) and emg.rate == pytest.approx(RATE)
        np.testing.assert_array_equal(emg.data[:, 0], t * 2)
    with pytest.raises(DataError, match="unknown EMG file type '.txt'"):
        (tmp_path / "emg.txt").write_text("x")
        read_emg_file(tmp_path / "emg.txt")


def test_trial_with_emg_sets_the_trials_own_emg_aside(test_data, tmp_path):
    write_anc(tmp_path / "emg.anc")
    coda = read_c3d(test_data / "c3d" / "Codamotion" / "codamotion_gaitwands_19970212.c3d")
    trial = trial_with_emg(coda, read_emg_file(tmp_path / "emg.anc"))
    assert [c.name for c in trial.emg] == ["EMG1", "EMG2"] and len(trial.analogs) == len(coda.analogs) + 2
    assert "the trial's own EMG channels set aside" in trial.conversions[-1]
    with pytest.raises(DataError, match="already has analog channels named 'EMG1'"):
        trial_with_emg(trial, read_emg_file(tmp_path / "emg.anc"))


def test_command_line_takes_an_anc_emg_and_its_muscles(test_data, tmp_path):
    d = test_data / "opensim" / "gait2354"
    write_anc(tmp_path / "emg.anc")
    args = build_parser().parse_args(["analyze", str(d / "subject01_simbody.osim"), str(d / "subject01_walk1.trc"),
                                      "--emg", str(tmp_path / "emg.anc"), "--emg-channels", "EMG1",
                                      "--emg-muscles", "EMG1=soleus_r", "--muscles"])
    model, trial, settings = analysis_inputs(args)
    assert [c.name for c in trial.emg] == ["EMG1"] and trial.emg[0].units == "V"
    assert trial.markers.n_frames == read_trc(d / "subject01_walk1.trc").markers.n_frames
    assert settings.muscle_settings.emg_muscles == {"EMG1": "soleus_r"}
    bad = build_parser().parse_args(["analyze", str(d / "subject01_simbody.osim"), str(d / "subject01_walk1.trc"),
                                     "--emg-muscles", "EMG1"])
    with pytest.raises(SettingsError, match="CHANNEL=MUSCLE"):
        analysis_inputs(bad)
    trc_only = build_parser().parse_args(["analyze", str(d / "subject01_simbody.osim"),
                                          str(d / "subject01_walk1.trc"), "--emg-channels", "EMG1"])
    with pytest.raises(DataError, match="a TRC file holds no analog channels"):
        _inputs(trc_only)


def test_a_c3d_trials_channels_named_as_emg_on_the_command_line(test_data):
    path = test_data / "c3d" / "Sample01" / "Eb015pi.c3d"
    args = build_parser().parse_args(["analyze", str(test_data / "opensim" / "arm26" / "arm26.osim"), str(path),
                                      "--emg-channels", "CH7,CH8"])
    _, trial, _ = _inputs(args)
    assert [c.name for c in trial.emg] == ["CH7", "CH8"]
    assert read_c3d(path).emg == ()                    # not recognised by name without being named
