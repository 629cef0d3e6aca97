"""Small hostile files are refused quickly, in little memory, by the project's own errors (issue 18): a YAML alias
bomb, nesting 1000 deep, a 5000-digit integer, an XML document nested too deep. Each refusal is measured: under
1 s and under 100 MB of Python allocations (tracemalloc's peak)."""
import time
import tracemalloc

import pytest

from engine.errors import DataError, ModelError
from engine.io.contacts_file import load_contacts
from engine.io.model_file import load_model
from engine.io.osim import read_osim
from engine.io.setup_xml import read_ik_setup

HEADER = "format: hybridlab-model\nversion: 1\n"


def alias_bomb(levels: int = 12) -> str:
    """The "billion laughs" in YAML: each level a list of nine aliases of the one before (9^12 leaves)."""
    lines = ['a0: &a0 ["lol"]']
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, levels + 1)]
    return "\n".join(lines) + "\n"


def refused_quickly(read, path, error, match):
    tracemalloc.start()
    start = time.perf_counter()
    try:
        with pytest.raises(error, match=match) as info:
            read(path)
        seconds = time.perf_counter() - start
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert seconds < 1.0 and peak < 100 * 2 ** 20, (seconds, peak)
    assert info.value.file == str(path)


@pytest.mark.parametrize("body,match", [
    (alias_bomb(), "aliases expand to more than 100000 nodes"),
    ("bodies: " + "[" * 500 + "]" * 500 + "\n", "nesting deeper than 100 levels"),
    ("bodies: " + "{a: " * 500 + "1" + "}" * 500 + "\n", "nesting deeper than 100 levels"),
    ("bodies: " + "[" * 1000 + "]" * 1000 + "\n", "not valid YAML: .*exceeded maximum nesting depth"),
    ("bodies:\n" + "".join(" " * i + "- \n" for i in range(0, 400, 2)), "nesting deeper than 100 levels"),
    ("gravity: [0, 0, " + "9" * 5000 + "]\n", "an integer of more than 100 digits"),
    ("a: &a [*a]\n", "refers to a node that contains it"),
])
@pytest.mark.parametrize("reader", ["model", "contacts"])
def test_hostile_yaml_is_refused_quickly(tmp_path, body, match, reader):
    path = tmp_path / "hostile.yaml"
    if reader == "model":
        path.write_text(HEADER + body)
        refused_quickly(load_model, path, ModelError, match)
    else:       # the file is refused before the model is looked at
        path.write_text("format: hybridlab-contacts\nversion: 1\n" + body)
        refused_quickly(lambda p: load_contacts(p, None), path, ModelError, match)


def test_a_few_aliases_are_still_read(tmp_path):
    """Anchors and aliases within the budget are YAML like any other (a hand-written file may share a block)."""
    import yaml

    from engine.io.yaml_documents import _Loader
    document = yaml.load("a: &x {m: 1, n: [1, 2]}\nb: *x\nc: *x\n", Loader=_Loader)
    assert document["b"] == document["c"] == {"m": 1, "n": [1, 2]}


def test_deep_xml_is_refused_quickly(tmp_path):
    path = tmp_path / "deep.osim"
    path.write_text('<OpenSimDocument Version="40000"><Model name="m">' + "<a>" * 5000 + "</a>" * 5000
                    + "</Model></OpenSimDocument>")
    refused_quickly(read_osim, path, ModelError, "nested deeper than 100 levels")
    setup = tmp_path / "deep_setup.xml"
    setup.write_text("<OpenSimDocument><InverseKinematicsTool>" + "<a>" * 5000 + "</a>" * 5000
                     + "</InverseKinematicsTool></OpenSimDocument>")
    refused_quickly(read_ik_setup, setup, DataError, "nested deeper than 100 levels")


def test_xml_entity_expansion_is_refused(tmp_path):
    """The XML "billion laughs": entity declarations are refused before expat expands them."""
    entities = '<!ENTITY a0 "lol">' + "".join(f'<!ENTITY a{i} "{f"&a{i - 1};" * 10}">' for i in range(1, 10))
    path = tmp_path / "laughs.xml"
    path.write_text(f'<?xml version="1.0"?><!DOCTYPE r [{entities}]><OpenSimDocument><InverseKinematicsTool>'
                    "<model_file>&a9;</model_file></InverseKinematicsTool></OpenSimDocument>")
    refused_quickly(read_ik_setup, path, DataError, "declares entities")
