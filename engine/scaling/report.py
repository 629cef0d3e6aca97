"""What a scaling writes besides the model: the scale factors applied (OpenSim's ScaleSet file), the static
pose (.mot, OpenSim's coordinate layout, rotations in degrees) and the residual tables (CSV): one row per
marker pair of the measurements, one per marker of the placement. Every write is atomic."""
from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET

import numpy as np

from ..analysis.outputs import coordinate_table
from ..io.atomic import write_text
from ..io.storage import write_storage


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
