"""Seconds of ``hybrid run`` on OpenSim's example setups beside OpenSim 4.6's tools on the same setups: gait2354's
ScaleTool, InverseKinematicsTool (subject01_Setup_IK.xml), InverseDynamicsTool (subject01_Setup_InverseDynamics.xml;
``id_bf``: the same asking the body forces at every joint, ``joints_to_report_body_forces`` ALL) and AnalyzeTool with StaticOptimization (reference/so_setup.xml), each run unchanged in a folder of its own (the
setups copied, the data linked, as tests/io/tools does).

OpenSim's figures are measured in the same run when the ``opensim`` package is importable (``pip install
-e ".[bench]"``); otherwise they are the stored figures of tests/data/opensim/gait2354/reference/timings.txt (another
machine of the project's kind; no stored figure for the ScaleTool), and the RESULT line says "stored reference".
Each figure is the best of a few runs after a warm-up (numba compiled, files cached); both sides read the model and
files and write their outputs.
Last line: RESULT ik_s=.. id_s=.. id_bf_s=.. so_s=.. scale_s=.. opensim_ik_s=.. ... opensim="same run"|"stored reference"
"""
from __future__ import annotations

import os
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.opensim_runs import SAME_RUN, STORED as STORED_LABEL  # noqa: E402
from benchmarks.timing import timings  # noqa: E402
from engine.io.tools.runs import run_setup  # noqa: E402
from tests.io.tools.setup_folders import GAIT2354, setup_folder  # noqa: E402

REPEATS = 3
TOOLS = {   # name: (source folder, setup, OpenSim's class)
    "ik": (GAIT2354, "subject01_Setup_IK.xml", "InverseKinematicsTool"),
    "id": (GAIT2354, "subject01_Setup_InverseDynamics.xml", "InverseDynamicsTool"),
    "id_bf": (GAIT2354, "subject01_Setup_InverseDynamics.xml", "InverseDynamicsTool"),
    "so": (GAIT2354, "reference/so_setup.xml", "AnalyzeTool"),
    "scale": (GAIT2354 / "scale", "subject01_Setup_Scale.xml", "ScaleTool"),
}
STORED = {"ik": "InverseKinematicsTool", "id": "InverseDynamicsTool", "so": "AnalyzeTool"}


def asking_body_forces(folder: Path, setup: str) -> None:
    """The copied ID setup in ``folder`` asking for the body forces at every joint."""
    path = folder / Path(setup).name
    path.write_text(path.read_text().replace("</output_gen_force_file>", "</output_gen_force_file>"
                                             "<joints_to_report_body_forces> ALL </joints_to_report_body_forces>"
                                             "<output_body_forces_file> body_forces.sto </output_body_forces_file>"))


def stored_figures() -> dict:
    """OpenSim's seconds per tool from timings.txt (the first figure of a range)."""
    text = (GAIT2354 / "reference" / "timings.txt").read_text()
    out = {}
    for key, tool in STORED.items():
        found = re.search(rf"^{tool}\b.*?\s([0-9.]+)(?:-[0-9.]+)?\s+s\b", text, re.M)
        out[key] = float(found.group(1)) if found else None
    return out


def measured(folder: Path, setup: str, tool: str):
    try:
        import opensim
    except ImportError:
        return None
    opensim.Logger.setLevelString("off")
    path = str(folder / Path(setup).name)
    here = os.getcwd()
    os.chdir(folder)              # OpenSim 4.6's Python tools read the setups' file names from the working folder
    try:
        return min(timings(lambda: getattr(opensim, tool)(path).run(), REPEATS))
    finally:
        os.chdir(here)


def main():
    ours, theirs = {}, {}
    with tempfile.TemporaryDirectory() as work:
        for key, (source, setup, tool) in TOOLS.items():
            mine = setup_folder(Path(work) / f"ours_{key}", source, (setup,))
            other = setup_folder(Path(work) / f"opensim_{key}", source, (setup,), copy=True)
            if key == "id_bf":
                asking_body_forces(mine, setup)
                asking_body_forces(other, setup)
            ours[key] = min(timings(lambda: run_setup(mine / Path(setup).name), REPEATS))
            theirs[key] = measured(other, setup, tool)
    how = SAME_RUN
    if all(v is None for v in theirs.values()):
        theirs, how = {**{k: None for k in TOOLS}, **stored_figures()}, STORED_LABEL
    print(f"gait2354 walk 1 (73 frames, 23 coordinates, 54 muscles), OpenSim 4.6 {how}")
    print(f"{'setup':40s} {'hybrid run s':>13s} {'OpenSim s':>10s}")
    for key, (_, setup, _) in TOOLS.items():
        other = "none" if theirs[key] is None else f"{theirs[key]:.3f}"
        print(f"{setup + (' (body forces)' if key == 'id_bf' else ''):40s} {ours[key]:13.3f} {other:>10s}")
    figures = " ".join(f"{k}_s={v:.3f}" for k, v in ours.items())
    others = " ".join(f"opensim_{k}_s={'none' if v is None else f'{v:.3f}'}" for k, v in theirs.items())
    print(f'RESULT {figures} {others} opensim="{how}"')


if __name__ == "__main__":
    main()
