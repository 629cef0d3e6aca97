"""What reading a model file said about the model, as notes: ``metadata["import_warnings"]`` (what the file held
that the model lacks, in words) and the note rendered from ``metadata["unflagged_clamps"]`` (the coordinates a model
file gave no ``clamped`` flag although it matters, so IK leaves them free; kept as data, ``{"file": path, "joints":
{joint: [coordinates]}}``, which a saved model file, giving every flag, leaves out)."""
from __future__ import annotations

UNFLAGGED_CLAMPS = "unflagged_clamps"
"""The metadata key of the coordinates a model file gave no ``clamped`` flag (``engine.io.model_file``)."""


def unflagged_clamps_note(file, joints: dict) -> str:
    """The note saying that the model file ``file`` gives no ``clamped`` flag to the coordinates ``joints``
    (``{joint: [coordinates]}``), so IK leaves them free, and how to say otherwise."""
    named = "; ".join(f"{joint} ({', '.join(names)})" for joint, names in joints.items())
    return (f"{file}: the coordinates of joints {named} have a range but no 'clamped' flag, so IK leaves them free "
            "to leave their ranges (IK keeps only clamped coordinates within their ranges, as OpenSim's IK does; a "
            "model file written before it did so was kept within them): add 'clamped: true' to a coordinate to keep "
            "it within its range, or 'clamped: false' to leave it free, and this note goes")


def import_notes(model) -> list[str]:
    """The notes of reading ``model``'s file: its import warnings, then the unflagged clamps' note if any."""
    notes = list(model.metadata.get("import_warnings") or ())
    unflagged = model.metadata.get(UNFLAGGED_CLAMPS)
    if unflagged:
        notes.append(unflagged_clamps_note(unflagged["file"], unflagged["joints"]))
    return notes
