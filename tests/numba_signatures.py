"""Helpers of the tests that count numba's specialisations of the engine's kernels. Numba compiles a kernel once per
argument types; kernels loaded from numba's cache do not type their bodies, so the kernels they call are never asked
for the types of those calls. :func:`type_bodies` types each kernel's body again with numba's front end (no code is
generated), which asks each kernel it calls for the signature of that call (loading it from the cache, or compiling
it), until every signature of every kernel is typed: a second specialisation of any kernel then shows as a second
signature."""
from __future__ import annotations

import sys

import numba
from numba.core import compiler
from numba.core.compiler import CompilerBase, DefaultPassBuilder
from numba.core.compiler_lock import global_compiler_lock
from numba.core.compiler_machinery import FunctionPass, register_pass
from numba.core.typed_passes import NopythonTypeInference


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


def kernels_of(package: str) -> list:
    """The kernels defined in ``package`` (in those of its modules imported so far)."""
    prefix = package + "."
    return list({id(v): v for name, module in list(sys.modules.items()) if name.startswith(prefix)
                 for v in vars(module).values()
                 if isinstance(v, numba.core.registry.CPUDispatcher) and v.py_func.__module__.startswith(prefix)
                 }.values())


def type_bodies(kernels) -> None:
    """Types the body of each signature of each of ``kernels``, and of those the kernels they call get meanwhile."""
    typed = set()
    while todo := [(k, s) for k in kernels for s in k.signatures if (id(k), s) not in typed]:
        for kernel, signature in todo:
            typed.add((id(kernel), signature))
            _type_body(kernel, signature)


def name(kernel) -> str:
    """``module.qualname`` of a kernel."""
    return f"{kernel.py_func.__module__}.{kernel.py_func.__qualname__}"


def differences(signatures) -> dict:
    """The argument positions where ``signatures`` differ, with the types seen there."""
    return {i: sorted({str(s[i]) for s in signatures}) for i in range(len(signatures[0]))
            if len({str(s[i]) for s in signatures}) > 1}
