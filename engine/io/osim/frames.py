"""Physical frames of an OpenSim model: ground, bodies and PhysicalOffsetFrames.

Offset frames become :class:`~engine.model.Frame` objects named by their
component path without the set names, e.g. ``knee_r/femur_r_offset`` for
``/jointset/knee_r/femur_r_offset`` (OpenSim only makes names unique among
siblings, so joint-owned frames of the same name are common).
"""
from __future__ import annotations

from ...model import GROUND, Frame
from ...spatial import SE3

FRAME_TAGS = ("Ground", "Body", "PhysicalOffsetFrame")


class FrameTable:
    """Names, parents and placements of every physical frame of the document."""

    def __init__(self, doc, paths):
        self.doc = doc
        self.paths = paths
        self.name_of: dict = {}                # frame element -> our name
        self.parent: dict[str, str] = {}       # offset frame -> parent frame name
        self.placement: dict[str, SE3] = {}    # offset frame -> placement in its parent
        self.element: dict[str, object] = {}   # our name -> frame element
        self.bodies: list = []                 # Body elements, in file order
        ground = doc.model.find("Ground")
        self._register(doc.use(ground), GROUND)
        for el in doc.objects(doc.child(doc.model, "BodySet")):
            if el.tag != "Body":
                raise doc.error(f"holds a <{el.tag}>; only Body elements belong in a BodySet", "<BodySet>")
            self._register(doc.use(el), doc.name(el, "body"))
            self.bodies.append(el)
        offsets = list(doc.model.iter("PhysicalOffsetFrame"))
        for el in offsets:
            self._register(el, self._offset_name(el))
        for el in offsets:
            self._read_offset(el)

    def _register(self, element, name: str):
        if name in self.element:
            raise self.doc.error(f"two frames are both called {name!r}", f"frame {self.paths.path_of(element)}")
        self.name_of[element] = name
        self.element[name] = element

    def _offset_name(self, element) -> str:
        parts = []
        node = element
        while node is not None and node is not self.doc.model:
            name = (node.get("name") or "").strip()
            if name and not node.tag.endswith("Set"):
                parts.append(name)
            node = self.doc.parent(node)
        return "/".join(reversed(parts))

    def _read_offset(self, element):
        doc = self.doc
        doc.use(element)
        doc.use(doc.parent(element))   # the <frames> or <components> list holding it
        what = f"frame {self.paths.path_of(element)}"
        name = self.name_of[element]
        self.parent[name] = self.frame(element, "socket_parent", what)
        translation = doc.numbers(element, "translation", what, 3, [0.0, 0.0, 0.0])
        orientation = doc.numbers(element, "orientation", what, 3, [0.0, 0.0, 0.0])
        self.placement[name] = SE3.from_translation_xyz(translation, orientation)

    # ----------------------------------------------------------------- access
    def frame(self, owner, socket: str, what: str) -> str:
        """Our name of the frame the socket ``<socket>`` of ``owner`` connects to."""
        target = self.paths.socket(owner, socket, what, FRAME_TAGS)
        if target not in self.name_of:
            raise self.doc.error(f"<{socket}> connects to {self.paths.path_of(target)}, a <{target.tag}>, "
                                 "which is not a physical frame", what)
        return self.name_of[target]

    def in_body(self, name: str) -> tuple[str, SE3]:
        """``(body or 'ground', placement of frame ``name`` in it)``."""
        placement = SE3()
        seen = set()
        while name in self.parent:
            if name in seen:
                raise self.doc.error("offset frames form a cycle", f"frame '{name}'")
            seen.add(name)
            placement = self.placement[name] @ placement
            name = self.parent[name]
        return name, placement

    def frames(self) -> list[Frame]:
        """The offset frames as model frames."""
        return [Frame(name, self.parent[name], self.placement[name]) for name in self.parent]
