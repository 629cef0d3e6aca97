"""How the demo's accuracy against its ground truth depends on the draw of the recording noise.

The shipped demo (``hybrid make-demo``) records the simulated motion once, with one seeded draw of
1 mm marker noise and plate channel noise. This script records the same simulated motion again
with other draws (seeds 1..N), writes each as a C3D file and analyses it exactly as
``hybrid analyze --demo`` does (muscles left out), then compares it with the truth
(``engine.demo.truth.truth_metrics``). The first row is the shipped trial itself.

Two references are scored:

* matched: the truth (and the plates) passed through every filter the estimate passed, as
  ``hybrid analyze --demo`` reports; worst over limbs and plates;
* fixed: the truth low-passed once at the coordinates' cut-off, per limb (no plates), whatever the
  loads filter: the reference of an analysis without it, so that settings compare on one reference.

    python benchmarks/demo_noise_draws.py [N]      (default N = 12; under a second per draw)

Torques are scored twice: ``subtalar`` and ``torque_other`` are the torques of the estimate from the motion
alone (the seed's eq. 35, ``id_estimated.sto``), ``torque_measured`` the analysis's own, with the measured loads
(``id.sto``; worst over joints).

Last line: RESULT draws=.. then, for the matched reference, {subtalar,torque_other,torque_measured,grf_ap,
grf_ml}_{median,p90,worst}=.. strain_worst=.. grf_vertical_worst=.., and fixed_{subtalar,torque_other,
torque_measured,grf_ap,grf_ml}_median=.. (percent: torques and strains RMS over range, GRF rRMSE; worst within a
draw, then median, 90th percentile or worst over the draws).
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
from engine.progress import run  # noqa: E402
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


def _figures(m: dict) -> tuple[dict, str]:
    torques = m["torque_rms_pct_range_by_coordinate"]
    grf = m["grf_rrmse_pct"]
    other = max((k for k in torques if k != SUBTALAR), key=torques.get)
    return {"subtalar": torques[SUBTALAR], "torque_other": torques[other],
            "torque_measured": m["measured_loads_torque_rms_pct_range"], "strain": m["rod_strain_rms_pct_range"],
            "grf_vertical": grf["vertical"], "grf_ap": grf["ap"], "grf_ml": grf["ml"]}, other


def figures(model, trial, truth) -> tuple[tuple[dict, str], tuple[dict, str]]:
    """The draw's figures (percent) against the matched and the fixed reference (see the module notes), each
    with the coordinate of its worst torque other than the subtalar."""
    settings = replace(demo_settings(trial), muscles=False)
    result = run(analysis_steps(model, trial, settings))
    matched = truth_metrics(result, truth, settings.forward)
    once = replace(result, qp=replace(result.qp, loads_cutoff=None), classic=replace(result.classic, loads_cutoff=None),
                   metrics=[])
    return _figures(matched), _figures(truth_metrics(once, truth, settings.forward))


def _table(title: str, rows: dict) -> dict:
    """Print the rows and their median, 90th percentile and worst; return those three by figure."""
    keys = list(next(iter(rows.values()))[0])
    print(title)
    print(f"{'draw':>9s} " + " ".join(f"{k:>12s}" for k in keys) + "  (worst other torque of the estimate)")
    for name, (row, other) in rows.items():
        print(f"{name:>9s} " + " ".join(f"{row[k]:12.1f}" for k in keys) + f"  ({other})")
    table = np.array([[row[k] for k in keys] for row, _ in rows.values()])
    stats = {"median": np.median(table, axis=0), "p90": np.percentile(table, 90, axis=0), "worst": table.max(axis=0)}
    for name, values in stats.items():
        print(f"{name:>9s} " + " ".join(f"{v:12.1f}" for v in values))
    return {name: dict(zip(keys, values)) for name, values in stats.items()}


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    model, shipped, _ = demo_inputs()
    truth = demo_truth()
    draws = {"shipped": figures(model, shipped, truth)}
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(1, n + 1):
            draws[f"seed {seed}"] = figures(model, redraw(model, truth, shipped, seed, Path(tmp)), truth)
    m = _table("matched reference (as hybrid analyze --demo scores)", {k: v[0] for k, v in draws.items()})
    f = _table("fixed reference (truth filtered once at the coordinates' cut-off, per limb)",
               {k: v[1] for k, v in draws.items()})
    keys = ("subtalar", "torque_other", "torque_measured", "grf_ap", "grf_ml")
    spread = " ".join(f"{key}_{stat}={m[stat][key]:.1f}" for key in keys for stat in ("median", "p90", "worst"))
    fixed = " ".join(f"fixed_{key}_median={f['median'][key]:.1f}" for key in keys)
    print(f"RESULT draws={len(draws)} {spread} strain_worst={m['worst']['strain']:.1f} "
          f"grf_vertical_worst={m['worst']['grf_vertical']:.1f} {fixed}")


if __name__ == "__main__":
    main()
