"""``read_osim``: an OpenSim 3 or 4 model file (.osim) as a HybridLab :class:`~engine.model.Model`."""
from __future__ import annotations

from ...errors import ModelError
from ...model import DEFAULT_GRAVITY, Model
from ...tree import compile_tree
from .bodies import read_bodies
from .constraints import read_couplers
from .document import OsimDocument
from .frames import FrameTable
from .geometry import read_meshes
from .joints import read_joints
from .markers import read_markers
from .muscles import read_muscles
from .paths import ComponentPaths
from .wrapping import read_wrap_objects

# Sets whose members HybridLab does not model, and what to call a member in the warning.
_UNMODELLED_SETS = {"ControllerSet": "controller", "ProbeSet": "probe", "ContactGeometrySet": "contact geometry",
                    "ComponentSet": "component"}


def read_osim(path) -> Model:
    """The model of the OpenSim model file ``path`` (see :func:`read_osim_document`)."""
    return read_osim_document(path)[0]


def read_osim_document(path) -> tuple[Model, OsimDocument]:
    """Read an OpenSim model of OpenSim 4.x (``Version`` 40000 or later) or 3.x (30000 or later, rewritten
    in 4.x's layout first as OpenSim 4 does, see :mod:`.upgrade`).

    Imports bodies, offset frames, joints and coordinates (OpenSim's poses and,
    except for Ball and Free joints, its speeds), coordinate couplers, markers,
    mesh names, gravity, wrap objects and the Thelen2003 and Millard2012
    muscles with their paths and parameters. Whatever the file holds that is
    not imported is listed in ``model.metadata["import_warnings"]``.
    ``model.metadata`` also holds ``source``, ``opensim_version``, OpenSim's
    ``coordinate_motion_types``, the names of the joints' child frames (``joint_child_frames``) and the file's ``credits`` and ``publications``.

    Returns the model and the document read (``scale_files`` writes the scaled .osim from it).

    Raises
    ------
    ModelError
        Naming the file and element: unreadable or malformed XML, a document
        older than OpenSim 3.0, a missing required element, bad numbers (NaN
        inertia...), or a joint or function type HybridLab cannot represent.
    """
    doc = OsimDocument(path)
    try:
        model = _build(doc)
        compile_tree(model)   # compile now so that engine limits surface as import errors
    except ModelError as exc:
        if exc.file is None:
            raise exc.in_file(doc.file) from None
        raise
    return model, doc


def _build(doc) -> Model:
    paths = ComponentPaths(doc)
    frames = FrameTable(doc, paths)
    couplers = read_couplers(doc, paths)
    joints, motion_types, child_frames = read_joints(doc, paths, frames, couplers)
    bodies = read_bodies(doc, frames, read_meshes(doc, paths, frames))
    markers = read_markers(doc, paths, frames)
    wrap_objects = read_wrap_objects(doc, paths, frames)
    muscles = read_muscles(doc, paths, frames, {w.name for w in wrap_objects})
    _list_unmodelled_sets(doc, paths)
    gravity = doc.numbers(doc.model, "gravity", "<Model>", 3, DEFAULT_GRAVITY)
    metadata = {"source": doc.file, "opensim_version": doc.version, "coordinate_motion_types": motion_types,
                "joint_child_frames": child_frames}
    for key in ("credits", "publications"):
        text = doc.text(doc.model, key, "<Model>", "")
        if text:
            metadata[key] = text
    _check_units(doc)
    metadata["import_warnings"] = doc.warnings + doc.leftovers(paths.path_of)
    name = (doc.model.get("name") or "").strip() or doc.path.stem
    return Model(name, bodies=bodies, joints=joints, frames=frames.frames(), markers=markers, muscles=muscles,
                 wrap_objects=wrap_objects, gravity=gravity, metadata=metadata)


def _list_unmodelled_sets(doc, paths):
    for tag, kind in _UNMODELLED_SETS.items():
        for element in doc.objects(doc.child(doc.model, tag)):
            if element.tag == "PhysicalOffsetFrame":
                continue   # imported with the frames
            doc.use_subtree(element)
            doc.warn(f"{kind} {paths.path_of(element)} ({element.tag}): not imported; HybridLab does not model it")


def _check_units(doc):
    for tag, expected in (("length_units", ("meters", "meter", "m")), ("force_units", ("n", "newtons", "newton"))):
        text = doc.text(doc.model, tag, "<Model>", "")
        if text and text.lower() not in expected:
            doc.warn(f"<{tag}> says {text!r}; OpenSim and HybridLab read every value in SI units (m, N) regardless")
