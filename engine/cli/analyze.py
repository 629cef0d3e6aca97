"""``hybrid analyze``: the whole pipeline on a trial (IK, ID, GRF estimate, muscles), written to a folder."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from ..analysis.metrics import format_table
from ..io.analysis_outputs import OUTPUT_NAMES, expected_bytes, nan_statistic, write_outputs
from ..analysis.failure_advice import failure_advice
from ..analysis.pipeline import AnalysisSettings, analysis_steps
from ..progress import run
from ..demo import CUTOFF
from ..errors import SettingsError
from ..io.output_folder import output_folder
from . import c3d_timeout
from ..warmup import counting_compiles
from .progress_bar import ProgressBar


def add_parser(sub) -> None:
    p = sub.add_parser("analyze", help="run IK, inverse dynamics (and GRF estimation, muscles) on a trial",
                       description="Inverse kinematics, kinematic filtering, inverse dynamics with the measured "
                                   "loads and/or the QP estimate of the ground reactions, validation against "
                                   "the force plates, and muscle forces. Results are written in OpenSim's "
                                   "formats (ik.mot, ik_marker_errors.sto, ik_marker_residuals.sto, id.sto, "
                                   "grf_measured.mot, grf_off_plates.mot, grf_estimated.mot, id_estimated.sto) with "
                                   "metrics.json (and contacts.yaml when contact candidates were generated). "
                                   "With force plates the torques (id.sto) come from the measured loads; "
                                   "the estimate from the motion alone is scored against them.")
    p.add_argument("model", nargs="?", help="model file (.yaml or .osim); or the trial alone (TRIAL.c3d): the "
                                            "default athlete is made for it, its marker protocol recognised, "
                                            "scaled and placed on --static or the trial's first frames")
    p.add_argument("trial", nargs="?", help="trial file (.c3d or .trc)")
    p.add_argument("--demo", action="store_true", help="analyse the bundled demo (model and trial)")
    p.add_argument("--grf", help="GRF .mot for a TRC trial (with --external-loads)")
    p.add_argument("--external-loads", help="OpenSim ExternalLoads .xml: which GRF columns act on which body")
    p.add_argument("--ik-setup", help="OpenSim IK setup .xml: marker weights, coordinate tasks, time range (the "
                                      "only OpenSim tool setup analyze reads; 'hybrid run' runs ID and static "
                                      "optimisation setups)")
    p.add_argument("--contacts", help="contact-candidate file to add to the model (format hybridlab-contacts); "
                                      "without one, a model that has none gets candidates generated under its feet "
                                      "and on its blade when the ground reactions are estimated (written to "
                                      "contacts.yaml, which can be edited and given here)")
    p.add_argument("--static", help="static trial (.c3d or .trc; standing, feet flat) on which generated contact "
                                    "candidates are calibrated (default: the trial's stances on its plates)")
    p.add_argument("--height", type=float, metavar="M",
                   help="with a trial alone: the subject's height, m; it overrides the trial's SUBJECT:Height as the "
                        "stature that gives the knee and ankle widths the trial does not (Heinz et al. 2003's "
                        "proportions); the notes say which was used")
    p.add_argument("--mass", type=float, metavar="KG",
                   help="with a trial alone: the subject's body mass, kg; it overrides the trial's (SUBJECT:WEIGHT, "
                        "PROCESSING:Bodymass) as the scaled model's mass, which the moments (N m/kg) and ground "
                        "reactions (%%BW) are normalised by; the notes say which was used")
    p.add_argument("--axes", help="lab axes of the trial, e.g. 'Z-up, X-forward' (default: proposed from the data)")
    p.add_argument("--start", type=float, help="start time, s")
    p.add_argument("--end", type=float, help="end time, s")
    p.add_argument("--filter", type=float, metavar="HZ",
                   help=f"low-pass cut-off of the coordinates, Hz (default 6, the demo {CUTOFF:g}; 0 for none)")
    p.add_argument("--filter-loads", type=float, metavar="HZ",
                   help="low-pass cut-off of the estimated torques and forces after inverse dynamics, Hz; the "
                        f"plates compared pass both filters (default none, the demo {CUTOFF:g}; 0 for none)")
    p.add_argument("--estimate-grf", action="store_true", help="estimate ground reactions by QP inverse dynamics")
    p.add_argument("--measured-loads-only", action="store_true",
                   help="inverse dynamics with the plates' loads only, as OpenSim's ID tool (default: a stance no "
                        "plate measured gets the QP's estimate, said in the notes)")
    p.add_argument("--muscles", action="store_true", help="estimate muscle forces")
    p.add_argument("--actuators", metavar="FILE", action="append",
                   help="with --muscles: an OpenSim ForceSet file of residual and reserve actuators (CoordinateActuator, "
                        "PointActuator, TorqueActuator), as a static optimisation setup's force_set_files; repeat for "
                        "more files")
    p.add_argument("--objective", choices=("seed", "opensim"),
                   help="with --muscles: the seed's tracking QP (eqs. 36-37, default) or OpenSim's static optimisation "
                        "(sum of squared activations, torques matched exactly)")
    p.add_argument("--activation-exponent", type=float, metavar="P",
                   help="with --muscles: OpenSim's activation exponent (2, the only one solved; a setup's value)")
    p.add_argument("--no-muscle-physiology", action="store_true",
                   help="with --muscles: forces bounded by F_max alone, as OpenSim's use_muscle_physiology false "
                        "(default: the Hill model's force-length-velocity bounds)")
    p.add_argument("--emg", metavar="FILE",
                   help="EMG for the muscle step from another file: .anc (Motion Analysis), .c3d, .mot/.sto or .csv "
                        "(default: the trial's own EMG channels)")
    p.add_argument("--emg-channels", metavar="NAMES",
                   help="comma-separated analog channels that hold EMG, in --emg's file or else in a C3D trial "
                        "(default: the channels named as EMG or muscles)")
    p.add_argument("--emg-muscles", metavar="CH=MUSCLE,...",
                   help="which muscle each EMG channel records, e.g. 'EMG1=soleus_r,EMG2=tib_ant_r' (default: "
                        "channels named as the model's muscles)")
    p.add_argument("--out", default="hybrid-results", help="output folder (default: hybrid-results)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    c3d_timeout.add_option(p)
    p.set_defaults(run=run_command)


COMMAND_LINE = ("with --height on the command line", "with --mass on the command line")
"""Where ``--height`` and ``--mass`` were given when the caller does not say (the notes' words after "given")."""


def _inputs(args, open_model=None, given_in=None):
    if args.demo:
        if args.model or args.trial:
            raise SettingsError("--demo analyses the bundled demo; give either --demo or MODEL and TRIAL")
        _check_body(args, False)
        from ..demo import demo_inputs
        return demo_inputs()
    from ..io.open import open_model as read_model
    from ..io.open_trial import TRIAL_SUFFIXES, open_trial
    trial_only = bool(args.model and not args.trial and Path(args.model).suffix.lower() in TRIAL_SUFFIXES)
    if not (args.model and (args.trial or trial_only)):
        raise SettingsError("give MODEL and TRIAL, or a TRIAL alone (or --demo)")
    _check_body(args, trial_only)
    model = None if trial_only else (open_model or read_model)(args.model)
    channels = _names(args.emg_channels)
    trial = open_trial(args.model if trial_only else args.trial, grf=args.grf, external_loads=args.external_loads,
                       emg_channels=None if args.emg else channels,
                       c3d_timeout=args.c3d_timeout)
    if args.emg:
        from ..io.emg_files import read_emg_file, trial_with_emg
        trial = trial_with_emg(trial, read_emg_file(args.emg, channels))
    settings = AnalysisSettings(axes=args.axes)
    if args.static:
        settings.static_trial = open_trial(args.static, c3d_timeout=args.c3d_timeout)
    if trial_only:
        from ..demo.for_trial import model_for_trial
        from ..trial.body_measures import Given
        given = Given(args.height, args.mass, *((given_in, given_in) if given_in else COMMAND_LINE))
        made = model_for_trial(trial, settings.static_trial, args.axes, with_muscles=args.muscles, given=given)
        model, trial, settings.static_trial = made.model, made.trial, made.static
        settings.ik.notes = made.notes
    if args.contacts:
        from ..io.contacts_file import load_contacts
        model = load_contacts(args.contacts, model)
    if args.external_loads:
        from ..io.external_loads import load_external_loads
        loads = load_external_loads(args.external_loads, args.grf)
        settings.plate_bodies = {load.name: load.body for load in loads.loads}
    if args.ik_setup:
        from ..io.setup_xml import ik_settings_from_setup, read_ik_setup
        settings.ik = ik_settings_from_setup(model, read_ik_setup(args.ik_setup))
    return model, trial, settings


def _check_body(args, trial_only: bool) -> None:
    """SettingsError unless ``--height`` and ``--mass`` are absent, or given with a trial alone as a stature in metres
    and a body mass in kilograms within their plausible ranges (``engine.trial.body_measures``)."""
    from ..trial.body_measures import check_height, check_mass
    for option, value, check in (("--height", args.height, check_height), ("--mass", args.mass, check_mass)):
        if value is None:
            continue
        if not trial_only:
            what = "stature" if option == "--height" else "body mass"
            raise SettingsError(f"{option} is the {what} of the default model made for a trial alone (TRIAL.c3d); a "
                                "MODEL is analysed as given (scale it with 'hybrid scale')", option)
        check(value, option, option)


def _muscle_settings(args):
    """The muscle step's settings the options give (None: the defaults); SettingsError for a muscle option
    without --muscles."""
    from ..muscles.pipeline import MusclePipelineSettings
    from ..muscles.forces.reserves import read_actuator_files
    from ..muscles.forces.static_optimization import MuscleForceSettings
    given = {"--actuators": args.actuators, "--objective": args.objective,
             "--activation-exponent": args.activation_exponent, "--no-muscle-physiology": args.no_muscle_physiology}
    named = [option for option, value in given.items() if value not in (None, False)]
    if named and not args.muscles:
        raise SettingsError(f"{', '.join(named)} set the muscle step: add --muscles", named[0])
    if not named and not args.emg_muscles:
        return None
    forces = MuscleForceSettings(objective=args.objective or "seed", muscle_physiology=not args.no_muscle_physiology,
                                 activation_exponent=2.0 if args.activation_exponent is None
                                 else args.activation_exponent,
                                 reserves=read_actuator_files(args.actuators) if args.actuators else None)
    return MusclePipelineSettings(forces=forces, emg_muscles=_mapping(args.emg_muscles) if args.emg_muscles else None)


def _names(text):
    return None if not text else [n.strip() for n in text.split(",") if n.strip()]


def _mapping(text) -> dict:
    pairs = [item.split("=", 1) for item in _names(text)]
    if any(len(p) != 2 or not p[0].strip() or not p[1].strip() for p in pairs):
        raise SettingsError(f"--emg-muscles takes CHANNEL=MUSCLE pairs separated by commas, got {text!r}")
    return {a.strip(): b.strip() for a, b in pairs}


def _cutoff(value: float, option: str) -> float | None:
    """A cut-off option's value: None for 0 (no filter); SettingsError unless finite and positive (the
    analysis then checks it against the trial's rate)."""
    if value == 0:
        return None
    if not (np.isfinite(value) and value > 0):
        raise SettingsError(f"{option} must be a positive number of Hz, or 0 for no filter; got {value}")
    return value


def run_command(args) -> int:
    model, trial, result, truth, count = analyse_to_folder(args)
    _print_summary(model, trial, result, truth)
    print(f"wrote {count} files to {Path(args.out).resolve()}")
    return 0


def parse_arguments(argv) -> argparse.Namespace:
    """``hybrid analyze``'s arguments ``argv`` (after the command's name) parsed as the command parses them."""
    parser = argparse.ArgumentParser(prog="hybrid")
    add_parser(parser.add_subparsers())
    return parser.parse_args(["analyze", *argv])


def analyse_to_folder(args, also=None, open_model=None, given_in: str | None = None):
    """The command's work on parsed arguments: inputs read, the analysis run and its files written into
    ``args.out`` as a unit (``engine.io.output_folder``). ``also(result, settings, staging)`` writes further files
    into the same unit and returns their paths (``hybrid batch``'s record of the run); ``open_model(path)`` reads
    the model file (default ``engine.io.open.open_model``; ``hybrid batch``'s workers keep the models they read);
    ``given_in`` where ``--height`` and ``--mass`` were given (:func:`analysis_inputs`).
    Returns ``(model, trial, result, truth, files written)``."""
    model, trial, settings = analysis_inputs(args, open_model, given_in)
    inputs = (args.model, args.trial, args.grf, args.external_loads, args.ik_setup, args.contacts, args.static)
    said: list = []
    with output_folder(args.out, OUTPUT_NAMES, expected_bytes(model, trial, settings.muscles), inputs,
                       said) as staging:
        for line in said:
            print(line)
        result, truth = _analyse(args, model, trial, settings)
        count = len(write_outputs(result, staging, truth=truth))
        if also is not None:
            count += len(also(result, settings, staging))
    return model, trial, result, truth, count


def analysis_inputs(args, open_model=None, given_in: str | None = None):
    """The model, trial and analysis settings the command line gives (what the command analyses; ``hybrid batch``
    and the application's study browser rebuild a trial's with it); the model file read by ``open_model(path)``
    (default ``engine.io.open.open_model``); ``given_in`` where ``--height`` and ``--mass`` were given, as the notes
    say it after "given" (e.g. "for subject s01 in the study /data/study.yaml"; None: :data:`COMMAND_LINE`)."""
    cutoff, loads_cutoff = (None if v is None else _cutoff(v, o) for v, o in ((args.filter, "--filter"),
                                                                             (args.filter_loads, "--filter-loads")))
    model, trial, settings = _inputs(args, open_model, given_in)
    if args.start is not None:
        settings.ik.start = args.start
    if args.end is not None:
        settings.ik.end = args.end
    if args.filter is not None:
        settings.cutoff = cutoff
    if args.filter_loads is not None:
        settings.loads_cutoff = loads_cutoff
    settings.estimate_grf = settings.estimate_grf or args.estimate_grf
    if args.measured_loads_only:
        settings.estimate_unmeasured = False
    settings.muscles = settings.muscles or args.muscles
    settings.muscle_settings = _muscle_settings(args) or settings.muscle_settings
    return model, trial, settings


def _analyse(args, model, trial, settings):
    """Run the analysis (and the demo's comparison with its truth)."""
    bar = ProgressBar(not args.quiet)
    stage = []

    def report(progress):
        stage[:] = [progress.stage]
        bar(progress)
    try:        # a first run compiles the kernels before the first report: the bar says so meanwhile
        with counting_compiles(lambda kernel, count: bar.note(f"compiling the kernels, first run only ({count})")):
            result = run(analysis_steps(model, trial, settings), report)
    except Exception as exc:
        advice = failure_advice(exc, (stage or [None])[0], settings)
        if advice:          # a numerical failure: which setting to change, in words
            print(f"hybrid analyze: {advice}", file=sys.stderr)
        raise
    finally:
        bar.close()
    truth = None
    if args.demo:
        from ..demo import demo_truth
        from ..demo.truth import truth_metrics
        truth = truth_metrics(result, demo_truth(), settings.forward)
    return result, truth


def _print_summary(model, trial, result, truth) -> None:
    print(f"model '{model.name}', trial {Path(trial.source or '').name}: {result.ik.n_frames} frames "
          f"({result.ik.time[0]:.3f}-{result.ik.time[-1]:.3f} s)")
    print(f"IK: marker RMS mean {1000 * nan_statistic(np.nanmean, result.ik.rms):.2f} mm, "
          f"max {1000 * nan_statistic(np.nanmax, result.ik.max):.2f} "
          f"mm; {result.ik.n_frames / max(result.ik.seconds, 1e-9):.0f} frames/s")
    for note in result.notes:
        print(f"note: {note}")
    if result.metrics:
        print("Ground reaction estimate against the force plates (seed eqs. 38-39):")
        print(format_table(result.metrics))
    if truth is not None:
        print("Against the demo's ground truth (worst over coordinates, groups and plates):")
        print(f"  blade strains RMS {truth['rod_strain_rms_pct_range']:.1f}% of range")
        estimated = truth["torque_source"] == "estimate"
        print(f"  joint torques {'of the estimate from the motion alone' if estimated else 'with the measured loads'}"
              f" RMS {_worst(truth, 'torque_rms_pct_range')} "
              f"({'id_estimated.sto' if 'measured_loads_torque_rms_pct_range' in truth else 'id.sto'})")
        if "measured_loads_torque_rms_pct_range" in truth:
            print(f"  joint torques with the measured loads RMS {_worst(truth, 'measured_loads_torque_rms_pct_range')}"
                  " (id.sto)")
        if "grf_rrmse_pct" in truth:
            g, a = truth["grf_rrmse_pct"], truth["grf_rrmse_pct"]["all_groups"]
            print(f"  GRF estimate rRMSE vertical {g['vertical']:.1f}%, AP {g['ap']:.1f}%, ML {g['ml']:.1f}%; "
                  f"summed over the limbs vertical {a['vertical']:.1f}%, AP {a['ap']:.1f}%, ML {a['ml']:.1f}%")


def _worst(truth: dict, key: str) -> str:
    """'13.1% of range (subtalar_angle_l)': the worst coordinate of a torque score in ``truth``."""
    by = truth[f"{key}_by_coordinate"]
    name = max(by, key=by.get)
    return f"{by[name]:.1f}% of range ({name})"
