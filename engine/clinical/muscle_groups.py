"""The main muscle groups of the lower limb, as the report's muscle page shows them per side over the gait cycle.

A model's muscle belongs to a group when its name without the side suffix starts with one of the group's stems
(OpenSim's gait2354/2392 and Rajagopal names, and the default athlete's): a group's force is the sum of its
muscles' forces, in body weights; its activation the mean of its muscles' activations. A group with no muscle on a
side (the shank muscles of a transtibial amputee's prosthetic side) is absent on that side.
"""
from __future__ import annotations

import re

GROUPS = {
    "hip extensors (gluteus maximus)": ("glut_max", "glmax"),
    "hip abductors (gluteus medius, minimus)": ("glut_med", "glut_min", "glmed", "glmin"),
    "hip flexors (iliopsoas)": ("iliopsoas", "iliacus", "psoas"),
    "hip adductors": ("add_mag", "add_long", "add_brev", "addmagus", "addlong", "addbrev"),
    "hamstrings": ("semimem", "semiten", "bifemlh", "bifemsh", "bflh", "bfsh"),
    "quadriceps": ("rect_fem", "vasti", "vas_", "recfem", "vasmed", "vasint", "vaslat"),
    "plantarflexors (soleus, gastrocnemii)": ("soleus", "med_gas", "lat_gas", "gasmed", "gaslat"),
    "dorsiflexors (tibialis anterior, toe extensors)": ("tib_ant", "ext_dig", "ext_hal", "tibant", "edl", "ehl"),
}
"""Group -> name stems (lower case)."""

_SIDE = re.compile(r"[_.](r|l)$|_(right|left)$")


def muscle_group(name: str) -> str | None:
    """The group of muscle ``name`` (:data:`GROUPS`), or None."""
    stem = _SIDE.sub("", name.lower())
    return next((g for g, stems in GROUPS.items() if stem.startswith(stems)), None)
