"""`hybrid analyze TRIAL.c3d` with no model: the command line's path to the protocol matching."""
import json
from pathlib import Path

from engine.cli.main import main

C3D = Path(__file__).parents[1] / "data" / "c3d"


def test_hybrid_analyze_with_the_trial_alone(tmp_path, capsys):
    out = tmp_path / "results"
    code = main(["analyze", str(C3D / "Codamotion" / "codamotion_gaitwands_19970212.c3d"), "--start", "0.1",
                 "--end", "0.3", "--out", str(out), "--quiet"])
    assert code == 0
    printed = capsys.readouterr().out
    assert "hybridlab_athlete_intact" in printed and "marker protocol 'cleveland'" in printed
    notes = json.loads((out / "metrics.json").read_text())["notes"]
    assert any("R.Knee=RKNEE" in n for n in notes)
    assert (out / "ik.mot").is_file()


def test_a_model_without_a_trial_is_refused(capsys):
    code = main(["analyze", "model.yaml"])
    assert code == 2 and "give MODEL and TRIAL, or a TRIAL alone" in capsys.readouterr().err
