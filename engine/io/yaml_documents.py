"""YAML documents of HybridLab (model, contacts, session and settings files).

Each starts with ``format: <name>`` and ``version: <n>``. Reading rejects keys given
twice, reads ``1e-3`` as a number and keeps dates as text; writing quotes whatever
would read back as a number, puts lists of scalars on one line and never uses anchors.
Errors are of the caller's error type and name the file, the line and the problem.

Reading is bounded before anything is built, so that a small hostile file cannot take minutes or
gigabytes (a 474-byte "billion laughs" of nested aliases): at most ``MAX_BYTES`` of text, nesting at
most ``MAX_DEPTH`` deep, aliases expanding to at most ``MAX_ALIAS_NODES`` nodes in all (never to a node
that contains them), integers of at most ``MAX_INTEGER_DIGITS`` digits. A refusal is a
:class:`TooLarge` (a ``yaml.YAMLError``), which :func:`read_document` turns into the caller's error type.
"""
from __future__ import annotations

import re
from pathlib import Path

import yaml

from ..errors import ModelError

# YAML 1.1 (pyyaml) reads 1e-3 or 2E11 as text: accept exponent floats without a dot as numbers too.
_EXPONENT_FLOAT = re.compile(r"^[-+]?(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9_]+)[eE][-+]?[0-9]+$")
_FLOAT_TAG = "tag:yaml.org,2002:float"


MAX_BYTES = 256 * 2 ** 20
MAX_DEPTH = 100
MAX_ALIAS_NODES = 100_000
MAX_INTEGER_DIGITS = 100

_BASE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)    # libyaml's parser when installed: 10x faster


class TooLarge(yaml.YAMLError):
    """A YAML text refused by the bounds of this module (size, depth, aliases, integer digits)."""


def check_bounds(text) -> None:
    """Raise :class:`TooLarge` if ``text`` (str or bytes) breaks one of the module's bounds, from its parse events
    alone (no node is built and no alias expanded; syntax errors are left to the loader)."""
    if len(text) > MAX_BYTES:
        raise TooLarge(f"the text is {len(text) / 2 ** 20:.0f} MB long (at most {MAX_BYTES / 2 ** 20:.0f} MB)")
    sizes: dict = {}              # anchor -> nodes it expands to (None while its collection is open)
    stack: list = []              # open collections: [anchor, nodes so far]
    expanded = 0
    try:
        for event in yaml.parse(text, Loader=_BASE_LOADER):
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                if len(stack) >= MAX_DEPTH:
                    raise TooLarge(f"nesting deeper than {MAX_DEPTH} levels, line {event.start_mark.line + 1}")
                if event.anchor is not None:
                    sizes[event.anchor] = None
                stack.append([event.anchor, 1])
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                anchor, nodes = stack.pop()
                if anchor is not None:
                    sizes[anchor] = nodes
                if stack:
                    stack[-1][1] += nodes
            elif isinstance(event, (yaml.ScalarEvent, yaml.AliasEvent)):
                nodes = 1
                if isinstance(event, yaml.AliasEvent):
                    nodes = sizes.get(event.anchor, 0)
                    if nodes is None:
                        raise TooLarge(f"the alias *{event.anchor} refers to a node that contains it, line "
                                       f"{event.start_mark.line + 1}")
                    expanded += nodes
                    if expanded > MAX_ALIAS_NODES:
                        raise TooLarge(f"aliases expand to more than {MAX_ALIAS_NODES} nodes, line "
                                       f"{event.start_mark.line + 1}")
                elif event.anchor is not None:
                    sizes[event.anchor] = 1
                if stack:
                    stack[-1][1] += nodes
    except yaml.MarkedYAMLError:
        return                    # the loader reports it, with its line


class _Loader(_BASE_LOADER):
    """Safe YAML, except that a key given twice is an error, ``1e-3`` is a number and dates stay text, and
    within the bounds of :func:`check_bounds` (checked before anything is built)."""

    def __init__(self, stream):
        if not isinstance(stream, (str, bytes)):
            stream = stream.read()
        check_bounds(stream)
        super().__init__(stream)

    def construct_yaml_int(self, node):
        if sum(c.isdigit() for c in node.value) > MAX_INTEGER_DIGITS:
            raise TooLarge(f"an integer of more than {MAX_INTEGER_DIGITS} digits, line {node.start_mark.line + 1}")
        return super().construct_yaml_int(node)

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


_Loader.add_constructor("tag:yaml.org,2002:int", _Loader.construct_yaml_int)
_Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}
_Loader.add_implicit_resolver(_FLOAT_TAG, _EXPONENT_FLOAT, list("-+.0123456789"))


def _dumper() -> type:
    """The dumper the documents are written with: on libyaml's emitter when PyYAML has it (4x faster), else on the
    pure-Python one. The two write the same documents, not always the same text: libyaml escapes characters beyond 16
    bits (an emoji is written ``"\\U0001F600"``) and U+0085 (``"\\N"``, which the pure-Python emitter folds into a
    space: that one character the fallback does not keep)."""

    class Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):
        """Safe YAML that quotes whatever :class:`_Loader` would read as a number, writes lists of
        scalars on one line and never uses anchors."""

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._scalar_tags = {}

        def ignore_aliases(self, data):
            return True

        def resolve(self, kind, value, implicit):
            """The resolver's tag, kept per scalar text: a scalar's tag depends only on its text and ``implicit``
            (this dumper has no path resolvers), and a model's numbers repeat (0.0, 1.0): 12,000 resolutions of
            gait2354's model file are 2,000 texts."""
            if kind is not yaml.ScalarNode:
                return super().resolve(kind, value, implicit)
            key = (value, implicit)
            tag = self._scalar_tags.get(key)
            if tag is None:
                tag = self._scalar_tags[key] = super().resolve(kind, value, implicit)
            return tag

        def represent_list(self, data):
            flow = all(not isinstance(item, (list, dict)) for item in data)
            return self.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)

    Dumper.add_implicit_resolver(_FLOAT_TAG, _EXPONENT_FLOAT, list("-+.0123456789"))
    Dumper.add_representer(list, Dumper.represent_list)
    return Dumper


_Dumper = _dumper()


def read_document(path, fmt: str, version: int, what: str, error=ModelError) -> dict:
    """The body of a YAML document (without ``format`` and ``version``) after checking its header.

    ``what`` names the kind of file in messages (e.g. "HybridLab model file").
    """
    path = Path(path)
    try:
        if path.stat().st_size > MAX_BYTES:
            raise error(f"is refused: {path.stat().st_size / 2 ** 20:.0f} MB long (at most "
                        f"{MAX_BYTES / 2 ** 20:.0f} MB)", file=path)
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise error(f"cannot be read ({exc.strerror or exc})", file=path) from None
    except UnicodeDecodeError:
        raise error("is not UTF-8 text", file=path) from None
    try:
        document = yaml.load(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = " ".join(p for p in (exc.context, exc.problem) if p)
        raise error(f"is not valid YAML: {problem}", f"line {mark.line + 1}, column {mark.column + 1}",
                    path) from None
    except TooLarge as exc:
        raise error(f"is refused: {exc}", file=path) from None
    except yaml.YAMLError as exc:
        raise error(f"is not valid YAML: {exc}", file=path) from None
    try:
        return _without_header(document, fmt, version, what, error)
    except error as exc:
        raise exc.in_file(path) from None


def document_format(path, error=ModelError):
    """The ``format`` the YAML document ``path`` declares at its top level (e.g. ``hybridlab-model``), read from its
    parse events up to that field (the rest is not read, no node is built nor alias expanded); None when the
    document is no mapping or has no ``format`` text. An unreadable or invalid file is ``error`` naming it."""
    path = Path(path)
    try:
        with open(path, encoding="utf-8") as stream:
            return _format_of(yaml.parse(stream, Loader=_BASE_LOADER))
    except OSError as exc:
        raise error(f"cannot be read ({exc.strerror or exc})", file=path) from None
    except UnicodeDecodeError:
        raise error("is not UTF-8 text", file=path) from None
    except yaml.YAMLError as exc:
        raise error(f"is not valid YAML: {exc}", file=path) from None


def _format_of(events) -> str | None:
    """:func:`document_format` of a document's parse ``events``."""
    depth, is_key, key = 0, True, None
    for event in events:
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            if depth == 0 and isinstance(event, yaml.SequenceStartEvent) or depth == 1 and key == "format":
                return None
            depth += 1
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
            if depth == 0:
                return None
            if depth == 1:
                is_key, key = not is_key, None
        elif isinstance(event, (yaml.ScalarEvent, yaml.AliasEvent)):
            if depth == 0:
                return None
            if depth == 1:
                value = event.value if isinstance(event, yaml.ScalarEvent) else None
                if not is_key and key == "format":
                    return value
                key = value if is_key else None
                is_key = not is_key
    return None


def dump_document(fmt: str, version: int, body: dict, comment: str) -> str:
    """YAML text of a document: a ``# comment`` line, the header, then ``body``."""
    document = {"format": fmt, "version": version, **body}
    return f"# {comment}\n" + yaml.dump(document, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=1 << 16)


def _without_header(document, fmt: str, expected: int, what: str, error) -> dict:
    """Check ``format`` and ``version`` and return the rest of the document."""
    if not isinstance(document, dict) or document.get("format") != fmt:
        found = f"format {document.get('format')!r}" if isinstance(document, dict) and "format" in document \
            else "no 'format' field"
        raise error(f"is not a {what}: it must start with 'format: {fmt}' ({found})", "format")
    version = document.get("version")
    if "version" not in document:
        raise error(f"has no 'version' field (this HybridLab reads version {expected})", "version")
    if type(version) is not int or version != expected:
        raise error(f"has format version {version!r}, but this HybridLab reads only version {expected} "
                    "(written by a newer HybridLab?)", "version")
    return {key: value for key, value in document.items() if key not in ("format", "version")}
