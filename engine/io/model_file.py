"""HybridLab model files: :func:`load_model` and :func:`save_model`.

A model file is a YAML document that starts with ``format: hybridlab-model``
and ``version: 1``, declares the ``units`` its numbers are written in, then
describes the model (the schema is in docs/model-format.md and
``engine.io.model_schema``). Loading converts to SI and validates through the
model classes; any problem is a ModelError naming the file, the element and the
problem. Saving writes SI units with full float precision, atomically, so that
``load_model`` gives back an equal model and saving that again gives the same text.
A file that gives no ``clamped`` flag to a coordinate whose range IK would follow loads with a note in
``model.metadata["import_warnings"]`` (:func:`unflagged_clamps_note`): IK leaves such a coordinate free. Saving
leaves that note out (the file written gives every flag).
"""
from __future__ import annotations

from ..errors import ModelError
from ..model import Model
from .atomic import write_text
from .model_fields import SI_UNITS
from .model_schema import read_model, unflagged_clamps, write_model
from .yaml_documents import dump_document, read_document

FORMAT = "hybridlab-model"
VERSION = 1
_COMMENT = "HybridLab model file, SI units (schema: docs/model-format.md)"
_CLAMPS_NOTE_END = "and this note goes"       # the end of unflagged_clamps_note's notes, which save_model leaves out


def load_model(path) -> Model:
    """Read a model file; numbers are converted from the file's units to SI.

    Raises
    ------
    ModelError
        If the file cannot be read, is not valid YAML (the message gives the line), is not a
        HybridLab model file of a version this code reads, or describes an invalid model.
    """
    body = read_document(path, FORMAT, VERSION, "HybridLab model file")
    try:
        model = read_model(body)
    except ModelError as exc:
        raise exc.in_file(path) from None
    unflagged = unflagged_clamps(body, model)
    if not unflagged:
        return model
    warnings = [*model.metadata.get("import_warnings", ()), unflagged_clamps_note(path, unflagged)]
    return model.replace(metadata={**model.metadata, "import_warnings": warnings})


def unflagged_clamps_note(path, unflagged: dict) -> str:
    """The note saying that the model file ``path`` gives no ``clamped`` flag to the coordinates ``unflagged``
    (``{joint: [coordinates]}``, ``model_schema.unflagged_clamps``), so IK leaves them free, and how to say."""
    joints = "; ".join(f"{joint} ({', '.join(names)})" for joint, names in unflagged.items())
    return (f"{path}: the coordinates of joints {joints} have a range but no 'clamped' flag, so IK leaves them free "
            "to leave their ranges (IK keeps only clamped coordinates within their ranges, as OpenSim's IK does; a "
            "model file written before it did so was kept within them): add 'clamped: true' to a coordinate to keep "
            f"it within its range, or 'clamped: false' to leave it free, {_CLAMPS_NOTE_END}")


def save_model(model: Model, path) -> None:
    """Write ``model`` to ``path`` in SI units, atomically: if anything fails, an existing file is untouched.
    A note that its model file gave no ``clamped`` flags (:func:`unflagged_clamps_note`, in
    ``metadata["import_warnings"]``) is left out: the file written gives every flag. Other import warnings (what an
    .osim held that the model lacks) are kept: they stay true of the model written.

    Raises
    ------
    ModelError
        If part of the model cannot be stored exactly (e.g. metadata holding objects other than
        mappings, lists, text, numbers and true/false; two different materials with one name).
    DataError
        If the folder does not exist.
    """
    try:
        body = {"units": dict(SI_UNITS), **write_model(model)}
    except ModelError as exc:
        raise exc.in_file(path) from None
    metadata = body.get("metadata", {})
    if "import_warnings" in metadata:       # the notes on flags, which the file written gives, are left out
        notes = [n for n in metadata["import_warnings"] if not n.endswith(_CLAMPS_NOTE_END)]
        kept = {key: notes if key == "import_warnings" else value for key, value in metadata.items()
                if key != "import_warnings" or notes}
        body = {key: kept if key == "metadata" else value for key, value in body.items() if key != "metadata" or kept}
    write_text(path, dump_document(FORMAT, VERSION, body, _COMMENT))
