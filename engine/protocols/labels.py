"""A trial's marker label reduced to what matching compares: its side and its words.

``Subject:R_ASIS``, ``r asis``, ``R.ASIS``, ``RASIS`` and ``rasis`` all read as side 'R', key 'asis': the
subject prefix (up to the last ':') is dropped, accents and case are folded, separators (space, '_', '.',
'-', ...) split words, side words in several languages ('right', 'links', 'dx', 'gauche') are recognised
at either end, and a few words of other languages are translated (:data:`WORDS`). The key is the words
joined without separators.
"""
from __future__ import annotations

import re
import unicodedata

RIGHT = {"r", "rt", "right", "d", "dx", "dex", "destra", "destro", "dcha", "derecha", "derecho", "droit", "droite",
         "rechts", "rechte", "rechter"}
LEFT = {"l", "lt", "left", "s", "sx", "sin", "sinistra", "sinistro", "izq", "izquierda", "izquierdo", "g",
        "gauche", "links", "linke", "linker"}
WORDS = {   # other languages' words for the landmarks' usual names
    "knie": "knee", "ginocchio": "knee", "genou": "knee", "rodilla": "knee",
    "ferse": "heel", "tallone": "heel", "talon": "heel", "calcagno": "heel",
    "knoechel": "ankle", "knochel": "ankle", "caviglia": "ankle", "cheville": "ankle", "tobillo": "ankle",
    "schulter": "shoulder", "spalla": "shoulder", "epaule": "shoulder", "hombro": "shoulder",
    "huefte": "hip", "hufte": "hip", "anca": "hip", "hanche": "hip", "cadera": "hip",
    "zeh": "toe", "zehe": "toe", "alluce": "toe", "orteil": "toe", "dedo": "toe",
    "oberschenkel": "thigh", "coscia": "thigh", "cuisse": "thigh", "muslo": "thigh",
    "unterschenkel": "shank", "gamba": "shank", "jambe": "shank", "pierna": "shank",
    "kreuzbein": "sacrum", "sacro": "sacrum", "ellbogen": "elbow", "gomito": "elbow", "coude": "elbow",
    "handgelenk": "wrist", "polso": "wrist", "poignet": "wrist",
}


def words(label: str) -> list[str]:
    """The label's words: subject prefix dropped, accents and case folded, split at separators and between
    letters and digits ('RTH1' -> ['rth', '1']), other languages' words translated."""
    text = label.rsplit(":", 1)[-1]
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    parts = re.findall(r"[a-z]+|[0-9]+", text)
    return [WORDS.get(p, p) for p in parts]


def readings(label: str) -> list[tuple]:
    """Every way to read ``label`` as ``(side, key)``, the most explicit first: a side word at the start or
    end ('r asis', 'asis_l'), then a leading side letter glued on ('RASI'), then no side."""
    parts = words(label)
    if not parts:
        return []
    found = []
    for side, names in (("R", RIGHT), ("L", LEFT)):
        if len(parts) > 1 and parts[0] in names:
            found.append((side, "".join(parts[1:])))
        if len(parts) > 1 and parts[-1] in names:
            found.append((side, "".join(parts[:-1])))
    first = parts[0]
    for side, long in (("R", "right"), ("L", "left")):
        if first.startswith(long) and len(first) > len(long):
            found.append((side, first[len(long):] + "".join(parts[1:])))
    if len(first) > 1 and first[0] in "rl":
        found.append(("R" if first[0] == "r" else "L", first[1:] + "".join(parts[1:])))
    found.append((None, "".join(parts)))
    return found


def key(text: str) -> str:
    """An alias's key: its words joined ('lat knee' -> 'latknee')."""
    return "".join(words(text))
