"""XML read within bounds: at most ``MAX_BYTES`` of file, ``MAX_DEPTH`` levels of nesting (OpenSim's documents nest
about 15 deep; deeper is refused before any recursive walk of the tree), and no entity declarations (as defusedxml
does: OpenSim never writes them, and a "billion laughs" of nested entities takes expat's own amplification limit
seconds and tens of MB to stop). External entities are never fetched. A leaf every layer may use to read XML
(``engine.io._xml`` for OpenSim's documents, ``engine.muscles.forces.reserves`` for actuator files).
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from .errors import DataError

MAX_BYTES = 256 * 2 ** 20
MAX_DEPTH = 100
_CHUNK = 1 << 16


def parse_bounded(path, error=DataError) -> ET.Element:
    """The root element of the XML file ``path`` within the module's bounds; a refusal, a syntax error or an
    unreadable file is ``error`` (a HybridLab error type) naming the file (and line and column)."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise error(f"is refused: {size / 2 ** 20:.0f} MB long (at most {MAX_BYTES / 2 ** 20:.0f} MB)", file=path)
        parser = ET.XMLPullParser(events=("start", "end"))
        depth, root = 0, None
        tail = b""
        with open(path, "rb") as fh:
            while chunk := fh.read(_CHUNK):
                if b"<!ENTITY" in tail + chunk:
                    raise error("is refused: it declares entities (<!ENTITY>), which HybridLab does not read",
                                file=path)
                tail = chunk[-8:]
                parser.feed(chunk)
                for event, element in parser.read_events():
                    if event == "end":
                        depth -= 1
                        continue
                    depth += 1
                    root = element if root is None else root
                    if depth > MAX_DEPTH:
                        raise error(f"is refused: elements nested deeper than {MAX_DEPTH} levels",
                                    f"<{element.tag}>", path)
        parser.close()
        list(parser.read_events())
    except ET.ParseError as exc:
        line, column = exc.position
        raise error(f"is not well-formed XML ({exc.msg}); the file may be truncated or damaged",
                    f"line {line}, column {column + 1}", path) from None
    except OSError as exc:
        raise error(f"cannot read the file ({exc.strerror or exc})", file=path) from None
    except (LookupError, ValueError) as exc:   # an unknown or unusable encoding in the XML declaration
        raise error(f"is not well-formed XML ({exc})", "line 1", path) from None
    return root


def document_element(path, error=DataError) -> str:
    """The tag of the XML file ``path``'s document element: its root's or, in an OpenSim document
    (``<OpenSimDocument>``, as OpenSim writes its files), its first element's (``ScaleTool``, ``MarkerSet``,
    ``ExternalLoads``, ``Model`` ...): what the file is, whatever its name. Errors as :func:`parse_bounded`'s, and
    ``error`` for an OpenSim document holding no element."""
    root = parse_bounded(path, error)
    if root.tag != "OpenSimDocument":
        return root.tag
    first = next(iter(root), None)
    if first is None:
        raise error("is an OpenSim document holding no element", "<OpenSimDocument>", path)
    return first.tag
