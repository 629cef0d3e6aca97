"""HybridLab model files: :func:`load_model` and :func:`save_model`.

A model file is a YAML document that starts with ``format: hybridlab-model``
and ``version: 1``, declares the ``units`` its numbers are written in, then
describes the model (the schema is in docs/model-format.md and
``engine.io.model_schema``). Loading converts to SI and validates through the
model classes; any problem is a ModelError naming the file, the element and the
problem. Saving writes SI units with full float precision, atomically, so that
``load_model`` gives back an equal model and saving that again gives the same text.
A file that gives no ``clamped`` flag to a coordinate whose range IK would follow loads with those coordinates in
``model.metadata["unflagged_clamps"]`` (``{"file": path, "joints": {joint: [coordinates]}}``; the note said of it is
``engine.model.import_notes``): IK leaves such a coordinate free. Saving leaves that key out (the file written gives
every flag).
"""
from __future__ import annotations

from ..errors import ModelError
from ..model import Model
from ..model.import_notes import UNFLAGGED_CLAMPS
from .atomic import write_text
from .model_fields import SI_UNITS
from .model_schema import read_model, unflagged_clamps, write_model
from .yaml_documents import dump_document, read_document

FORMAT = "hybridlab-model"
VERSION = 1
_COMMENT = "HybridLab model file, SI units (schema: docs/model-format.md)"


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
    return model.replace(metadata={**model.metadata, UNFLAGGED_CLAMPS: {"file": str(path), "joints": unflagged}})


def save_model(model: Model, path) -> None:
    """Write ``model`` to ``path`` in SI units, atomically: if anything fails, an existing file is untouched.
    The coordinates its model file gave no ``clamped`` flag (``metadata["unflagged_clamps"]``) are left out: the
    file written gives every flag. The import warnings (what an .osim held that the model lacks) are kept: they stay
    true of the model written.

    Raises
    ------
    ModelError
        If part of the model cannot be stored exactly (e.g. metadata holding objects other than
        mappings, lists, text, numbers and true/false; two different materials with one name).
    DataError
        If the folder does not exist.
    """
    if UNFLAGGED_CLAMPS in model.metadata:      # the file written gives the flags
        model = model.replace(metadata={k: v for k, v in model.metadata.items() if k != UNFLAGGED_CLAMPS})
    try:
        body = {"units": dict(SI_UNITS), **write_model(model)}
    except ModelError as exc:
        raise exc.in_file(path) from None
    write_text(path, dump_document(FORMAT, VERSION, body, _COMMENT))
