"""Compile the numba kernels before they are needed, saying how far it is.

Numba compiles a kernel at its first call and keeps the machine code in its on-disk cache (``cache=True``: a
``__pycache__`` folder beside the source, or numba's user-wide cache when that folder is not writable, or
``NUMBA_CACHE_DIR``); later processes load it from there. :func:`warm_up_steps` calls every kernel the
application and the analysis use, once, on the bundled demo (its model, and the analysis on a few of its frames:
kernels are compiled per argument type, and every model shares the same record types), so that the first
analysis starts at once; then the packages beside the engine warm up theirs through the ``hybridlab.warmup``
entry points (each a callable given the demo's analysis result; the engine never imports them). ``hybrid
warm-up`` runs it. The application's first window runs only :func:`display_steps`, the kernels that drawing the
demo needs (the rest compile at their first use, or were compiled by ``hybrid warm-up``), so that a first launch
shows the main window within seconds; on later launches it only loads the cached code. On a first launch it leaves
the 3D view's kernels to the application's compile child and its helper (:func:`compile_display`: the bodies' and the
blade's first, then the muscle paths', over both cores) while the window's process imports the rest of the
application, then loads the bodies' and the blade's from the cache (:func:`loads_cached` tells whether they are
cached).

While numba compiles, a step cannot yield; a listener on numba's ``numba:compile`` event
(:func:`counting_compiles`) counts the kernels compiled and passes each to ``on_compile`` (called from the
compiling thread), so that a caller can show it (the warm-up, and ``hybrid analyze``'s bar when it runs cold).
"""
from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from importlib.metadata import entry_points
from dataclasses import dataclass, replace
from typing import Callable

import numpy as np
from numba.core import event

from .data import Data
from .progress import Progress

PLUGINS = "hybridlab.warmup"   # entry points of packages beside the engine that warm up their kernels
WINDOW = 0.08
"""s of the demo's trial analysed: enough frames for the filters and the QP, few enough to be quick."""
POLL = 0.2
"""s between two looks into numba's cache for the kernels a child compiles (:func:`display_steps`)."""


@dataclass
class WarmUpReport:
    """``compiled``: kernels numba compiled (names, in order); ``seconds``: the warm-up's duration; ``demo``: the
    demo's ``(result, settings)`` it read (:func:`display_steps`: the window shows them without reading them again).
    Whether the muscle paths' kernels were left to a compile child is the caller's to know (its ``defer_muscles``
    was called)."""

    compiled: list
    seconds: float
    demo: tuple | None = None


_refusing = threading.local()   # ``active`` while :func:`loads_cached` refuses this thread's compilations


class _CompileCounter(event.Listener):
    """Counts numba's compilations (a kernel and the kernels it calls each count once) and passes each
    kernel's name to ``on_compile``; not those :func:`loads_cached` refuses (numba calls the listeners in the
    order they were installed, this one before the refuser stops the compilation)."""

    def __init__(self, on_compile: Callable[[str, int], None] | None):
        self.compiled: list[str] = []
        self._on_compile = on_compile

    def on_start(self, ev) -> None:
        if getattr(_refusing, "active", False):
            return
        name = ev.data["dispatcher"].py_func.__qualname__
        module = ev.data["dispatcher"].py_func.__module__
        self.compiled.append(f"{module}.{name}")
        if self._on_compile is not None:
            self._on_compile(self.compiled[-1], len(self.compiled))

    def on_end(self, ev) -> None:
        pass


def _place_bodies(result) -> None:
    from .algorithms import frame_placements_batch
    model = result.model
    frame_placements_batch(model, Data(model), np.ascontiguousarray(result.ik.q[:2], dtype=float),
                           [b.name for b in model.bodies])


def _place_markers(result) -> None:
    from .algorithms import marker_positions_batch
    marker_positions_batch(result.model, Data(result.model), np.ascontiguousarray(result.ik.q[:2], dtype=float))


def _show_blade(result) -> None:
    """What the application computes to draw the demo's blade: its surface and bending."""
    from .analysis.rod_loads import bending_moment, bending_strain
    from .display.rod_surface import rod_surface
    model = result.model
    Q = np.ascontiguousarray(result.ik.q[:2], dtype=float)
    data = Data(model)
    for rod in model.rods:
        rod_surface(model, data, rod.name, Q[0])
        bending_moment(model, rod.name, result.dynamics.tau[:2])
        bending_strain(model, rod.name, Q)


def _show_bodies_and_blade(result) -> None:
    """What the application computes to draw the demo's bodies, markers and blade."""
    _place_bodies(result)
    _place_markers(result)
    _show_blade(result)


def _show_muscles(result) -> None:
    """What the application computes to draw the demo's muscles: their paths (64 of the 81 kernels drawing the demo
    compiles on an empty cache, after the bodies' and the blade's; called first, 74: the kinematics pass and the
    joints' kernels too; numba 0.68, counted by :func:`counting_compiles`)."""
    from .muscles.path.geometry import MuscleGeometry
    MuscleGeometry(result.model, threads=1).polylines(np.ascontiguousarray(result.ik.q[0], dtype=float))


def _show_demo(result) -> None:
    """What the application computes to draw the demo: bodies, blade and muscles."""
    _show_bodies_and_blade(result)
    _show_muscles(result)


class _CompileRefused(Exception):
    """A kernel would have had to be compiled (:func:`loads_cached`)."""


class _CompileRefuser(event.Listener):
    """Stops numba's compilations started in one thread, before they start (numba's cache is looked up first)."""

    def __init__(self):
        self._thread = threading.get_ident()

    def on_start(self, ev) -> None:
        if threading.get_ident() == self._thread:
            raise _CompileRefused(ev.data["dispatcher"].py_func.__qualname__)

    def on_end(self, ev) -> None:
        pass


def loads_cached(work: Callable[[], None]) -> bool:
    """Run ``work`` with every compilation numba would start in this thread refused: True when it ran to its end
    (each kernel it called was compiled in this process already or loaded from numba's cache), False when a kernel
    would have had to be compiled (``work`` stopped there, nothing compiled; other threads compile as usual)."""
    outer, _refusing.active = getattr(_refusing, "active", False), True
    try:
        with event.install_listener("numba:compile", _CompileRefuser()):
            work()
    except _CompileRefused:
        return False
    finally:
        _refusing.active = outer
    return True


def muscle_paths_cached(result) -> bool:
    """Whether the kernels that draw ``result``'s muscle paths are loaded (from numba's cache, or compiled in this
    process already); loads them if they are, compiles nothing (:func:`loads_cached`)."""
    return loads_cached(lambda: _show_muscles(result))


def compile_muscle_paths(result=None) -> None:
    """Compile (or load) the kernels that draw the bodies and the blade, then those that draw muscle paths, on
    ``result`` (an AnalysisResult; default the demo's), all in this process (where :func:`compile_display`'s children
    could not)."""
    if result is None:
        from .demo import demo_results
        result = demo_results()[0]
    _show_bodies_and_blade(result)
    _show_muscles(result)


HELPER = ("-c", "from engine.child_process import die_with_parent; die_with_parent(); "
                "from engine.warmup import compile_display_helper; compile_display_helper()")
"""The Python arguments of :func:`compile_display`'s helper process."""


COMPILE = b"compile\n"
"""What the window's process writes to its compile child's standard input when it found a kernel of the 3D view
missing from numba's cache (:func:`told_to_compile`); it closes that input without a word when it found them all."""


def told_to_compile() -> bool:
    """The compile child's question to the window's process, which checks the 3D view's kernels itself as it loads
    them to draw (``display_steps``): waits for its word on this process's standard input; True when it found a kernel
    missing from numba's cache (:data:`COMPILE`), False when it found them all (end of input)."""
    import sys
    return sys.stdin.buffer.readline() == COMPILE


def general_kernel_indexed() -> bool:
    """Whether numba's cache indexes the general joint's kernel for the pass's argument types, from its index file alone
    (numba's reader checks the sources' stamp and numba's version; about 1 ms, where loading the kernel initialises
    numba's code generation, about 0.4 CPU-s): a later launch, not a first one. :func:`compile_display` only decides by
    it whether to ask the window's process first; a wrong answer costs time, never a stale kernel (the window's process
    loads every kernel it draws, and this process checks them all before it compiles). False when the index cannot be
    read here (numba's cache off or laid out otherwise, a damaged file): decided as on a first launch."""
    from .algorithms.joint_kernels import joint_kernel, joint_signatures
    try:
        index = joint_kernel("general")._cache._cache_file._load_index()
    except Exception:           # any reason: the exact check that follows (``compile_display``) decides
        return False
    signature = joint_signatures()["general"]
    return any(key[0] == signature for key in index)


def compile_display(result=None, needed: Callable[[], bool] | None = None) -> None:
    """The work of the compile child of the application's launch (``hybridgui.muscle_kernels``), started before the
    window's process reads the demo: nothing when the kernels that draw ``result`` (default the demo) are all
    in numba's cache; else they are compiled into it by two processes, one for each core. When the general joint's
    kernel is indexed in the cache (:func:`general_kernel_indexed`: not a first launch), ``needed()``
    (:func:`told_to_compile`), if given, says whether anything is missing: the window's process loads every kernel of
    the 3D view from the cache to draw, so it checks them exactly anyway, and this process neither reads the demo nor
    loads them to check them a second time (it costs about 0.5 CPU-s instead of 1.4); without ``needed`` it checks
    them itself. This one starts a helper (:data:`HELPER`, :func:`compile_display_helper`; at once when the general joint's kernel is not cached, before
    the demo is read) and compiles the general and the simple joints' kernels while
    the helper compiles the PCS joint's, then the kinematics pass and the bodies' kernels once the PCS joint's is
    cached, and the bodies' placements; the helper goes on with the markers' positions, the blade's and (at a lower
    priority: the window's process needs the core) the muscle paths' kernels, and this process ends with it (the
    window's process loads the bodies' and the blade's kernels as soon as they are cached, the muscle paths' when
    this process ends). Should the helper fail, this process compiles what is left."""
    from .algorithms.joint_kernels import compile_joint_kernel
    from .child_process import child_environment, python_command, start_child, wait_child
    if needed is not None and general_kernel_indexed() and not needed():
        return
    helper = None
    if not loads_cached(lambda: compile_joint_kernel("general")):     # a first launch: the helper starts at once
        helper = start_child(python_command(*HELPER), env=child_environment(), capture=False)
    try:
        if result is None:
            from .demo import demo_results
            result = demo_results()[0]
        if helper is None and loads_cached(lambda: _show_demo(result)):
            return
        if helper is None:
            helper = start_child(python_command(*HELPER), env=child_environment(), capture=False)
        compile_joint_kernel("general")
        compile_joint_kernel("simple")
        while helper.poll() is None and not loads_cached(lambda: compile_joint_kernel("pcs")):
            time.sleep(POLL)
        _place_bodies(result)
        code = wait_child(helper).returncode
    finally:
        if helper is not None and helper.poll() is None:
            helper.kill()
            helper.wait()
    if code != 0:
        _show_demo(result)


def compile_display_helper() -> None:
    """The helper process of :func:`compile_display`: the PCS joint's kernel, then (once the kinematics pass is
    cached, which :func:`compile_display` compiles meanwhile) the markers' and the blade's kernels, then at a lower
    priority the muscle paths', for the demo's types. Stops waiting when its parent ends."""
    import os

    from .algorithms import forward_kinematics
    from .algorithms.joint_kernels import compile_joint_kernel
    from .demo import demo_results
    parent = os.getppid()
    compile_joint_kernel("pcs")
    result = demo_results()[0]
    model, data = result.model, Data(result.model)
    q = np.ascontiguousarray(result.ik.q[0], dtype=float)
    while os.getppid() == parent and not loads_cached(lambda: forward_kinematics(model, data, q)):
        time.sleep(POLL)
    _place_markers(result)
    _show_blade(result)
    if hasattr(os, "nice"):
        os.nice(10)
    _show_muscles(result)


@contextmanager
def counting_compiles(on_compile: Callable[[str, int], None] | None = None):
    """Within the block, numba's compilations in this process are counted: yields the list of the kernels
    compiled (grown as they start), and calls ``on_compile(kernel name, count)`` for each."""
    counter = _CompileCounter(on_compile)
    with event.install_listener("numba:compile", counter):
        yield counter.compiled


def display_steps(on_compile: Callable[[str, int], None] | None = None,
                  defer_muscles: Callable[[object], Callable[[], bool]] | None = None,
                  meanwhile: Callable[[], None] | None = None):
    """Generator step: yields :class:`Progress` (stage ``"preparing"``) and returns a :class:`WarmUpReport`. Reads
    the demo and runs what the application computes to draw it, which compiles (or loads from numba's cache) the
    kernels of the 3D view; ``on_compile(kernel name, count)`` is called as each kernel starts compiling. The report
    holds the demo read.

    ``defer_muscles``: when drawing the demo's muscles would compile a kernel (:func:`muscle_paths_cached`, checked
    first: the muscle paths' kernels and the kinematics pass with the joints' kernels they call, 74 kernels on an
    empty cache), ``defer_muscles(result)`` (the demo's result) is called as soon as that is known, and the 3D view's
    kernels are left to it (the compile child running :func:`compile_display`, which caches the bodies' and the
    blade's kernels first). It returns a callable telling whether that child still runs: the bodies' and the
    blade's kernels are awaited from the cache while it does (polled every ``POLL`` s; compiling them here too would
    take the core the child uses), then loaded, or compiled here if the child ended without them. The muscle paths'
    kernels are then neither loaded nor compiled here: the caller loads them once the child has ended
    (``hybridgui.muscle_kernels``). Without ``defer_muscles`` all are compiled or loaded here; when the check finds
    the muscles' kernels cached it has loaded them, and the bodies' and the blade's are compiled or loaded here.

    ``meanwhile()`` is called once the child is started (or found not needed), before the bodies' kernels: the
    caller's work that the child's compilation overlaps (the application imports its main window)."""
    from .demo import demo_results
    start = time.perf_counter()
    child_running = None
    with counting_compiles(on_compile) as compiled:
        yield Progress("preparing", 0.0, "reading the demo")
        result, settings = demo_results()
        yield Progress("preparing", 0.2, "kernels of the 3D view")
        if defer_muscles is not None and not muscle_paths_cached(result):
            child_running = defer_muscles(result)
        if meanwhile is not None:
            meanwhile()
        yield Progress("preparing", 0.3, "kernels of the 3D view: bodies and blade")
        while child_running is not None and child_running() and not loads_cached(lambda: _show_bodies_and_blade(result)):
            time.sleep(POLL)
        _show_bodies_and_blade(result)
        if defer_muscles is None:
            _show_muscles(result)
        yield Progress("preparing", 1.0, "kernels ready")
    return WarmUpReport(list(compiled), time.perf_counter() - start, (result, settings))


def warm_up_steps(on_compile: Callable[[str, int], None] | None = None, plugins: bool = True):
    """Generator step: yields :class:`Progress` (stage ``"preparing"``) and returns a :class:`WarmUpReport`.
    Runs the demo's display computations, its analysis on its first ``WINDOW`` s, static optimisation with reserves
    on it (``engine.muscles.forces.warmup``: what a lab's analysis with reserve actuators reaches) and (``plugins``) the
    ``hybridlab.warmup`` entry points on its result, which compiles (or loads from numba's cache) every kernel they
    call; ``on_compile(kernel name, count)`` is called as each kernel starts compiling. Without ``plugins``, only the
    engine's own kernels: what a batch worker's analyses call (the skin's warm-up builds a skin with VTK)."""
    from .analysis.pipeline import analysis_steps
    from .demo import demo_results
    from .muscles.forces.warmup import warm_up as static_optimisation_warm_up
    start = time.perf_counter()
    with counting_compiles(on_compile) as compiled:
        yield Progress("preparing", 0.0, "reading the demo")
        result, settings = demo_results()
        yield Progress("preparing", 0.05, "kernels of the 3D view")
        _show_demo(result)
        t0 = float(result.trial.markers.time[0])
        settings = replace(settings, ik=replace(settings.ik, start=t0, end=t0 + WINDOW))
        for p in analysis_steps(result.model, result.trial, settings):
            yield Progress("preparing", 0.1 + 0.75 * p.fraction, f"kernels of the analysis: {p.stage}")
        yield Progress("preparing", 0.85, "kernels of static optimisation with reserves")
        static_optimisation_warm_up(result)
        found = sorted(entry_points(group=PLUGINS), key=lambda ep: ep.name) if plugins else []
        for k, plugin in enumerate(found):
            yield Progress("preparing", 0.9 + 0.1 * k / len(found), f"kernels of {plugin.name}")
            plugin.load()(result)
        yield Progress("preparing", 1.0, "kernels ready")
    return WarmUpReport(list(compiled), time.perf_counter() - start)
