"""Usability defects of issue 19: a lone .mot says what it holds and why it opens nothing; a cancelled run says
"cancelled" in place of its last stage."""
from engine.progress import Progress


def test_a_lone_mot_says_what_it_holds_and_why_it_opens_nothing(make_window, test_data):
    window = make_window()
    folder = test_data / "opensim" / "gait2354"
    window.open_paths([folder / "subject01_walk1_grf.mot"])
    message = window.statusBar().currentMessage()
    assert message.startswith("subject01_walk1_grf.mot holds ground reactions (GRF): it is not a trial on its own")
    assert "File > Open trial" in message and window.document.trial is None and window.last_error is None
    window.open_paths([folder / "subject01_walk1_ik.mot"])
    assert window.statusBar().currentMessage().startswith("subject01_walk1_ik.mot holds a motion of coordinates")
    window.open_paths([folder / "subject01_walk1_grf.xml"])
    assert "an OpenSim setup or ExternalLoads file" in window.statusBar().currentMessage()


def test_a_cancelled_run_says_cancelled_not_its_last_stage(make_window):
    window = make_window()
    panel = window.progress
    panel.report(Progress("inverse kinematics", 0.3, "frame 40 of 200", None))     # a busy stage
    assert panel.message.text().startswith("inverse kinematics")
    window.runner.cancelled.emit()
    assert panel.message.text() == "cancelled; the results shown are unchanged"
    assert all(bar.maximum() > 0 for bar in panel.bars.values())                   # no bar left busy
    assert "cancelled" in window.statusBar().currentMessage()
