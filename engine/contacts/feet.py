"""The model's feet: which bodies they are and which markers mark their landmarks.

A foot is a chain of foot bodies (found by name: ``calcn``, ``calcaneus``, ``heel``, ``hindfoot``, ``foot``,
``toes``, ``forefoot``, ``hallux``, ``phalanges``, ``talus``), or the bodies carrying heel markers
when no body has such a name. Its *hindfoot* is the body that carries the heel (a heel marker on it, else the
calcaneus/foot by name); its *forefoot* the toes body distal to it, if any. The talus carries no candidate
(it sits above the sole). Markers on the foot's bodies are given roles by name (common marker sets: Plug-in
Gait ``LHEE``, ``LTOE``, ``LMT5``; OpenSim's ``R.Heel``, ``R.Toe.Tip``, ``R.Toe.Med``, ``R.Toe.Lat``;
``MT1``/``MTH1``/``FM1``, ``MT5``/``MTH5``/``FM5``, ``HLX``/``Hallux``); the side prefix or suffix is ignored,
the body tells the side.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import ModelError
from ..model.model import GROUND

HINDFOOT_NAMES = ("calcn", "calcaneus", "calc", "heel", "hindfoot", "rearfoot", "foot")
FOREFOOT_NAMES = ("toes", "toe", "forefoot", "hallux", "phalanges", "phalanx", "digits")
ANKLE_NAMES = ("talus", "astragalus")
_BODY = {"hindfoot": HINDFOOT_NAMES, "forefoot": FOREFOOT_NAMES, "talus": ANKLE_NAMES}

# marker roles: regular expressions on the marker's name with its side prefix/suffix taken away
MARKER_ROLES = {
    "heel": r"(heel|hee|hel|cal|calc|calcaneus|hl|rhee|pcal)",
    "toe_tip": r"(toe[._ ]?tip|ttip|toetip|hallux|hlx|d1t|d2t|tt)",
    "mt1": r"(mt1|mth1|mt[._ ]?1|1mt|met1|fm1|mh1|d1m|toe[._ ]?med|mtm)",
    "mt5": r"(mt5|mth5|mt[._ ]?5|5mt|met5|fm5|mh5|d5m|toe[._ ]?lat|mtl)",
    "toe": r"(toe|mt2|mth2|fm2|d2m)",
}
"""Roles a marker can have on a foot: the posterior heel, the toe tip, the first and fifth metatarsal heads
(or the forefoot's medial and lateral edge), and the forefoot's dorsum (Plug-in Gait's TOE, second metatarsal
head)."""
_SIDES = "right|left|Right|Left|RIGHT|LEFT"
# a side prefix (R.Heel, RHEE, r_foot, right_foot) or suffix (calcn_r, foot_left, FootLeft)
_SIDE = re.compile(rf"^({_SIDES}|r|l|R|L)(?=[._ A-Z])[._ ]?|[._ ]({_SIDES}|r|l|R|L)$|({_SIDES})$")
LOOKED_FOR = (f"bodies named like {', '.join(HINDFOOT_NAMES + FOREFOOT_NAMES)} (with a side prefix or suffix), "
              f"or bodies carrying heel markers (HEE, HEEL, Heel, CAL, ...), and rods (a prosthesis)")


@dataclass(frozen=True)
class Foot:
    """One foot: ``hindfoot`` (carries the heel), ``forefoot`` (toes body or None), ``bodies`` (all of its
    bodies, proximal first), ``markers`` ``{role: marker name}``, ``found`` (how, in words)."""

    name: str
    hindfoot: str
    forefoot: str | None
    bodies: tuple
    markers: dict = field(default_factory=dict)
    found: str = ""


def _stem(name: str) -> str:
    """A body's or marker's name without its side prefix/suffix, lower case."""
    stem = _SIDE.sub("", name)
    return (stem or name).lower()


def _kind(body: str) -> str | None:
    stem = _stem(body)
    for kind, names in _BODY.items():
        if any(stem == n or stem.startswith(n) or stem.endswith(n) for n in names):
            return kind
    return None


def marker_role(name: str) -> str | None:
    """The role of a foot marker from its name (see :data:`MARKER_ROLES`), None if it has none."""
    stem = _stem(name)
    for role, pattern in MARKER_ROLES.items():
        if re.fullmatch(pattern, stem) or re.fullmatch(r"(foot|ft)[._ ]?" + pattern, stem):
            return role
    return None


def _parents(model) -> dict:
    """body -> parent body (or rod, or ground)."""
    out = {}
    for j in model.joints:
        out[j.child] = model.resolve(j.parent)[0]
    return out


def find_feet(model) -> list[Foot]:
    """The feet of ``model`` (see the module notes), in the model's body order; [] if none is recognisable."""
    parents = _parents(model)
    by_body: dict = {}
    for m in model.markers:
        role = marker_role(m.name)
        owner = model.resolve(m.parent)[0]
        if role is not None and owner in parents:
            by_body.setdefault(owner, {}).setdefault(role, m.name)
    kinds = {b.name: _kind(b.name) for b in model.bodies}
    named = {b for b, k in kinds.items() if k is not None}
    heel_bodies = {b for b, roles in by_body.items() if "heel" in roles}
    members = named | heel_bodies
    # a foot is a connected chain of foot bodies: group each by its most proximal foot ancestor
    roots: dict = {}
    for b in [b.name for b in model.bodies if b.name in members]:
        root = b
        p = parents.get(b)
        while p in members:
            root, p = p, parents.get(p)
        roots.setdefault(root, []).append(b)
    feet = []
    for root, bodies in roots.items():
        heel = [b for b in bodies if "heel" in by_body.get(b, {})]
        hind_named = [b for b in bodies if kinds[b] == "hindfoot"]
        if heel:
            hindfoot, how = heel[0], f"{heel[0]} carries the heel marker {by_body[heel[0]]['heel']}"
        elif hind_named:
            hindfoot, how = hind_named[0], f"{hind_named[0]} by its name"
        else:
            continue                     # a talus or toes alone: no sole to put candidates under
        distal = [b for b in bodies if b != hindfoot and _descends(parents, b, hindfoot)]
        fore = [b for b in distal if kinds[b] == "forefoot"] or distal
        forefoot = fore[0] if fore else None
        markers = {}
        for b in (hindfoot, forefoot):
            for role, name in by_body.get(b, {}).items():
                markers.setdefault(role, name)
        if forefoot is not None:
            how += f", forefoot {forefoot}" + (" by its name" if kinds[forefoot] == "forefoot" else " (distal to it)")
        if markers:
            how += "; markers " + ", ".join(f"{r} {n}" for r, n in markers.items())
        feet.append(Foot(hindfoot, hindfoot, forefoot, tuple(bodies), markers, how))
    return feet


def _descends(parents: dict, body: str, ancestor: str) -> bool:
    p = parents.get(body)
    while p is not None and p != GROUND:
        if p == ancestor:
            return True
        p = parents.get(p)
    return False


def no_feet_error(model) -> ModelError:
    """The error for a model in which nothing can carry contact candidates, naming what was looked for."""
    return ModelError(f"no feet or prosthesis to put ground-contact candidates on: looked for {LOOKED_FOR}; give "
                      "the candidates in a contacts file (--contacts)", f"model '{model.name}'")
