"""Results files: an :class:`~engine.analysis.pipeline.AnalysisResult` (and its settings) in one file.

A results file is a zip archive (NumPy's ``.npz`` layout) holding

* ``document.yaml``: a YAML document (``format: hybridlab-result``, ``version: 2``) describing the
  stored objects field by field, each under its stable type tag (:mod:`engine.io.stored_types`);
* ``arrays/<n>.npy``: every NumPy array, exactly as computed;
* ``models/<n>.yaml``: every model, as a HybridLab model file (exact round trip).

``load_result(path)`` gives back a result equal to the one saved, model and trial (in model axes)
included. Version-1 files (classes named by module path) still open; no file ever chooses what is imported.
The archive is reproducible: identical contents give identical bytes (fixed member timestamps), and
source paths are stored relative to the file's folder, so a file does not carry its machine's layout.
Reading is bounded: a member whose declared size is out of proportion with the file (a zip bomb) or an
array whose header declares more data than its member holds is refused before anything is allocated.
The file is written atomically: a failed write leaves an existing file untouched. :func:`pack` and
:func:`unpack` give the same archive as bytes for other containers (the application's session files).
"""
from __future__ import annotations

import dataclasses
import io
import os
import struct
import zipfile
import zlib
from pathlib import Path, PurePosixPath

import numpy as np
import yaml

from ..errors import DataError, HybridLabError, ModelError
from ..model import Model
from .atomic import write_bytes
from .model_fields import SI_UNITS
from .model_schema import read_model, write_model
from .stored_types import LEGACY_V1, TAGS, TYPES
from .yaml_documents import _Loader, _without_header, dump_document

FORMAT = "hybridlab-result"
VERSION = 2
_READABLE = (1, 2)
_DOCUMENT = "document.yaml"
_MODEL_FORMAT, _MODEL_VERSION = "hybridlab-model", 1
_TIMESTAMP = (1980, 1, 1, 0, 0, 0)      # the zip format's earliest date: members carry no time of writing
MAX_RATIO = 200                          # uncompressed / compressed size of a whole archive (real ones: 1.5-3)
MIN_BUDGET = 64 * 2**20                  # bytes any archive may unpack to, whatever its ratio
MAX_BYTES = 4 * 2**30                    # bytes no archive may unpack to


class _Writer:
    """Turns objects into YAML nodes, collecting arrays and models as archive members; absolute ``source``
    paths are written relative to ``base`` (the folder of the file being written) when given."""

    def __init__(self, base=None):
        self.members: dict[str, bytes] = {}
        self.models: dict[int, str] = {}
        self.base = base

    def node(self, obj, where: str):
        if isinstance(obj, np.generic):     # before the plain types: np.float64 is a float
            return obj.item()
        if obj is None or isinstance(obj, (bool, int, float, str)):
            return obj
        if isinstance(obj, np.ndarray):
            if obj.dtype.hasobject:
                raise DataError(f"{where}: arrays of Python objects cannot be stored")
            name = f"arrays/{len(self.members)}.npy"
            buffer = io.BytesIO()
            np.save(buffer, obj, allow_pickle=False)
            self.members[name] = buffer.getvalue()
            return {"array": name}
        if isinstance(obj, Model):
            if id(obj) not in self.models:
                name = f"models/{len(self.models)}.yaml"
                body = {"units": dict(SI_UNITS), **write_model(obj)}
                text = dump_document(_MODEL_FORMAT, _MODEL_VERSION, body, f"model '{obj.name}' of a results file")
                self.members[name] = text.encode("utf-8")
                self.models[id(obj)] = name
            return {"model": self.models[id(obj)]}
        if isinstance(obj, list):
            return [self.node(v, f"{where}[{i}]") for i, v in enumerate(obj)]
        if isinstance(obj, tuple):
            return {"tuple": [self.node(v, f"{where}[{i}]") for i, v in enumerate(obj)]}
        if isinstance(obj, dict):
            if all(isinstance(k, str) for k in obj):
                return {"dict": {k: self.node(v, f"{where}.{k}") for k, v in obj.items()}}
            return {"items": [[self.node(k, where), self.node(v, f"{where}[{k!r}]")] for k, v in obj.items()]}
        tag = TAGS.get(type(obj))
        if tag is None:
            raise DataError(f"{where}: a {type(obj).__name__} cannot be stored in a results file")
        fields = {}
        for f in dataclasses.fields(obj):
            if f.init:
                value = getattr(obj, f.name)
                if f.name == "source" and isinstance(value, str):
                    value = portable_path(value, self.base)
                fields[f.name] = self.node(value, f"{where}.{f.name}")
        return {"type": tag, "fields": fields}


def portable_path(path: str, base) -> str:
    """``path`` as stored in a file written in the folder ``base``: relative to it (with '/'), or the bare file
    name when ``base`` is None or the two share no root (another drive)."""
    if not os.path.isabs(path):
        return path
    if base is not None:
        try:
            return PurePosixPath(*Path(os.path.relpath(path, base)).parts).as_posix()
        except ValueError:
            pass
    return Path(path).name


class _Reader:
    """Rebuilds objects from YAML nodes and the archive's members (format ``version`` 1 or 2); relative
    ``source`` paths are resolved against ``base`` (the folder of the file read) when given."""

    def __init__(self, archive: zipfile.ZipFile, version: int, base=None):
        self.archive = archive
        self.version = version
        self.base = base
        self.models: dict[str, Model] = {}

    def member(self, name: str) -> bytes:
        try:
            return self.archive.read(name)
        except KeyError:
            raise DataError(f"the member {name!r} is missing") from None

    def array(self, name: str) -> np.ndarray:
        """The array stored in member ``name``, after checking that its header declares exactly the bytes the
        member holds (the member's size is already within the archive's budget)."""
        data = self.member(name)
        stream = io.BytesIO(data)
        try:
            version = np.lib.format.read_magic(stream)
            if version == (1, 0):
                shape, _, dtype = np.lib.format.read_array_header_1_0(stream)
            elif version == (2, 0):
                shape, _, dtype = np.lib.format.read_array_header_2_0(stream)
            else:
                raise ValueError(f"format version {version} is not one results files use")
        except (ValueError, SyntaxError, TypeError) as exc:
            raise DataError(f"{name} is not a NumPy array ({exc})") from None
        if dtype.hasobject:
            raise DataError(f"{name} holds Python objects, which results files never store")
        count = 1
        for n in shape:
            count *= int(n)
        if stream.tell() + count * dtype.itemsize != len(data):
            raise DataError(f"{name} declares a {' x '.join(map(str, shape)) or 'scalar'} array of {dtype} "
                            f"({count * dtype.itemsize} bytes) but holds {len(data) - stream.tell()} bytes")
        return np.load(io.BytesIO(data), allow_pickle=False)

    def node(self, node, where: str):
        if node is None or isinstance(node, (bool, int, float, str)):
            return node
        if isinstance(node, list):
            return [self.node(v, f"{where}[{i}]") for i, v in enumerate(node)]
        if not isinstance(node, dict) or len(node) not in (1, 2):
            raise DataError(f"{where}: unexpected entry {node!r:.80}")
        if "array" in node:
            return self.array(_expect(node["array"], str, where, "an array's member name"))
        if "model" in node:
            name = _expect(node["model"], str, where, "a model's member name")
            if name not in self.models:
                self.models[name] = _model_from_text(self.member(name).decode("utf-8"), name)
            return self.models[name]
        if "tuple" in node:
            values = _expect(node["tuple"], list, where, "a tuple's values")
            return tuple(self.node(v, f"{where}[{i}]") for i, v in enumerate(values))
        if "dict" in node:
            return {k: self.node(v, f"{where}.{k}") for k, v in _expect(node["dict"], dict, where, "a mapping").items()}
        if "items" in node:
            items = _expect(node["items"], list, where, "a mapping's items")
            if not all(isinstance(item, list) and len(item) == 2 for item in items):
                raise DataError(f"{where}: a mapping's items are not key-value pairs")
            try:
                return {_hashable(self.node(k, where)): self.node(v, where) for k, v in items}
            except TypeError:
                raise DataError(f"{where}: a mapping has a key that cannot be one") from None
        if "type" in node or ("object" in node and self.version == 1):
            tag = node["type"] if "type" in node else _legacy_tag(node["object"], where)
            cls = TYPES.get(tag) if isinstance(tag, str) else None
            if cls is None:
                raise DataError(f"{where}: {tag!r} is not a kind of object HybridLab stores")
            fields = node.get("fields", {})
            if not isinstance(fields, dict):
                raise DataError(f"{where}: the fields of a {tag} are not a mapping")
            fields = {k: self.node(v, f"{where}.{k}") for k, v in fields.items()}
            source = fields.get("source")
            if isinstance(source, str) and self.base is not None and not os.path.isabs(source):
                fields["source"] = os.path.normpath(os.path.join(self.base, source))
            try:
                return cls(**fields)
            except (TypeError, ValueError, AttributeError, KeyError, IndexError, HybridLabError) as exc:
                raise DataError(f"{where}: cannot rebuild a {tag}: {exc}") from None
        raise DataError(f"{where}: unexpected entry {node!r:.80}")


def _expect(value, kind, where: str, what: str):
    if not isinstance(value, kind):
        raise DataError(f"{where}: {what} is not a {kind.__name__} but {value!r:.60}")
    return value


def _legacy_tag(spec, where: str) -> str:
    tag = LEGACY_V1.get(str(spec))
    if tag is None:
        raise DataError(f"{where}: {spec!r} is not a HybridLab class")
    return tag


def _hashable(key):
    return tuple(_hashable(k) for k in key) if isinstance(key, (list, tuple)) else key


def _model_from_text(text: str, name: str) -> Model:
    try:
        document = yaml.load(text, Loader=_Loader)
        return read_model(_without_header(document, _MODEL_FORMAT, _MODEL_VERSION, "HybridLab model file",
                                          ModelError))
    except yaml.YAMLError as exc:
        raise DataError(f"{name}: the model is not valid YAML ({exc})") from None
    except ModelError as exc:
        raise DataError(f"{name}: {exc}") from None


def pack(contents: dict, comment: str = "HybridLab results", base=None) -> bytes:
    """The archive (bytes) of ``contents``: a mapping of names to results, trials, models, settings,
    arrays and plain values. ``base``: the folder the archive will be written in (absolute source paths are
    stored relative to it; None stores bare file names). Identical contents give identical bytes."""
    writer = _Writer(base)
    document = {name: writer.node(value, name) for name, value in contents.items()}
    text = dump_document(FORMAT, VERSION, {"contents": document}, comment)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        for name, data in [(_DOCUMENT, text.encode("utf-8")), *writer.members.items()]:
            info = zipfile.ZipInfo(name, date_time=_TIMESTAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data, compresslevel=1)
    return buffer.getvalue()


def _check_budget(archive: zipfile.ZipFile, size: int) -> None:
    """Refuse an archive whose members would unpack to more than its budget (before reading any)."""
    declared = sum(info.file_size for info in archive.infolist())
    budget = min(MAX_BYTES, max(MIN_BUDGET, MAX_RATIO * size))
    if declared > budget:
        raise DataError(f"its members would unpack to {declared / 2**20:.0f} MB from a {size / 2**20:.1f} MB file "
                        f"(more than the {budget / 2**20:.0f} MB a results file of this size can hold): damaged "
                        "or not a HybridLab file")


def unpack(data: bytes, file=None) -> dict:
    """The contents of an archive made by :func:`pack` (format version 1 or 2); errors name ``file``."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            _check_budget(archive, len(data))
            try:
                text = archive.read(_DOCUMENT)
            except KeyError:
                raise DataError(f"the member {_DOCUMENT!r} is missing") from None
            try:
                document = yaml.load(text.decode("utf-8"), Loader=_Loader)
            except (yaml.YAMLError, UnicodeDecodeError) as exc:
                raise DataError(f"{_DOCUMENT} is not valid YAML text ({exc})") from None
            version = document.get("version") if isinstance(document, dict) else None
            if version not in _READABLE:
                version = VERSION        # let the header check below say what is wrong
            body = _without_header(document, FORMAT, version, "HybridLab results file", DataError)
            contents = body.get("contents")
            if not isinstance(contents, dict):
                raise DataError("the document has no 'contents' mapping", _DOCUMENT)
            reader = _Reader(archive, version, None if file is None else Path(file).absolute().parent)
            return {name: reader.node(node, name) for name, node in contents.items()}
    except zipfile.BadZipFile:
        raise DataError("is not a HybridLab results file (not a zip archive)", file=file) from None
    except (OSError, ValueError, EOFError, NotImplementedError, RecursionError, MemoryError, zlib.error,
            struct.error) as exc:
        raise DataError(f"is damaged ({type(exc).__name__}: {exc})", file=file) from None
    except DataError as exc:
        raise exc.in_file(file) if file is not None else exc from None


def read_archive(path) -> dict:
    """The contents of the archive file ``path`` (see :func:`unpack`); errors name the file."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise DataError(f"cannot be read ({exc.strerror or exc})", file=path) from None
    return unpack(data, path)


def write_archive(path, contents: dict, comment: str) -> None:
    """Write ``contents`` as an archive to ``path``, atomically, with source paths relative to its folder."""
    path = Path(path)
    write_bytes(path, pack(contents, comment, base=path.absolute().parent))


def save_result(result, path, settings=None) -> None:
    """Write ``result`` (and the ``settings`` that produced it, if given) to ``path``, atomically."""
    write_archive(path, {"result": result, "settings": settings}, "HybridLab analysis result")


def load_result(path):
    """``(result, settings)`` from a results file (``settings`` None if none were saved).

    Raises
    ------
    DataError
        If the file cannot be read, is not a results file, or is damaged (naming the file and the entry).
    """
    contents = read_archive(path)
    if "result" not in contents:
        raise DataError("holds no analysis result", file=path)
    return contents["result"], contents.get("settings")
