"""Motion Analysis .anc files: counts to volts (count * Range / 1000 / 2**(bits - 1)), the header variants of
generation 1 and 2 files, and the files refused, each with a DataError naming the line."""
from __future__ import annotations

import numpy as np
import pytest

from engine.errors import DataError
from engine.io.anc import read_anc

COUNTS = np.array([[16384, -3, -32768], [-16384, 0, 32767], [8192, 1, 2], [0, -1, -2]])


def anc_text(bits_key="BitsPerChannel", rate_line="Rate\t1200\t1200\t1200", polarity="Bipolar", counts=COUNTS,
             times=("0.00000", "0.00083", "0.00167", "0.00250"), channels=3):
    head = ["File_Type:\tAnalog R/C ASCII\tGeneration#:\t1",
            f"Board_Type:\tNational Instruments PCI-6071E\tPolarity:\t{polarity}",
            f"Trial_Name:\twalk 1\tTrial#:\t1\tDuration(Sec.):\t0.00333\t#Channels:\t{channels}",
            f"{bits_key}:\t16\tPreciseRate:\t1200.000", "", "", "",
            "Name\tF1Z\tR Soleus\tEMG2", rate_line, "Range\t10000\t5000\t2500"]
    rows = ["\t".join([t] + [str(int(c)) for c in row]) for t, row in zip(times, counts)]
    return "\n".join(head + rows) + "\n"


def write(tmp_path, text, newline="\n", bom=False):
    path = tmp_path / "trial.anc"
    path.write_bytes(("\ufeff" if bom else "").encode() + text.replace("\n", newline).encode())
    return path


def test_counts_become_volts(tmp_path):
    anc = read_anc(write(tmp_path, anc_text()))
    assert [c.name for c in anc.channels] == ["F1Z", "R Soleus", "EMG2"] and anc.rate == 1200.0
    f1z, soleus, emg2 = (c.data for c in anc.channels)
    # 16384 counts of a +-10000 mV, 16-bit channel: half of full scale, 5 V; -32768 of +-2500 mV: -2.5 V
    np.testing.assert_array_equal(f1z, [5.0, -5.0, 2.5, 0.0])
    np.testing.assert_array_equal(emg2, [-2.5, 2500e-3 * 32767 / 32768, 2 * 2.5 / 32768, -2 * 2.5 / 32768])
    np.testing.assert_allclose(soleus, np.array([-3, 0, 1, -1]) * 5.0 / 32768, rtol=1e-15)
    assert all(c.units == "V" and c.t0 == 0.0 for c in anc.channels)
    assert [c.name for c in anc.emg] == ["R Soleus", "EMG2"]           # recognised by name, as in C3D files
    assert anc.header["Trial_Name"] == "walk 1" and anc.header["Board_Type"] == "National Instruments PCI-6071E"
    assert anc.warnings == []


@pytest.mark.parametrize("newline,bom", [("\r\n", False), ("\n", True)])
def test_crlf_and_bom(tmp_path, newline, bom):
    anc = read_anc(write(tmp_path, anc_text(), newline, bom))
    np.testing.assert_array_equal(anc.channels[0].data, [5.0, -5.0, 2.5, 0.0])


def test_generation_2_bit_depth_key_and_space_separated_header(tmp_path):
    text = anc_text(bits_key="BitDepth").replace("\t", "  ").replace("R Soleus", "RSoleus")
    anc = read_anc(write(tmp_path, text))
    assert [c.name for c in anc.channels] == ["F1Z", "RSoleus", "EMG2"]
    np.testing.assert_array_equal(anc.channels[0].data, [5.0, -5.0, 2.5, 0.0])


def test_precise_rate_is_the_rate_and_duration_is_checked(tmp_path):
    text = anc_text().replace("PreciseRate:\t1200.000", "PreciseRate:\t1199.88")
    text = text.replace("Rate\t1200\t1200\t1200", "Rate\t1200\t1200\t1200").replace("0.00333", "2.0")
    anc = read_anc(write(tmp_path, text))
    assert anc.rate == 1199.88 and anc.channels[0].rate == 1199.88
    assert any("Duration(Sec.) is 2.0 s but the file holds 4 samples" in w for w in anc.warnings)


@pytest.mark.parametrize("text,fragment", [
    (anc_text(polarity="Unipolar"), "header: Polarity is 'Unipolar'"),
    (anc_text(channels=4), "line 8: 3 entries on the Name line, expected 4"),
    (anc_text(rate_line="Rate\t1200\t600\t1200"), "line 9: the channels are sampled at different rates"),
    (anc_text().replace("\t8192\t", "\t8192.5\t"), "line 13, channel F1Z: '8192.5' is not a whole A/D count"),
    (anc_text().replace("\t8192\t", "\t40000\t"), "line 13, channel F1Z: '40000' is not a whole A/D count"),
    (anc_text().replace("0.00167", "0.01"), "line 13: the time 0.01 s does not follow the 1200 Hz rate"),
    (anc_text().replace("\t0\t-1\t-2", "\t0\t-1"), "line 14: 3 values, expected 4"),
    (anc_text().replace("BitsPerChannel:", "Bits:"), "the header has no BitsPerChannel (or BitDepth) field"),
    (anc_text().replace("Name\t", "Names\t"), "not an ANC file"),
    (anc_text().replace("Range\t10000", "Range\t-10000"), "line 10: every Range must be a positive number"),
    ("", "not an ANC file"),
])
def test_refused_files_name_the_line(tmp_path, text, fragment):
    path = write(tmp_path, text)
    with pytest.raises(DataError) as info:
        read_anc(path)
    assert info.value.file == str(path) and fragment in str(info.value)
