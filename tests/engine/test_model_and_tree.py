"""The model is a description that does not know its compiled tree: its sizes come from the description alone and
agree with Pinocchio's, its neutral configuration is Pinocchio's, and its tree is built once and goes with it."""
import gc
import weakref

import numpy as np
import pinocchio as pin
import pytest

from engine import algorithms as alg
from engine.tree import compile_tree
from tests.engine.hybrid_models import hybrid_chain
from tests.engine.random_trees import build_model, build_pinocchio, index_maps, random_specs


@pytest.mark.parametrize("floating", [True, False])
def test_sizes_and_neutral_configuration_are_pinocchios(floating):
    specs = random_specs(np.random.default_rng(7), n_bodies=24, floating=floating)
    model = build_model(specs)
    pm, _, _ = build_pinocchio(specs)
    assert any(s.kind == "spherical" for s in specs)
    assert (model.nq, model.nv) == (pm.nq, pm.nv)
    qperm, _ = index_maps(model, pm, specs)
    np.testing.assert_array_equal(alg.neutral(model), pin.neutral(pm)[qperm])


@pytest.mark.parametrize("floating, shoulder", [(True, "spherical"), (False, "universal")])
def test_sizes_of_a_model_with_rods_count_its_strains(floating, shoulder):
    model = hybrid_chain(floating=floating, shoulder=shoulder)
    strains = sum(len(sg.free_modes) for r in model.rods for sg in r.segments)
    joints = {"free": (7, 6), "spherical": (4, 3)}
    rotations = [joints[j.type_name] for j in model.joints if j.type_name in joints]
    scalars = sum(len(j.coordinates) for j in model.joints) + strains
    assert model.nq == scalars + sum(n for n, _ in rotations)
    assert model.nv == scalars + sum(n for _, n in rotations)
    assert (compile_tree(model).nq, compile_tree(model).nv) == (model.nq, model.nv)


def test_the_tree_is_built_once_and_goes_with_its_model():
    model = hybrid_chain()
    tree = compile_tree(model)
    assert compile_tree(model) is tree
    assert compile_tree(hybrid_chain()) is not tree      # an equal model is another model
    gone = weakref.ref(tree)
    del model, tree
    gc.collect()
    assert gone() is None
