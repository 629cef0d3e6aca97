"""The joint kernels compiled ahead of the kinematics pass (a first launch's compile children share them) are the
ones the pass calls: typing the pass afresh finds their compiled signatures and adds none."""
import numba as nb
import numpy as np

from engine.algorithms import compiled, neutral
from engine.algorithms.joint_kernels import KINDS, compile_joint_kernel, joint_kernel
from engine.data import Data
from engine.demo import demo_results
from engine.tree import compile_tree


def test_the_pass_typed_afresh_calls_the_joint_kernels_compiled_ahead():
    model = demo_results()[0].model          # general (OpenSim's custom joints), PCS (the blade) and simple joints
    data = Data(model)
    k = compile_tree(model).k
    assert {5, 6, 1, 4, 0} <= set(k.nodes["jtype"].tolist())
    for kind in KINDS:
        compile_joint_kernel(kind)
    ahead = {kind: list(joint_kernel(kind).signatures) for kind in KINDS}
    assert all(len(signatures) == 1 for signatures in ahead.values())
    # the pass without numba's cache, so that its calls are typed here (a cached pass never types them)
    fresh = nb.njit(nogil=True)(compiled.kinematics.py_func)
    q = neutral(model)
    empty = np.zeros(0)
    fresh(k.nodes, k.segs, k.funcs, k.fpool, k.gravity, data.ws, data.scr, q, empty, empty, np.int64(0),
          np.bool_(False), np.bool_(True))
    assert {kind: list(joint_kernel(kind).signatures) for kind in KINDS} == ahead
