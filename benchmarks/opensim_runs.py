"""OpenSim 4.6's own tools on gait2354 walk 1, run in the benchmark's process beside ours.

When the ``opensim`` package imports (``pip install -e ".[bench]"``), each tool runs from the setup the
dataset ships (IK: subject01_Setup_IK.xml; ID: subject01_Setup_InverseDynamics.xml; static optimisation:
reference/so_setup.xml) in a scratch copy of tests/data/opensim/gait2354, each run with a fresh tool and
model (a tool run twice, or an IK/ID tool left to load its own model, crashes OpenSim 4.6's wheel), and the best
wall time of ``tool.run()`` over a few runs is returned with the label ``"same run"``. OpenSim's console
output (it prints the model's summary) is sent to /dev/null meanwhile. When it does not,
the figure is the one stored in reference/timings.txt (another machine), labelled ``"stored reference"``:
such a figure is printed beside ours, never divided into a ratio.
"""
from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

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
    opensim.Logger.removeFileSink()      # else OpenSim writes opensim.log into the working folder
    return opensim


def _stored_seconds(tool: str) -> float:
    """Seconds of ``tool`` in reference/timings.txt (the IK line gives a range: its lower end)."""
    line = next(ln for ln in (GAIT2354 / "reference" / "timings.txt").read_text().splitlines()
                if STORED_LINES[tool] in ln)
    return float(re.search(r"([\d.]+)(?:-[\d.]+)?\s+s\b", line.split(":", 1)[1]).group(1))


@contextmanager
def _quiet():
    """Send what C++ writes to stdout to /dev/null (Python's own prints are flushed first)."""
    sys.stdout.flush()
    saved = os.dup(1)
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 1)
        try:
            yield
        finally:
            os.dup2(saved, 1)
            os.close(saved)


def _timed_run(opensim, tool: str, work: Path, clocks: tuple) -> tuple:
    """Seconds of ``run()`` of a freshly built tool (building it and loading its model are not timed), by each of
    ``clocks``."""
    setup = str(work / SETUPS[tool])
    if tool == "so":
        runner = opensim.AnalyzeTool(setup)
    else:
        runner = opensim.InverseKinematicsTool(setup) if tool == "ik" else opensim.InverseDynamicsTool(setup)
        model = opensim.Model(str(work / "subject01_simbody.osim"))   # the tool holds no reference: keep one
        runner.setModel(model)
    t0 = [c() for c in clocks]
    runner.run()
    return tuple(c() - t for c, t in zip(clocks, t0))


def _scratch_copy(work: Path) -> None:
    """The dataset's files and the static-optimisation setup copied into ``work``, where the tools write."""
    for f in GAIT2354.iterdir():
        if f.is_file():
            shutil.copy(f, work / f.name)
    shutil.copy(GAIT2354 / "reference" / "so_setup.xml", work / "so_setup.xml")
    (work / "ResultsInverseDynamics").mkdir()


@contextmanager
def opensim_runner(tool: str):
    """A function running OpenSim's ``tool`` ("ik", "id" or "so") once, as :func:`opensim_seconds` runs it, and
    returning its (wall, CPU) seconds: for a benchmark that interleaves OpenSim's runs with its own, so that both
    sides see the same load. None when ``opensim`` does not import."""
    opensim = _opensim()
    if opensim is None:
        yield None
        return
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        _scratch_copy(work)

        def run() -> tuple[float, float]:
            with _quiet():
                return _timed_run(opensim, tool, work, (time.perf_counter, time.process_time))

        yield run


def opensim_seconds(tool: str, repeats: int = 3, clock=time.perf_counter) -> tuple[float, str]:
    """(seconds, label) of OpenSim's ``tool`` ("ik", "id" or "so") on the 73 frames of walk 1 (0.4-1.6 s), wall-clock
    or by ``clock`` (``time.process_time``: the CPU seconds of this process; the stored figures are wall-clock).

    The label is ``SAME_RUN`` when OpenSim ran here, ``STORED`` when the figure is read from timings.txt.
    """
    opensim = _opensim()
    if opensim is None:
        return _stored_seconds(tool), STORED
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        _scratch_copy(work)
        with _quiet():
            return min(_timed_run(opensim, tool, work, (clock,))[0] for _ in range(repeats)), SAME_RUN


def ratio_fields(name: str, ours_fps: float, frames: int, tool: str) -> tuple[str, float, str]:
    """RESULT fields comparing ``ours_fps`` with OpenSim's ``tool``, OpenSim's frames/s and its label.

    Same run: ``name=R`` (ours / OpenSim's frames/s). Stored: ``name="stored reference"`` and
    ``opensim_<tool>_fps_stored=F``, no ratio.
    """
    seconds, label = opensim_seconds(tool)
    fps = frames / seconds
    if label == SAME_RUN:
        return f"{name}={ours_fps / fps:.1f}", fps, label
    return f'{name}="{STORED}" opensim_{tool}_fps_stored={fps:.0f}', fps, label
