"""What is built once per model (``engine.per_model``): the compiled tree and static optimisation's Hill models. Two
threads asking at once for one model's must get one object, built once."""
import gc
import threading
import time
import weakref
from dataclasses import replace

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
