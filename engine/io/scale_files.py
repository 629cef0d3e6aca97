"""The files of a subject scaling (``engine.scaling``): reading a setup's inputs, writing what it made.

:func:`scale_from_files` opens the generic model (its marker set added), the static trials, and runs
:func:`engine.scaling.tool.run_scale`; an .osim generic model is read once, and the scaled .osim files are written
from that reading. :func:`write_scale_outputs` writes the scaled model (.osim in the
generic model's schema when that is an .osim, and our YAML), the scale factors applied (OpenSim's ScaleSet
file), the static pose (.mot, OpenSim's coordinate layout, rotations in degrees) and the residual tables
(CSV): one row per marker pair of the measurements, one per marker of the placement. Every write is atomic,
and the files of one scaling are fsynced together.
"""
from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import SettingsError
from ..progress import Progress, run
from ..scaling.defaults import default_setup
from ..scaling.setup import ScaleSetup
from ..scaling.tool import ScaleResult, run_scale
from .analysis_outputs import coordinate_table
from .atomic import synced_together, write_text
from .model_file import save_model
from .open import open_model
from .open_trial import open_trial
from .osim.document import OsimDocument
from .osim.marker_set import read_marker_set, with_marker_set
from .osim.reader import read_osim_document
from .osim.scale_setup import read_scale_setup
from .osim.scaled_document import write_scaled_osim
from .storage import write_storage


@dataclass(frozen=True)
class ScaleRun:
    """A scaling, the generic model file it started from and, when that is an .osim, the document read from it (the
    scaled .osim files are written from it)."""

    result: ScaleResult
    generic_file: Path
    generic_document: OsimDocument | None


def scale_from_files(setup, generic=None, static=None, mass: float | None = None) -> ScaleRun:
    """Scale the setup's generic model (or ``generic``) to the subject of its static trial (or ``static``,
    which then stands for both the scaler's and the placer's), with its mass (or ``mass``, kg)."""
    return run(scale_steps(setup, generic, static, mass))[0]


def scale_steps(setup=None, generic=None, static=None, mass: float | None = None):
    """:func:`scale_from_files` as a step generator (``hybrid scale`` and the application's New patient run it):
    yields a Progress before reading the files and before scaling, and returns ``(ScaleRun, setup)``.

    ``setup`` is a ScaleSetup, the path of a ScaleTool setup file, or None: then ``generic`` and ``static`` are
    required, and segments are scaled by the markers nearest their joint centres
    (:func:`engine.scaling.defaults.default_setup`).
    """
    yield Progress("reading", 0.0, "the setup, the generic model and the static trial")
    if setup is None:
        if not static:
            raise SettingsError("give a static trial (--static) or a ScaleTool setup (--setup)", "--static")
        if not generic:
            raise SettingsError("give the generic model to scale", "generic")
        generic_file = Path(generic)
        model, document = _read_generic(generic_file)
        setup = default_setup(model, open_trial(static).markers, generic, static)
    else:
        if not isinstance(setup, ScaleSetup):
            setup = read_scale_setup(setup)
        generic_file = Path(generic) if generic else setup.input_file("model_file")
        model, document = _read_generic(generic_file)
    if setup.marker_set_file is not None:
        model = with_marker_set(model, read_marker_set(setup.input_file("marker_set_file"), model))
    trials = {}

    def trial(key):
        path = Path(static) if static else setup.input_file(key)
        if path not in trials:      # the scaler and the placer usually read the same static trial
            trials[path] = open_trial(path)
        return trials[path]

    scaler_trial = trial("scaler.static_file") if setup.scaler.apply and setup.scaler.measurements else None
    placer_trial = trial("placer.static_file") if setup.placer is not None and setup.placer.apply else None
    yield Progress("scaling", 0.3, "scale factors from the static trial, the scaled model, marker placement")
    return ScaleRun(run_scale(model, setup, scaler_trial, placer_trial, mass), generic_file, document), setup


def _read_generic(path: Path):
    """``(model, document)`` of the generic model file ``path``: an .osim's document as read, else None (and a
    missing file is ``open_model``'s error)."""
    if path.suffix.lower() == ".osim" and path.is_file():
        return read_osim_document(path)
    return open_model(path), None


def write_scale_set(path, factors: dict) -> None:
    """The factors applied to every body (``{body: (fx, fy, fz)}``) as an OpenSim ScaleSet document."""
    root = ET.Element("OpenSimDocument", Version="40600")
    objects = ET.SubElement(ET.SubElement(root, "ScaleSet", name="ScaleSet"), "objects")
    for body, f in factors.items():
        scale = ET.SubElement(objects, "Scale")
        ET.SubElement(scale, "scales").text = " ".join(f"{v:.17g}" for v in f)
        ET.SubElement(scale, "segment").text = body
        ET.SubElement(scale, "apply").text = "true"
    ET.indent(root, "\t")
    write_text(path, '<?xml version="1.0" encoding="UTF-8" ?>\n' + ET.tostring(root, encoding="unicode") + "\n")


def write_static_pose(path, model, time: float, q) -> None:
    """The static pose ``q`` of ``model`` at ``time`` (s) as a one-row motion file."""
    write_storage(path, coordinate_table(model, np.array([time]), np.asarray(q)[None], "static pose"))


def _csv(rows, header) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def pair_rows(factors) -> list:
    """Per marker pair: measurement, markers, model and measured distances (mm), ratio, the measurement's
    factor, and the pair's residual (mm): measured distance minus the model's after scaling by that factor."""
    rows = []
    for p in factors.pairs:
        factor = factors.measurements[p.measurement]
        rows.append((p.measurement, p.markers[0], p.markers[1], f"{p.model * 1e3:.3f}", f"{p.measured * 1e3:.3f}",
                     f"{p.ratio:.6f}", f"{factor:.6f}", f"{(p.measured - factor * p.model) * 1e3:.3f}", p.frames))
    return rows


PAIR_HEADER = ("measurement", "marker_1", "marker_2", "model_mm", "measured_mm", "ratio", "factor", "residual_mm",
               "frames")
MARKER_HEADER = ("marker", "weight", "ik_error_mm", "moved_mm", "fixed")


def write_residuals(pairs_path, markers_path, factors, placement) -> list:
    """The two residual tables (CSV); ``placement`` may be None (no marker placement). Returns the paths."""
    written = []
    if factors is not None:
        write_text(pairs_path, _csv(pair_rows(factors), PAIR_HEADER))
        written.append(pairs_path)
    if placement is not None:
        rows = [(r.name, f"{r.weight:g}", f"{r.error * 1e3:.3f}", f"{r.moved * 1e3:.3f}", str(r.fixed).lower())
                for r in placement.residuals]
        write_text(markers_path, _csv(rows, MARKER_HEADER))
        written.append(markers_path)
    return written


def output_paths(result: ScaleResult, setup, out=None) -> dict:
    """Where each output goes: the setup's names (relative to its folder), or beside ``out`` when given."""
    placer = setup.placer
    model_file = Path(out) if out else ((placer.output_model_file if placer else None)
                                        or setup.scaler.output_model_file)
    if model_file is None:
        raise SettingsError("the setup names no output model file; give one with --out", "--out")
    folder = model_file.parent

    def named(path, default):
        name = Path(path).name if path else default
        return folder / name if out or not path else Path(path)

    stem = model_file.stem
    scaled_only = named(setup.scaler.output_model_file, None) if setup.scaler.output_model_file else None
    return {"model": model_file,
            "scaled_only": scaled_only if result.placement is not None and scaled_only != model_file else None,
            "scale_set": named(setup.scaler.output_scale_file, f"{stem}_scale_set.xml"),
            "static_pose": named(placer.output_motion_file if placer else None, f"{stem}_static_pose.mot")
            if result.placement is not None else None,
            "pairs": folder / f"{stem}_pair_residuals.csv",
            "markers": folder / f"{stem}_marker_residuals.csv"}


def write_scale_outputs(run: ScaleRun, setup, out=None) -> list:
    """Write the scaled model and its reports (see :func:`output_paths`); returns the paths written. The files
    are fsynced together when all are written (:func:`~engine.io.atomic.synced_together`): if one cannot be
    written, none is replaced."""
    with synced_together():
        return _write_outputs(run, setup, out)


def _write_outputs(run: ScaleRun, setup, out) -> list:
    result = run.result
    paths = output_paths(result, setup, out)
    models = [(Path(paths["model"]), result.model, True)]
    if paths["scaled_only"] is not None:     # as OpenSim's ModelScaler writes it, before placement
        models.append((Path(paths["scaled_only"]), result.scaled.model, False))
    osims = [(path, model.markers) for path, model, _ in models if path.suffix.lower() == ".osim"]
    if osims:
        if run.generic_document is None:
            raise SettingsError("an .osim is written only from an .osim generic model; write .yaml", "--out")
        write_scaled_osim(run.generic_document, result.scaled, osims)   # both from the one reading of the generic file
    written = []
    for path, model, yaml_too in models:
        if path.suffix.lower() == ".osim":
            written.append(path)
            if not yaml_too:
                continue
            path = path.with_suffix(".yaml")
        save_model(model, path)
        written.append(path)
    write_scale_set(paths["scale_set"], result.scaled.factors)
    written.append(paths["scale_set"])
    if paths["static_pose"] is not None:
        write_static_pose(paths["static_pose"], result.model, result.placement.time, result.placement.q)
        written.append(paths["static_pose"])
    written += write_residuals(paths["pairs"], paths["markers"], result.factors, result.placement)
    return written
