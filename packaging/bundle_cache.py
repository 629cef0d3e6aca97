"""Numba's cache locator for the frozen bundle (named in ``NUMBA_CACHE_LOCATOR_CLASSES`` by packaging/launcher.py).

PyInstaller strips the build machine's folders from the code's file names: a kernel's ``co_filename`` is the
path of its source inside the bundle (``engine/kernels/_x.py``), which numba's own locators take as relative to
the working folder. This one keeps a kernel in ``NUMBA_CACHE_DIR/<that path's folder>`` (the same wherever the
bundle is installed, so the kernels compiled at build time are copied in as they are) and stamps it with the hash
of its source file, shipped in the bundle beside the byte code, and of the build's stamp: numba's index recompiles
a kernel whose source or build differs, and keys each one by this machine's processor. (It replaces
engine.numba_cache's locators, which numba then ignores.)
"""
from __future__ import annotations

import functools
import hashlib
import os
import sys
from pathlib import Path

from numba.core import config
from numba.core.caching import _CacheLocator


@functools.lru_cache(maxsize=None)
def _source_hash(path: Path) -> str:
    """The hash of ``path``'s contents and of the bundle's build stamp (a kernel's callees in other files change
    only with the build: engine.numba_cache's concern, for a ``NUMBA_CACHE_DIR`` shared between builds)."""
    stamp = Path(sys._MEIPASS) / "BUILD"
    return hashlib.sha256(path.read_bytes() + (stamp.read_bytes() if stamp.is_file() else b"")).hexdigest()


class BundleCacheLocator(_CacheLocator):
    """Kernels of the bundle's sources, cached under ``NUMBA_CACHE_DIR`` by their folder in the bundle."""

    def __init__(self, py_func, py_file: str):
        self._source = Path(sys._MEIPASS) / py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = str(Path(config.CACHE_DIR) / Path(py_file).parent)

    def get_cache_path(self) -> str:
        return self._cache_path

    def get_source_stamp(self) -> str:
        return _source_hash(self._source)

    def get_disambiguator(self) -> str:
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func, py_file: str):
        if not (getattr(sys, "frozen", False) and config.CACHE_DIR) or os.path.isabs(py_file) \
                or not (Path(sys._MEIPASS) / py_file).is_file():
            return None
        locator = cls(py_func, py_file)
        try:
            locator.ensure_cache_path()
        except OSError:
            return None
        return locator
