"""Numba's on-disk cache of the project's kernels, stamped with all of the kernels' sources together.

Numba stamps a cached kernel with its own source file only. A kernel that calls or inlines kernels of other files
(most do: the tree passes call the joint and rotation kernels) would then be loaded from the cache after one of
those files changed, compiled from the old code: wrong numbers, silently, in a development tree or after an
upgrade that kept the cache. Here every kernel of the project's packages (``engine``, ``skin``,
``hip_mechanism``) is stamped with one hash of every source file that defines kernels (files holding ``njit``), so
that any change to any of them compiles them all again. Where the cache lives is numba's choice as before
(``NUMBA_CACHE_DIR``, else beside the sources, else the user's cache folder).

:func:`install` puts the stamped locators first in numba's list; ``engine/__init__.py`` calls it before any kernel
is defined. A program that names its own locators in ``NUMBA_CACHE_LOCATOR_CLASSES`` (the frozen bundle, whose
sources never change) keeps them: numba then ignores this list.
"""
from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from numba.core import caching

PACKAGES = ("engine", "skin", "hip_mechanism")
"""The project's packages whose kernels are stamped together (siblings of ``engine`` where installed)."""


def _numba_class(name: str):
    """A class of numba's caching module by its current name or its older private one (numba < 0.62)."""
    return getattr(caching, name, None) or getattr(caching, "_" + name)


@functools.lru_cache(maxsize=1)
def _roots() -> tuple[Path, ...]:
    base = Path(__file__).resolve().parent.parent
    return tuple(base / name for name in PACKAGES if (base / name / "__init__.py").is_file())


def package_roots() -> list[Path]:
    """The folders of the project's packages that are installed beside ``engine``."""
    return list(_roots())


def kernel_sources(roots) -> list[Path]:
    """The Python files under ``roots`` that define numba kernels, in a fixed order."""
    return sorted(p for root in roots for p in Path(root).rglob("*.py")
                  if "__pycache__" not in p.parts and b"njit" in p.read_bytes())


def sources_stamp(roots) -> str:
    """One hash of every kernel source under ``roots`` (names relative to their root, and contents)."""
    digest = hashlib.sha256()
    for path in kernel_sources(roots):
        root = next(r for r in map(Path, roots) if path.is_relative_to(r))
        digest.update(f"{root.name}/{path.relative_to(root).as_posix()}\0".encode())
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


@functools.lru_cache(maxsize=1)
def _project_stamp() -> str:
    return sources_stamp(package_roots())


@functools.lru_cache(maxsize=None)
def _in_project(py_file: str) -> bool:
    """Whether ``py_file`` lies in one of the project's packages (asked for every kernel as its module is imported:
    kept per file, the few hundred kernels of a launch resolve a few dozen paths once each)."""
    path = Path(py_file).resolve()
    return any(path.is_relative_to(root) for root in _roots())


class _ProjectStamped:
    """Mixin: a numba locator for the project's kernels whose source stamp covers every kernel source."""

    def get_source_stamp(self):
        return _project_stamp()

    @classmethod
    def from_function(cls, py_func, py_file):
        if not _in_project(py_file):
            return None
        return super().from_function(py_func, py_file)


def _stamped(name: str):
    base = _numba_class(name)
    return type(f"ProjectStamped{name}", (_ProjectStamped, base), {"__module__": __name__})


LOCATORS = tuple(_stamped(n) for n in ("UserProvidedCacheLocator", "InTreeCacheLocator", "UserWideCacheLocator"))
"""numba's three file-backed locators, in numba's order, with the project's stamp."""


def install() -> None:
    """Put :data:`LOCATORS` first in numba's list of cache locators (once)."""
    impl = _numba_class("CacheImpl")
    if impl._locator_classes[:len(LOCATORS)] != list(LOCATORS):
        impl._locator_classes[:0] = list(LOCATORS)
