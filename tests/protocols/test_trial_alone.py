"""A C3D trial with nothing else: the default model made for it, its protocol recognised, scaled, placed and
analysed (a short window around a swing to keep the test short). Marker RMS under 15 mm, the swing's knee
flexion peak between 50 and 75 degrees (normal gait's swing peak is about 60-65, Perry & Burnfield 2010), the
plates applied to the feet."""
from pathlib import Path

import numpy as np
import pytest

from engine.analysis.coordinate_values import coordinate_values
from engine.analysis.pipeline import AnalysisSettings, analysis_steps
from engine.demo.for_trial import model_for_trial
from engine.io.c3d import read_c3d
from engine.progress import run

C3D = Path(__file__).parents[1] / "data" / "c3d"


@pytest.mark.parametrize("relative, window, knee, matched", [
    # Helen Hayes without wands, Qualisys: knee and ankle centres by the chord function (the midline markers' way)
    ("Sample26/Capture0002.c3d", (2.70, 3.05), "knee_angle_l", 0.9),
    ("Sample26/Walking_Hybrid_1_1.c3d", (2.00, 2.35), "knee_angle_l", 0.9),    # CAST clusters, no static
    # clusters alone: functional joints. The right knee: the left one of this Parkinson's evaluation (SUBJECT:PROJECT)
    # hyperextends in stance and flexes about 22 degrees in swing by the clusters' own SCoRE centres, whatever the model
    ("Sample01/Eb015pi.c3d", (4.80, 5.40), "knee_angle_r", 0.9),
    ("Codamotion/codamotion_gaitwands_19970212.c3d", (1.05, 1.50), "knee_angle_l", 0.9),   # wands, no static
    # BTS Davis, no ANALOG:RATE; its second set of labels: its own joint centres (used) and forefoot points,
    # and copies of the ASIS and sacrum on the bone (listed)
    ("Sample28/type1.C3D", (0.70, 1.20), "knee_angle_l", 0.85),
])
def test_a_trial_alone_is_analysed(relative, window, knee, matched):
    trial = read_c3d(C3D / relative)
    made = model_for_trial(trial)
    assert made.model.name == "hybridlab_athlete_intact"
    assert made.matching.fraction >= matched
    assert len(made.matching.labels) + len(made.matching.unmatched) == len(trial.markers.names)
    settings = AnalysisSettings()
    settings.ik.notes = made.notes
    settings.ik.start, settings.ik.end = window
    result = run(analysis_steps(made.model, made.trial, settings))
    assert np.nanmean(result.ik.rms) < 0.015
    names, values = coordinate_values(result.model, result.ik.q)
    flexion = -values[:, names.index(knee)]      # degrees, knee flexion negative (OpenSim)
    assert 50.0 < flexion.max() < 75.0
    assert any("assigned by centre of pressure to foot_" in n for n in result.notes)
    assert any(n.startswith("marker protocol") for n in result.notes)
    if made.matching.protocol.name == "helen-hayes":     # knee and ankle centres: the lab's, else by the chord
        chords = [n for n in made.notes if n.startswith("virtual marker") and "(chord" in n]   # its markers allow
        labs = [n for n in made.notes if "(used, not computed again)" in n]
        assert len(chords) + len(labs) == 4 and not any("missing in" in n for n in chords)
        assert len(labs) == (4 if relative.startswith("Sample28") else 0)


def test_a_trial_with_the_blade_markers_gets_the_amputee():
    from engine.demo import demo_files
    from engine.demo.for_trial import default_model
    demo = read_c3d(demo_files().trial)
    model, said = default_model(demo)
    assert model.name == "hybridlab_athlete" and model.rods and "blade" in said
    intact, said = default_model(read_c3d(C3D / "Sample26" / "Capture0002.c3d"))
    assert intact.name == "hybridlab_athlete_intact" and not intact.rods and "intact" in said
