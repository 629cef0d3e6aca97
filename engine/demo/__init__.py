"""The bundled demo: the default athlete model and a simulated running trial with known ground truth.

The files live in the ``hybridlab_resources`` package (the repository's ``resources/``):

* ``athlete.yaml``: the default model (``engine.demo.athlete.build_athlete``), muscles included;
* ``demo/run.c3d``: markers, two type-2 force plates and two EMG channels, Z-up lab;
* ``demo/truth.npz``: the simulation's ground truth (``engine.demo.truth``);
* ``demo/results.hlr``: the pipeline's results on the demo (``engine.io.results_file``),
  so the application shows them at first launch without computing.

``hybrid make-demo`` regenerates all four (``engine.demo.generate``).
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from ..errors import DataError


@dataclass(frozen=True)
class DemoFiles:
    """Paths of the shipped demo files."""

    model: Path
    trial: Path
    truth: Path
    results: Path


def demo_files() -> DemoFiles:
    """Where the shipped demo files are (they need not exist: ``hybrid make-demo`` writes them)."""
    root = Path(str(files("hybridlab_resources")))
    return DemoFiles(root / "athlete.yaml", root / "demo" / "run.c3d", root / "demo" / "truth.npz",
                     root / "demo" / "results.hlr")


def _require(path: Path) -> Path:
    if not path.is_file():
        raise DataError("is missing from the installation; run 'hybrid make-demo' to regenerate the demo", file=path)
    return path


# Hz: the coordinates' low-pass, chosen against the demo's truth among 7-11 Hz: below it the estimate misses the
# impacts, above it the markers' noise grows (6 Hz suits walking)
CUTOFF = 9.5
ROD_ENERGY_WEIGHT = 1e-5   # m^2/J: IK prior on the blade's strains, where the markers inform them less than it
# W1 of the QP's floating-base rows, a tenth of the blade's and joints' rows: the base rows carry the whole body's
# accelerations, the input the 1 mm marker noise disturbs most, while the blade's rows carry its strains; chosen
# on the median over noise draws of the demo's recording (benchmarks/demo_noise_draws.py), not on one draw
W_BASE = 0.1


def stance_phases(events) -> dict:
    """``{'left stance k': (t0, t1), 'right stance k': ...}``: each limb's stances, from its Foot Strike to its
    next Foot Off (in the demo's running every stance is on one limb)."""
    phases = {}
    for context in ("Left", "Right"):
        strikes = sorted(e.time for e in events if e.label == "Foot Strike" and e.context == context)
        offs = sorted(e.time for e in events if e.label == "Foot Off" and e.context == context)
        k = 0
        for t0 in strikes:
            t1 = next((t for t in offs if t > t0), None)
            if t1 is not None:
                k += 1
                phases[f"{context.lower()} stance {k}"] = (t0, t1)
    return phases


def demo_settings(trial=None):
    """The analysis settings of the demo: its lab axes, a ``CUTOFF`` Hz filter (the ends extrapolated), GRF
    estimation with the blade's elastic model, and muscles with its EMG normalised by the channels' MVC
    amplitude and compared per stance (from ``trial``'s events)."""
    from ..analysis.pipeline import AnalysisSettings
    from ..analysis.ik import IKSettings
    from ..analysis.qp_id import QPSettings
    from ..muscles.emg.processing import EMGProcessing
    from ..muscles.pipeline import MusclePipelineSettings
    from .emg_synthesis import MVC_AMPLITUDE, RECORDED
    muscles = MusclePipelineSettings(emg=EMGProcessing(mvc={name: MVC_AMPLITUDE for name in RECORDED}),
                                     phases=stance_phases(trial.events) if trial is not None else None)
    # the blade is a force sensor: its strains tell the QP its load (rod forces pulled to the elastic model);
    # the foot lands sliding: its contact points still move at over 1 m/s just after touch-down
    qp = QPSettings(rod_mode="elastic", w_elastic=100.0, speed=2.5, w_base=W_BASE)
    # 1 mm marker noise swamps the twist of the blade's short tip segments and how its bending shares itself between
    # segments: hold those strains to the blade's elastic energy (IK prior, in the directions the markers inform
    # less than it; see IKSettings.rod_energy_weight)
    ik = IKSettings(rod_energy_weight=ROD_ENERGY_WEIGHT)
    # the trial starts and ends in flight: keep the ballistic accelerations at its ends
    return AnalysisSettings(axes="Z-up, X-forward", ik=ik, cutoff=CUTOFF, edges="extrapolate", estimate_grf=True, qp=qp,
                            muscles=True, muscle_settings=muscles, loads_cutoff=CUTOFF)


def demo_inputs_from(files: DemoFiles):
    """``(model, trial, settings)`` of the demo files ``files``."""
    from ..io.open import open_model
    from ..io.open_trial import open_trial
    trial = open_trial(_require(files.trial))
    return open_model(_require(files.model)), trial, demo_settings(trial)


def demo_inputs():
    """``(model, trial, settings)`` of the shipped demo, as ``hybrid analyze --demo`` analyses them."""
    return demo_inputs_from(demo_files())


def demo_truth():
    """The shipped demo's ground truth (:class:`engine.demo.truth.Truth`)."""
    from .truth import load_truth
    return load_truth(_require(demo_files().truth))


def demo_results():
    """``(result, settings)``: the shipped analysis of the demo (an AnalysisResult and its settings)."""
    from ..io.results_file import load_result
    return load_result(_require(demo_files().results))
