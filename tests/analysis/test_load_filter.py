"""Filtering the estimated loads after inverse dynamics: the band kept, what lies above removed, the contact
groups regrouped from the filtered forces (closed forms on a box bouncing on four points)."""
import numpy as np
import pytest

from engine.algorithms import neutral
from engine.analysis.derivatives import Motion
from engine.analysis.inverse_dynamics import IDResult
from engine.analysis.load_filter import lowpass_classic, lowpass_qp
from engine.analysis.qp_id import QPSettings, solve_qp_id
from tests.analysis.test_qp_id import box_on_four_points

RATE, CUTOFF = 200.0, 9.5
SLOW, FAST = 1.0, 40.0          # Hz: inside and far above the cut-off
INNER = slice(40, -40)          # frames away from the ends


def _two_tones(t, slow, fast):
    return slow * np.sin(2 * np.pi * SLOW * t) + fast * np.sin(2 * np.pi * FAST * t)


def test_classic_loads_keep_the_slow_tone_and_lose_the_fast_one():
    t = np.arange(400) / RATE
    tau = np.column_stack([_two_tones(t, 10.0, 3.0), _two_tones(t, -4.0, 2.0)])
    residual = np.column_stack([_two_tones(t, 1.0, 1.0)] * 6)
    out = lowpass_classic(IDResult(t, tau, ["a", "b"], residual, 0.0), CUTOFF, 3, "extrapolate")
    assert out.loads_cutoff == CUTOFF
    slow = np.sin(2 * np.pi * SLOW * t)
    # Butterworth squared: 1 Hz passes to 1e-5, 40 Hz keeps (9.5/40)^12 of its amplitude; the ends' extrapolation
    # of a sine leaves a transient, within 0.1% of the amplitude 0.2 s in
    assert np.abs(out.tau[INNER] - np.outer(slow, [10.0, -4.0])[INNER]).max() < 1e-2
    assert np.abs(out.residual[INNER] - slow[INNER, None]).max() < 1e-3
    assert np.abs(tau[INNER] - np.outer(slow, [10.0, -4.0])[INNER]).max() > 1.0       # the input had the tone


def test_filtered_qp_loads_follow_the_slow_acceleration_and_stay_under_the_centre_of_mass():
    mass, com_x = 12.0, 0.1
    model = box_on_four_points(mass, com=(com_x, 0.1, 0.0))
    t = np.arange(400) / RATE
    a_slow, a_fast = 2.0, 5.0                                   # m/s^2, vertical
    w1, w2 = 2 * np.pi * SLOW, 2 * np.pi * FAST
    T = len(t)
    q = np.tile(neutral(model), (T, 1))
    v, a = np.zeros((T, 6)), np.zeros((T, 6))
    q[:, 1] = -a_slow / w1 ** 2 * np.sin(w1 * t) - a_fast / w2 ** 2 * np.sin(w2 * t)
    v[:, 4] = -a_slow / w1 * np.cos(w1 * t) - a_fast / w2 * np.cos(w2 * t)
    a[:, 4] = a_slow * np.sin(w1 * t) + a_fast * np.sin(w2 * t)
    motion = Motion(t, q, v, a, None, 3)
    raw = solve_qp_id(model, motion, QPSettings(floor=0.0, floor_velocity=(0, 0, 0), height=0.2))
    out = lowpass_qp(model, motion, raw, CUTOFF, 3, "extrapolate")
    g = 9.80665
    expected = mass * (g + a_slow * np.sin(w1 * t))
    assert out.loads_cutoff == CUTOFF
    assert np.abs(raw.forces[:, :, 1].sum(axis=1) - expected)[INNER].max() > 0.5 * mass * a_fast
    assert np.abs(out.forces[:, :, 1].sum(axis=1) - expected)[INNER].max() < 1e-3 * mass * g
    group = out.groups["box"]
    assert np.allclose(group.force, out.forces.sum(axis=1))
    # no rotation, vertical acceleration only: the centre of pressure stays under the centre of mass
    assert np.abs(group.cop[INNER][:, [0, 2]] - [com_x, 0.0]).max() < 1e-4
    assert np.abs(out.tau[INNER, :6]).max() < 1e-3 * mass * g


def test_translating_box_keeps_its_centre_of_pressure_behind_the_accelerating_centre_of_mass():
    """Sliding sideways on the floor with a slow horizontal acceleration and a fast vertical buzz: after the
    loads filter, the centre of pressure is where the moment balance puts it, x_cop = x + com_x - h a_x / g."""
    mass, com_x, h = 12.0, 0.1, 0.1
    model = box_on_four_points(mass, com=(com_x, h, 0.0))
    t = np.arange(400) / RATE
    w1, w2 = 2 * np.pi * SLOW, 2 * np.pi * FAST
    ax, ay = 1.5, 5.0                                          # m/s^2: slow horizontal, fast vertical
    T = len(t)
    q = np.tile(neutral(model), (T, 1))
    v, a = np.zeros((T, 6)), np.zeros((T, 6))
    q[:, 0] = -ax / w1 ** 2 * np.sin(w1 * t)
    v[:, 3] = -ax / w1 * np.cos(w1 * t)
    a[:, 3] = ax * np.sin(w1 * t)
    q[:, 1] = -ay / w2 ** 2 * np.sin(w2 * t)
    v[:, 4] = -ay / w2 * np.cos(w2 * t)
    a[:, 4] = ay * np.sin(w2 * t)
    motion = Motion(t, q, v, a, None, 3)
    settings = QPSettings(floor=0.0, floor_velocity=(0, 0, 0), height=0.2, friction=1.0)
    out = lowpass_qp(model, motion, solve_qp_id(model, motion, settings), CUTOFF, 3, "extrapolate")
    group = out.groups["box"]
    g = 9.80665
    expected = q[:, 0] + com_x - h * a[:, 3] / g
    assert np.abs(group.cop[INNER, 0] - expected[INNER]).max() < 1e-3
    assert np.abs(group.force[INNER, 0] - mass * a[INNER, 3]).max() < 1e-3 * mass * g
    assert np.abs(group.free_moment[INNER]).max() < 1e-3


def test_pipeline_filters_classic_loads_and_says_what_the_plates_passed(test_data):
    """gait2354 with its plates: the classic ID's torques are the unfiltered ones through scipy's zero-lag
    Butterworth (odd ends, as the coordinates), and the notes name the filters, with or without a coordinate filter."""
    from scipy.signal import butter, sosfiltfilt

    from engine.analysis.pipeline import analysis_steps
    from engine.progress import run
    from engine.errors import SettingsError
    from tests.analysis.gait2354_result import inputs
    model, trial, settings = inputs(str(test_data), muscles=False)
    settings.estimate_grf = False
    plain = run(analysis_steps(model, trial, settings))
    settings.loads_cutoff = 6.0
    filtered = run(analysis_steps(model, trial, settings))
    assert plain.qp is None and filtered.classic.loads_cutoff == 6.0
    rate = 1.0 / np.mean(np.diff(plain.motion.time))
    expected = sosfiltfilt(butter(settings.order, 6.0, fs=rate, output="sos"), plain.classic.tau, axis=0)
    assert np.allclose(filtered.classic.tau, expected, atol=1e-9 * np.abs(expected).max())
    assert any(n.startswith("the estimated loads low-pass filtered at 6 Hz") for n in filtered.notes)
    settings.cutoff, settings.estimate_grf = None, True
    unfiltered = run(analysis_steps(model, trial, settings))
    assert any("plates low-pass filtered at 6 Hz (order 3, ends 'odd'), like the estimated loads" in n
               for n in unfiltered.notes)
    settings.loads_cutoff = 0.6 * rate
    with pytest.raises(SettingsError, match="loads' cut-off must be a number of Hz from"):
        run(analysis_steps(model, trial, settings))


def test_on_gait2354_the_loads_filter_brings_the_estimate_closer_to_the_plates(test_data):
    """OpenSim's walking trial with its real plates, scored against the plates filtered once at the coordinates'
    6 Hz (one reference with and without the loads filter): filtering the estimated loads at 6 Hz too lowers
    both plates' antero-posterior and medio-lateral rRMSE."""
    from engine.analysis.metrics import grf_metrics
    from engine.analysis.pipeline import analysis_steps
    from engine.progress import run
    from engine.trial.filtering import lowpass_plates
    from tests.analysis.gait2354_result import inputs
    model, trial, settings = inputs(str(test_data), muscles=False)
    scores = []
    for loads_cutoff in (None, 6.0):
        settings.loads_cutoff = loads_cutoff
        result = run(analysis_steps(model, trial, settings))
        once, _ = lowpass_plates(result.trial, settings.cutoff, settings.order, settings.edges)
        metrics = grf_metrics(model, result.motion, result.qp, [p for p in once.plates if p.loaded.any()],
                              settings.forward)
        scores.append({(m.plate, m.axis): m.rrmse for m in metrics if m.axis in ("ap", "ml")})
    plain, filtered = scores
    assert len(plain) == 4
    assert all(filtered[k] < plain[k] for k in plain), (plain, filtered)
