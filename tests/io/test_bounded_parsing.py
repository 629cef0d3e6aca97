"""Small hostile files are refused early, in little memory, by the project's own errors (issue 18): a YAML alias
bomb, nesting 1000 deep, a 5000-digit integer, an XML document nested too deep. Each refusal is measured without a
clock: the YAML nodes built into Python objects before it (none when the bounds are checked from the parse events
alone, a few before an over-long integer), the bytes of a deep XML file read before it (its first 64 kB, not the
whole file), and under 100 MB of Python allocations (tracemalloc's peak). The time the refusals take is printed by
benchmarks/bench_refusals.py."""
import builtins
import io
import tracemalloc

import pytest

from engine.errors import DataError, ModelError
from engine.io.contacts_file import load_contacts
from engine.io.model_file import load_model
from engine.io.osim import read_osim
from engine.io.setup_xml import read_ik_setup
from engine.io.yaml_documents import _Loader

HEADER = "format: hybridlab-model\nversion: 1\n"


def alias_bomb(levels: int = 12) -> str:
    """The "billion laughs" in YAML: each level a list of nine aliases of the one before (9^12 leaves)."""
    lines = ['a0: &a0 ["lol"]']
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, levels + 1)]
    return "\n".join(lines) + "\n"


class Counted:
    """What a read took before it ended: ``nodes`` YAML nodes built into Python objects, and ``bytes`` read from the
    file ``path`` (through any file object opened on it)."""

    def __init__(self, monkeypatch, path):
        self.nodes = self.bytes = 0
        construct, opened = _Loader.construct_object, io.open

        def counted_construct(loader, node, deep=False):
            self.nodes += 1
            return construct(loader, node, deep)

        def counted_open(file, *args, **kwargs):
            handle = opened(file, *args, **kwargs)
            return _Reading(handle, self) if str(file) == str(path) else handle
        monkeypatch.setattr(_Loader, "construct_object", counted_construct)
        monkeypatch.setattr(io, "open", counted_open)
        monkeypatch.setattr(builtins, "open", counted_open)


class _Reading:
    """A file object whose reads add to ``counted.bytes``."""

    def __init__(self, handle, counted):
        self.handle, self.counted = handle, counted

    def read(self, *args):
        data = self.handle.read(*args)
        self.counted.bytes += len(data)
        return data

    def __getattr__(self, name):
        return getattr(self.handle, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.handle.close()


def refused_early(monkeypatch, read, path, error, match, nodes=0, bytes_read=None):
    """``read(path)`` raises ``error`` matching ``match`` and naming the file, having built exactly ``nodes`` YAML
    nodes and read at most ``bytes_read`` bytes of the file (any number when None), within 100 MB of Python
    allocations."""
    counted = Counted(monkeypatch, path)
    tracemalloc.start()
    try:
        with pytest.raises(error, match=match) as info:
            read(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert counted.nodes == nodes, counted.nodes
    assert bytes_read is None or 0 < counted.bytes <= bytes_read, counted.bytes
    assert peak < 100 * 2 ** 20, peak
    assert info.value.file == str(path)


@pytest.mark.parametrize("body,match,nodes", [
    (alias_bomb(), "aliases expand to more than 100000 nodes", 0),
    ("bodies: " + "[" * 500 + "]" * 500 + "\n", "nesting deeper than 100 levels", 0),
    ("bodies: " + "{a: " * 500 + "1" + "}" * 500 + "\n", "nesting deeper than 100 levels", 0),
    ("bodies: " + "[" * 1000 + "]" * 1000 + "\n", "not valid YAML: .*exceeded maximum nesting depth", 0),
    ("bodies:\n" + "".join(" " * i + "- \n" for i in range(0, 400, 2)), "nesting deeper than 100 levels", 0),
    # refused as the integer is built, the 10th node: after the document's mapping, its 4 header scalars, the key,
    # the list and its 0, 0
    ("gravity: [0, 0, " + "9" * 5000 + "]\n", "an integer of more than 100 digits", 10),
    ("a: &a [*a]\n", "refers to a node that contains it", 0),
])
@pytest.mark.parametrize("reader", ["model", "contacts"])
def test_hostile_yaml_is_refused_before_it_is_built(tmp_path, monkeypatch, body, match, nodes, reader):
    path = tmp_path / "hostile.yaml"
    if reader == "model":
        path.write_text(HEADER + body)
        refused_early(monkeypatch, load_model, path, ModelError, match, nodes=nodes)
    else:       # the file is refused before the model is looked at
        path.write_text("format: hybridlab-contacts\nversion: 1\n" + body)
        refused_early(monkeypatch, lambda p: load_contacts(p, None), path, ModelError, match, nodes=nodes)


def test_the_nodes_of_a_valid_file_are_counted(tmp_path, monkeypatch):
    """The count the refusals are measured by sees a file that is read (else a count of 0 would prove nothing)."""
    path = tmp_path / "valid.yaml"
    path.write_text(HEADER + "units: {length: m, mass: kg, angle: deg, modulus: Pa, "
                    "density: kg/m^3}\nname: one\n"
                    "bodies:\n  - {name: b, mass: 1.0, inertia: [0.1, 0.1, 0.1, 0, 0, 0]}\n"
                    "joints:\n  - {name: j, type: free, parent: ground, child: b}\n")
    counted = Counted(monkeypatch, path)
    assert load_model(path).bodies[0].name == "b"
    assert counted.nodes > 0


def test_a_few_aliases_are_still_read(tmp_path):
    """Anchors and aliases within the budget are YAML like any other (a hand-written file may share a block)."""
    import yaml

    document = yaml.load("a: &x {m: 1, n: [1, 2]}\nb: *x\nc: *x\n", Loader=_Loader)
    assert document["b"] == document["c"] == {"m": 1, "n": [1, 2]}


def test_deep_xml_is_refused_before_the_rest_of_the_file_is_read(tmp_path, monkeypatch):
    """Elements nested 30000 deep (a 210 kB file): refused from its first 64 kB, where nesting passes 100 levels,
    before the rest is read or the tree walked."""
    deep = "<a>" * 30_000 + "</a>" * 30_000
    path = tmp_path / "deep.osim"
    path.write_text(f'<OpenSimDocument Version="40000"><Model name="m">{deep}</Model></OpenSimDocument>')
    refused_early(monkeypatch, read_osim, path, ModelError, "nested deeper than 100 levels", bytes_read=2 ** 16)
    setup = tmp_path / "deep_setup.xml"
    setup.write_text(f"<OpenSimDocument><InverseKinematicsTool>{deep}</InverseKinematicsTool></OpenSimDocument>")
    refused_early(monkeypatch, read_ik_setup, setup, DataError, "nested deeper than 100 levels", bytes_read=2 ** 16)


def test_xml_entity_expansion_is_refused(tmp_path, monkeypatch):
    """The XML "billion laughs": entity declarations are refused before expat expands them."""
    entities = '<!ENTITY a0 "lol">' + "".join(f'<!ENTITY a{i} "{f"&a{i - 1};" * 10}">' for i in range(1, 10))
    path = tmp_path / "laughs.xml"
    path.write_text(f'<?xml version="1.0"?><!DOCTYPE r [{entities}]><OpenSimDocument><InverseKinematicsTool>'
                    "<model_file>&a9;</model_file></InverseKinematicsTool></OpenSimDocument>")
    refused_early(monkeypatch, read_ik_setup, path, DataError, "declares entities")


def test_an_xml_files_document_element_is_what_it_is_whatever_its_name(test_data, tmp_path):
    from engine.bounded_xml import document_element
    g = test_data / "opensim" / "gait2354"
    assert document_element(g / "scale" / "subject01_Setup_Scale.xml") == "ScaleTool"          # in <OpenSimDocument>
    assert document_element(g / "scale" / "gait2354_Scale_MarkerSet.xml") == "MarkerSet"
    assert document_element(g / "subject01_walk1_grf.xml") == "ExternalLoads"
    bare = tmp_path / "bare.xml"
    bare.write_text("<?xml version='1.0'?>\n<!-- a setup -->\n<ScaleTool name='s'><mass>70</mass></ScaleTool>\n")
    assert document_element(bare) == "ScaleTool"
    empty = tmp_path / "empty.xml"
    empty.write_text("<OpenSimDocument Version='40000'><!-- nothing --></OpenSimDocument>")
    with pytest.raises(DataError) as err:
        document_element(empty)
    assert (err.value.file, err.value.problem) == (str(empty), "is an OpenSim document holding no element")
