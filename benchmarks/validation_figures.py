"""The figures the validation tests bound, printed, so that a change (a faster kernel) can show them unchanged.

On OpenSim's example data in tests/data, as the tests compute them: IK's mean marker RMS on gait2354 walk 1 and
gait10dof18musc beside OpenSim's (tests/analysis/test_ik.py); classic inverse dynamics from OpenSim's coordinates
against OpenSim's ID, the worst coordinate's RMS difference in % of its range (test_inverse_dynamics.py); the
ground-reaction estimate's worst rRMSE per axis on gait2354 without the plates (test_qp_id.py); static optimisation
against OpenSim's (test_static_opt_gait2354.py): the worst muscle's RMS difference in % of its maximum isometric
force and the worst reserve's in N or N m. No timing: run it before and after a change and compare the lines.

Last line: RESULT ik_rms_mm_gait2354=.. opensim_ik_rms_mm_gait2354=.. ik_rms_mm_gait10dof18musc=..
opensim_ik_rms_mm_gait10dof18musc=.. id_worst_pct_range_gait2354=.. id_worst_pct_range_gait10dof18musc=..
grf_rrmse_pct_vertical=.. grf_rrmse_pct_ap=.. grf_rrmse_pct_ml=.. so_worst_pct_fmax=.. so_reserve_worst=..
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATA = ROOT / "tests" / "data"

from engine.io.storage import read_storage  # noqa: E402
from engine.muscles.forces.static_optimization import estimate_muscle_forces  # noqa: E402
from tests.analysis.opensim_cases import CASES  # noqa: E402
from tests.analysis.test_ik import ik_of_case  # noqa: E402
from tests.analysis.test_inverse_dynamics import ID_INPUTS, differences_to_opensim  # noqa: E402
from tests.analysis.test_qp_id import grf_estimate_without_plates  # noqa: E402
from tests.muscles.test_static_opt_gait2354 import so_inputs  # noqa: E402


def ik_figures(folder: str) -> tuple[float, float]:
    """Our mean marker RMS and OpenSim's (mm)."""
    _, result, theirs = ik_of_case(folder, DATA)
    return 1e3 * float(np.nanmean(result.rms)), 1e3 * theirs


def id_worst(folder: str) -> float:
    """The worst coordinate's RMS difference to OpenSim's ID, % of OpenSim's range over the motion."""
    return max(100 * rms / span for _, rms, span in differences_to_opensim(folder, DATA))


def grf_worst() -> dict:
    """The ground-reaction estimate's worst rRMSE (%) per axis on gait2354 walk 1, plates left out."""
    worst = {}
    for m in grf_estimate_without_plates(DATA)[1]:
        worst[m.axis] = max(worst.get(m.axis, 0.0), m.rrmse)
    return worst


def so_worst() -> tuple[float, float]:
    """The worst muscle's RMS difference to OpenSim's static optimisation (% of its F_max) and the worst reserve's
    largest difference (N or N m)."""
    model, Q, V, tau, t, settings, folder = so_inputs(DATA)
    result = estimate_muscle_forces(model, Q, V, tau, settings, time=t)
    ref = read_storage(folder / "reference" / "so_force.sto")
    muscles = max(100 * np.sqrt(np.mean((result.forces[:, j] - ref.column(n)) ** 2)) / model.muscle(n).max_isometric_force
                  for j, n in enumerate(result.muscle_names))
    reserves = max(float(np.abs(result.reserve_forces[:, k] - ref.column(n)).max())
                   for k, n in enumerate(result.reserve_names))
    return muscles, reserves


def main():
    fields = []
    for folder in CASES:
        ours, theirs = ik_figures(folder)
        print(f"IK {folder}: mean marker RMS {ours:.4f} mm (OpenSim {theirs:.4f} mm)")
        fields += [f"ik_rms_mm_{folder}={ours:.4f}", f"opensim_ik_rms_mm_{folder}={theirs:.4f}"]
    for folder in ID_INPUTS:
        worst = id_worst(folder)
        print(f"ID {folder}: worst coordinate {worst:.3f} % of its range from OpenSim's")
        fields.append(f"id_worst_pct_range_{folder}={worst:.3f}")
    grf = grf_worst()
    print("GRF estimate, gait2354: worst rRMSE " + ", ".join(f"{a} {v:.2f} %" for a, v in grf.items()))
    fields += [f"grf_rrmse_pct_{a}={v:.2f}" for a, v in grf.items()]
    muscles, reserves = so_worst()
    print(f"SO gait2354: worst muscle {muscles:.3f} % of F_max from OpenSim's, worst reserve {reserves:.4f}")
    fields += [f"so_worst_pct_fmax={muscles:.3f}", f"so_reserve_worst={reserves:.4f}"]
    print("RESULT " + " ".join(fields))


if __name__ == "__main__":
    main()
