"""The models a worker process has read, kept for its next trials: a subject's trials share one model (its scaled
model file, or the model it is analysed with), which each trial would otherwise read and compile again (a quarter
of a gait2354 trial's processor time: 0.28 s a trial without the cache, 0.22 with it, bench_batch's loop).

A model is kept under its file's path (as given: it is stored in ``model.metadata['source']``) with the SHA-256 of
the file's bytes, hashed again at each use: a file that changed (a subject scaled again, a model edited between
two studies) is read again and replaces the entry; a model file's path and bytes are all that a
:class:`~engine.model.Model` is read from (``engine.io.open``). A model never changes once made
(``engine.model.model``), so trials can share one, with its compiled tree. At most :data:`CAPACITY` models are
kept, the least recently used dropped first (gait2354's model with its compiled tree holds about 0.4 MB).
"""
from __future__ import annotations

import os
from collections import OrderedDict

from engine.io.open import open_model

from .fingerprint import file_digest

CAPACITY = 8
"""Models kept per process: the subjects whose trials a worker is running at once, with room to spare."""


class ModelCache:
    """A bounded map of model files to the models read from them (module notes); ``open(path)`` is
    :func:`engine.io.open.open_model` that reads each version of a file once. ``reads`` counts the files read."""

    def __init__(self, capacity: int = CAPACITY):
        if capacity < 1:
            raise ValueError(f"a model cache holds at least one model, got capacity {capacity}")
        self.capacity = capacity
        self.reads = 0
        self._models: OrderedDict = OrderedDict()      # path: (digest, model), least recent first

    def open(self, path):
        """The model of the file ``path`` (a ModelError naming the file when it cannot be read, as
        ``open_model``); read again when the file's bytes changed since it was kept."""
        key = os.fspath(path)
        try:
            digest = file_digest(key)
        except OSError:
            return open_model(path)             # its error names the file
        kept = self._models.get(key)
        if kept is not None and kept[0] == digest:
            self._models.move_to_end(key)
            return kept[1]
        model = open_model(path)
        self.reads += 1
        self._models[key] = (digest, model)
        self._models.move_to_end(key)
        while len(self._models) > self.capacity:
            self._models.popitem(last=False)
        return model

    def __len__(self) -> int:
        return len(self._models)

    def clear(self) -> None:
        self._models.clear()


MODELS = ModelCache()
"""This process's cache (a worker's: its trials' models)."""
