"""The project's kernels are cached under one stamp of all kernel sources: editing any kernel file recompiles every
kernel (numba alone would reload a kernel whose callee changed, compiled from the old code)."""
import hashlib

from engine import numba_cache
from engine.kernels import _batch, _so3


def test_project_kernels_use_the_stamped_locator():
    for module in (_so3, _batch):
        kernels = [getattr(module, n) for n in dir(module) if hasattr(getattr(module, n), "_cache")]
        assert kernels
        for kernel in kernels:
            locator = kernel._cache._impl._locator
            assert type(locator) in numba_cache.LOCATORS, kernel
            assert locator.get_source_stamp() == numba_cache.sources_stamp(numba_cache.package_roots())


def test_the_stamp_covers_every_kernel_file_and_nothing_else(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    callee = pkg / "_callee.py"
    caller = pkg / "sub" / "_caller.py"
    plain = pkg / "plain.py"
    callee.write_text("from numba import njit\n@njit(cache=True)\ndef f(x):\n    return x + 1\n")
    caller.write_text("from numba import njit\nfrom pkg._callee import f\n@njit(cache=True)\ndef g(x):\n    return f(x)\n")
    plain.write_text("X = 1\n")
    assert numba_cache.kernel_sources([pkg]) == [callee, caller]
    before = numba_cache.sources_stamp([pkg])
    expected = hashlib.sha256()
    for path in (callee, caller):
        expected.update(f"pkg/{path.relative_to(pkg).as_posix()}\0".encode() + path.read_bytes() + b"\0")
    assert before == expected.hexdigest()
    plain.write_text("X = 2\n")
    assert numba_cache.sources_stamp([pkg]) == before          # not a kernel file
    callee.write_text(callee.read_text().replace("x + 1", "x + 2"))
    assert numba_cache.sources_stamp([pkg]) != before          # the callee changed: the caller's stamp too


def test_installing_twice_adds_the_locators_once():
    from numba.core import caching
    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
    numba_cache.install()
    numba_cache.install()
    assert [c for c in impl._locator_classes if c in numba_cache.LOCATORS] == list(numba_cache.LOCATORS)
