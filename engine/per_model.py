"""What is built from a model once and kept while the model lives (a leaf every layer may use).

A :class:`~engine.model.Model` is immutable and knows nothing built from it, so what is derived from it alone (its
compiled tree, its muscles' Hill models) is kept beside it, by the model's id, until the model is collected.
"""
from __future__ import annotations

import threading
import weakref
from typing import Callable, Generic, TypeVar

T = TypeVar("T")


class PerModel(Generic[T]):
    """``build(model)`` called once per model, its result kept while the model lives: calling the instance with a
    model gives that result. Thread-safe: threads asking at once for one model's result get one built object."""

    def __init__(self, build: Callable[[object], T]):
        self._build = build
        self._built: dict[int, T] = {}     # id(model) -> its result, removed when the model is collected
        self._building = threading.Lock()

    def __call__(self, model) -> T:
        try:
            return self._built[id(model)]
        except KeyError:
            pass
        with self._building:
            built = self._built.get(id(model))
            if built is None:
                built = self._build(model)
                # the entry goes when the model does, before its id can be given to another object
                weakref.finalize(model, self._built.pop, id(model), None)
                self._built[id(model)] = built
        return built


__all__ = ["PerModel"]
