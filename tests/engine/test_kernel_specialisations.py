"""Each engine kernel is compiled once in a session. Numba compiles a kernel once per argument types, and a kernel
calling another with a literal (``0``, ``True``, or an int variable set to one before a loop, which numba types as
that literal first), an optional array (a solve's result after its ``None`` check) or without an argument that has a
default has the callee compiled once more for those types (about a second each on an empty cache, on the first
launch's or the first analysis's critical path). The kernels' bodies are typed again (``tests.numba_signatures``:
kernels loaded from numba's cache never type their bodies), and a second specialisation of any kernel shows as a
second signature. The session runs in a child process: kernels the other tests of a run call with their own types
(from Python) would show there as second signatures."""
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

from engine.analysis.pipeline import analysis_steps
from engine.demo import demo_results
from engine.muscles.forces.warmup import warm_up as static_optimisation_with_reserves
from engine.muscles.path.geometry import MuscleGeometry
from engine.progress import run
from engine.warmup import WINDOW, _show_demo
from tests.numba_signatures import differences, kernels_of, name, type_bodies


def _session() -> None:
    """The demo's drawing and analysis and a static optimisation with reserves, then every engine kernel's bodies
    typed again; prints the kernels reached and those with more than one signature (json)."""
    result, settings = demo_results()
    t0 = float(result.trial.markers.time[0])
    settings = replace(settings, ik=replace(settings.ik, start=t0, end=t0 + WINDOW))
    _show_demo(result)                                           # what the 3D view computes
    analysis = run(analysis_steps(result.model, result.trial, settings))  # IK, ID, QP ID, muscles ...
    static_optimisation_with_reserves(analysis)                  # both objectives, with reserves
    geometry = MuscleGeometry(result.model, threads=1)
    for muscle in geometry.muscle_names[:3]:
        geometry.current_path(np.ascontiguousarray(result.ik.q[0]), muscle)
    kernels = kernels_of("engine")
    type_bodies(kernels)
    print(json.dumps({"reached": sorted(name(k).removeprefix("engine.") for k in kernels if k.signatures),
                      "twice": {name(k): differences(k.signatures) for k in kernels if len(k.signatures) > 1}}))


def test_a_demo_session_and_an_analysis_with_reserves_compile_each_kernel_once():
    child = subprocess.run([sys.executable, "-c", "from tests.engine.test_kernel_specialisations import _session; "
                            "_session()"], capture_output=True, text=True, timeout=600,
                           cwd=Path(__file__).resolve().parents[2])
    assert child.returncode == 0, child.stderr
    seen = json.loads(child.stdout.strip().splitlines()[-1])
    assert {"kernels._passes.kinematics", "analysis._ik._cholesky_solve", "kernels._qp_id._warm_solve",
            "kernels._qp_id._crossed_neighbour", "kernels._balance._mul_t", "kernels._qp_so.activation_frames",
            "muscles.path._sampling.sample_paths", "muscles.path._kernels.current_path",
            "muscles.path._wrapping.apply_wraps", "muscles.path._wrap_ellipsoid.wrap_ellipsoid",
            "muscles.path._kernels._sweep"} <= set(seen["reached"]), seen["reached"]
    assert seen["twice"] == {}, seen["twice"]
