"""Each engine kernel is compiled once in a session. Numba compiles a kernel once per argument types, and a kernel
calling another with a literal (``0``, ``True``, or an int variable set to one before a loop, which numba types as
that literal first), an optional array (a solve's result after its ``None`` check) or without an argument that has a
default has the callee compiled once more for those types (about a second each on an empty cache, on the first
launch's or the first analysis's critical path). The kernels' bodies are typed again (``tests.numba_signatures``:
kernels loaded from numba's cache never type their bodies), and a second specialisation of any kernel shows as a
second signature."""
from dataclasses import replace

import numpy as np

from engine.analysis.pipeline import analysis_steps
from engine.demo import demo_results
from engine.muscles.forces.warmup import warm_up as static_optimisation_with_reserves
from engine.muscles.path.geometry import MuscleGeometry
from engine.progress import run
from engine.warmup import WINDOW, _show_demo
from tests.numba_signatures import differences, kernels_of, name, type_bodies

TWICE_FOR_NOW = {"engine.kernels._passes.frame_placement", "engine.kernels._joints.segment_strain"}
"""Called with a record's nested arrays by some kernels and with plain arrays by others (the bodies' kernels, which
are being changed apart from this test): the set shrinks as they are fixed."""


def test_a_demo_session_and_an_analysis_with_reserves_compile_each_kernel_once():
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
    names = {name(k).removeprefix("engine.") for k in kernels if k.signatures}
    assert {"kernels._passes.kinematics", "analysis._ik._cholesky_solve", "kernels._qp_id._warm_solve",
            "kernels._qp_id._crossed_neighbour", "kernels._balance._mul_t", "kernels._qp_so.activation_frames",
            "muscles.path._sampling.sample_paths",
            "muscles.path._kernels.current_path", "muscles.path._wrapping.apply_wraps",
            "muscles.path._wrap_ellipsoid.wrap_ellipsoid", "muscles.path._kernels._sweep"} <= names, names
    twice = {name(k): differences(k.signatures) for k in kernels if len(k.signatures) > 1}
    assert set(twice) == TWICE_FOR_NOW, twice
