"""Without a ground-reaction estimate the clinical summary takes the force plates' loads, per side as the inverse
dynamics applied them: peaks per stance against the GRF file read by hand (gait2354 walk1, plates applied
to the calcanei by the ExternalLoads file), and on the demo (plates assigned by centre of pressure, one under the
blade) the blade's stiffness from the plates against the simulation's truth, and the plates' peaks beside the
estimate's."""
from dataclasses import replace

import numpy as np
import pytest

from engine.analysis.gait_phases import named_side, side_of
from engine.clinical.parameters import stances_of
from engine.clinical.plate_loads import plate_loads
from engine.clinical.prosthesis import compression, rod_power, stance_metrics
from engine.clinical.summary import clinical_summary
from engine.demo import demo_results, demo_truth
from engine.trial.intervals import intervals_where
from tests.clinical.lab_case import folder, lab_case

G = 9.80665
THRESHOLD = 20.0


def _mot(path):
    with open(path) as f:
        lines = f.read().split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("endheader")) + 1
    return lines[start].split("\t"), np.loadtxt(lines[start + 1:])


def test_peak_vertical_grf_per_stance_from_the_plates_applied_to_each_foot(test_data):
    result, settings = lab_case(str(test_data))
    summary = clinical_summary(result, settings.forward)
    assert summary.grf_source == "measured" and summary.loads.keys() == summary.measured_loads.keys()
    for side, loads in summary.loads.items():
        assert loads.keys() == summary.measured_loads[side].keys()
        for name, values in loads.items():
            assert np.array_equal(values, summary.measured_loads[side][name], equal_nan=True), (side, name)
    assert any("force plates' measured loads" in n for n in summary.notes)
    names, mot = _mot(folder(test_data) / "subject01_walk1_grf.mot")
    weight = result.model.total_mass * G
    frame = float(np.median(np.diff(result.motion.time)))
    for side, column in (("Right", "ground_force_vy"), ("Left", "1_ground_force_vy")):
        vertical = mot[:, names.index(column)]          # the ExternalLoads file applies 'right' to calcn_r
        stances = [(a, b) for a, b in stances_of(summary.events, side) if b is not None]
        peaks = summary.loads[side]["peak vertical GRF"]
        assert len(peaks) == len(stances) >= 1
        for (a, b), peak in zip(stances, peaks):
            k = (mot[:, 0] >= a - frame) & (mot[:, 0] <= b + frame)
            true = 100 * vertical[k].max() / weight
            # the summary samples the plate at the analysed frames (60 Hz of a 600 Hz plate): at most the true
            # peak, and within 1 % of it
            assert true * 0.99 <= peak <= true + 1e-9, (side, a, peak, true)
    si = next(row for row in summary.symmetry if row[0] == "peak vertical GRF")
    assert np.isfinite(si[4])


def test_plates_applied_to_bodies_with_a_side_before_their_name(test_data):
    """Bodies named 'RFT' (Visual3D) and 'l_foot' side the plates' loads as 'calcn_r' and 'calcn_l' do (one rule for
    the foot points' names and the plates' targets); a target whose name gives no side is named in the notes."""
    assert [side_of(n) for n in ("RFT", "r_foot", "L.Foot", "calcn_l", "FP1", "lumbar", "rect_fem")] == \
        ["Right", "Right", "Left", "Left", "FP1", "lumbar", "rect_fem"]
    assert named_side("RFT", ("ft",)) == side_of("RFT") and named_side("r", ()) is None
    result, settings = lab_case(str(test_data))
    calcn = clinical_summary(result, settings.forward)
    renamed = replace(result, classic=replace(result.classic, bodies={"right": "RFT", "left": "l_foot"}))
    summary = clinical_summary(renamed, settings.forward)
    assert summary.grf_source == "measured" and summary.events == calcn.events
    for side in ("Left", "Right"):
        assert np.isfinite(summary.loads[side]["peak vertical GRF"]).any()
        for name, values in calcn.loads[side].items():
            assert np.array_equal(summary.loads[side][name], values, equal_nan=True), (side, name)
    pelvis = replace(result, classic=replace(result.classic, bodies={"right": "pelvis", "left": "calcn_l"}))
    _, _, notes = plate_loads(pelvis)
    assert [n for n in notes if "pelvis" in n and "no side" in n and n.startswith("plate right")]
    nowhere = replace(result, classic=replace(result.classic, bodies={"right": "pelvis", "left": "torso"}))
    assert clinical_summary(nowhere, settings.forward).grf_source == "none"


def test_a_stance_only_partly_on_a_plate_has_no_measured_peak(test_data):
    """A stance whose plate is unloaded (past that plate's own threshold) at its strike or its off is not measured:
    NaN peak and impulse and a note naming it; the other stances keep their peaks."""
    result, settings = lab_case(str(test_data))
    whole = clinical_summary(result, settings.forward)
    stances = [(a, b) for a, b in stances_of(whole.events, "Right") if b is not None]
    (a, b), frame = stances[0], float(np.median(np.diff(result.motion.time)))

    def with_right(changes):
        plates = tuple(replace(p, **changes(p)) if p.name == "right" else p for p in result.trial.plates)
        return clinical_summary(replace(result, trial=result.trial.derived(plates=plates)), settings.forward,
                                events=whole.events)

    def cut(p):      # the plate unloaded from the middle of the first right stance to past its off
        k = ((p.time > (a + b) / 2) & (p.time < b + 3 * frame))[:, None]
        return {"force": np.where(k, 0.0, p.force), "moment": np.where(k, 0.0, p.moment)}

    partly = with_right(cut)
    peaks, whole_peaks = (s.loads["Right"]["peak vertical GRF"] for s in (partly, whole))
    assert np.isnan(peaks[0]) and np.array_equal(peaks[1:], whole_peaks[1:]) and np.isfinite(whole_peaks).all()
    assert [n for n in partly.notes if n.startswith("right stances only partly") and f"{a:.3f}-{b:.3f} s" in n]
    # the right plate's threshold at 90 % of its smallest stance peak: loaded about the peaks, not at a strike or off
    threshold = 0.9 * np.min(whole_peaks) / 100 * result.model.total_mass * G
    high = with_right(lambda p: {"threshold": threshold})
    assert np.isnan(high.loads["Right"]["peak vertical GRF"]).all()
    assert np.array_equal(high.loads["Left"]["peak vertical GRF"], whole.loads["Left"]["peak vertical GRF"])


@pytest.fixture(scope="module")
def demo():
    return demo_results()


def test_blade_stiffness_from_the_plates_within_5_percent_of_the_truth(demo):
    result, settings = demo
    truth = demo_truth()
    model = result.model
    measured = clinical_summary(replace(result, qp=None, metrics=[]), settings.forward)
    assert measured.grf_source == measured.blade_force_source == "measured"
    true_stances = intervals_where(truth.time, truth.group_force("blade") @ model.up >= THRESHOLD)
    true = stance_metrics(truth.time, compression(model, "blade", truth.q),
                          np.linalg.norm(truth.group_force("blade"), axis=1),
                          rod_power(model, "blade", truth.tau_rod, truth.v), true_stances)
    assert len(measured.prosthesis) == len(true) == 2
    for m, t in zip(measured.prosthesis, true):
        assert abs(m.stiffness / t.stiffness - 1) < 0.05, (m.stiffness, t.stiffness)
        assert abs(m.peak_force / t.peak_force - 1) < 0.05, (m.peak_force, t.peak_force)


def test_with_an_estimate_the_plates_peaks_stand_beside_it(demo):
    result, settings = demo
    summary = clinical_summary(result, settings.forward)
    assert summary.grf_source == "estimated"
    weight = result.model.total_mass * G
    for plate in result.trial.plates:
        vertical = plate.force @ result.model.up
        for a, b in intervals_where(plate.time, vertical >= plate.threshold):
            side = next(s for s in ("Left", "Right") for x, y in stances_of(summary.events, s)
                        if y is not None and x - 0.01 <= a <= x + 0.01)
            stances = [x for x, y in stances_of(summary.events, side) if y is not None]
            i = min(range(len(stances)), key=lambda j: abs(stances[j] - a))
            true = 100 * vertical[(plate.time >= a) & (plate.time <= b)].max() / weight
            assert summary.measured_loads[side]["peak vertical GRF"][i] == pytest.approx(true, rel=0.01)
            # the estimate's peak beside it agrees with the plate's to 10 % (the bound; not a measured margin)
            assert summary.loads[side]["peak vertical GRF"][i] == pytest.approx(true, rel=0.10)
