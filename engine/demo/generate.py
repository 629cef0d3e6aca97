"""``hybrid make-demo``: build the default model, simulate the demo trial, record it, analyse it.

Deterministic: the simulation has no randomness and the recording's noise comes from one seeded
generator (``SEED``), so running it again gives the same files, to the last bit where the arithmetic
kernels are the same. They are not across processors: OpenBLAS and numpy pick theirs by processor
(OpenBLAS's differ in summation order, numpy's AVX-512 exp, log and power from its AVX2 ones in the last
bit), and the contact simulation grows such differences to 6e-9 of its range (OpenBLAS's SkylakeX against
Haswell kernels), the muscle forces to 2e-9 (numpy's AVX-512 against AVX2 paths). ``hybrid make-demo``
therefore runs this in a process with both pinned (:data:`PINNED_ENVIRONMENT`; read when they load).
Steps (``make_demo`` is a generator step yielding Progress and returning the files written):

1. the model (``engine.demo.athlete``) saved as ``athlete.yaml``;
2. ``DURATION`` s of running in place from mid-flight (``engine.demo.run_simulation``), 1 kHz samples;
3. the muscle activity behind it and two EMG channels (``engine.demo.emg_synthesis``);
4. markers, force plates and events (``engine.demo.recording``) written as ``demo/run.c3d``;
5. the ground truth as ``demo/truth.npz`` (``engine.demo.truth``);
6. the whole analysis of the C3D file as read back (``engine.analysis.pipeline``) saved as
   ``demo/results.hlr``, which the application shows at first launch.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from ..progress import Progress
from ..io.c3d_write import write_c3d
from ..io.model_file import save_model
from ..tree import compile_tree
from . import DemoFiles, demo_files
from .athlete import HEIGHT, MASS, build_athlete
from .emg_synthesis import emg_signals, muscle_truth
from .recording import (ANALOG_RATE, MARKER_RATE, add_plate_noise, gait_events, lab_trial, marker_trajectories,
                        plate_loads)
from .run_simulation import simulate_running
from .truth import Truth, save_truth

START = -0.06        # s of the reference: mid-flight before the first touch-down
DURATION = 1.44      # s: two strides (two stances on each limb), from mid-flight to the blade's last take-off
SEED = 20261122
# the environment of a reproducible demo: OpenBLAS's Haswell kernels and numpy's AVX2 code paths (AVX2 and FMA: every
# x86-64 processor since 2013, Intel and AMD), one thread; the AVX-512 groups of numpy 1.26-2.x are named, unknown
# names are ignored. Elsewhere (ARM, other BLAS libraries) these have no effect.
PINNED_ENVIRONMENT = {"OPENBLAS_CORETYPE": "Haswell", "OPENBLAS_NUM_THREADS": "1",
                      "NPY_DISABLE_CPU_FEATURES": "AVX512F AVX512CD AVX512_KNL AVX512_KNM AVX512_SKX AVX512_CLX "
                                                  "AVX512_CNL AVX512_ICL AVX512_SPR X86_V4"}


def files_in(folder) -> DemoFiles:
    """The demo's file names under ``folder`` (the installed resources by default)."""
    if folder is None:
        return demo_files()
    folder = Path(folder)
    return DemoFiles(folder / "athlete.yaml", folder / "demo" / "run.c3d", folder / "demo" / "truth.npz",
                     folder / "demo" / "results.hlr")


def make_demo(folder, analyse: bool = True):
    """Generator step: write the demo files under ``folder`` (``demo_files()``'s folder to regenerate the shipped
    ones)."""
    files = files_in(folder)
    files.trial.parent.mkdir(parents=True, exist_ok=True)
    yield Progress("model", 0.0, "building the default athlete")
    model = build_athlete()
    save_model(model, files.model)
    yield Progress("simulation", 0.0, f"{DURATION} s of running in place")
    sim = simulate_running(model, DURATION, start=START)
    step = int(round(ANALOG_RATE / MARKER_RATE))
    yield Progress("muscles", 0.0, "muscle activity of the true motion")
    muscles = muscle_truth(model, sim.time, sim.q, sim.v, sim.tau)
    rng = np.random.default_rng(SEED)
    signals, excitations, emg_activations, emg_notes = emg_signals(model, muscles, ANALOG_RATE, rng)
    yield Progress("recording", 0.0, "markers, force plates, events")
    markers = marker_trajectories(model, sim.q[::step], rng)
    plates = add_plate_noise(plate_loads(model, sim.q, sim.forces, sim.contact_names), rng)
    events = gait_events(sim.time, sim.forces, sim.contact_names, model)
    subject = {"name": "HybridLab demo athlete", "height": f"{HEIGHT} m", "weight": f"{MASS} kg"}
    trial = lab_trial(markers, signals, events, subject)
    write_c3d(files.trial, trial, plates, description="HybridLab demo: running in place on a running blade "
                                                      "(simulated; ground truth in truth.npz)")
    groups = {c.name: c.group for c in model.contacts}
    save_truth(files.truth, Truth(
        time=sim.time, q=sim.q, v=sim.v, a=sim.a, tau=sim.tau, tau_rod=sim.tau_rod, contact_forces=sim.forces,
        contact_names=list(sim.contact_names), contact_groups=[groups[n] for n in sim.contact_names],
        coordinate_names=list(compile_tree(model).v_names), muscle_names=list(muscles.muscle_names),
        muscle_forces=muscles.forces, activations=muscles.activations, emg_names=list(excitations),
        excitations=np.column_stack([excitations[n] for n in excitations]),
        emg_activations=np.column_stack([emg_activations[n] for n in excitations]), notes=list(emg_notes)))
    for note in emg_notes:
        yield Progress("recording", 1.0, note)
    if analyse:
        yield from analyse_demo(files)
    return files


def analyse_demo(files: DemoFiles):
    """Generator step: the demo's recorded files ``files`` analysed and saved to ``files.results``, the wall-clock
    timings of the analysis left out (zero): they measure the machine, and two runs would differ in their bytes."""
    from ..analysis.pipeline import analysis_steps
    from ..io.results_file import save_result
    from . import demo_inputs_from
    model, trial, settings = demo_inputs_from(files)
    steps = analysis_steps(model, trial, settings)
    while True:
        try:
            p = next(steps)
        except StopIteration as done:
            result = done.value
            break
        yield Progress(f"analysis: {p.stage}", p.fraction, p.message)
    untimed = {"seconds": {}, "ik": replace(result.ik, seconds=0.0)}
    for part in ("classic", "qp"):
        if getattr(result, part) is not None:
            untimed[part] = replace(getattr(result, part), seconds=0.0)
    if result.muscles is not None:
        untimed["muscles"] = replace(result.muscles, result=replace(result.muscles.result, solve_time=0.0))
    save_result(replace(result, **untimed), files.results, settings)
