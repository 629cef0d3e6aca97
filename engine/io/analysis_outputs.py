"""Files of an analysis, in OpenSim's formats so that results open in OpenSim too.

``ik.mot`` (coordinates; rotations in degrees), ``ik_marker_errors.sto``, ``ik_marker_residuals.sto`` (each
marker's residual per frame), ``id.sto`` (the analysis's generalized forces, ``AnalysisResult.dynamics``, named ``<coordinate>_moment``
or ``<coordinate>_force`` in OpenSim's order: with the measured loads when the trial has force plates, else the
QP's estimate; when both ran, ``id_estimated.sto`` holds the QP's from the motion alone),
``grf_estimated.mot`` (one group of columns per contact group, OpenSim's GRF layout),
``grf_measured.mot`` (when the trial has plates), ``grf_off_plates.mot`` (the loads the inverse
dynamics with the measured loads estimated where no plate measured a contact group, if any),
``joint_reactions.sto`` (every joint's reaction load with the torques of ``id.sto``, as OpenSim's JointReaction
analysis writes it: ``<joint>_on_<child>_in_ground_{fx,fy,fz,mx,my,mz,px,py,pz}``, the parent's load on the child
in model axes about the joint centre ``p``) and ``metrics.json``. Every file is
written atomically.

Nothing non-finite is written silently: a row of a table with a NaN or infinite value (a frame that could not be
solved) keeps its values, is listed in the file's header (``nonfinite_rows=``, 0-based) and in the notes;
metrics.json is strict JSON, a non-finite number written as ``null`` and named in the notes.
"""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np

from ..analysis.coordinate_values import coordinate_values
from ..analysis.joint_reactions import analysis_reactions
from ..tree import compile_tree
from .atomic import write_text
from .contacts_file import save_contacts
from .muscle_files import write_muscle_outputs
from .storage import Table, write_storage


def coordinate_table(model, time, Q, name: str = "Coordinates") -> Table:
    """All scalar coordinates (coupled ones included) of ``Q`` as a motion table; free and spherical joints as
    body-fixed X-Y-Z angles (and translations). Rotations in degrees, as OpenSim writes motions."""
    labels, values = coordinate_values(model, Q)
    return Table(name=name, labels=labels, time=np.asarray(time), data=values, in_degrees=True)


def opensim_speed_order(model) -> list:
    """The speeds' indices (into ``v``) in OpenSim's multibody tree order, the order of its inverse dynamics'
    columns: joints by their depth from ground (the pelvis's, then the hips' and the back's...), joints of one
    depth in the model's order, each joint's coordinates in its own order; speeds of no joint (rods) last."""
    tree = compile_tree(model)
    parents = tree.k.nodes["parent"]

    def depth(joint):
        node, n = tree.k.frames[tree.body_frame[joint.child]]["node"], 0
        while node >= 0:
            node, n = parents[node], n + 1
        return n

    order = []
    for joint in sorted(model.joints, key=depth):
        _, _, v0, nv = tree.joint_q[joint.name]
        order += range(v0, v0 + nv)
    placed = set(order)
    return order + [i for i in range(model.nv) if i not in placed]


def generalized_force_table(model, time, tau, name: str = "Inverse Dynamics Generalized Forces") -> Table:
    """``tau`` with OpenSim's labels, ``<coordinate>_moment`` (rotations) or ``_force``, in OpenSim's order
    (:func:`opensim_speed_order`)."""
    labels = []
    order = opensim_speed_order(model)
    for vi in order:
        vname = compile_tree(model).v_names[vi]
        slot = compile_tree(model).coordinates.get(vname)
        kind = slot.kind if slot is not None else ("rotational" if vname[-2:] in ("wx", "wy", "wz") else
                                                   "translational")
        labels.append(f"{vname}_moment" if kind == "rotational" else f"{vname}_force")
    return Table(name=name, labels=tuple(labels), time=np.asarray(time), data=np.asarray(tau)[:, order],
                 in_degrees=False)


def body_force_table(model, time, joints, forces) -> Table:
    """OpenSim's InverseDynamicsTool body forces: per joint ``<joint>_<child frame>_F{X,Y,Z}`` (N) then ``_M{X,Y,Z}``
    (N m), ground axes, of ``forces`` (T, len(joints), 6) ``[moment; force]``
    (``engine.analysis.equivalent_body_forces``). The child frame is named as OpenSim names it
    (``model.metadata["joint_child_frames"]``; the child body for a model not read from an .osim)."""
    frames = model.metadata.get("joint_child_frames", {})
    labels, columns = [], []
    for j, joint in enumerate(joints):
        prefix = f"{joint}_{frames.get(joint, model.joint(joint).child)}"
        labels += [f"{prefix}_F{axis}" for axis in "XYZ"] + [f"{prefix}_M{axis}" for axis in "XYZ"]
        columns += [forces[:, j, 3:], forces[:, j, :3]]
    return Table(name="Inverse Dynamics Body Forces at Specified Joints", labels=tuple(labels),
                 time=np.asarray(time), data=np.concatenate(columns, axis=1), in_degrees=False)


def grf_table(time, entries, name: str) -> Table:
    """GRF .mot layout: per entry (prefix, force (T,3), cop (T,3), free moment (T,3)) the columns
    ``<prefix>ground_force_v{x,y,z}``, ``..._p{x,y,z}``, ``<prefix>ground_torque_{x,y,z}``.
    Where the centre of pressure is undefined (unloaded) point and torque are written as 0."""
    labels, columns = [], []
    for prefix, force, cop, torque in entries:
        for part, values in (("ground_force_v", force), ("ground_force_p", cop), ("ground_torque_", torque)):
            for i, axis in enumerate("xyz"):
                labels.append(f"{prefix}{part}{axis}")
                columns.append(np.nan_to_num(values[:, i]))
    return Table(name=name, labels=tuple(labels), time=np.asarray(time), data=np.column_stack(columns),
                 in_degrees=False)


def reaction_table(time, reactions) -> Table:
    """OpenSim's JointReaction columns for ``reactions`` (``engine.analysis.joint_reactions.JointReactions``)."""
    labels, columns = [], []
    for j, (joint, child) in enumerate(zip(reactions.joints, reactions.children)):
        w, p = reactions.wrench[:, j], reactions.centre[:, j]
        for part, values in (("f", w[:, 3:]), ("m", w[:, :3]), ("p", p)):
            for i, axis in enumerate("xyz"):
                labels.append(f"{joint}_on_{child}_in_ground_{part}{axis}")
                columns.append(values[:, i])
    return Table(name=f"Joint reaction loads ({reactions.loads})", labels=tuple(labels), time=np.asarray(time),
                 data=np.column_stack(columns), in_degrees=False)


def marker_error_table(ik) -> Table:
    """``ik_marker_errors.sto`` in OpenSim's columns (m): the sum of squared errors and the largest error over the
    markers present, and :class:`~engine.analysis.ik.IKResult`'s RMS over the markers present (OpenSim's divides by
    every marker in use: lower where markers are missing, equal in a frame missing none)."""
    total = np.nansum(ik.errors ** 2, axis=1)
    return Table(name="Model Marker Errors from IK", labels=("total_squared_error", "marker_error_RMS",
                                                               "marker_error_max"),
                 time=ik.time, data=np.column_stack([total, ik.rms, ik.max]), in_degrees=False)


def marker_residual_table(ik) -> Table:
    """``ik_marker_residuals.sto``: each fitted marker's distance (m) to its model marker per frame (NaN where
    missing); the header names the samples the robust loss down-weighted (``robust_flagged``: marker:row list)."""
    table = Table(name="Marker residuals from IK (m)", labels=tuple(ik.marker_names), time=ik.time,
                  data=np.array(ik.errors), in_degrees=False, header={"version": "1", "missing": "NaN"})
    if ik.robust_factors is None or not (ik.robust_factors < 1).any():
        return table
    flagged = [f"{name}:{','.join(str(i) for i in np.flatnonzero(ik.robust_factors[:, j] < 1))}"
               for j, name in enumerate(ik.marker_names) if (ik.robust_factors[:, j] < 1).any()]
    return replace(table, header={**table.header, "robust_flagged": ";".join(flagged)})


def nan_statistic(statistic, values) -> float:
    """``statistic`` (``np.nanmean``, ``np.nanmax`` ...) of ``values`` ignoring NaN; NaN, without numpy's warning,
    when no value is a number (no frame fitted)."""
    values = np.asarray(values, float)
    return float(statistic(values)) if (~np.isnan(values)).any() else float("nan")


def metrics_document(result) -> dict:
    """metrics.json: IK errors, timings, GRF validation per plate and axis (and more keys, never fewer)."""
    ik = result.ik
    doc = {"ik": {"marker_rms_mean_m": nan_statistic(np.nanmean, ik.rms),
                  "marker_rms_max_m": nan_statistic(np.nanmax, ik.rms),
                  "marker_max_m": nan_statistic(np.nanmax, ik.max), "frames": int(ik.n_frames),
                  "seconds": float(ik.seconds), "converged_frames": int((ik.status == 1).sum())}}
    dynamics = result.dynamics
    doc["id"] = {"frames": int(len(result.motion.time)),
                 "seconds": float(result.seconds.get("qp_id", 0.0) + result.seconds.get("id", 0.0)),
                 "mode": "measured loads" if result.classic is not None else "qp",
                 "ground_reactions_estimated": result.qp is not None,
                 "filter_hz": result.motion.cutoff,
                 "loads_filter_hz": dynamics.loads_cutoff if dynamics is not None else None}
    if dynamics is not None and getattr(dynamics, "residual", None) is not None:
        doc["id"]["residual_force_rms_N"] = float(np.sqrt(np.mean(np.sum(dynamics.residual[:, 3:] ** 2, axis=1))))
    doc["grf"] = [m.as_dict() for m in result.metrics]
    if result.muscles is not None:
        doc["muscles"] = {**result.muscles.result.step_metrics(), "seconds": float(result.seconds.get("muscles", 0.0))}
    doc["notes"] = list(result.notes)
    return doc


OUTPUT_NAMES = ("ik.mot", "ik_marker_errors.sto", "ik_marker_residuals.sto", "id.sto", "id_estimated.sto",
                "joint_reactions.sto", "grf_estimated.mot", "grf_measured.mot", "grf_off_plates.mot",
                "muscle_forces.sto", "activations.sto", "emg_comparison.csv", "metrics.json")
"""Every file :func:`write_outputs` may write (``engine.io.output_folder`` removes those an earlier run left)."""


def expected_bytes(model, trial, muscles: bool) -> int:
    """An upper estimate of the bytes :func:`write_outputs` writes for ``trial`` (every frame analysed) with
    ``model`` (all tables at 25 bytes a value; the measured plates at their own rate), which
    ``engine.io.output_folder`` reserves before the analysis runs."""
    frames = trial.markers.n_frames
    groups = len({c.group for c in model.contacts})
    columns = ((model.nq + 7) + 4 + (len(model.markers) + 1) + 3 * (model.nv + 1) + 9 * len(model.joints)
               + 2 * 9 * groups + 2 * (len(model.muscles) + 1) * muscles)
    samples = sum(10 * p.n_samples for p in trial.plates)
    return 25 * (frames * columns + samples) + 2 ** 16


def _flag_nonfinite(name: str, table: Table, notes: list) -> Table:
    """``table`` with the rows holding a NaN or infinite value listed in its header, and a note saying so."""
    bad = np.flatnonzero(~(np.isfinite(table.data).all(axis=1) & np.isfinite(table.time)))
    if not bad.size:
        return table
    times = ", ".join(f"{t:.4f}" for t in table.time[bad[:10]]) + (" ..." if bad.size > 10 else "")
    notes.append(f"{name}: {bad.size} of {len(table.time)} rows hold values that are not finite numbers (frames "
                 f"that could not be solved, written as NaN; times {times} s; rows listed in its header)")
    header = dict(table.header)
    header["nonfinite_rows"] = ",".join(str(i) for i in bad)
    return replace(table, header=header)


def strict_json(value, where: str, notes: list):
    """``value`` (dicts, lists, numbers, text) with every non-finite float replaced by None and named in
    ``notes``, so that ``json.dumps(..., allow_nan=False)`` accepts it."""
    if isinstance(value, dict):
        return {k: strict_json(v, f"{where}.{k}", notes) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [strict_json(v, f"{where}[{i}]", notes) for i, v in enumerate(value)]
    if isinstance(value, float) and not np.isfinite(value):
        notes.append(f"metrics.json: {where} is {value} (not a finite number), written as null")
        return None
    return value


def write_outputs(result, folder, truth: dict | None = None) -> list[Path]:
    """Write every output file of ``result`` into ``folder`` (created if needed); returns the paths.
    ``truth`` (a trial with a known ground truth, e.g. the demo's ``engine.demo.truth.truth_metrics``)
    goes into metrics.json under ``"truth"``. What the files could not hold as numbers is appended to
    ``result.notes`` (and so to metrics.json's notes)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    model, ik = result.model, result.ik
    written = []

    def put(name, table):
        write_storage(folder / name, _flag_nonfinite(name, table, result.notes))
        written.append(folder / name)

    put("ik.mot", coordinate_table(model, ik.time, ik.q))
    put("ik_marker_errors.sto", marker_error_table(ik))
    write_storage(folder / "ik_marker_residuals.sto", marker_residual_table(ik))     # NaN: missing markers
    written.append(folder / "ik_marker_residuals.sto")
    put("id.sto", generalized_force_table(model, result.motion.time, result.dynamics.tau))
    if result.qp is not None and result.classic is not None:
        put("id_estimated.sto", generalized_force_table(model, result.motion.time, result.qp.tau,
                                                        "Inverse Dynamics Generalized Forces (estimated loads)"))
    reactions = analysis_reactions(result)
    if reactions is not None:
        put("joint_reactions.sto", reaction_table(result.motion.time, reactions))
    if result.qp is not None:
        entries = [(f"{g}_", r.force, r.cop, r.free_moment) for g, r in result.qp.groups.items()]
        put("grf_estimated.mot", grf_table(result.motion.time, entries, "Estimated ground reactions"))
    plates = list(result.trial.plates)
    if plates:
        time = plates[0].time    # plates of one file share a time base; others are interpolated onto it
        entries = [(f"{p.name}_",) + tuple(np.column_stack([np.interp(time, p.time, v[:, i], left=np.nan,
                                                                      right=np.nan) for i in range(3)])
                                           for v in (p.force, p.cop, p.free_moment)) for p in plates]
        put("grf_measured.mot", grf_table(time, entries, "Measured ground reactions"))
    if result.classic is not None and result.classic.estimated:
        entries = [(f"{g}_", r.force, r.cop, r.free_moment) for g, r in result.classic.estimated.items()]
        put("grf_off_plates.mot", grf_table(result.motion.time, entries,
                                            "Ground reactions estimated where no plate measured them"))
    if result.generated_contacts:
        save_contacts([c for c in model.contacts if c.name in set(result.generated_contacts)], folder / "contacts.yaml")
        written.append(folder / "contacts.yaml")
    if result.muscles is not None:
        written += write_muscle_outputs(folder, result.muscles)
    document = metrics_document(result)
    if truth is not None:
        document["truth"] = truth
    notes: list = []
    document = strict_json(document, "metrics", notes)
    result.notes += notes
    document["notes"] += notes
    write_text(folder / "metrics.json", json.dumps(document, indent=2, allow_nan=False) + "\n")
    written.append(folder / "metrics.json")
    return written
