"""The feet's markers and bodies by their usual names, for a model without contact candidates.

A heel marker: ``R.Heel`` / ``L.Heel`` (OpenSim's gait models), ``RHEE`` / ``LHEE`` (Plug-in Gait), ``RCAL``,
``heel_r`` ...; a toe marker on the forefoot: ``RTOE`` (Plug-in Gait's, on the second metatarsal head), ``R.Toe``,
``RMT2``, ``toe_r`` ...; a toe tip marker: ``R.Toe.Tip``, ``RTIP`` ... (on top of the shoe's tip: it sits higher on
the flat foot than when the foot rolls over it, so it is no forefoot marker); a hindfoot body: ``calcn_r`` (OpenSim),
``foot_r``, ``RFT`` (Visual3D) ...; a forefoot body: ``toes_r`` (OpenSim), ``forefoot_r`` ... A side is a prefix
(``R``, ``Left``, with or without a separator) or a suffix past a separator (``_r``, ``.l``): the one rule of
``engine.analysis.gait_phases.named_side`` (and so of ``side_of``, which sides the plates' targets).
"""
from __future__ import annotations

from ..analysis.gait_phases import named_side

HEEL = ("hee", "heel", "cal", "calc", "calcaneus")
TOE = ("toe", "mt2", "mth2")
TIP = (r"toe[^a-z]*tip", "tip", "hallux")
HINDFOOT = ("calcn", "calcaneus", "foot", "hindfoot", "ft")
FOREFOOT = ("toes", "forefoot")


def one_named(names, stems, side) -> tuple[str | None, list]:
    """``(the one name of ``side`` among ``names``, or None, every name of that side found)``: two are ambiguous."""
    found = [n for n in names if named_side(n, stems) == side]
    return (found[0] if len(found) == 1 else None), found


def foot_point(model, side, markers, bodies, body_first: bool = False) -> tuple[str | None, str]:
    """``(the model marker or body following ``side``'s heel or toe, description)``: a marker named one of
    ``markers``, else a body named one of ``bodies`` (stems), or the other way round with ``body_first``; None and
    why when neither (or several). The description names the markers or bodies passed over as ambiguous (two of
    this side)."""
    marker, found_markers = one_named([m.name for m in model.markers], markers, side)
    body, found_bodies = one_named([b.name for b in model.bodies], bodies, side)
    several = [f"the {kind} {', '.join(found)}" for kind, found in (("markers", found_markers),
                                                                     ("bodies", found_bodies)) if len(found) > 1]
    ambiguous = f" ({' and '.join(several)} of this side are ambiguous)" if several else ""
    if body is not None and (body_first or marker is None):
        return body, f"the origin of the body {body}{ambiguous}"
    if marker is not None:
        return marker, f"the marker {marker} (the model's, at the analysed coordinates){ambiguous}"
    return None, f"none: no marker nor body by the usual names on this side (foot_names){ambiguous}"
