"""Results files: an :class:`~engine.analysis.pipeline.AnalysisResult` (and its settings) in one file.

A results file is a zip archive (NumPy's ``.npz`` layout) holding

* ``document.yaml``: a YAML document (``format: hybridlab-result``, ``version: 1``) describing the
  stored objects field by field;
* ``arrays/<n>.npy``: every NumPy array, exactly as computed;
* ``models/<n>.yaml``: every model, as a HybridLab model file (exact round trip).

Any dataclass of the engine (results, trials, settings) is stored by its fields, so the
file restores the same objects: ``load_result(path)`` gives back a result equal to the one
saved, model and trial (in model axes) included. The file is written atomically: a failed
write leaves an existing file untouched. :func:`pack` and :func:`unpack` give the same
archive as bytes for other containers (the application's session files embed one).
"""
from __future__ import annotations

import dataclasses
import importlib
import io
import zipfile
from pathlib import Path

import numpy as np
import yaml

from ..errors import DataError, HybridLabError, ModelError
from ..io.atomic import write_bytes
from ..io.model_fields import SI_UNITS
from ..io.model_schema import read_model, write_model
from ..io.yaml_documents import _Loader, _without_header, dump_document
from ..model import Model

FORMAT = "hybridlab-result"
VERSION = 1
_DOCUMENT = "document.yaml"
_MODEL_FORMAT, _MODEL_VERSION = "hybridlab-model", 1


class _Writer:
    """Turns objects into YAML nodes, collecting arrays and models as archive members."""

    def __init__(self):
        self.members: dict[str, bytes] = {}
        self.models: dict[int, str] = {}

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
        cls = type(obj)
        if dataclasses.is_dataclass(obj) and cls.__module__.startswith("engine."):
            fields = {f.name: self.node(getattr(obj, f.name), f"{where}.{f.name}")
                      for f in dataclasses.fields(obj) if f.init}
            return {"object": f"{cls.__module__}:{cls.__qualname__}", "fields": fields}
        raise DataError(f"{where}: a {cls.__name__} cannot be stored in a results file")


class _Reader:
    """Rebuilds objects from YAML nodes and the archive's members."""

    def __init__(self, archive: zipfile.ZipFile):
        self.archive = archive
        self.models: dict[str, Model] = {}

    def member(self, name: str) -> bytes:
        try:
            return self.archive.read(name)
        except KeyError:
            raise DataError(f"the member {name!r} is missing") from None

    def node(self, node, where: str):
        if node is None or isinstance(node, (bool, int, float, str)):
            return node
        if isinstance(node, list):
            return [self.node(v, f"{where}[{i}]") for i, v in enumerate(node)]
        if not isinstance(node, dict) or len(node) not in (1, 2):
            raise DataError(f"{where}: unexpected entry {node!r:.80}")
        if "array" in node:
            return np.load(io.BytesIO(self.member(node["array"])), allow_pickle=False)
        if "model" in node:
            name = node["model"]
            if name not in self.models:
                self.models[name] = _model_from_text(self.member(name).decode("utf-8"), name)
            return self.models[name]
        if "tuple" in node:
            return tuple(self.node(v, f"{where}[{i}]") for i, v in enumerate(node["tuple"]))
        if "dict" in node:
            return {k: self.node(v, f"{where}.{k}") for k, v in node["dict"].items()}
        if "items" in node:
            return {_hashable(self.node(k, where)): self.node(v, where) for k, v in node["items"]}
        if "object" in node:
            cls = _engine_dataclass(node["object"], where)
            fields = {k: self.node(v, f"{where}.{k}") for k, v in node.get("fields", {}).items()}
            try:
                return cls(**fields)
            except (TypeError, ValueError, HybridLabError) as exc:
                raise DataError(f"{where}: cannot rebuild {node['object']}: {exc}") from None
        raise DataError(f"{where}: unexpected entry {node!r:.80}")


def _hashable(key):
    return tuple(_hashable(k) for k in key) if isinstance(key, (list, tuple)) else key


def _engine_dataclass(spec: str, where: str):
    module, _, name = str(spec).partition(":")
    if not module.startswith("engine.") or not name:
        raise DataError(f"{where}: {spec!r} is not a HybridLab class")
    try:
        cls = importlib.import_module(module)
        for part in name.split("."):
            cls = getattr(cls, part)
    except (ImportError, AttributeError):
        raise DataError(f"{where}: class {spec!r} does not exist in this HybridLab") from None
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        raise DataError(f"{where}: {spec!r} is not a stored kind of object")
    return cls


def _model_from_text(text: str, name: str) -> Model:
    try:
        document = yaml.load(text, Loader=_Loader)
        return read_model(_without_header(document, _MODEL_FORMAT, _MODEL_VERSION, "HybridLab model file",
                                          ModelError))
    except yaml.YAMLError as exc:
        raise DataError(f"{name}: the model is not valid YAML ({exc})") from None
    except ModelError as exc:
        raise DataError(f"{name}: {exc}") from None


def pack(contents: dict, comment: str = "HybridLab results") -> bytes:
    """The archive (bytes) of ``contents``: a mapping of names to results, trials, models, settings,
    arrays and plain values."""
    writer = _Writer()
    document = {name: writer.node(value, name) for name, value in contents.items()}
    text = dump_document(FORMAT, VERSION, {"contents": document}, comment)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        archive.writestr(_DOCUMENT, text)
        for name, data in writer.members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def unpack(data: bytes, file=None) -> dict:
    """The contents of an archive made by :func:`pack`; errors name ``file``."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            reader = _Reader(archive)
            try:
                document = yaml.load(reader.member(_DOCUMENT).decode("utf-8"), Loader=_Loader)
            except (yaml.YAMLError, UnicodeDecodeError) as exc:
                raise DataError(f"{_DOCUMENT} is not valid YAML text ({exc})") from None
            body = _without_header(document, FORMAT, VERSION, "HybridLab results file", DataError)
            contents = body.get("contents")
            if not isinstance(contents, dict):
                raise DataError("the document has no 'contents' mapping", _DOCUMENT)
            return {name: reader.node(node, name) for name, node in contents.items()}
    except zipfile.BadZipFile:
        raise DataError("is not a HybridLab results file (not a zip archive)", file=file) from None
    except (OSError, ValueError, EOFError) as exc:
        raise DataError(f"is damaged ({exc})", file=file) from None
    except DataError as exc:
        raise exc.in_file(file) if file is not None else exc from None


def read_archive(path) -> dict:
    """The contents of the archive file ``path`` (see :func:`unpack`); errors name the file."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise DataError(f"cannot be read ({exc.strerror or exc})", file=path) from None
    return unpack(data, path)


def save_result(result, path, settings=None) -> None:
    """Write ``result`` (and the ``settings`` that produced it, if given) to ``path``, atomically."""
    write_bytes(path, pack({"result": result, "settings": settings}, "HybridLab analysis result"))


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
