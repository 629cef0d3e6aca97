"""The seed's outcomes (section VI-B) on coarse versions of the built-in scenes (3 cm skin, 2k-vertex board): the
robotic lift's flat support loses the body, the 7 degree one holds it, as Coulomb's cone says."""
from __future__ import annotations

import numpy as np
import pytest

from engine.errors import SettingsError
from skin.outcomes import body_held, sensor_pressure
from skin.scenes import TILT, robotic_lift
from skin.simulation import simulate


@pytest.fixture(scope="module")
def lifts():
    out = {}
    for incline in (0.0, 7.0):
        scene = robotic_lift(incline, spacing=0.03, board_vertices=2000)
        out[incline] = scene, simulate(scene, record_every=50)
    return out


def _along_board(scene, result):
    """The pelvis's position along the board (its x axis, m) at each record."""
    device = scene.devices[0]
    out = []
    for t, q in zip(result.time, result.q):
        R, p, _, _ = device.motion.placement(t)
        out.append(device.placement0.inverse().act(R.T @ (q[:3] - p))[0])
    return np.array(out)


def test_the_slope_against_the_friction_cone_decides_the_outcome(lifts):
    mu = lifts[0.0][0].contact.friction
    assert np.tan(np.radians(TILT)) > mu > np.tan(np.radians(TILT - 7.0))     # the scenes straddle the cone
    flat, inclined = lifts[0.0], lifts[7.0]
    assert not flat[1].notes and not inclined[1].notes
    for _, result in (flat, inclined):                                 # no sheet: the sheets' share is none of it
        assert result.pressure.max() > 0 and not result.sheet_pressure.any()
    assert not body_held(*flat)
    assert body_held(*inclined)


def test_the_held_body_creeps_at_the_regularised_friction_speed(lifts):
    """Below eps, eq. 7's friction is viscous: a body held on a slope a creeps at eps tan(a) / mu."""
    scene, result = lifts[7.0]
    x = _along_board(scene, result)
    late = result.time >= scene.devices[0].motion.end + 0.5
    speed = np.polyfit(result.time[late], x[late], 1)[0]
    c = scene.contact
    expected = c.eps * np.tan(np.radians(TILT - 7.0)) / c.friction
    assert speed == pytest.approx(expected, rel=0.3)


def test_a_tactile_sensor_cell_reads_the_force_on_it_over_its_area():
    """On a flat grid of 1 cm spacing: a uniform pressure reads as itself in every cell; a single vertex's force,
    read by 2.5 cm cells (the vertex and its four neighbours within 1.25 cm), is that force over five vertex areas at
    the five, and nothing elsewhere; a cell must have a size."""
    h = 0.01
    g = np.arange(20) * h
    x = np.column_stack([np.repeat(g, 20), np.zeros(400), np.tile(g, 20)])
    areas = np.full(400, h * h)
    up = np.tile([0.0, 1.0, 0.0], (400, 1))
    assert sensor_pressure(x, up, 2e4 * areas, areas, 0.025) == pytest.approx(np.full(400, 2e4), rel=1e-12)
    force = np.zeros(400)
    centre = 10 * 20 + 10
    force[centre] = 3.0
    reading = sensor_pressure(x, up, force, areas, 0.025)
    near = np.linalg.norm(x - x[centre], axis=1) < 0.0125
    assert near.sum() == 5
    assert reading[near] == pytest.approx(np.full(5, 3.0 / (5 * h * h)), rel=1e-12)
    assert not reading[~near].any()
    with pytest.raises(SettingsError, match="diameter"):
        sensor_pressure(x, up, force, areas, 0.0)


def test_a_sensor_cell_lies_on_one_surface_of_two_facing_ones():
    """Two flat 1 cm grids 1 cm apart facing each other (an arm against the trunk): the lower pressed at 20 kPa, the
    upper at 50 kPa. A 3 cm cell reaches vertices of both surfaces, but a sensor lies on one: each reads its own
    surface's pressure, not the two forces over the two areas."""
    h = 0.01
    g = np.arange(20) * h
    grid = np.column_stack([np.repeat(g, 20), np.zeros(400), np.tile(g, 20)])
    x = np.vstack([grid, grid + [0.0, h, 0.0]])
    normals = np.vstack([np.tile([0.0, 1.0, 0.0], (400, 1)), np.tile([0.0, -1.0, 0.0], (400, 1))])
    areas = np.full(800, h * h)
    pressure = np.repeat([2e4, 5e4], 400)
    assert sensor_pressure(x, normals, pressure * areas, areas, 0.03) == pytest.approx(pressure, rel=1e-12)


def _recorded(scene, time, q, pressure, sheet_pressure=None):
    """A run of ``scene`` with the given records; the sheets' share of the pressure ``sheet_pressure`` (default all of
    it)."""
    from skin.simulation import SimulationResult
    T = len(time)
    pressure = np.asarray(pressure)
    return SimulationResult(scene.name, np.asarray(time, float), np.asarray(q), np.zeros((T, scene.model.nv)),
                            pressure, pressure if sheet_pressure is None else np.asarray(sheet_pressure),
                            np.zeros((T, 3)), np.zeros(T, int))


def test_the_hanging_sensor_reads_the_slings_cells_over_the_window(rng):
    """The sling's sensor window opens HANGING_SETTLE s after the hooks stop and closes at the run's end; the sensor
    lies between skin and sling, so the bed's share of the pressure does not count. Over the window each cell's mean
    is its readings' mean: one record gives that record's peak (``sensor_summary``), two records at the same pose with
    pressures p and 3p give twice the first's (the mean is linear), records outside the window do not count. The 95th
    percentile of a uniform pressure p0 on the skin at rest (every cell reads p0) is p0, and one vertex's spike of
    1000 p0 in one record leaves it at p0 while the highest cell's mean follows the spike. A run ending before the
    window, or a window without records, is an error."""
    from skin.outcomes import HANGING_SETTLE, hanging_window, sensor_summary, sensor_window_summary
    from skin.scenes import sling_lift
    scene = sling_lift(spacing=0.04, sheet_vertices=400, bed_spacing=0.04)
    n = scene.skin.n_vertices
    end = scene.sheets[0].motion.end + HANGING_SETTLE
    p = rng.uniform(0.0, 2e4, n)
    q = np.repeat(scene.q0[None], 4, axis=0)
    junk = rng.uniform(0.0, 1e6, n)                                       # before the window: must not count
    bed = rng.uniform(0.0, 1e6, n)                                        # the bed's share: must not count
    sheets = [junk, p, 3 * p, junk]
    run = _recorded(scene, [0.5, end, end + 0.5, end + 1.0], q, [s + bed for s in sheets], sheets)
    assert hanging_window(scene, run) == pytest.approx((end, end + 1.0))
    one = sensor_window_summary(scene, run, (end, end))
    at = sensor_summary(scene, _recorded(scene, run.time, q, sheets), 1)
    two = sensor_window_summary(scene, run, (end, end + 0.5))
    for name in at:
        assert one[name][1:] == pytest.approx(at[name], rel=1e-12)
        assert two[name][1:] == pytest.approx((2 * at[name][0], 2 * at[name][1]), rel=1e-12)
    p0 = 1e4
    uniform = np.full(n, p0)
    spiked = uniform.copy()
    back = np.flatnonzero(scene.watch["upper back"])
    spiked[back[len(back) // 2]] = 1000 * p0
    run = _recorded(scene, [end, end + 0.5], q[:2], [uniform, spiked])
    read = sensor_window_summary(scene, run, (end, end + 0.5))
    for name, (p95, peak, _) in read.items():
        assert p95 == pytest.approx(p0, rel=1e-12), name
    assert read["upper back"][1] > 10 * p0
    short = _recorded(scene, [0.0, end - 0.1], q[:2], [p, p])
    with pytest.raises(SettingsError, match="before the body hangs"):
        hanging_window(scene, short)
    with pytest.raises(SettingsError, match="no record between"):
        sensor_window_summary(scene, run, (end + 0.6, end + 0.7))
