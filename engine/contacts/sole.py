"""The sole of a foot and the contact candidates on it (the seed's Fig. 11: six points per foot).

The sole is laid out in the model's neutral pose (standing, feet flat): its plane is horizontal there, its
posterior end is the heel marker (else the hindfoot's origin), its forward axis runs from there to the toe tip
marker (else the toes body's origin, the metatarsophalangeal joint, else the toe or metatarsal markers), and
its length ``L`` is the distance to the toe tip, or ``0.70 L`` to the metatarsophalangeal joint (the metatarsal
heads; OpenSim's gait models put the joint there), or the metatarsal markers at their fractions below. Along
the foot (fractions of ``L`` from the heel) the candidates are: two under the heel at 0.12 (0.09 L either side
of the axis: 0.75 of the heel's half-breadth, 0.125 L), the first metatarsal head at 0.68, the fifth at 0.62,
the hallux at 0.88 and the lateral toes at 0.82 (foot proportions as in anthropometric surveys of the foot;
``FRACTIONS``). Across the foot, the metatarsal heads sit 0.04 L inside the medial and lateral edge markers
(their first and fifth metatarsal or toe medial/lateral markers), else at 0.09 L medial and 0.20 L lateral of
the axis; the toes at 0.6 of their metatarsal's offset. The sole's depth before calibration is 1 cm below the
foot's lowest landmark (markers sit on the skin).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import algorithms as alg
from ..errors import ModelError
from .feet import Foot

FRACTIONS = {"heel_med": (0.12, -0.09), "heel_lat": (0.12, 0.09), "meta1": (0.68, None), "meta5": (0.62, None),
             "hallux": (0.88, None), "toes_lat": (0.82, None)}
"""Candidate -> (distance from the heel along the foot, offset across it towards lateral), fractions of the
foot's length; None: from the metatarsal edges (see the module notes)."""
MTP_FRACTION = 0.70        # the metatarsophalangeal joint (metatarsal heads) along the foot
META_FRACTIONS = {"mt1": 0.68, "mt5": 0.62}
DEFAULT_WIDTH = {"mt1": -0.09, "mt5": 0.20}   # across the foot, fractions of L (negative: medial)
INSET = 0.04               # the metatarsal heads' centres inside the edge markers, fraction of L
TOE_SHARE = 0.6            # the toes' offset across the foot, fraction of their metatarsal's
SKIN = 0.01                # m: the sole below the lowest landmark before calibration


@dataclass(frozen=True)
class Sole:
    """A foot's sole in the neutral pose (world frame, m): ``heel`` its posterior end (on the sole's plane),
    ``forward``, ``lateral``, ``up`` unit axes, ``length`` ``L``; ``side`` 'r' or 'l'; ``how`` in words."""

    foot: Foot
    heel: np.ndarray
    forward: np.ndarray
    lateral: np.ndarray
    up: np.ndarray
    length: float
    side: str
    how: str

    @property
    def group(self) -> str:
        return f"foot_{self.side}"


def _flat(v, up):
    v = v - (v @ up) * up
    n = np.linalg.norm(v)
    return v / n if n > 1e-9 else None


def sole_of(model, data, foot: Foot, up, centre) -> Sole:
    """The sole of ``foot`` with ``data`` at the neutral pose (forward kinematics done); ``up`` the world's up,
    ``centre`` a point of the body's midline (the root body's origin): a foot to the right of it (forward x up)
    is a right foot."""
    place = {b: alg.frame_placement(model, data, b) for b in (foot.hindfoot, foot.forefoot) if b}
    mk = {role: alg.frame_placement(model, data, name).p for role, name in foot.markers.items()}
    heel = mk.get("heel", place[foot.hindfoot].p)
    heel_from = f"heel marker {foot.markers['heel']}" if "heel" in mk else f"{foot.hindfoot}'s origin"
    ahead = None
    if "toe_tip" in mk:
        ahead, scale, what = mk["toe_tip"], 1.0, f"toe tip marker {foot.markers['toe_tip']}"
    elif foot.forefoot:
        ahead, scale, what = place[foot.forefoot].p, MTP_FRACTION, f"{foot.forefoot}'s joint (metatarsal heads)"
    else:
        for role in ("mt1", "mt5"):
            if role in mk:
                ahead, scale, what = mk[role], META_FRACTIONS[role], f"marker {foot.markers[role]}"
                break
    forward = None if ahead is None else _flat(ahead - heel, up)
    if forward is None:
        raise ModelError("no landmark gives the foot's length and direction: looked for a toe tip marker (Toe.Tip, "
                         "HLX), a toes body distal to it, or first/fifth metatarsal markers (MT1, MT5, Toe.Med, "
                         "Toe.Lat)", f"foot '{foot.hindfoot}'")
    length = float((ahead - heel) @ forward) / scale
    right = np.cross(forward, up)
    side = "r" if (heel - centre) @ right > 0 else "l"
    lateral = right if side == "r" else -right
    lateral = _flat(lateral - (lateral @ forward) * forward, up)
    landmarks = list(mk.values()) + [p.p for p in place.values()]
    depth = min(float(p @ up) for p in landmarks) - SKIN
    heel = heel - (heel @ up - depth) * up
    how = (f"{foot.found}; sole from the {heel_from} forward to the {what}, length {length:.3f} m, "
           f"{SKIN * 100:g} cm below the lowest landmark")
    return Sole(foot, heel, forward, lateral, up, length, side, how)


def candidates(model, data, sole: Sole) -> list[tuple[str, str, np.ndarray]]:
    """``[(name, body, offset in the body's frame)]``: the six candidates of ``sole`` (module notes), each on the
    toes body when it lies ahead of the metatarsophalangeal joint, else on the hindfoot."""
    foot, L = sole.foot, sole.length
    across = {}
    for role in ("mt1", "mt5"):
        if role in foot.markers:
            p = alg.frame_placement(model, data, foot.markers[role]).p
            edge = float((p - sole.heel) @ sole.lateral)
            across[role] = edge - np.sign(edge) * INSET * L if abs(edge) > INSET * L else edge
        else:
            across[role] = DEFAULT_WIDTH[role] * L
    widths = {"meta1": across["mt1"], "meta5": across["mt5"], "hallux": TOE_SHARE * across["mt1"],
              "toes_lat": TOE_SHARE * across["mt5"]}
    place = {b: alg.frame_placement(model, data, b) for b in (foot.hindfoot, foot.forefoot) if b}
    mtp = float((place[foot.forefoot].p - sole.heel) @ sole.forward) if foot.forefoot else np.inf
    out = []
    for name, (along, side) in FRACTIONS.items():
        b = side * L if side is not None else widths[name]
        world = sole.heel + along * L * sole.forward + b * sole.lateral
        body = foot.forefoot if along * L > mtp else foot.hindfoot
        out.append((f"{name}_{sole.side}", body, place[body].inverse().act(world)))
    return out
