"""What is built once per model (``engine.per_model``): the compiled tree and static optimisation's Hill models. Two
threads asking at once for one model's must get one object, built once."""
import gc
import threading
import time
import weakref
from dataclasses import replace

import pytest

from engine import tree as tree_module
from engine.muscles.forces import static_optimization
from engine.muscles.forces.hill import thelen
from engine.per_model import PerModel
from tests.engine.hybrid_models import hybrid_chain
from tests.muscles.path_models import seed_arm


def _slowly_counted(build, calls: list):
    """``build`` that records each call and takes long enough for a second thread to ask meanwhile."""
    def counted(*args):
        calls.append(threading.get_ident())
        time.sleep(0.05)
        return build(*args)
    return counted


def _at_once(ask, model) -> list:
    """``ask(model)`` from two threads released together; their results."""
    start, results = threading.Barrier(2), [None, None]

    def worker(i):
        start.wait()
        results[i] = ask(model)
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_two_threads_get_one_object_built_once():
    calls = []
    kept = PerModel(_slowly_counted(lambda model: _Built(), calls))
    model = hybrid_chain()
    first, second = _at_once(kept, model)
    assert first is second and len(calls) == 1
    assert kept(hybrid_chain()) is not first and len(calls) == 2    # an equal model is another model


class _Built:
    """Something built from a model (weakly referable)."""


def test_the_result_goes_with_its_model():
    kept = PerModel(lambda model: _Built())
    model = hybrid_chain()
    gone = weakref.ref(kept(model))
    del model
    gc.collect()
    assert gone() is None


def test_the_tree_is_compiled_once_for_two_threads(monkeypatch):
    calls = []
    monkeypatch.setattr(tree_module._Builder, "build", _slowly_counted(tree_module._Builder.build, calls))
    first, second = _at_once(tree_module.compile_tree, hybrid_chain())
    assert first is second and len(calls) == 1


def test_static_optimisation_builds_a_models_hill_models_once_for_two_threads(monkeypatch):
    calls = []
    monkeypatch.setattr(static_optimization, "HillMuscles", _slowly_counted(static_optimization.HillMuscles, calls))
    arm = seed_arm()
    arm = arm.replace(muscles=[replace(m, model="thelen2003", parameters=thelen.PARAMETERS) for m in arm.muscles])
    first, second = _at_once(static_optimization._model_muscles, arm)
    assert first is second and len(calls) == 1


def test_a_compiled_tree_goes_with_its_model_and_so_do_its_entries():
    model = hybrid_chain()
    key = id(model)
    tree_module.compile_tree(model)
    assert key in tree_module._compiled._built and key in tree_module._compiled._locks
    model_gone = weakref.ref(model)
    del model
    gc.collect()
    assert model_gone() is None                 # the cache does not keep the model alive
    assert key not in tree_module._compiled._built and key not in tree_module._compiled._locks


def test_two_models_build_at_once():
    """Each build waits until the other has started: with one lock for every model the second could not start and
    the barrier would break (its timeout only stops a broken cache from hanging the tests)."""
    both = threading.Barrier(2, timeout=30)

    def build(model):
        both.wait()
        return _Built()
    kept = PerModel(build)
    a, b = hybrid_chain(), hybrid_chain()
    first, second = [None], [None]
    threads = [threading.Thread(target=lambda: first.__setitem__(0, kept(a))),
               threading.Thread(target=lambda: second.__setitem__(0, kept(b)))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not both.broken and first[0] is kept(a) and second[0] is kept(b) and first[0] is not second[0]


def test_a_build_asking_for_its_own_model_is_an_error_not_a_deadlock():
    def build(model):
        return kept(model)
    kept = PerModel(build)
    with pytest.raises(RuntimeError, match="asks for its own result"):
        kept(hybrid_chain())


def test_a_build_may_ask_the_same_cache_for_another_model():
    other = hybrid_chain()
    kept = PerModel(lambda model: _Built() if model is other else kept(other))
    assert kept(hybrid_chain()) is kept(other)
