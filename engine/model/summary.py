"""A text summary of a model for ``hybrid info`` and the application's status bar."""
from __future__ import annotations

from collections import Counter

import numpy as np

from .import_notes import import_notes


def describe_model(model) -> str:
    """Bodies, degrees of freedom, joints, rods, markers, contacts, muscles, mass and import warnings."""
    lines = [f"Model '{model.name}'"]
    source = model.metadata.get("source")
    if source:
        lines.append(f"  source: {source}")
    lines.append(f"  bodies: {len(model.bodies)}   total mass: {model.total_mass:.3f} kg   "
                 f"gravity: {np.array2string(np.asarray(model.gravity), precision=4)} m/s^2")
    joints = Counter(j.type_name for j in model.joints)
    lines.append(f"  degrees of freedom: nv = {model.nv} (nq = {model.nq}); joints: "
                 + ", ".join(f"{n} {k}" for k, n in sorted(joints.items())))
    coords = model.independent_coordinates
    locked = [c.name for c in coords if c.locked]
    dependent = [c.name for c in model.all_coordinates if c.is_dependent]
    lines.append(f"  coordinates: {len(coords)} independent"
                 + (f", {len(dependent)} coupled ({', '.join(dependent)})" if dependent else "")
                 + (f", locked: {', '.join(locked)}" if locked else ""))
    for r in model.rods:
        modes = Counter(m for s in r.segments for m in s.free_modes)
        mass = sum(s.line_inertia()[0] * s.length for s in r.segments)
        lines.append(f"  rod '{r.name}' on '{r.parent}': {len(r.segments)} PCS segments, length {r.length:.4f} m, "
                     f"mass {mass:.3f} kg, {sum(modes.values())} strain coordinates "
                     f"({', '.join(sorted(modes))}), {r.quadrature} quadrature points per segment")
    on_rods = sum(1 for m in model.markers if m.s is not None)
    lines.append(f"  markers: {len(model.markers)}" + (f" ({on_rods} on rods)" if on_rods else ""))
    if model.contacts:
        groups = Counter(c.group for c in model.contacts)
        lines.append("  contact candidates: " + ", ".join(f"{n} in '{g}'" for g, n in groups.items()))
    if model.muscles:
        kinds = Counter(m.model for m in model.muscles)
        lines.append(f"  muscles: {len(model.muscles)} (" + ", ".join(f"{n} {k}" for k, n in kinds.items()) + ")"
                     + (f", {len(model.wrap_objects)} wrap objects" if model.wrap_objects else ""))
    warnings = import_notes(model)
    if warnings:
        lines.append(f"  import warnings ({len(warnings)}):")
        lines += [f"    - {w}" for w in warnings]
    return "\n".join(lines)


__all__ = ["describe_model"]
