"""The samples the robust loss of IK down-weighted (issue 28): first in the results' table of worst samples and
highlighted on their experimental marker in the 3D view, at their frame only."""
from dataclasses import replace

import numpy as np


def test_flagged_samples_are_listed_first_and_highlighted_in_the_view(make_window, work):
    result, settings = work
    ik = result.ik
    frame, column = 10, 2
    factors = np.ones(ik.errors.shape)
    factors[frame, column] = 0.01
    flagged = replace(result, ik=replace(ik, robust_factors=factors))
    window = make_window()
    window.document.set_inputs(model=result.model, trial=result.trial)
    window.document.set_result(flagged, settings)
    table = window.results.worst
    assert table.rowCount() == 20
    assert table.item(0, 0).text() == ik.marker_names[column] and table.item(0, 3).text() == "0.01"
    residuals = [float(table.item(r, 2).text()) for r in range(1, table.rowCount())]
    assert residuals == sorted(residuals, reverse=True)
    assert residuals[0] == float(f"{1000 * np.nanmax(np.delete(ik.errors.ravel(), frame * ik.errors.shape[1] + column)):.4g}")
    layer = window.scene.layers["markers"]
    display = int(np.argmin(np.abs(window.scene.content.time - ik.time[frame])))
    window.scene.show_frame(display)
    names = [layer.experimental_names[i] for i in layer.flagged_dots.shown]
    assert names == [ik.marker_names[column]]
    window.scene.show_frame(display + 5)
    assert layer.flagged_dots.shown.size == 0
