"""An OpenSim .osim document: parsing, typed reading of elements, and a record of what was read.

Every element the importer takes into account is marked as *used*. What is
left unused at the end (and holds information: text or children) is reported
by :meth:`OsimDocument.leftovers`, so nothing in the file is dropped silently.
"""
from __future__ import annotations

import copy
import xml.etree.ElementTree as ET
from collections import OrderedDict
from pathlib import Path

import numpy as np

from ...errors import ModelError
from .upgrade import FIRST_OPENSIM3_VERSION, upgrade_opensim3
from ...bounded_xml import parse_bounded

FIRST_SUPPORTED_VERSION = FIRST_OPENSIM3_VERSION   # OpenSim 3.0 documents (rewritten in 4.x's layout)
OPENSIM4_VERSION = 40000

_MISSING = object()

# Why common leftovers are not imported (shown with the warning).
_WHY = {
    "FrameGeometry": "display of frame axes",
    "default_speed_value": "initial speeds are not part of a HybridLab model",
    "Appearance": "display appearance",
    "ObjectGroup": "named groups of components",
    "groups": "named groups of components",
    "is_free_to_satisfy_constraints": "assembly hint for OpenSim's solver",
    "defaults": "OpenSim 3's default property values per object type",
    "VisibleObject": "OpenSim 3 display settings",
}


class OsimDocument:
    """A parsed .osim file with its ``<Model>`` element.

    An OpenSim 3.x document (``Version`` 30000 to 39999) is rewritten in OpenSim 4's
    layout first (:mod:`.upgrade`). Raises :class:`~engine.errors.ModelError` naming the
    file if the file is missing, is not well-formed XML, is not an OpenSim document or is
    older than OpenSim 3.0 (``Version`` 30000).
    """

    def __init__(self, path):
        self.path = Path(path)
        self.file = str(path)
        self.warnings: list[str] = []
        self._used: set = set()
        self.root = parse_bounded(self.path, ModelError)
        if self.root.tag != "OpenSimDocument":
            raise ModelError(f"is not an OpenSim document: its root element is <{self.root.tag}>, "
                             "expected <OpenSimDocument>", file=self.file)
        self.version = self._version()
        self.model = self.root.find("Model")
        if self.model is None:
            raise ModelError("has no <Model> element", "<OpenSimDocument>", self.file)
        if self.version < OPENSIM4_VERSION:
            self.warnings += upgrade_opensim3(self.model, self.file)
        if self.model.find("Ground") is None:  # OpenSim gives every model a ground frame
            ET.SubElement(self.model, "Ground", name="ground")
        self._parent = {child: parent for parent in self.root.iter() for child in parent}
        self.use(self.root)
        self.use(self.model)

    def copy(self) -> OsimDocument:
        """An independent copy of the document as read (its tree deep-copied, nothing marked as read), for a writer
        that changes it (``scaled_document``) without reading the file again."""
        other = copy.copy(self)
        other.root = copy.deepcopy(self.root)
        other.model = other.root.find("Model")
        other.warnings = list(self.warnings)
        other._used = set()
        other._parent = {child: parent for parent in other.root.iter() for child in parent}
        other.use(other.root)
        other.use(other.model)
        return other

    def _version(self) -> int:
        text = self.root.get("Version")
        if text is None:
            raise ModelError("has no Version attribute, so its format cannot be known", "<OpenSimDocument>", self.file)
        try:
            version = int(text.strip())
        except ValueError:
            raise ModelError(f"has an unreadable Version attribute {text!r}", "<OpenSimDocument>", self.file) from None
        if version < FIRST_SUPPORTED_VERSION:
            raise ModelError(
                f"is an OpenSim document of Version {version}, older than OpenSim 3.0 (Version "
                f"{FIRST_SUPPORTED_VERSION}); open and save it with OpenSim 4 to convert it", "<OpenSimDocument>",
                self.file)
        return version

    # ----------------------------------------------------------------- errors
    def error(self, problem: str, element: str | None = None) -> ModelError:
        return ModelError(problem, element, self.file)

    def warn(self, message: str) -> None:
        self.warnings.append(message)

    # ------------------------------------------------------------ navigation
    def use(self, element):
        """Mark ``element`` (not its children) as read; return it."""
        if element is not None:
            self._used.add(element)
        return element

    def use_subtree(self, element):
        """Mark ``element`` and everything inside it as read; return it."""
        for el in element.iter():
            self._used.add(el)
        return element

    def parent(self, element):
        return self._parent.get(element)

    def child(self, element, tag: str):
        """The first direct child ``<tag>`` (marked as read), or None."""
        return self.use(element.find(tag))

    def children(self, element, tag: str | None = None) -> list:
        """Direct children (all, or those named ``tag``), not marked as read."""
        return [c for c in element if tag is None or c.tag == tag]

    def objects(self, set_element) -> list:
        """The members of an OpenSim Set (``<objects>`` children); marks the wrappers as read."""
        if set_element is None:
            return []
        self.use(set_element)
        wrapper = self.child(set_element, "objects")
        return [] if wrapper is None else list(wrapper)

    def name(self, element, kind: str) -> str:
        name = (element.get("name") or "").strip()
        if not name:
            raise self.error(f"a <{element.tag}> has no name attribute", kind)
        return name

    # ---------------------------------------------------------------- values
    def text(self, element, tag: str, what: str, default=_MISSING) -> str:
        el = self.child(element, tag)
        if el is None:
            if default is _MISSING:
                raise self.error(f"is missing its <{tag}> element", what)
            return default
        return (el.text or "").strip()

    def numbers(self, element, tag: str, what: str, count: int | None = None, default=_MISSING) -> np.ndarray:
        """The whitespace-separated numbers of ``<tag>`` as a float array (finite, ``count`` of them)."""
        el = self.child(element, tag)
        if el is None:
            if default is _MISSING:
                raise self.error(f"is missing its <{tag}> element", what)
            return None if default is None else np.array(default, dtype=float)
        text = (el.text or "").strip()
        try:
            values = np.array([float(t) for t in text.replace(",", " ").split()], dtype=float)
        except ValueError:
            raise self.error(f"<{tag}> must hold numbers, got {text!r}", what) from None
        if count is not None and values.size != count:
            raise self.error(f"<{tag}> must hold {count} number(s), got {values.size} ({text!r})", what)
        if not np.all(np.isfinite(values)):
            raise self.error(f"<{tag}> contains NaN or infinite values ({text!r})", what)
        return values

    def number(self, element, tag: str, what: str, default=_MISSING) -> float:
        values = self.numbers(element, tag, what, 1, default if default is _MISSING else [default])
        return float(values[0])

    def flag(self, element, tag: str, what: str, default: bool) -> bool:
        text = self.text(element, tag, what, None)
        if text is None or text == "":
            return default
        low = text.lower()
        if low in ("true", "1"):
            return True
        if low in ("false", "0"):
            return False
        raise self.error(f"<{tag}> must be true or false, got {text!r}", what)

    # ------------------------------------------------------------- leftovers
    def leftovers(self, path_of) -> list[str]:
        """One message per kind of element that holds information but was not read.

        ``path_of(element)`` gives the OpenSim component path of the nearest
        named element, used to show where an example occurs.
        """
        groups: OrderedDict = OrderedDict()
        for el in self.model.iter():
            if el in self._used or not _holds_information(el):
                continue
            parent = self._parent.get(el)
            if parent is not None and parent not in self._used:
                continue  # reported with its topmost unread ancestor
            rel = [el.tag]
            owner = parent
            while owner is not None and owner is not self.model and not owner.get("name"):
                rel.insert(0, owner.tag)
                owner = self._parent.get(owner)
            key = "/".join(rel)
            where = path_of(owner)
            count, example = groups.get(key, (0, where))
            groups[key] = (count + 1, example)
        out = []
        for key, (count, where) in groups.items():
            why = _WHY.get(key.split("/")[-1]) or _WHY.get(key.split("/")[0])
            reason = f" ({why})" if why else ""
            if count == 1:
                out.append(f"<{key}> at {where}: not imported{reason}")
            else:
                out.append(f"<{key}>: not imported{reason}; {count} in the file, e.g. at {where}")
        return out


def _holds_information(el) -> bool:
    return bool((el.text or "").strip()) or len(el) > 0
