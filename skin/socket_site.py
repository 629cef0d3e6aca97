"""Whether a model has a socket and why an analysed result has no socket pressure map, without the map's numerics:
the application's first window asks these (``hybridgui.socket_pressure``) and imports ``skin.socket_map`` only when
the map is computed."""
from __future__ import annotations

from engine.errors import ModelError
from engine.model import WeldJoint


def residual_limb(model) -> tuple[str, str] | None:
    """``(weld, limb)``: the weld joint that holds a socket (a body named ``socket...``) to the residual limb, and the
    limb's body; None when ``model`` has no socket."""
    for j in model.joints:
        if isinstance(j, WeldJoint) and j.child.lower().startswith("socket"):
            return j.name, j.parent
    return None


def skinned_bodies(model, weld: str | None = None) -> list[str]:
    """The names of ``model``'s bodies that carry skin, in the model's order: all but the socket's body, the child of
    the weld joint ``weld`` (default the model's socket, :func:`residual_limb`; every body when it has none), which
    is a device, not flesh. The one rule of the scenes' skins and the socket map's."""
    if weld is None:
        found = residual_limb(model)
        weld = None if found is None else found[0]
    socket = None if weld is None else model.joint(weld).child
    return [b.name for b in model.bodies if b.name != socket]


def socket_site(model, weld: str | None = None, limb: str | None = None, file=None) -> tuple[str, str]:
    """``(weld, limb)``: the weld joint ``weld`` that holds the socket (any weld of ``model``, whatever its child is
    named; default the model's socket, :func:`residual_limb`) and the residual limb's body ``limb`` (default the weld's
    parent). ModelError naming ``file`` (where the model was read), the model and the weld when ``weld`` is not one of
    its weld joints (listing those it has) or ``limb`` is not one of its bodies, or when there is no default."""
    where = f"model '{model.name}'"
    if weld is None:
        found = residual_limb(model)
        if found is None:
            raise ModelError(f"has no residual limb in a socket (no weld joint to a body named socket...); name its "
                             f"weld joint ({_welds(model)})", where, file)
        weld = found[0]
    joint = next((j for j in model.joints if j.name == weld), None)
    if not isinstance(joint, WeldJoint):
        what = "no joint" if joint is None else f"a {type(joint).__name__}, not a weld, named"
        raise ModelError(f"has {what} {weld!r} to hold the socket ({_welds(model)})", where, file)
    limb = joint.parent if limb is None else limb
    if limb not in [b.name for b in model.bodies]:
        raise ModelError(f"has no body {limb!r} for the residual limb in the socket welded by {weld!r}", where, file)
    return weld, limb


def _welds(model) -> str:
    names = [f"{j.name!r} ({j.parent} to {j.child})" for j in model.joints if isinstance(j, WeldJoint)]
    return f"its weld joints: {', '.join(names)}" if names else "it has no weld joint"


def unavailable(result, settings, site: tuple[str, str] | None = None) -> str | None:
    """Why the socket's pressure map of ``result`` (an AnalysisResult) analysed with ``settings`` cannot be computed, in
    words; None when it can. ``site`` ``(weld, limb)``: the socket held by that weld (checked by :func:`socket_site`),
    whatever its body is named; default: the model's socket (a body named ``socket...``)."""
    if site is None and residual_limb(result.model) is None:
        return (f"the model '{result.model.name}' has no residual limb in a socket (no weld joint to a body named "
                "socket...)")
    if settings is None:
        return "the analysis settings are not known, and the socket's load is computed with them"
    if result.classic is None:
        return ("the analysis has no inverse dynamics with measured loads (no force plates), from which the socket's "
                "load comes")
    return None
