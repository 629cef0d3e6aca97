"""HybridLab engine: soft-rigid hybrid-link dynamics and motion analysis (no GUI code).

Quick start::

    from engine import load_model, algorithms as alg
    model = load_model("model.yaml")
    data = model.create_data()
    q = model.neutral()
    M = alg.crba(model, data, q)
"""
from . import algorithms
from .errors import DataError, HybridLabError, ModelError, SettingsError
from .io.model_file import load_model, save_model
from .model import Model
from .spatial import SE3

__version__ = "0.1.0"

__all__ = ["algorithms", "Model", "SE3", "load_model", "save_model", "HybridLabError", "ModelError", "DataError", "SettingsError",
           "__version__"]
