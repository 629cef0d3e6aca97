"""The whole motion analysis of one trial, as one generator step (seed Fig. 1).

trial -> model axes -> short gaps filled -> inverse kinematics -> filtered motion and
derivatives -> inverse dynamics with the measured loads (when force plates exist; stances
no plate measured estimated by the QP) -> QP inverse dynamics with ground-reaction
estimation from the motion alone (on request, or when there are no plates) -> validation
against the plates -> muscle forces (on request).

The analysis's joint torques (:attr:`AnalysisResult.dynamics`: ``id.sto``, the muscles) come
from the measured loads when the trial has them, as in OpenSim's and Visual3D's inverse
dynamics; the motion-only estimate (the seed's eq. 35) is then what the plates validate, its
torques reported beside them.

``analysis_steps`` yields :class:`~engine.progress.Progress` and returns an
:class:`AnalysisResult`; the command line prints it as a bar, the application runs it
in a worker thread and can stop it between chunks. Nothing is written here
(``engine.io.analysis_outputs`` writes the files).
"""
from __future__ import annotations

import time as _time
from dataclasses import dataclass, field, replace

import numpy as np

from ..errors import DataError, ModelError, SettingsError
from ..model.import_notes import import_notes
from ..tree import compile_tree
from ..trial.axes import to_model_axes
from ..trial.coverage import covered_range
from ..trial.filtering import ANALYSIS_HIGHEST_CUTOFF, check_cutoff, lowpass_plates
from ..trial.gaps import fill_gaps
from ..trial.outliers import remove_outliers
from ..trial.rigid_pairs import rigid_departures
from .contact_model import generated_contacts, static_calibration
from .derivatives import Motion, motion_from_coordinates
from .ik import IKResult, IKSettings, inverse_kinematics
from .ik_outliers import outliers_as_gaps
from .inverse_dynamics import IDResult, classic_inverse_dynamics
from .load_filter import lowpass_classic, lowpass_qp, pulling_note
from .ik_bounds import range_notes
from .ik_unobserved import describe_unobserved
from .marker_rigidity import nonrigid_markers
from .metrics import PlateMetric, grf_metrics
from ..progress import Progress, forward_progress
from .qp_id import QPResult, QPSettings, qp_inverse_dynamics
from .robust_weights import describe_flags


@dataclass
class AnalysisSettings:
    """Settings of a whole analysis (defaults documented on each step's settings).

    axes : lab axes of the trial, e.g. 'Z-up, X-forward'; None proposes them from the data.
    max_gap : marker gaps up to this long (s) are filled by cubic splines before IK, and so are the samples its
        robust loss down-weighted, before IK runs again (``engine.analysis.ik_outliers``; 0: neither).
    cutoff, order : the zero-lag Butterworth low-pass of the coordinates (Hz; order per pass).
    edges : how the filter extends the trial's ends, 'odd' (as OpenSim) or 'extrapolate' (keeps the
        accelerations at the ends; see ``engine.analysis.derivatives.motion_from_coordinates``).
    estimate_grf : run the QP inverse dynamics from the motion alone (always done when the trial has no plates).
    estimate_unmeasured : in the inverse dynamics with the measured loads, estimate by the QP (``qp``'s settings)
        the loads of contact groups that no loaded plate measures at a frame (a stance beside the plates; needs
        contact candidates; said in the notes); False applies the plates' loads only, as OpenSim's ID tool, and
        such a stance shows in the floating base's residual.
    plate_bodies : plate name -> body it acts on (from an ExternalLoads file); others are assigned
        to the nearest contact point.
    forward : the model's forward axis, for the AP/ML split of the validation.
    muscles : run the muscle-force estimation (``muscle_settings`` for its options).
    match_filter : compare the GRF estimate with the plates low-pass filtered like the coordinates
        (``cutoff``, ``order``): the estimate comes from filtered kinematics, so the plates' content above
        the cut-off would otherwise count as error (the usual practice; said in the notes).
    static_trial : a static trial (standing, feet flat; a Trial) on which the automatically generated contact
        candidates are calibrated (``engine.analysis.contact_model``); without it, on the stances over the plates.
    loads_cutoff : low-pass (Hz) of the estimated loads after inverse dynamics (torques, contact forces,
        residuals; ``engine.analysis.load_filter``), with ``order`` and ``edges``; None (default, as
        OpenSim's ID tool) leaves them as computed. Inverse dynamics is nonlinear in the coordinates, so
        their filter alone lets noise and motion leak into the loads' band; with ``match_filter`` the
        plates then pass both filters, so the plate scores of analyses with and without it are against
        different references (both filters together halve the power near 8 Hz for two 9.5 Hz passes).
    rigidity_check : leave out of the IK, with a note naming each and its evidence, the markers that do not move
        with the other markers of their segment (``engine.analysis.marker_rigidity``: mislabeled, misplaced or
        re-attached for the trial).
    """

    ik: IKSettings = field(default_factory=IKSettings)
    qp: QPSettings = field(default_factory=QPSettings)
    axes: str | None = None
    max_gap: float = 0.1
    cutoff: float | None = 6.0
    order: int = 3
    edges: str = "odd"
    estimate_grf: bool = False
    estimate_unmeasured: bool = True
    plate_bodies: dict = field(default_factory=dict)
    forward: tuple = (1.0, 0.0, 0.0)
    muscles: bool = False
    muscle_settings: object = None
    match_filter: bool = True
    loads_cutoff: float | None = None
    rigidity_check: bool = True
    static_trial: object = None


@dataclass
class AnalysisResult:
    """Everything one analysis produced; ``notes`` say what was decided along the way; ``reference_plates`` the
    force plates (model axes) the ground-reaction estimate was scored against in ``metrics``, filtered like
    the estimate when the settings asked for it (empty when nothing was scored); ``generated_contacts`` the names of
    the contact candidates the analysis generated for a model that had none (``engine.contacts``)."""

    model: object
    trial: object
    ik: IKResult
    motion: Motion
    classic: IDResult | None
    qp: QPResult | None
    metrics: list[PlateMetric]
    muscles: object = None
    notes: list = field(default_factory=list)
    seconds: dict = field(default_factory=dict)
    reference_plates: list = field(default_factory=list)
    generated_contacts: list = field(default_factory=list)

    @property
    def dynamics(self):
        """The inverse dynamics whose generalized forces are the analysis's joint torques (``id.sto``, the
        muscles' input): the one with the measured loads when the trial had force plates, else the QP's
        estimate from the motion alone; None if neither ran."""
        return analysis_dynamics(self.classic, self.qp)


def analysis_dynamics(classic, qp):
    """Of an analysis's two inverse dynamics, the one whose torques are the analysis's (see
    :attr:`AnalysisResult.dynamics`)."""
    return classic if classic is not None else qp


def _leave_out_nonrigid(model, markers, ik_settings):
    """``(IK settings with the non-rigid markers weighted 0, notes naming them)``."""
    used = [m.name for m in model.markers
            if ik_settings.marker_weights.get(m.name, ik_settings.default_weight) > 0]
    findings, _ = nonrigid_markers(model, markers, used)
    if not findings:
        return ik_settings, []
    weights = {**ik_settings.marker_weights, **{f.name: 0.0 for f in findings}}
    return (replace(ik_settings, marker_weights=weights),
            [f"{f.describe(markers.time)}: left out of inverse kinematics" for f in findings])


def check_settings(model, trial, s: AnalysisSettings) -> None:
    """SettingsError naming every setting of ``s`` that cannot be applied to ``model`` and ``trial``: cut-offs
    (finite, from ``LOWEST_CUTOFF`` to ``ANALYSIS_HIGHEST_CUTOFF`` of the marker rate), the filter's order and
    ends, the longest gap filled, and plates assigned to bodies the trial or model does not have."""
    rate = trial.markers.rate
    if s.cutoff is not None:
        check_cutoff(s.cutoff, rate, "the coordinates' cut-off", ANALYSIS_HIGHEST_CUTOFF)
    if s.loads_cutoff is not None:
        check_cutoff(s.loads_cutoff, rate, "the loads' cut-off", ANALYSIS_HIGHEST_CUTOFF)
    if isinstance(s.order, bool) or not isinstance(s.order, (int, np.integer)) or s.order < 1:
        raise SettingsError(f"the filter order must be a positive whole number, got {s.order!r}")
    if s.edges not in ("odd", "extrapolate"):
        raise SettingsError(f"the filter's ends must be 'odd' or 'extrapolate', got {s.edges!r}")
    if s.max_gap is not None and not (np.isfinite(s.max_gap) and s.max_gap >= 0):
        raise SettingsError(f"the longest gap to fill must be a non-negative number of seconds, got {s.max_gap!r}")
    names = {p.name for p in trial.plates}
    problems = [f"plate {plate!r} (the trial has {', '.join(sorted(names)) or 'no plates'})"
                for plate in s.plate_bodies if plate not in names]
    problems += [f"plate {plate!r} applied to {body!r} (no such body, frame or contact point in the model)"
                 for plate, body in s.plate_bodies.items() if body is not None and not _attached(model, body)]
    if problems:
        raise SettingsError("the plates' bodies name what does not exist: " + "; ".join(problems))


def _attached(model, name: str) -> bool:
    """Whether ``name`` is a body, frame, rod tip, marker or contact point of ``model``."""
    tree = compile_tree(model)
    return any(name in table for table in (tree.body_frame, tree.frame_index, tree.marker_frame, tree.contact_frame))


def analysis_steps(model, trial, settings: AnalysisSettings | None = None):
    """Generator step of the whole analysis of ``trial`` with ``model``. What reading the model file said
    (``engine.model.import_notes``, "model: ...") leads the notes, before the IK settings' own, so every caller's
    analysis carries it (the command line's, the application's, an OpenSim setup's)."""
    s = settings or AnalysisSettings()
    if not trial.markers.n_frames:
        raise DataError("the trial has no marker frames: nothing to analyse", file=trial.source)
    check_settings(model, trial, s)
    notes: list = [f"model: {note}" for note in import_notes(model)] + list(s.ik.notes)
    seconds: dict = {}
    trial, outliers = remove_outliers(trial)
    notes += outliers.notes() + rigid_departures(trial.markers)
    emg = []
    if s.muscles:
        from ..muscles.pipeline import emg_mapping
        emg = list(emg_mapping(model, trial, s.muscle_settings))
    start, end, cut = covered_range(trial, s.ik.start, s.ik.end, emg)
    if cut:
        notes += cut
        s = replace(s, ik=replace(s.ik, start=start, end=end))
    if trial.frame != "model":
        trial = to_model_axes(trial, s.axes)
    if s.max_gap:
        trial, report = fill_gaps(trial, max_gap_s=s.max_gap)
        if report.filled or report.left:
            notes.append(report.describe())
    ik_settings = s.ik
    if s.rigidity_check:
        ik_settings, rigidity_notes = _leave_out_nonrigid(model, trial.markers, ik_settings)
        notes += rigidity_notes
    ik = yield from forward_progress(inverse_kinematics(model, trial.markers, ik_settings), 0.0, 0.45)
    seconds["ik"] = ik.seconds
    if ik.robust_factors is not None and (ik.robust_factors < 1).any():
        notes += describe_flags(ik.marker_names, ik.time, ik.errors, ik.robust_factors, ik_settings.robust_loss)
        if s.max_gap:
            trial, said = outliers_as_gaps(trial, ik, s.max_gap)
            notes += said
            flagged = ik.robust_factors
            ik = yield from forward_progress(inverse_kinematics(model, trial.markers, ik_settings), 0.4, 0.45)
            ik = replace(ik, robust_factors=np.minimum(flagged, ik.robust_factors))     # still marked as flagged
            seconds["ik"] += ik.seconds
    if (ik.status == 0).any():
        notes.append(f"IK did not converge in {int((ik.status == 0).sum())} of {ik.n_frames} frames")
    if (ik.status < 0).any():
        notes.append(f"{int((ik.status < 0).sum())} frames had no fitted marker (pose held from the previous frame)")
    if ik.unobserved is not None:
        notes += describe_unobserved(compile_tree(model).v_names, ik.time, ik.unobserved, ik.status >= 0)
    notes += range_notes(model, ik)
    yield Progress("kinematic derivatives", 0.5, f"low-pass {s.cutoff} Hz")
    motion = motion_from_coordinates(model, ik.time, ik.q, s.cutoff, s.order, s.edges)
    plates = [p for p in trial.plates if p.loaded.any()]
    generated = []
    if not model.contacts and (s.estimate_grf or not plates):
        model, generated = yield from _contact_model(model, motion, plates, s, notes)
    elif s.static_trial is not None:
        notes.append("the static trial was not used: it calibrates generated contact candidates, and the model has "
                     "its own" if model.contacts else "the static trial was not used: no contact candidates were "
                     "needed (the plates give the loads and no estimate was asked for)")
    qp_settings = s.qp
    if qp_settings.floor == "auto" and plates and model.contacts and (s.estimate_grf or s.estimate_unmeasured):
        # the plates' surface is the floor (penetration of the contact points into shoe soles or
        # soft tissue would put an estimate from the kinematics too low)
        up = model.up
        qp_settings = replace(qp_settings, floor=float(np.mean([p.surface_point @ up for p in plates])))
        notes.append(f"floor at the force plates' surface, {qp_settings.floor:.4f} m along up")
    classic = None
    if plates:
        yield Progress("inverse dynamics", 0.55, "measured loads")
        unmeasured = qp_settings if s.estimate_unmeasured and model.contacts else None
        classic = classic_inverse_dynamics(model, motion, plates, [s.plate_bodies.get(p.name) for p in plates],
                                           unmeasured)
        seconds["id"] = classic.seconds
        notes += classic.assignments
        if s.loads_cutoff is not None:
            classic = lowpass_classic(classic, s.loads_cutoff, s.order, s.edges)
    qp = None
    if s.estimate_grf or not plates:
        if model.contacts:
            qp = yield from forward_progress(qp_inverse_dynamics(model, motion, qp_settings), 0.6, 0.85)
            seconds["qp_id"] = qp.seconds
            notes += qp.notes
            if s.loads_cutoff is not None:
                qp = lowpass_qp(model, motion, qp, s.loads_cutoff, s.order, s.edges)
    if s.loads_cutoff is not None and (classic is not None or qp is not None):
        notes.append(f"the estimated loads low-pass filtered at {s.loads_cutoff:g} Hz after inverse dynamics "
                     f"(order {s.order}, ends '{s.edges}')")
        if qp is not None:
            notes += pulling_note(model, qp)
    metrics, reference_plates = [], []
    if qp is not None and plates:
        reference = plates
        chain = [c for c in (s.cutoff, s.loads_cutoff) if c is not None]
        if s.match_filter and chain:
            filtered = trial.derived(plates=tuple(plates))
            for cutoff in chain:
                filtered, _ = lowpass_plates(filtered, cutoff, s.order, s.edges)
            reference = list(filtered.plates)
            what = {(True, False): "the coordinates the estimate comes from", (False, True): "the estimated loads",
                    (True, True): "the coordinates and then the estimated loads"}[(s.cutoff is not None,
                                                                                   s.loads_cutoff is not None)]
            notes.append(f"validation: the plates low-pass filtered at {' Hz, then '.join(f'{c:g}' for c in chain)} "
                         f"Hz (order {s.order}, ends '{s.edges}'), like {what}")
        metrics = grf_metrics(model, motion, qp, reference, s.forward)
        reference_plates = list(reference)
    muscles = None
    if s.muscles:
        from ..muscles.pipeline import muscle_steps
        tau = analysis_dynamics(classic, qp).tau
        t0 = _time.perf_counter()
        muscles = yield from forward_progress(muscle_steps(model, motion, tau, trial, s.muscle_settings),
                                               0.85, 1.0)
        seconds["muscles"] = _time.perf_counter() - t0
    yield Progress("done", 1.0, "")
    return AnalysisResult(model=model, trial=trial, ik=ik, motion=motion, classic=classic, qp=qp, metrics=metrics,
                          muscles=muscles, notes=notes, seconds=seconds, reference_plates=reference_plates,
                          generated_contacts=generated)


def _contact_model(model, motion, plates, s: AnalysisSettings, notes: list):
    """Generator step: ``(model, generated names)`` with contact candidates generated for a model that has none
    (``engine.analysis.contact_model``), notes added; a model with nothing to put them on keeps none (a note) when
    the plates' loads still give the inverse dynamics, else SettingsError."""
    yield Progress("contact model", 0.5, "candidates generated from the model's feet")
    try:
        static = None
        if s.static_trial is not None:
            static, said = static_calibration(model, s.static_trial, s.ik, s.axes)
            notes += said
        model, generated, said = generated_contacts(model, motion, plates, static)
    except ModelError as exc:
        if not plates:
            raise SettingsError(f"the trial has no force plates and no contact candidates could be generated: "
                                f"{exc}") from None
        notes.append(f"ground reactions not estimated: {exc}")
        return model, []
    notes += said
    return model, generated
