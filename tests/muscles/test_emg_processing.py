"""EMG sources and the processing chain.

Envelope recovery: a known envelope e(t) (0.1 to 0.9, 0.5 Hz bursts) modulating band-limited Gaussian
noise (20-450 Hz, 2 kHz, 20 s), normalised by the MVC value of that noise at envelope 1 (sigma sqrt(2/pi)).
Measured when written: RMS error 0.053 (6 % of the envelope's peak), largest error 0.20, correlation
0.985, mean error -0.020, over the record less its first and last second.
"""
from __future__ import annotations

import numpy as np
import pytest
from scipy.signal import butter, sosfiltfilt

from engine.errors import DataError, SettingsError
from engine.io.c3d import read_c3d
from engine.io.storage import Table, write_storage
from engine.io.emg_files import read_emg_csv, read_emg_storage
from engine.muscles.emg.processing import EMGProcessing, emg_from_arrays, emg_from_trial, process_emg
from engine.trial.trial import AnalogChannel, Markers, Trial

RATE = 2000.0


def synthetic(rng, seconds=20.0):
    t = np.arange(int(seconds * RATE)) / RATE
    envelope = 0.1 + 0.8 * np.sin(np.pi * t / 2) ** 2
    sos = butter(4, (20, 450), "bandpass", fs=RATE, output="sos")
    noise = sosfiltfilt(sos, rng.normal(size=t.size))
    noise /= noise.std()
    return t, envelope, 1e-3 * envelope * noise, 1e-3 * np.sqrt(2 / np.pi)


def test_chain_recovers_a_known_envelope(rng):
    t, envelope, signal, mvc = synthetic(rng)
    out = process_emg(emg_from_arrays(["semiten"], signal, RATE), EMGProcessing(mvc={"semiten": mvc}))
    core = slice(int(RATE), -int(RATE))
    u = out.excitation[core, 0]
    error = u - envelope[core]
    assert np.sqrt(np.mean(error ** 2)) < 0.08
    assert abs(error.mean()) < 0.04
    assert np.corrcoef(u, envelope[core])[0, 1] > 0.97
    assert out.normalisers == {"semiten": ("MVC", mvc)}
    assert out.steps[:3] == ("band-pass 20-450 Hz, Butterworth order 4, zero lag", "full-wave rectification",
                             "low-pass envelope 6 Hz, Butterworth order 4, zero lag")


def test_trial_maximum_normalisation_is_recorded(rng):
    _, _, signal, _ = synthetic(rng, 5.0)
    out = process_emg(emg_from_arrays(["a", "b"], np.column_stack([signal, 3 * signal]), RATE))
    assert np.allclose(out.excitation.max(axis=0), 1.0)
    kind, value = out.normalisers["b"]
    assert kind == "trial maximum" and value == pytest.approx(3 * out.normalisers["a"][1])
    assert any(s.startswith("b: normalised by its trial maximum") for s in out.steps)


def test_low_rates_lower_the_band_pass_and_say_so(test_data):
    """A real C3D file (c3d.org Sample01, analog channels at 200 Hz): the 450 Hz edge is not possible."""
    trial = read_c3d(test_data / "c3d" / "Sample01" / "Eb015pi.c3d")
    emg = emg_from_trial(trial, ["CH7", "CH8"])
    assert emg.rate == 200.0 and emg.names == ("CH7", "CH8") and emg.data.shape == (1800, 2)
    out = process_emg(emg)
    assert out.steps[0] == ("band-pass 20-95 Hz, Butterworth order 4, zero lag (upper edge lowered from 450 Hz: "
                            "the 200 Hz rate allows at most 95)")
    with pytest.raises(SettingsError, match="too low for a 20 Hz high-pass"):
        process_emg(emg_from_arrays(["x"], np.ones(100), 40.0))


def test_trial_emg_channels_are_found_by_kind():
    markers = Markers((), np.arange(10) / 100.0, np.zeros((10, 0, 3)), 100.0)
    channels = (AnalogChannel("GMAX", 1000.0, "V", np.arange(100.0), kind="emg"),
                AnalogChannel("FZ1", 1000.0, "N", np.zeros(100), kind="force plate"),
                AnalogChannel("TA", 1000.0, "V", np.ones(100), kind="emg"))
    emg = emg_from_trial(Trial(markers, analogs=channels))
    assert emg.names == ("GMAX", "TA") and emg.data[:, 0].tolist() == list(range(100))
    with pytest.raises(DataError, match="no EMG channels"):
        emg_from_trial(Trial(markers, analogs=channels[1:2]))
    with pytest.raises(DataError, match="no analog channel named 'XX'"):
        emg_from_trial(Trial(markers, analogs=channels), ["XX"])


def test_storage_and_csv_files(tmp_path):
    t = np.arange(50) / 1000.0
    data = np.column_stack([np.sin(t), np.cos(t)])
    write_storage(tmp_path / "emg.sto", Table("emg", ("semiten", "bflh"), t + 0.5, data))
    emg = read_emg_storage(tmp_path / "emg.sto", ["bflh"])
    assert emg.rate == pytest.approx(1000.0) and emg.t0 == 0.5 and np.array_equal(emg.data[:, 0], data[:, 1])
    lines = ["time,semiten,bflh"] + [f"{float(a)!r},{float(b)!r},{float(c)!r}" for a, b, c in zip(t, data[:, 0], data[:, 1])]
    (tmp_path / "emg.csv").write_text("\n".join(lines) + "\n")
    emg = read_emg_csv(tmp_path / "emg.csv")
    assert emg.names == ("semiten", "bflh") and np.array_equal(emg.data, data)
    (tmp_path / "bad.csv").write_text("time,a\n0,1\n0.001,x\n0.002,3\n")
    with pytest.raises(DataError, match="line 3"):
        read_emg_csv(tmp_path / "bad.csv")
    (tmp_path / "uneven.csv").write_text("time,a\n0,1\n0.001,2\n0.003,3\n")
    with pytest.raises(DataError, match="evenly spaced"):
        read_emg_csv(tmp_path / "uneven.csv")


def test_invalid_settings_are_named():
    with pytest.raises(SettingsError, match="band_pass"):
        EMGProcessing(band_pass=(450, 20))
    with pytest.raises(SettingsError, match="MVC value of 'a'"):
        EMGProcessing(mvc={"a": 0.0})
    with pytest.raises(SettingsError, match="MVC values given for channels that are not in the EMG: 'b'"):
        process_emg(emg_from_arrays(["a"], np.ones(2000), RATE), EMGProcessing(mvc={"b": 1.0}))
