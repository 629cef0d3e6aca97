"""First launch: without arguments the application opens the bundled demo with its results already computed
(needs the demo files, built by 'hybrid make-demo')."""
from hybridgui.app import _open, build_parser

from .conftest import needs_demo


@needs_demo
def test_first_launch_shows_the_demo_with_its_results(make_window):
    window = make_window()
    _open(window, build_parser().parse_args([]))
    doc = window.document
    assert window.last_error is None
    assert doc.result is not None and doc.model.rods, "the demo's athlete runs on a blade"
    assert {"grf", "angles", "torques", "blade strains", "blade forces", "activations"} <= set(window.curves.groups)
    assert window.results.grf.rowCount() == len(doc.result.metrics) > 0
    assert window.timeline.strip.stances
    assert window.scene.layers["blade"].rods and window.scene.layers["muscles"].names
    assert "bending moment" in window.scene.layers["blade"].available_colourings()


@needs_demo
def test_time_option_goes_to_that_time(make_window):
    window = make_window()
    _open(window, build_parser().parse_args([]))
    doc = window.document
    t = float(doc.time[0] + 0.37 * (doc.time[-1] - doc.time[0]))
    _open(window, build_parser().parse_args(["--time", str(t)]))
    assert abs(doc.current_time - t) <= 0.5 * (doc.time[1] - doc.time[0]) + 1e-12
