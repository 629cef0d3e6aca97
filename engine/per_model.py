"""What is built from a model once and kept while the model lives (a leaf every layer may use).

A :class:`~engine.model.Model` is immutable and knows nothing built from it, so what is derived from it alone (its
compiled tree, its muscles' Hill models) is kept beside it, by the model's id, until the model is collected.

Locks: one per model and cache, held while that model's result is built, so that different models build at once
and threads asking for one model's wait for its single build. A build may ask another cache (or this one, for
another model): static optimisation's Hill models (``_model_muscles``) take the model's tree (``compile_tree``) while
building, never the other way round, so the order is muscles, then tree, and no cycle can wait on itself. A build
asking its own cache for its own model is a cycle: it is a RuntimeError, not a deadlock.
"""
from __future__ import annotations

import threading
import weakref
from typing import Callable, Generic, TypeVar

T = TypeVar("T")


class PerModel(Generic[T]):
    """``build(model)`` called once per model, its result kept while the model lives: calling the instance with a
    model gives that result. Thread-safe: threads asking at once for one model's result get one built object;
    different models' results are built at once (module notes)."""

    def __init__(self, build: Callable[[object], T]):
        self._build = build
        self._built: dict[int, T] = {}      # id(model) -> its result, removed when the model is collected
        self._locks: dict[int, threading.Lock] = {}     # id(model) -> the lock of its build, removed likewise
        self._guard = threading.Lock()      # held only to find or add a model's lock
        self._here = threading.local()      # the ids this thread is building

    def __call__(self, model) -> T:
        key = id(model)
        try:
            return self._built[key]
        except KeyError:
            pass
        building = self._here.__dict__.setdefault("keys", set())
        if key in building:
            raise RuntimeError(f"building {type(model).__name__} '{getattr(model, 'name', '?')}' asks for its own "
                               f"result ({self._build.__qualname__} calls itself)")
        with self._guard:
            lock = self._locks.get(key)
            if lock is None:
                lock = self._locks[key] = threading.Lock()
                # the entries go when the model does, before its id can be given to another object
                weakref.finalize(model, self._forget, key)
        with lock:
            built = self._built.get(key)
            if built is None:
                building.add(key)
                try:
                    built = self._build(model)
                finally:
                    building.discard(key)
                self._built[key] = built
        return built

    def _forget(self, key: int) -> None:
        """The collected model's entries. Without ``_guard``: a collection may run this in a thread holding it, and
        no other thread can use ``key`` meanwhile (the model was alive while anyone did)."""
        self._built.pop(key, None)
        self._locks.pop(key, None)


__all__ = ["PerModel"]
