"""Where the demo's blade energy differs from the truth: the blade's energy stored and returned per stance
(``engine.clinical.prosthesis``, mean over the stances) of the demo's analysis, against the simulation's truth at
1 kHz; the same analysis with the IK's prior on the blade's strains removed (``IKSettings.rod_energy_weight`` 0:
the strains left to the markers alone), and with the prior toward rest on every strain direction (coordinate tasks
of weight ``lambda k / 2``, the prior before it was kept to the directions the markers inform less than it), with
the strains' RMS error (``truth_metrics``) each time; then the truth's own energy with its strain rates and forces
passed through the analysis's coordinate filter (2nd-order Butterworth at the demo's cut-off, zero lag), the part
the filter alone takes.

Last line: RESULT stored_pct=.. returned_pct=.. strain_rms_pct=.. stored_no_prior_pct=.. returned_no_prior_pct=..
strain_rms_no_prior_pct=.. stored_rest_prior_pct=.. returned_rest_prior_pct=.. strain_rms_rest_prior_pct=..
stored_truth_filtered_pct=.. returned_truth_filtered_pct=.. (errors in percent of the truth; negative: below it)
"""
from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import numpy as np
from scipy.signal import butter, sosfiltfilt

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.analysis.pipeline import analysis_steps  # noqa: E402
from engine.clinical.prosthesis import compression, rod_power, stance_metrics  # noqa: E402
from engine.demo import CUTOFF, demo_inputs, demo_truth  # noqa: E402
from engine.demo.truth import truth_metrics  # noqa: E402
from engine.progress import run  # noqa: E402
from engine.trial.intervals import intervals_where  # noqa: E402
from engine.tree import compile_tree  # noqa: E402


def energies(model, time, q, force, tau, v, stances):
    ms = stance_metrics(time, compression(model, "blade", q), np.linalg.norm(force, axis=1),
                        rod_power(model, "blade", tau, v), stances)
    return np.array([np.mean([m.stored for m in ms]), np.mean([m.returned for m in ms])])


def main() -> None:
    model, trial, settings = demo_inputs()
    truth = demo_truth()
    stances = intervals_where(truth.time, truth.group_force("blade") @ model.up >= 20.0)
    true = energies(model, truth.time, truth.q, truth.group_force("blade"), truth.tau_rod, truth.v, stances)
    segs = compile_tree(model).k.segs
    free = segs["q"] >= 0
    stiffness = dict(zip(segs["q"][free].tolist(), segs["k"][free].tolist()))
    rest = {n: (0.5 * settings.ik.rod_energy_weight * stiffness[c.qi], None) for n, c in compile_tree(model).coordinates.items()
            if c.qi in stiffness}
    out = {}
    for label, ik in (("", settings.ik), ("_no_prior", dataclasses.replace(settings.ik, rod_energy_weight=0.0)),
                      ("_rest_prior", dataclasses.replace(settings.ik, rod_energy_weight=0.0, coordinate_tasks=rest))):
        s = dataclasses.replace(settings, ik=ik, muscles=False)
        result = run(analysis_steps(model, trial, s))
        est = energies(result.model, result.motion.time, result.motion.q, result.qp.groups["blade"].force,
                       result.dynamics.tau, result.motion.v, stances)
        out[f"stored{label}_pct"], out[f"returned{label}_pct"] = 100 * (est / true - 1)
        out[f"strain_rms{label}_pct"] = truth_metrics(result, truth, s.forward)["rod_strain_rms_pct_range"]
        print(f"{label.strip('_').replace('_', ' ') or 'prior as the demo sets it'}: stored {est[0]:.3f} J, returned {est[1]:.3f} J (truth {true[0]:.3f}, "
              f"{true[1]:.3f})")
    sos = butter(2, CUTOFF, fs=1.0 / np.median(np.diff(truth.time)), output="sos")
    filtered = energies(model, truth.time, truth.q, truth.group_force("blade"),
                        sosfiltfilt(sos, truth.tau_rod, axis=0), sosfiltfilt(sos, truth.v, axis=0), stances)
    out["stored_truth_filtered_pct"], out["returned_truth_filtered_pct"] = 100 * (filtered / true - 1)
    print("RESULT " + " ".join(f"{k}={v:.2f}" for k, v in out.items()))


if __name__ == "__main__":
    main()
