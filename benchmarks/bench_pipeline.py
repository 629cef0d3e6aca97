"""Frames per second of IK, classic ID and QP ID on OpenSim's gait2354 walking trial (73 frames,
0.4-1.6 s), beside OpenSim 4.6's InverseKinematicsTool and InverseDynamicsTool run on the same data in the
same process (``benchmarks.opensim_runs``; without ``opensim`` installed, the figures stored in
reference/timings.txt are printed and labelled "stored reference", with no ratio).

IK includes its initial-pose search, ID includes filtering and differentiating the coordinates. OpenSim's figures
are ``tool.run()`` (which also reads its inputs and writes its outputs). OpenSim's runs are interleaved with batches
of ours (``opensim_runs.side_by_side``: ``ROUNDS`` runs, each followed by ``BATCH`` of our calls after an untimed one),
so that both sides see the same load; every figure is a median, by the wall clock and in CPU seconds of this process
(all its threads), both read around the same calls: one scheduling hiccup, or one lucky run, on either side does not
decide the ratio, and the CPU figures hardly move with other processes' load (IK and ID of a short trial run on one
thread, so the two clocks agree on an idle machine). ``*_cpu_*`` fields are the CPU-second figures.
Last line: RESULT ik_fps=.. ik_cpu_fps=.. id_fps=.. qp_id_fps=.. ik_vs_opensim=.. [ik_cpu_vs_opensim=..] id_vs_opensim=..
[id_cpu_vs_opensim=..] opensim=.. load=..
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
GAIT2354 = ROOT / "tests" / "data" / "opensim" / "gait2354"

from benchmarks.opensim_runs import SAME_RUN, STORED, side_by_side, stored_fields  # noqa: E402
from benchmarks.timing import paired_timings  # noqa: E402
from engine.analysis.derivatives import motion_from_coordinates  # noqa: E402
from engine.analysis.ik import solve_ik  # noqa: E402
from engine.analysis.inverse_dynamics import classic_inverse_dynamics  # noqa: E402
from engine.analysis.qp_id import solve_qp_id  # noqa: E402
from engine.io.contacts_file import load_contacts  # noqa: E402
from engine.io.external_loads import ground_reaction_plates, load_external_loads  # noqa: E402
from engine.io.osim import read_osim  # noqa: E402
from engine.io.setup_xml import ik_settings_from_setup, read_ik_setup  # noqa: E402
from engine.io.trc import read_trc  # noqa: E402

ROUNDS = 7            # OpenSim runs (IK about 0.5 s, ID about 0.1 s), each followed by a batch of ours
BATCH = 7             # our timed calls per round (IK about 5 ms, ID about 2 ms)


def compared(name: str, tool: str, frames: int, fn) -> tuple[float, float, str, str, str]:
    """Our median frames/s of ``fn`` (wall, CPU) side by side with OpenSim's ``tool``; the ratio fields (OpenSim's
    median seconds over ours, wall ``name`` and CPU) or the stored figure's, the line printed for it, and the label of
    OpenSim's figure."""
    both = side_by_side(tool, fn, ROUNDS, BATCH)
    fps, cpu_fps = frames / np.median(both.wall), frames / np.median(both.cpu)
    if not both.same_run:
        fields, theirs = stored_fields(name, frames, tool)
        return fps, cpu_fps, fields, f"{fps:14.0f} {theirs:12.0f} {'-':>8s}   (CPU: {cpu_fps:.0f})", STORED
    wall_ratio, cpu_ratio = both.ratios()
    fields = f"{name}={wall_ratio:.1f} {name.replace('_vs_', '_cpu_vs_')}={cpu_ratio:.1f}"
    return fps, cpu_fps, fields, (f"{fps:14.0f} {frames / np.median(both.opensim_wall):12.0f} {wall_ratio:8.1f}   "
                                  f"(CPU: {cpu_fps:.0f}, {frames / np.median(both.opensim_cpu):.0f}, {cpu_ratio:.1f}; "
                                  f"per round {min(both.round_ratios):.0f}-{max(both.round_ratios):.0f})"), SAME_RUN


def main():
    model = load_contacts(ROOT / "tests/analysis/data/gait2354_contacts.yaml",
                          read_osim(GAIT2354 / "subject01_simbody.osim"))
    trial = read_trc(GAIT2354 / "subject01_walk1.trc")
    settings = ik_settings_from_setup(model, read_ik_setup(GAIT2354 / "subject01_Setup_IK.xml"))
    external = load_external_loads(GAIT2354 / "subject01_walk1_grf.xml")
    plates = ground_reaction_plates(external)
    bodies = [load.body for load in external.loads]
    ik = solve_ik(model, trial.markers, settings)
    frames = ik.n_frames
    motion = motion_from_coordinates(model, ik.time, ik.q, cutoff=6.0)
    ik_fps, ik_cpu_fps, ik_fields, ik_line, label = compared("ik_vs_opensim", "ik", frames,
                                                      lambda: solve_ik(model, trial.markers, settings))
    id_fps, _, id_fields, id_line, _ = compared(
        "id_vs_opensim", "id", frames,
        lambda: classic_inverse_dynamics(model, motion_from_coordinates(model, ik.time, ik.q, cutoff=6.0), plates,
                                         bodies))
    qp_wall, qp_cpu = paired_timings(lambda: solve_qp_id(model, motion), ROUNDS * BATCH)
    qp_fps = frames / np.median(qp_wall)
    print(f"gait2354 walk1, {frames} frames, {model.nv} DoF, {len(model.markers)} markers, "
          f"{len(model.contacts)} contact candidates")
    print(f"{'step (medians)':28s} {'ours frames/s':>14s} {'OpenSim 4.6':>12s} {'ratio':>8s}   OpenSim figure: {label}")
    print(f"{'inverse kinematics':28s} {ik_line}")
    print(f"{'inverse dynamics (plates)':28s} {id_line}")
    print(f"{'QP inverse dynamics (GRF)':28s} {qp_fps:14.0f} {'-':>12s} {'-':>8s}   (CPU: {frames / np.median(qp_cpu):.0f})")
    print(f"RESULT ik_fps={ik_fps:.0f} ik_cpu_fps={ik_cpu_fps:.0f} id_fps={id_fps:.0f} qp_id_fps={qp_fps:.0f} "
          f'{ik_fields} {id_fields} opensim="{label}" load={os.getloadavg()[0]:.1f}')


if __name__ == "__main__":
    main()
