"""Contact-candidate files: ground-contact points to add to a model (e.g. an OpenSim model's feet).

A YAML document::

    format: hybridlab-contacts
    version: 1
    units: {length: m}          # m, cm or mm
    contacts:
      - {name: heel_lat_r, parent: calcn_r, offset: [0.01, -0.005, 0.03], group: foot_r}
      - {name: blade_tip, parent: blade, s: 0.62, offset: [0, -0.006, 0], group: blade}

``parent`` is a body or frame (``offset`` in its frame) or a rod (``s`` its arclength,
``offset`` in the cross-section frame). Errors name the file, the contact and the problem.
"""
from __future__ import annotations

from ..errors import ModelError
from ..model import ContactPoint
from .atomic import write_text
from .model_fields import UNITS, Fields, build, given
from .yaml_documents import dump_document, read_document

FORMAT = "hybridlab-contacts"
VERSION = 1


def load_contacts(path, model):
    """``model`` with the contact points of the file added (replacing contacts of the same name)."""
    body = Fields(read_document(path, FORMAT, VERSION, "HybridLab contacts file"), "top level")
    try:
        units = body.mapping("units", True)
        name = units.text("length")
        if name not in UNITS["length"]:
            raise ModelError(f"unknown length unit {name!r} (known: {', '.join(UNITS['length'])})", units.where)
        units.close()
        factor = UNITS["length"][name]
        contacts = []
        for i, item in enumerate(body.items("contacts", True)):
            f = Fields(item, f"contacts[{i + 1}]")
            cname = f.named("contact point")
            kw = given(parent=f.text("parent"), offset=f.numbers("offset", 3, factor), s=f.number("s", factor, False),
                       group=f.text("group", False))
            f.close()
            contacts.append(build(f.where, ContactPoint, cname, **kw))
        body.close()
        new = {c.name for c in contacts}
        return model.replace(contacts=[c for c in model.contacts if c.name not in new] + contacts)
    except ModelError as exc:
        raise exc.in_file(path) from None


def save_contacts(contacts, path) -> None:
    """Write contact points (SI units), atomically."""
    items = []
    for c in contacts:
        item = {"name": c.name, "parent": c.parent, "offset": [float(x) for x in c.offset]}
        if c.s is not None:
            item["s"] = float(c.s)
        item["group"] = c.group
        items.append(item)
    write_text(path, dump_document(FORMAT, VERSION, {"units": {"length": "m"}, "contacts": items},
                                   "HybridLab contact candidates, SI units"))
