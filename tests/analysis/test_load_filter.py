"""Filtering the estimated loads after inverse dynamics: the band kept, what lies above removed, the contact
groups regrouped from the filtered forces (closed forms on a box bouncing on four points)."""
import numpy as np

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
    q = np.tile(model.neutral(), (T, 1))
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
