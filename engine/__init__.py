"""HybridLab engine: soft-rigid hybrid-link dynamics and motion analysis (no GUI code).

Quick start::

    from engine import Data, load_model, algorithms as alg
    model = load_model("model.yaml")
    data = Data(model)
    q = alg.neutral(model)
    M = alg.crba(model, data, q)
"""
from .numba_cache import install as _install_numba_cache

_install_numba_cache()       # before any kernel is defined: their cache is stamped with all kernel sources

from . import algorithms  # noqa: E402
from .data import Data  # noqa: E402
from .errors import DataError, HybridLabError, ModelError, SettingsError
from .io.model_file import load_model, save_model
from .model import Model
from .spatial import SE3

__version__ = "0.1.0"

__all__ = ["algorithms", "Model", "Data", "SE3", "load_model", "save_model", "HybridLabError", "ModelError", "DataError", "SettingsError",
           "__version__"]
