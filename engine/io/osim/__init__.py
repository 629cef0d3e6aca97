"""OpenSim model import: ``read_osim(path) -> Model`` for OpenSim 4.x .osim documents."""
from .reader import read_osim

__all__ = ["read_osim"]
