"""The seed's transtibial amputation (section 2.4.2, myodesis) as a list of muscle edits.

The subject's surgery, as the seed models it: the anterior compartment
musculature was removed; gastrocnemius and soleus were transected and secured
to the residual tibia, wrapped over the end of the stump to its anterior face.
Every other muscle that reached below the amputation loses its distal
attachment: it is transected with no attachment (see ``edits``).

Apply the edits to the model *before* its segments below the stump are
removed (the edits read the muscles' current paths); ``apply_edits`` returns
the edited model and the changes that undo it.
"""
from __future__ import annotations

import numpy as np

from ..errors import ModelError
from ..model.joints import Joint
from ..spatial import SE3
from ..model.muscles import PathPoint, PathWrap, WrapCylinder, WrapObject
from .muscles import AddWrapObject, ReattachMuscle, RemoveMuscle, TransectMuscle

# OpenSim's leg-model muscle names (gait2392 / gait2354), without the side suffix
ANTERIOR_COMPARTMENT = ("tib_ant", "ext_dig", "ext_hal", "per_tert")
TRICEPS_SURAE = ("med_gas", "lat_gas", "soleus")


def stump_cylinder(stump: str, centre, radius: float, length: float = 0.1, name: str | None = None) -> WrapCylinder:
    """A wrap cylinder across the end of a residual limb: axis along the stump body's z (medio-lateral
    in OpenSim's leg frames), centred at ``centre`` (m, stump frame), active on its -y half (the
    distal side, so paths pass under the end)."""
    return WrapCylinder(name or f"{stump}_stump", stump, SE3(np.eye(3), np.asarray(centre, float)), "-y",
                        radius=radius, length=length)


def distal_bodies(model, stump: str) -> set:
    """The bodies below ``stump`` in the joint tree (the segments an amputation through it removes)."""
    model.body(stump)
    below = set()
    frontier = {stump}
    while frontier:
        children = {el.child for el in model.ordered_elements
                    if isinstance(el, Joint) and model.resolve(el.parent)[0] in frontier}
        frontier = children - below
        below |= children
    return below


def transtibial_edits(model, stump: str = "tibia_r", attachment=(0.03, -0.12, 0.0), removed=None, reattached=None,
                      wrap: WrapObject | None = None, via=()) -> list:
    """The edits of the seed's transtibial amputation through ``stump`` (the residual tibia body).

    Parameters
    ----------
    model : Model
        The model with the leg still whole (the muscles reach the foot).
    stump : str
        The residual tibia body.
    attachment : (3,) m
        Where gastrocnemius and soleus are secured, in the stump frame (its anterior face, +x in
        OpenSim's leg frames).
    removed, reattached : sequences of muscle names
        The anterior compartment to remove and the muscles to re-attach. By default, those of
        :data:`ANTERIOR_COMPARTMENT` and :data:`TRICEPS_SURAE` with the stump's side suffix
        (``_r`` for ``tibia_r``) that the model has.
    wrap : WrapObject, optional
        A surface on the stump (e.g. :func:`stump_cylinder`) that the re-attached muscles wrap over;
        it is added to the model.
    via : sequence of PathPoint
        Via points on the stump the re-attached muscles pass before the attachment.

    Returns
    -------
    list of edits: ``AddWrapObject`` (if ``wrap``), then per muscle reaching below the stump, in model
    order, ``RemoveMuscle`` (the anterior compartment), ``ReattachMuscle`` (the proximal points up to the
    last one above the amputation, ``via``, the attachment) or ``TransectMuscle`` (any other).

    Raises
    ------
    ModelError
        If the stump body or a named muscle does not exist, or a muscle to re-attach does not reach
        below the stump or starts below it.
    """
    distal = distal_bodies(model, stump)
    side = stump[stump.rfind("_"):] if "_" in stump else ""
    names = {m.name for m in model.muscles}
    removed = _names(removed, ANTERIOR_COMPARTMENT, side, names, model)
    reattached = _names(reattached, TRICEPS_SURAE, side, names, model)
    if wrap is not None and wrap.body != stump:
        raise ModelError(f"is on {wrap.body!r}, not on the stump {stump!r}", f"wrap object '{wrap.name}'")
    edits = [] if wrap is None else [AddWrapObject(wrap)]
    for m in model.muscles:
        below = [model.resolve(p.parent)[0] in distal for p in m.path.points]
        if m.name in removed:
            edits.append(RemoveMuscle(m.name, "anterior compartment removed in the amputation"))
        elif m.name in reattached:
            if not any(below) or below[0]:
                raise ModelError(f"does not run from above the amputation through {stump!r} to below it, so it "
                                 "cannot be re-attached to the stump", f"muscle '{m.name}'")
            keep = m.path.points[below.index(True) - 1].name
            point = PathPoint(f"{m.name}-stump", stump, attachment)
            edits.append(ReattachMuscle(m.name, keep, point, tuple(via),
                                        None if wrap is None else PathWrap(wrap.name),
                                        "transected and secured to the residual tibia (myodesis)"))
        elif any(below):
            edits.append(TransectMuscle(m.name, "reached below the amputation; transected with no attachment"))
    return edits


def _names(given, defaults, side, present, model) -> set:
    if given is None:
        return {n + side for n in defaults if n + side in present}
    missing = [n for n in given if n not in present]
    if missing:
        raise ModelError(f"has no muscle named {', '.join(map(repr, missing))}", f"model '{model.name}'")
    return set(given)
