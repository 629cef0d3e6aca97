"""Each muscle kernel is compiled once in a session. Numba compiles a kernel once per argument types, and a kernel
calling another with a literal (``0``, or an int variable set to one before a loop, which numba types as that literal
first) has the callee compiled a second time, for the literal (about a second each on an empty cache, on the first
launch's critical path: the muscle paths appear when their kernels are compiled).

Kernels loaded from numba's cache do not type their bodies, so the kernels they call are never asked for the types
of those calls; the test types each kernel's body again with numba's front end (no code is generated), which asks
each kernel it calls for the signature of that call (loading it from the cache, or compiling it), until every
signature of every kernel is typed. A second specialisation of any kernel shows as a second signature."""
import sys
from dataclasses import replace

import numba
import numpy as np
from numba.core import compiler
from numba.core.compiler import CompilerBase, DefaultPassBuilder
from numba.core.compiler_lock import global_compiler_lock
from numba.core.compiler_machinery import FunctionPass, register_pass
from numba.core.typed_passes import NopythonTypeInference

from engine.analysis.pipeline import analysis_steps
from engine.demo import demo_results
from engine.muscles.path.geometry import MuscleGeometry
from engine.progress import run
from engine.warmup import WINDOW, _show_demo


@register_pass(mutates_CFG=False, analysis_only=True)
class _Typed(FunctionPass):
    """Ends the pipeline after type inference."""

    _name = "hybridlab_typed"

    def __init__(self):
        FunctionPass.__init__(self)

    def run_pass(self, state):
        state.cr = state.typemap
        return False


class _TypingOnly(CompilerBase):
    """Numba's front end and type inference of a kernel, which compiles (or loads) the kernels it calls."""

    def define_pipelines(self):
        pm = DefaultPassBuilder.define_untyped_pipeline(self.state)
        pm.add_pass(NopythonTypeInference, "nopython frontend")
        pm.add_pass(_Typed, "typed")
        pm.finalize()
        return [pm]


def _type_body(kernel, signature) -> None:
    flags = compiler.Flags()
    kernel.targetdescr.options.parse_as_flags(flags, kernel.targetoptions)
    with global_compiler_lock:
        compiler.compile_extra(kernel.typingctx, kernel.targetctx, kernel.py_func, signature, None, flags,
                               kernel.locals, pipeline_class=_TypingOnly)


def _differences(signatures) -> dict:
    """The argument positions where ``signatures`` differ, with the types seen there."""
    return {i: sorted({str(s[i]) for s in signatures}) for i in range(len(signatures[0]))
            if len({str(s[i]) for s in signatures}) > 1}


def _muscle_kernels() -> list:
    """The kernels defined in ``engine.muscles`` (those its modules imported so far)."""
    return list({id(v): v for name, module in list(sys.modules.items()) if name.startswith("engine.muscles.")
                 for v in vars(module).values()
                 if isinstance(v, numba.core.registry.CPUDispatcher)
                 and v.py_func.__module__.startswith("engine.muscles.")}.values())


def test_the_demo_compiles_each_muscle_kernel_once():
    result, settings = demo_results()
    t0 = float(result.trial.markers.time[0])
    settings = replace(settings, ik=replace(settings.ik, start=t0, end=t0 + WINDOW))
    _show_demo(result)                                       # what the 3D view computes: the polylines
    run(analysis_steps(result.model, result.trial, settings))  # lengths, J_l, activations ...
    geometry = MuscleGeometry(result.model, threads=1)
    for muscle in geometry.muscle_names[:3]:
        geometry.current_path(np.ascontiguousarray(result.ik.q[0]), muscle)
    kernels = _muscle_kernels()
    typed = set()
    while todo := [(k, s) for k in kernels for s in k.signatures if (id(k), s) not in typed]:
        for kernel, signature in todo:
            typed.add((id(kernel), signature))
            _type_body(kernel, signature)
    names = {k.py_func.__qualname__ for k in kernels if k.signatures}
    assert {"sample_paths", "evaluate_frames", "current_path", "muscle_path", "apply_wraps", "wrap_ellipsoid",
            "wrap_cylinder", "wrap_sphere", "_sweep", "_closest_point"} <= names       # the demo reaches them all
    twice = {k.py_func.__qualname__: _differences(k.signatures) for k in kernels if len(k.signatures) > 1}
    assert twice == {}, twice
