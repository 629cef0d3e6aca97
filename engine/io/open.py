"""Open any supported model or trial file by its extension."""
from __future__ import annotations

from pathlib import Path

from ..errors import ModelError

MODEL_SUFFIXES = (".yaml", ".yml", ".osim")


def open_model(path):
    """A :class:`~engine.model.Model` from our YAML format or an OpenSim .osim file."""
    path = Path(path)
    suffix = path.suffix.lower()
    if not path.is_file():
        raise ModelError("no such file", file=path)
    if suffix == ".osim":
        from .osim import read_osim
        return read_osim(path)
    if suffix in (".yaml", ".yml"):
        from .model_file import load_model
        return load_model(path)
    raise ModelError(f"unknown model file type {suffix!r}; expected one of {', '.join(MODEL_SUFFIXES)}", file=path)


def is_model_file(path) -> bool:
    return Path(path).suffix.lower() in MODEL_SUFFIXES


__all__ = ["open_model", "is_model_file"]
