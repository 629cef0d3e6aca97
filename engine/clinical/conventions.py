"""Clinical sign conventions and normalisation.

Angles in degrees with the clinical sign: hip flexion, knee flexion and ankle dorsiflexion positive (OpenSim's
``knee_angle`` is negative in flexion in gait2354 and the default athlete, so its sign is flipped; the others keep
OpenSim's sign, which already is the clinical one). Moments in N m/kg (divided by the body mass), powers in W/kg,
ground reactions in % body weight (the model's total mass times g).
"""
from __future__ import annotations

G = 9.80665     # m/s^2, standard gravity

# coordinate prefix -> (clinical name, sign applied to the model's value)
JOINTS = {"hip_flexion": ("hip flexion", 1.0), "knee_angle": ("knee flexion", -1.0),
          "ankle_angle": ("ankle dorsiflexion", 1.0)}
OPPOSITE = {"hip flexion": "hip extension", "knee flexion": "knee extension",
            "ankle dorsiflexion": "ankle plantarflexion"}
"""clinical name -> the name of the opposite direction (a moment's negative values in the clinical sign)"""


def clinical_joints(model) -> list[tuple[str, str, str, float]]:
    """``[(coordinate, clinical name, side, sign)]`` of the model's coordinates that have a clinical convention."""
    from ..analysis.gait_phases import side_of
    out = []
    for c in model.all_coordinates:
        for prefix, (name, sign) in JOINTS.items():
            if c.name.startswith(prefix) and side_of(c.name) in ("Left", "Right"):
                out.append((c.name, name, side_of(c.name), sign))
    return out


def body_weight(model) -> float:
    """N, the model's total mass times g."""
    return model.total_mass * G
