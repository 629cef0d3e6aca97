"""How the demo's accuracy against its ground truth depends on the draw of the recording noise.

The shipped demo (``hybrid make-demo``) records the simulated motion once, with one seeded draw of
1 mm marker noise and plate channel noise. This script records the same simulated motion again
with other draws (seeds 1..N), writes each as a C3D file and analyses it exactly as
``hybrid analyze --demo`` does (muscles left out), then compares it with the truth
(``engine.demo.truth.truth_metrics``). The first row is the shipped trial itself.

    python benchmarks/demo_noise_draws.py [N]      (default N = 12; about 3 s per draw)

Last line: RESULT draws=.. subtalar_median=.. subtalar_worst=.. torque_other_worst=.. strain_worst=..
grf_vertical_worst=.. grf_ap_median=.. grf_ap_worst=.. grf_ml_median=.. grf_ml_worst=..
(percent: torques and strains RMS over range, GRF rRMSE; worst over limbs and plates within a draw,
then median or worst over the draws).
"""
from __future__ import annotations

import sys
import tempfile
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.analysis.pipeline import analysis_steps  # noqa: E402
from engine.analysis.progress import run  # noqa: E402
from engine.demo import demo_inputs, demo_settings, demo_truth  # noqa: E402
from engine.demo.recording import (ANALOG_RATE, MARKER_RATE, add_plate_noise, marker_trajectories,  # noqa: E402
                                   plate_loads)
from engine.demo.truth import truth_metrics  # noqa: E402
from engine.io.c3d_write import write_c3d  # noqa: E402
from engine.io.open_trial import open_trial  # noqa: E402

SUBTALAR = "subtalar_angle_l"


def redraw(model, truth, shipped_trial, seed: int, folder: Path):
    """The shipped trial recorded again with the noise of ``seed`` (markers and plates; EMG and events kept),
    written to and read back from a C3D file in ``folder``."""
    rng = np.random.default_rng(seed)
    step = int(round(ANALOG_RATE / MARKER_RATE))
    markers = marker_trajectories(model, truth.q[::step], rng)
    plates = add_plate_noise(plate_loads(model, truth.q, truth.contact_forces, truth.contact_names), rng)
    path = folder / f"draw{seed}.c3d"
    write_c3d(path, replace(shipped_trial, markers=markers), plates, description=f"demo noise draw {seed}")
    return open_trial(path)


def figures(model, trial, truth) -> tuple[dict, str]:
    """The draw's figures (percent) and the coordinate of its worst torque other than the subtalar."""
    settings = replace(demo_settings(trial), muscles=False)
    m = truth_metrics(run(analysis_steps(model, trial, settings)), truth, settings.forward)
    torques = m["torque_rms_pct_range_by_coordinate"]
    grf = m["grf_rrmse_pct"]
    other = max((k for k in torques if k != SUBTALAR), key=torques.get)
    return {"subtalar": torques[SUBTALAR], "torque_other": torques[other], "strain": m["rod_strain_rms_pct_range"],
            "grf_vertical": grf["vertical"], "grf_ap": grf["ap"], "grf_ml": grf["ml"]}, other


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    model, shipped, _ = demo_inputs()
    truth = demo_truth()
    rows = {"shipped": figures(model, shipped, truth)}
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(1, n + 1):
            rows[f"seed {seed}"] = figures(model, redraw(model, truth, shipped, seed, Path(tmp)), truth)
    keys = list(rows["shipped"][0])
    print(f"{'draw':>9s} " + " ".join(f"{k:>12s}" for k in keys) + "  (worst other torque)")
    for name, (row, other) in rows.items():
        print(f"{name:>9s} " + " ".join(f"{row[k]:12.1f}" for k in keys) + f"  ({other})")
    table = np.array([[row[k] for k in keys] for row, _ in rows.values()])
    median, worst = dict(zip(keys, np.median(table, axis=0))), dict(zip(keys, table.max(axis=0)))
    print(f"{'median':>9s} " + " ".join(f"{median[k]:12.1f}" for k in keys))
    print(f"{'worst':>9s} " + " ".join(f"{worst[k]:12.1f}" for k in keys))
    print(f"RESULT draws={len(rows)} subtalar_median={median['subtalar']:.1f} subtalar_worst={worst['subtalar']:.1f} "
          f"torque_other_worst={worst['torque_other']:.1f} strain_worst={worst['strain']:.1f} "
          f"grf_vertical_worst={worst['grf_vertical']:.1f} grf_ap_median={median['grf_ap']:.1f} "
          f"grf_ap_worst={worst['grf_ap']:.1f} grf_ml_median={median['grf_ml']:.1f} grf_ml_worst={worst['grf_ml']:.1f}")


if __name__ == "__main__":
    main()
