"""First launch: without arguments the application opens the bundled demo (shipped in engine/demo/resources)
with its results already computed; ``--time`` goes to that time, or says why it cannot."""
from engine.progress import run
from engine.warmup import counting_compiles, display_steps
from hybridgui.app import _open, build_parser


def test_first_launch_shows_the_demo_with_its_results(make_window):
    window = make_window()
    assert _open(window, build_parser().parse_args([])) == []
    doc = window.document
    assert window.last_error is None
    assert doc.result is not None and doc.model.rods, "the demo's athlete runs on a blade"
    assert {"grf", "angles", "torques", "blade strains", "blade forces", "activations"} <= set(window.curves.groups)
    assert window.results.grf.rowCount() == len(doc.result.metrics) > 0
    assert window.timeline.strip.stances
    assert window.scene.layers["blade"].rods and window.scene.layers["muscles"].names
    assert "bending moment" in window.scene.layers["blade"].available_colourings()


def test_time_option_goes_to_that_time(make_window):
    window = make_window()
    _open(window, build_parser().parse_args([]))
    doc = window.document
    t = float(doc.time[0] + 0.37 * (doc.time[-1] - doc.time[0]))
    assert _open(window, build_parser().parse_args(["--time", str(t)])) == []
    assert abs(doc.current_time - t) <= 0.5 * (doc.time[1] - doc.time[0]) + 1e-12


def test_a_time_outside_the_frames_is_refused_not_clamped(make_window):
    window = make_window()
    _open(window, build_parser().parse_args([]))
    doc = window.document
    before = doc.frame
    late = float(doc.time[-1]) + 5.0
    problems = _open(window, build_parser().parse_args(["--time", str(late)]))
    assert len(problems) == 1 and "outside the frames" in problems[0] and f"{late:g}" in problems[0]
    assert doc.frame == before                      # not moved to the last frame
    assert "outside the frames" in window.statusBar().currentMessage()


def test_a_file_that_cannot_be_opened_is_a_problem(make_window, tmp_path):
    window = make_window()
    missing = tmp_path / "nowhere.osim"
    problems = _open(window, build_parser().parse_args([str(missing)]))
    assert len(problems) == 1 and problems[0].startswith("Cannot open the model") and "nowhere.osim" in problems[0]
    assert window.document.model is None


def test_the_first_windows_warm_up_prepares_what_drawing_the_demo_compiles(make_window):
    report = run(display_steps())          # what the first window runs before the main window replaces it
    window = make_window()
    with counting_compiles() as compiled:  # the demo it read, drawn at its first frames, muscles and blade included
        window.open_demo(report.demo)
        for frame in (0, 1, window.document.n_frames - 1):
            window.document.set_frame(frame)
            window.view.render()
    assert compiled == [], compiled
    assert window.document.result is report.demo[0] and window.scene.layers["muscles"].names
