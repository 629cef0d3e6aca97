"""Frames per second of IK, classic ID and QP ID on OpenSim's gait2354 walking trial (73 frames,
0.4-1.6 s), beside OpenSim 4.6's InverseKinematicsTool and InverseDynamicsTool run on the same data in the
same process (``benchmarks.opensim_runs``; without ``opensim`` installed, the figures stored in
reference/timings.txt are printed and labelled "stored reference", with no ratio).

Each figure is the best of several runs after a warm-up (numba compiled); IK includes its
initial-pose search, ID includes filtering and differentiating the coordinates. OpenSim's figures are
``tool.run()`` (which also reads its inputs and writes its outputs). ``ik_cpu_fps`` is IK's frames per CPU second of
this process (best of the runs), and ``ik_cpu_vs_opensim`` its ratio to OpenSim's IK timed likewise: the wall-clock
figures of a machine that other processes share vary with their load, CPU time much less (IK of a short trial runs
on one thread, so the two agree on an idle machine).
Last line: RESULT ik_fps=.. ik_cpu_fps=.. id_fps=.. qp_id_fps=.. ik_vs_opensim=.. [ik_cpu_vs_opensim=..] id_vs_opensim=..
opensim=.. load=..
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
GAIT2354 = ROOT / "tests" / "data" / "opensim" / "gait2354"

from benchmarks.opensim_runs import SAME_RUN, opensim_seconds, ratio_fields  # noqa: E402
from benchmarks.timing import cpu_timings, timings  # noqa: E402
from engine.analysis.derivatives import motion_from_coordinates  # noqa: E402
from engine.analysis.ik import solve_ik  # noqa: E402
from engine.analysis.inverse_dynamics import classic_inverse_dynamics  # noqa: E402
from engine.analysis.qp_id import solve_qp_id  # noqa: E402
from engine.io.contacts_file import load_contacts  # noqa: E402
from engine.io.external_loads import ground_reaction_plates, load_external_loads  # noqa: E402
from engine.io.osim import read_osim  # noqa: E402
from engine.io.setup_xml import ik_settings_from_setup, read_ik_setup  # noqa: E402
from engine.io.trc import read_trc  # noqa: E402

REPEATS = 7


def best(fn):
    return min(timings(fn, REPEATS))


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
    t_ik = best(lambda: solve_ik(model, trial.markers, settings))
    cpu_ik = min(cpu_timings(lambda: solve_ik(model, trial.markers, settings), REPEATS))
    motion = motion_from_coordinates(model, ik.time, ik.q, cutoff=6.0)
    t_id = best(lambda: classic_inverse_dynamics(model, motion_from_coordinates(model, ik.time, ik.q, cutoff=6.0),
                                                 plates, bodies))
    t_qp = best(lambda: solve_qp_id(model, motion))
    ik_fps, id_fps, qp_fps = frames / t_ik, frames / t_id, frames / t_qp
    ik_field, os_ik, label = ratio_fields("ik_vs_opensim", ik_fps, frames, "ik")
    id_field, os_id, _ = ratio_fields("id_vs_opensim", id_fps, frames, "id")
    same = label != "stored reference"
    cpu_field = ""
    if same:     # OpenSim's IK in CPU seconds too: a ratio that other processes' load hardly moves
        os_cpu, cpu_label = opensim_seconds("ik", clock=time.process_time)
        if cpu_label == SAME_RUN:
            cpu_field = f" ik_cpu_vs_opensim={os_cpu / cpu_ik:.1f}"
    print(f"gait2354 walk1, {frames} frames, {model.nv} DoF, {len(model.markers)} markers, "
          f"{len(model.contacts)} contact candidates")
    print(f"{'step':28s} {'ours frames/s':>14s} {'OpenSim 4.6':>12s} {'ratio':>8s}   OpenSim figure: {label}")
    for step, ours, theirs in (("inverse kinematics", ik_fps, os_ik), ("inverse dynamics (plates)", id_fps, os_id)):
        ratio = f"{ours / theirs:8.1f}" if same else f"{'-':>8s}"
        print(f"{step:28s} {ours:14.0f} {theirs:12.0f} {ratio}")
    print(f"{'QP inverse dynamics (GRF)':28s} {qp_fps:14.0f} {'-':>12s} {'-':>8s}")
    print(f"RESULT ik_fps={ik_fps:.0f} ik_cpu_fps={frames / cpu_ik:.0f} id_fps={id_fps:.0f} qp_id_fps={qp_fps:.0f} "
          f'{ik_field}{cpu_field} {id_field} opensim="{label}" load={os.getloadavg()[0]:.1f}')


if __name__ == "__main__":
    main()
