"""OpenSim 4.6's own tools on gait2354 walk 1, run in the benchmark's process beside ours.

When the ``opensim`` package imports (``pip install -e ".[bench]"``), each tool runs from the setup the
dataset ships (IK: subject01_Setup_IK.xml; ID: subject01_Setup_InverseDynamics.xml; static optimisation:
reference/so_setup.xml) in a scratch copy of tests/data/opensim/gait2354, and the best wall time of
``tool.run()`` over a few runs after a warm-up is returned with the label ``"same run"``. When it does not,
the figure is the one stored in reference/timings.txt (another machine), labelled ``"stored reference"``:
such a figure is printed beside ours, never divided into a ratio.
"""
from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

from benchmarks.timing import timings

GAIT2354 = Path(__file__).resolve().parents[1] / "tests" / "data" / "opensim" / "gait2354"
SAME_RUN = "same run"
STORED = "stored reference"
SETUPS = {"ik": "subject01_Setup_IK.xml", "id": "subject01_Setup_InverseDynamics.xml", "so": "so_setup.xml"}
STORED_LINES = {"ik": "InverseKinematicsTool", "id": "InverseDynamicsTool", "so": "StaticOptimization"}


def _opensim():
    try:
        import opensim
    except ImportError:
        return None
    opensim.Logger.setLevelString("off")
    return opensim


def _stored_seconds(tool: str) -> float:
    """Seconds of ``tool`` in reference/timings.txt (the IK line gives a range: its lower end)."""
    line = next(ln for ln in (GAIT2354 / "reference" / "timings.txt").read_text().splitlines()
                if STORED_LINES[tool] in ln)
    return float(re.search(r"([\d.]+)(?:-[\d.]+)?\s+s\b", line.split(":", 1)[1]).group(1))


def _run(opensim, tool: str, setup: str):
    if tool == "ik":
        opensim.InverseKinematicsTool(setup).run()
    elif tool == "id":
        opensim.InverseDynamicsTool(setup).run()
    else:
        opensim.AnalyzeTool(setup).run()


def opensim_seconds(tool: str, repeats: int = 3) -> tuple[float, str]:
    """(seconds, label) of OpenSim's ``tool`` ("ik", "id" or "so") on the 73 frames of walk 1 (0.4-1.6 s).

    The label is ``SAME_RUN`` when OpenSim ran here, ``STORED`` when the figure is read from timings.txt.
    """
    opensim = _opensim()
    if opensim is None:
        return _stored_seconds(tool), STORED
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        for f in GAIT2354.iterdir():
            if f.is_file():
                shutil.copy(f, work / f.name)
        shutil.copy(GAIT2354 / "reference" / "so_setup.xml", work / "so_setup.xml")
        setup = str(work / SETUPS[tool])
        return min(timings(lambda: _run(opensim, tool, setup), repeats)), SAME_RUN


def ratio_fields(name: str, ours_fps: float, frames: int, tool: str, repeats: int = 3) -> tuple[str, float, str]:
    """RESULT fields comparing ``ours_fps`` with OpenSim's ``tool``, OpenSim's frames/s and its label.

    Same run: ``name=R`` (ours / OpenSim's frames/s). Stored: ``name="stored reference"`` and
    ``opensim_<tool>_fps_stored=F``, no ratio.
    """
    seconds, label = opensim_seconds(tool, repeats)
    fps = frames / seconds
    if label == SAME_RUN:
        return f"{name}={ours_fps / fps:.1f}", fps, label
    return f'{name}="{STORED}" opensim_{tool}_fps_stored={fps:.0f}', fps, label
