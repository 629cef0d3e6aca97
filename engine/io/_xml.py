"""Small helpers for reading XML documents (OpenSim's models and setups, parsed within the bounds of
``engine.bounded_xml``); problems become the caller's error type naming file and element.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET

from ..bounded_xml import parse_bounded
from ..errors import DataError


def parse_xml(path) -> ET.Element:
    """The root element of an XML file (:func:`parse_bounded`); problems become DataError."""
    return parse_bounded(path, DataError)


def text_of(element, tag: str, path, default: str | None = None) -> str:
    """The stripped text of ``element``'s child ``tag``; DataError when absent and no default."""
    child = element.find(tag)
    if child is None:
        if default is None:
            raise DataError(f"the element <{tag}> is missing", element=f"<{element.tag} name="
                            f"{element.get('name', '')!r}>", file=path)
        return default
    return (child.text or "").strip()


def boolean_of(element, tag: str, path, default: bool) -> bool:
    text = text_of(element, tag, path, "true" if default else "false").lower()
    if text not in ("true", "false"):
        raise DataError(f"<{tag}> must be true or false, got {text!r}",
                        element=f"<{element.tag} name={element.get('name', '')!r}>", file=path)
    return text == "true"
