"""Small helpers for reading OpenSim's XML setup documents; problems become DataError naming file and element."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from ..errors import DataError


def parse_xml(path) -> ET.Element:
    """The root element of an XML file; syntax errors become DataError naming line and column."""
    path = Path(path)
    try:
        return ET.parse(path).getroot()
    except ET.ParseError as exc:
        line, column = exc.position
        raise DataError(f"malformed XML ({exc.msg})",
                        element=f"line {line}, column {column + 1}", file=path) from None
    except OSError as exc:
        raise DataError(f"cannot read the file ({exc.strerror or exc})", file=path) from None
    except (LookupError, ValueError) as exc:   # an unknown or unusable encoding in the XML declaration
        raise DataError(f"malformed XML ({exc})", element="line 1", file=path) from None


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
