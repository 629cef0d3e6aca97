"""Whether a model has a socket and why an analysed result has no socket pressure map, without the map's numerics:
the application's first window asks these (``hybridgui.socket_pressure``) and imports ``skin.socket_map`` only when
the map is computed."""
from __future__ import annotations

from engine.model import WeldJoint


def residual_limb(model) -> tuple[str, str] | None:
    """``(weld, limb)``: the weld joint that holds a socket (a body named ``socket...``) to the residual limb, and the
    limb's body; None when ``model`` has no socket."""
    for j in model.joints:
        if isinstance(j, WeldJoint) and j.child.lower().startswith("socket"):
            return j.name, j.parent
    return None


def unavailable(result, settings) -> str | None:
    """Why the socket's pressure map of ``result`` (an AnalysisResult) analysed with ``settings`` cannot be computed, in
    words; None when it can."""
    if residual_limb(result.model) is None:
        return (f"the model '{result.model.name}' has no residual limb in a socket (no weld joint to a body named "
                "socket...)")
    if settings is None:
        return "the analysis settings are not known, and the socket's load is computed with them"
    if result.classic is None:
        return ("the analysis has no inverse dynamics with measured loads (no force plates), from which the socket's "
                "load comes")
    return None
