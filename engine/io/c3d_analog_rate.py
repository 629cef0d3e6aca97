"""A C3D file whose header declares analog samples but whose parameters have no ANALOG:RATE (BTS Biomech 2.5 writes
such files: c3d.org's Sample28). ezc3d derives the analog layout of every frame from ANALOG:RATE, reads 0 analog
samples per frame and so misreads every frame after the first. The C3D rule (analog rate = point rate x analog
samples per frame, the samples per frame being the header's analog values per frame over ANALOG:USED) gives the
missing value exactly; :func:`missing_analog_rate` makes a copy of the file with that one parameter added, for ezc3d
to read, and says so.

The parameter section is walked record by record (C3D manual, "The parameter section"): ``int8`` name length
(negative: locked), ``int8`` id (negative: a group, positive: a parameter of that group), the name, ``int16`` offset
from that word to the next record (0 or a record of name length 0 ends the section), then for a parameter ``int8``
type (-1 char, 1 byte, 2 int16, 4 float), ``int8`` dimensions, the dimensions, the data, the description.
"""
from __future__ import annotations

import struct
from pathlib import Path

from ..errors import DataError


def _records(data: bytes, path):
    """``(position, name, id, data_position, type)`` of each record of the parameter section, the position where
    the section ends and, when its last record ends it by an offset of 0, that offset word's position (else None)
    (Intel byte order); None when the section cannot be walked (running backwards or past its blocks or the file:
    ezc3d and the reader's own checks then say what is wrong)."""
    try:
        return _walk(data)
    except (struct.error, IndexError, ValueError):
        return None


def _walk(data: bytes):
    start = (data[0] - 1) * 512
    end = start + 512 * data[start + 2]
    pos, found = start + 4, []
    while pos + 2 <= end:
        n, ident = struct.unpack("bb", data[pos:pos + 2])
        if n == 0:
            return found, pos, None
        name = data[pos + 2:pos + 2 + abs(n)].decode("latin-1").upper()
        word = pos + 2 + abs(n)
        (offset,) = struct.unpack("<h", data[word:word + 2])
        kind = struct.unpack("b", data[word + 2:word + 3])[0] if ident > 0 else None
        dims = data[word + 3] if ident > 0 else 0
        found.append((pos, name, ident, word + 4 + dims, kind))
        if offset == 0:
            return found, word + (3 + data[word + 2] if ident < 0 else _size(data, word, kind, dims)), word
        if offset < 0:
            raise ValueError("a record points backwards")
        pos = word + offset
    raise ValueError("the section runs past its blocks")


def _size(data, word, kind, dims) -> int:
    """Bytes of a parameter record from its offset word on (offset, type, dimensions, data, description)."""
    count = 1
    for d in data[word + 4:word + 4 + dims]:
        count *= d
    at = word + 4 + dims + abs(kind) * count
    return at + 1 + data[at] - word


def missing_analog_rate(path: Path, raw: dict) -> tuple[bytes, float] | None:
    """The file's bytes with ANALOG:RATE added and that rate (Hz), when the header declares analog values but the
    parameters have no ANALOG:RATE; None when the file needs no repair. Raises DataError when the rate cannot be
    derived (ANALOG:USED missing or not dividing the header's count, no room left in the parameter blocks)."""
    if not raw["n_analog_values"] or raw["processor"] != "Intel":
        return None
    data = _header_and_parameters(path)    # the whole file only when it is to be repaired
    walked = _records(data, path)
    if walked is None:
        return None
    found, end, last_word = walked
    groups = {name: -ident for _, name, ident, _, _ in found if ident < 0}
    analog = groups.get("ANALOG")
    params = {name: (at, kind) for _, name, ident, at, kind in found if analog and ident == analog}
    if analog is None or "RATE" in params:
        return None
    if "USED" not in params or params["USED"][1] != 2:
        raise DataError(f"the header declares {raw['n_analog_values']} analog values per frame but the file has "
                        "neither ANALOG:RATE nor an integer ANALOG:USED to tell the channels from the samples",
                        element="ANALOG:RATE", file=path)
    (used,) = struct.unpack("<h", data[params["USED"][0]:params["USED"][0] + 2])
    if used <= 0 or raw["n_analog_values"] % used:
        raise DataError(f"ANALOG:RATE is missing and ANALOG:USED ({used}) does not divide the header's "
                        f"{raw['n_analog_values']} analog values per frame", element="ANALOG:RATE", file=path)
    (point_rate,) = struct.unpack("<f", data[20:24])
    rate = point_rate * (raw["n_analog_values"] // used)
    record = struct.pack("<bb4shbbfb", 4, analog, b"RATE", 9, 4, 0, rate, 0)
    start = (data[0] - 1) * 512
    if end + len(record) + 2 > start + 512 * data[start + 2]:
        raise DataError("ANALOG:RATE is missing and the parameter blocks have no room to add it for the reader",
                        element="ANALOG:RATE", file=path)
    if last_word is not None:     # the last record's offset of 0 ended the section: point it at the new record
        data = data[:last_word] + struct.pack("<h", end - last_word) + data[last_word + 2:]
    data += Path(path).read_bytes()[len(data):]
    # the new record, then a record of name length 0 that ends the section where the new record's offset points
    return data[:end] + record + b"\x00\x00" + data[end + len(record) + 2:], float(rate)


def _header_and_parameters(path) -> bytes:
    """The file's first bytes up to the end of its parameter blocks (header, then the blocks the parameter
    section's first word counts), read without the data section."""
    with open(path, "rb") as f:
        head = f.read(512)
        if len(head) < 512 or head[0] < 2:
            return head
        start = (head[0] - 1) * 512
        f.seek(start)
        first = f.read(4)
        if len(first) < 4:
            return head
        f.seek(0)
        return f.read(start + 512 * first[2])
