"""OpenSim 4.6's own tools on gait2354, run in the benchmark's process beside ours.

When the ``opensim`` package imports (``pip install -e ".[bench]"``), each tool runs from the setup the
dataset ships (IK: subject01_Setup_IK.xml; ID: subject01_Setup_InverseDynamics.xml; static optimisation:
reference/so_setup.xml; scaling: scale/subject01_Setup_Scale.xml) in a scratch copy of its folder, each run with a
fresh tool and model (a tool run twice, or an IK/ID tool left to load its own model, crashes OpenSim 4.6's wheel).
:func:`side_by_side` interleaves OpenSim's runs with batches of our calls, so that both sides see the same load, and
reads the wall clock and this process's CPU seconds around the same calls; a benchmark gives each side's median (one
scheduling hiccup, or one lucky run, does not decide the ratio). OpenSim's console output (it prints the model's
summary) is sent to /dev/null meanwhile. When it does not import, the figure is the one stored in
reference/timings.txt (another machine), labelled ``"stored reference"``: such a figure is printed beside ours, never
divided into a ratio (:func:`stored_fields`).
"""
from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from benchmarks.timing import paired_timings

GAIT2354 = Path(__file__).resolve().parents[1] / "tests" / "data" / "opensim" / "gait2354"
SAME_RUN = "same run"
STORED = "stored reference"
SETUPS = {"ik": "subject01_Setup_IK.xml", "id": "subject01_Setup_InverseDynamics.xml", "so": "so_setup.xml",
          "scale": "subject01_Setup_Scale.xml"}
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


def _timed_run(opensim, tool: str, work: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of ``run()`` of a freshly built tool (building it and loading its model are not timed)."""
    setup = str(work / SETUPS[tool])
    if tool == "so":
        runner = opensim.AnalyzeTool(setup)
    elif tool == "scale":
        runner = opensim.ScaleTool(setup)
    else:
        runner = opensim.InverseKinematicsTool(setup) if tool == "ik" else opensim.InverseDynamicsTool(setup)
        model = opensim.Model(str(work / "subject01_simbody.osim"))   # the tool holds no reference: keep one
        runner.setModel(model)
    t0, c0 = time.perf_counter(), time.process_time()
    runner.run()
    return time.perf_counter() - t0, time.process_time() - c0


def _scratch_copy(work: Path, tool: str) -> None:
    """The files ``tool`` reads copied into ``work``, where it writes: the scaling's folder, or the dataset's files and
    the static-optimisation setup."""
    if tool == "scale":
        for f in (GAIT2354 / "scale").iterdir():
            if f.is_file():
                shutil.copy(f, work / f.name)
        return
    for f in GAIT2354.iterdir():
        if f.is_file():
            shutil.copy(f, work / f.name)
    shutil.copy(GAIT2354 / "reference" / "so_setup.xml", work / "so_setup.xml")
    (work / "ResultsInverseDynamics").mkdir()


@contextmanager
def opensim_runner(tool: str):
    """A function running OpenSim's ``tool`` ("ik", "id", "so" or "scale") once and returning its (wall, CPU)
    seconds (:func:`side_by_side`). None when ``opensim`` does not import."""
    opensim = _opensim()
    if opensim is None:
        yield None
        return
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        _scratch_copy(work, tool)

        def run() -> tuple[float, float]:
            with _quiet():
                return _timed_run(opensim, tool, work)

        yield run


@dataclass
class SideBySide:
    """Seconds of our calls and of OpenSim's runs, each read by the wall clock and in CPU seconds of this process (all
    its threads) around the same call; ``round_ratios``: each OpenSim run's wall seconds over the median of the batch
    of ours that followed it. OpenSim's lists are empty when it does not import."""

    wall: list = field(default_factory=list)
    cpu: list = field(default_factory=list)
    opensim_wall: list = field(default_factory=list)
    opensim_cpu: list = field(default_factory=list)
    round_ratios: list = field(default_factory=list)

    @property
    def same_run(self) -> bool:
        return bool(self.opensim_wall)

    def ratios(self) -> tuple[float, float]:
        """OpenSim's median seconds over ours, wall and CPU."""
        return (float(np.median(self.opensim_wall) / np.median(self.wall)),
                float(np.median(self.opensim_cpu) / np.median(self.cpu)))


def side_by_side(tool: str, ours, rounds: int, batch: int) -> SideBySide:
    """OpenSim's ``tool`` run ``rounds`` times, each run followed by ``batch`` timed calls of ``ours`` (after one untimed
    call, OpenSim having just run), so that both sides see the same load; without OpenSim, one batch of ours."""
    out = SideBySide()
    with opensim_runner(tool) as opensim_run:
        for _ in range(rounds if opensim_run else 1):
            if opensim_run:
                w, c = opensim_run()
                out.opensim_wall.append(w)
                out.opensim_cpu.append(c)
            wall, cpu = paired_timings(ours, batch)
            out.wall += wall
            out.cpu += cpu
            if opensim_run:
                out.round_ratios.append(w / float(np.median(wall)))
    return out


def stored_fields(name: str, frames: int, tool: str) -> tuple[str, float]:
    """Without OpenSim: RESULT fields giving the frames/s of ``tool`` stored in reference/timings.txt, labelled, no
    ratio (``name="stored reference" opensim_<tool>_fps_stored=F``), and that frames/s."""
    fps = frames / _stored_seconds(tool)
    return f'{name}="{STORED}" opensim_{tool}_fps_stored={fps:.0f}', fps
