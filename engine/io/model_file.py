"""HybridLab model files: :func:`load_model` and :func:`save_model`.

A model file is a YAML document that starts with ``format: hybridlab-model``
and ``version: 1``, declares the ``units`` its numbers are written in, then
describes the model (the schema is in docs/model-format.md and
``engine.io.model_schema``). Loading converts to SI and validates through the
model classes; any problem is a ModelError naming the file, the element and the
problem. Saving writes SI units with full float precision, atomically, so that
``load_model`` gives back an equal model and saving that again gives the same text.
"""
from __future__ import annotations

import re
from pathlib import Path

import yaml

from ..errors import ModelError
from ..model import Model
from .atomic import write_text
from .model_fields import SI_UNITS
from .model_schema import read_model, write_model

FORMAT = "hybridlab-model"
VERSION = 1
_HEADER = "# HybridLab model file, SI units (schema: docs/model-format.md)\n"

# YAML 1.1 (pyyaml) reads 1e-3 or 2E11 as text: accept exponent floats without a dot as numbers too.
_EXPONENT_FLOAT = re.compile(r"^[-+]?(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9_]+)[eE][-+]?[0-9]+$")
_FLOAT_TAG = "tag:yaml.org,2002:float"


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # libyaml's parser when installed: 10x faster
    """Safe YAML, except that a key given twice is an error, ``1e-3`` is a number and dates stay text."""

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = (key_node.tag, key_node.value)
            if isinstance(key_node, yaml.ScalarNode) and key_node.tag != "tag:yaml.org,2002:merge":
                if key in seen:
                    raise yaml.constructor.ConstructorError(
                        "while reading a mapping", node.start_mark, f"the key {key_node.value!r} is given twice",
                        key_node.start_mark)
                seen.add(key)
        return super().construct_mapping(node, deep)


_Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}
_Loader.add_implicit_resolver(_FLOAT_TAG, _EXPONENT_FLOAT, list("-+.0123456789"))


class _Dumper(yaml.SafeDumper):
    """Safe YAML that quotes whatever :class:`_Loader` would read as a number, writes lists of
    scalars on one line and never uses anchors."""

    def ignore_aliases(self, data):
        return True

    def represent_list(self, data):
        flow = all(not isinstance(item, (list, dict)) for item in data)
        return self.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


_Dumper.add_implicit_resolver(_FLOAT_TAG, _EXPONENT_FLOAT, list("-+.0123456789"))
_Dumper.add_representer(list, _Dumper.represent_list)


def load_model(path) -> Model:
    """Read a model file; numbers are converted from the file's units to SI.

    Raises
    ------
    ModelError
        If the file cannot be read, is not valid YAML (the message gives the line), is not a
        HybridLab model file of a version this code reads, or describes an invalid model.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ModelError(f"cannot be read ({exc.strerror or exc})", file=path) from None
    except UnicodeDecodeError:
        raise ModelError("is not UTF-8 text", file=path) from None
    try:
        document = yaml.load(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = " ".join(p for p in (exc.context, exc.problem) if p)
        raise ModelError(f"is not valid YAML: {problem}", f"line {mark.line + 1}, column {mark.column + 1}",
                         path) from None
    except yaml.YAMLError as exc:
        raise ModelError(f"is not valid YAML: {exc}", file=path) from None
    try:
        return read_model(_without_header(document))
    except ModelError as exc:
        raise exc.in_file(path) from None


def save_model(model: Model, path) -> None:
    """Write ``model`` to ``path`` in SI units, atomically: if anything fails, an existing file is untouched.

    Raises
    ------
    ModelError
        If part of the model cannot be stored exactly (e.g. metadata holding objects other than
        mappings, lists, text, numbers and true/false; two different materials with one name).
    DataError
        If the folder does not exist.
    """
    try:
        document = {"format": FORMAT, "version": VERSION, "units": dict(SI_UNITS), **write_model(model)}
    except ModelError as exc:
        raise exc.in_file(path) from None
    text = _HEADER + yaml.dump(document, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=1 << 16)
    write_text(path, text)


def _without_header(document) -> dict:
    """Check ``format`` and ``version`` and return the rest of the document."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        found = f"format {document.get('format')!r}" if isinstance(document, dict) and "format" in document \
            else "no 'format' field"
        raise ModelError(f"is not a HybridLab model file: it must start with 'format: {FORMAT}' ({found})", "format")
    version = document.get("version")
    if "version" not in document:
        raise ModelError(f"has no 'version' field (this HybridLab reads version {VERSION})", "version")
    if type(version) is not int or version != VERSION:
        raise ModelError(f"has format version {version!r}, but this HybridLab reads only version {VERSION} "
                         "(written by a newer HybridLab?)", "version")
    return {key: value for key, value in document.items() if key not in ("format", "version")}
