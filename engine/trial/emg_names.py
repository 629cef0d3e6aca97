"""Which analog channels are EMG, recognised by their label or description (C3D and ANC files)."""
from __future__ import annotations

import re

# A channel is EMG when a word of its label or description starts with one of these ...
_EMG_PREFIXES = ("emg", "quad", "hams", "gastroc", "soleus", "tibialis", "vastus", "rectus", "biceps", "triceps",
                 "deltoid", "glut", "semitend", "semimem", "perone", "fibularis", "adduct", "erector", "trapez",
                 "pector", "sartor", "gracil", "brachi", "flexor", "extensor")
# ... or is one of these usual muscle abbreviations.
_EMG_TOKENS = ("ham", "tib", "ta", "gas", "gast", "sol", "vas", "vl", "vm", "rf", "bf", "st", "sm", "gmax", "gmed")


def is_emg_name(name: str, description: str = "") -> bool:
    """True when a word of ``name`` or ``description`` names a muscle or EMG (e.g. ``EMG1``, ``R_TibAnt``)."""
    for text in (name, description):
        for token in re.split(r"[^a-z]+", text.lower()):
            if token and (token in _EMG_TOKENS or token.startswith(_EMG_PREFIXES)):
                return True
    return False
