"""Component paths of an OpenSim 4 document and the resolution of socket paths.

OpenSim names every component by its path from the model, e.g.
``/jointset/knee_r/femur_r_offset`` for an offset frame owned by a joint.
A socket holds such a path, absolute (``/bodyset/pelvis``) or relative to the
component that owns the socket (``femur_r_offset`` inside a joint, ``..``).
"""
from __future__ import annotations

from collections import defaultdict

# Names OpenSim gives the model's sets (which are components) when the file does not.
_DEFAULT_SET_NAMES = {
    "BodySet": "bodyset", "JointSet": "jointset", "ConstraintSet": "constraintset", "ForceSet": "forceset",
    "MarkerSet": "markerset", "ContactGeometrySet": "contactgeometryset", "ControllerSet": "controllerset",
    "ProbeSet": "probeset", "ComponentSet": "componentset",
}
# Named lists that are not components: their members belong to the list's owner.
_NOT_COMPONENTS = ("WrapObjectSet",)


class ComponentPaths:
    """Every named element of the model under its component path."""

    def __init__(self, doc):
        self.doc = doc
        self._by_path: dict[str, object] = {}
        self._path_of: dict = {doc.model: "/"}
        self._by_name: dict[str, list] = defaultdict(list)
        self._walk(doc.model, "")

    def _walk(self, element, path: str):
        for child in element:
            name = (child.get("name") or "").strip() or _DEFAULT_SET_NAMES.get(child.tag)
            if name and child.tag not in _NOT_COMPONENTS:
                cpath = f"{path}/{name}"
                self._path_of[child] = cpath
                self._by_path.setdefault(cpath, child)
                self._by_name[name].append(child)
                self._walk(child, cpath)
            else:
                self._walk(child, path)

    def path_of(self, element) -> str:
        """The component path of ``element`` (or of its nearest named ancestor)."""
        while element is not None and element not in self._path_of:
            element = self.doc.parent(element)
        return self._path_of.get(element, "/")

    def socket(self, owner, tag: str, what: str, kinds=None):
        """The element a socket ``<tag>`` of ``owner`` connects to (see :meth:`resolve`)."""
        return self.resolve(owner, self.doc.text(owner, tag, what), what, kinds)

    def resolve(self, owner, text: str, what: str, kinds=None):
        """The element at socket path ``text`` seen from ``owner``.

        ``kinds`` (element tags) restricts the fallback OpenSim also applies to
        a bare name that is not found relative to the owner: the one component
        of that name anywhere in the model (a warning says so).
        """
        path = (text or "").strip()
        if not path:
            raise self.doc.error("has an empty socket path", what)
        segments = [] if path.startswith("/") else [s for s in self.path_of(owner).split("/") if s]
        for part in path.split("/"):
            if part in ("", "."):
                continue
            if part == "..":
                if not segments:
                    raise self.doc.error(f"socket path {path!r} leads above the model", what)
                segments.pop()
            else:
                segments.append(part)
        found = self._by_path.get("/" + "/".join(segments)) if segments else self.doc.model
        if found is None and "/" not in path:
            matches = [el for el in self._by_name.get(path, []) if kinds is None or el.tag in kinds]
            if len(matches) == 1:
                found = matches[0]
                self.doc.warn(f"{what}: socket path {path!r} is not found relative to {self.path_of(owner)}; "
                              f"connected to the only such component, {self.path_of(found)}")
        if found is None:
            raise self.doc.error(f"refers to {path!r}, which is not a component of the model", what)
        return found
