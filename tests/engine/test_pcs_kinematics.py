"""PCS rod kinematics (seed eqs. 8-20): exact arcs, the SE(3) exponential, and Jacobians."""
import numpy as np
import pytest
from scipy.linalg import expm

from engine import algorithms as alg
from engine.data import Data
from engine.model import MODES, Model, Rod, RodSegment, Section
from engine.spatial import axis_angle, skew
from engine.tree import compile_tree
from tests.engine.hybrid_models import STEEL, arc_rod, general_joint_model, hybrid_chain


def test_constant_curvature_gives_the_exact_circular_arc():
    kappa = 2.5
    model = arc_rod(kappa, n_segments=4, length=0.8)
    data = Data(model)
    alg.forward_kinematics(model, data, alg.neutral(model))
    s = np.linspace(0.0, 0.8, 37)
    R, p = alg.rod_frames(model, data, "arc", s)
    exact_p = np.stack([np.sin(kappa * s) / kappa, (1 - np.cos(kappa * s)) / kappa, np.zeros_like(s)], axis=1)
    assert np.abs(p - exact_p).max() < 1e-14
    for Ri, si in zip(R, s):
        assert np.abs(Ri - axis_angle([0, 0, 1], kappa * si)).max() < 1e-14
    # the same arc when the curvature is a coordinate rather than the rest strain
    straight = Model("c", rods=[Rod("r", "ground", [RodSegment(0.2, Section.rectangle(0.04, 0.008), STEEL)] * 4)],
                     gravity=(0, 0, 0))
    q = alg.neutral(straight)
    q[[i for i, n in enumerate(compile_tree(straight).q_names) if n.endswith("_kz")]] = kappa
    d2 = Data(straight)
    alg.forward_kinematics(straight, d2, q)
    assert np.abs(alg.rod_frames(straight, d2, "r", s)[1] - exact_p).max() < 1e-14


def _hat(xi):
    H = np.zeros((4, 4))
    H[:3, :3] = skew(xi[:3])
    H[:3, 3] = xi[3:]
    return H


def test_general_strains_match_the_matrix_exponential(rng):
    """Segments with all six modes free and random strains: frames equal products of expm (eq. 8, 13)."""
    lengths = [0.11, 0.07, 0.15, 0.09]
    segs = [RodSegment(L, Section.rectangle(0.03, 0.01), STEEL, MODES) for L in lengths]
    model = Model("six", rods=[Rod("r", "ground", segs)], gravity=(0, 0, 0))
    data = Data(model)
    for scale in (1e-4, 1.0, 8.0):   # near zero the series branch, large angles the closed form
        xis = rng.normal(size=(4, 6)) * scale
        xis[:, 3] += 1.0
        q = xis.reshape(-1)
        alg.forward_kinematics(model, data, q)
        base = np.eye(4)
        for i, (L, xi) in enumerate(zip(lengths, xis)):
            for frac in (0.0, 0.3, 1.0):
                H = base @ expm(frac * L * _hat(xi))
                R, p = alg.rod_frames(model, data, "r", [sum(lengths[:i]) + frac * L])
                assert np.abs(R[0] - H[:3, :3]).max() < 1e-12
                assert np.abs(p[0] - H[:3, 3]).max() < 1e-12 * max(1.0, scale)
            base = base @ expm(L * _hat(xi))


def _positions(model, data, q, names):
    alg.forward_kinematics(model, data, q)
    return np.array([alg.frame_placement(model, data, n).p for n in names])


@pytest.mark.parametrize("build", [hybrid_chain, lambda: hybrid_chain(floating=True, modes=MODES),
                                   general_joint_model], ids=["hybrid", "floating-6modes", "general-joints"])
def test_point_jacobians_equal_finite_differences(build, rng):
    model = build()
    data = Data(model)
    names = [m.name for m in model.markers] + [c.name for c in model.contacts]
    h = 1e-6
    for _ in range(3):
        q = alg.integrate(model, alg.neutral(model), rng.normal(size=model.nv) * 0.3)
        J = alg.point_jacobians(model, data, q, names)
        for i in range(model.nv):
            e = np.zeros(model.nv)
            e[i] = h
            fd = (_positions(model, data, alg.integrate(model, q, e), names)
                  - _positions(model, data, alg.integrate(model, q, -e), names)) / (2 * h)
            assert np.abs(J[:, :, i] - fd).max() < 1e-7, compile_tree(model).v_names[i]


@pytest.mark.parametrize("build", [hybrid_chain, lambda: hybrid_chain(floating=True, modes=MODES),
                                   general_joint_model], ids=["hybrid", "floating-6modes", "general-joints"])
def test_jdot_v_equals_second_derivative_along_the_motion(build, rng):
    """J-dot psi: the classical acceleration at a = 0 is d2x/dt2 along q(t) = q (+) v t."""
    model = build()
    data = Data(model)
    names = [m.name for m in model.markers]
    q = alg.integrate(model, alg.neutral(model), rng.normal(size=model.nv) * 0.3)
    v = rng.normal(size=model.nv)
    h = 1e-4
    x = [_positions(model, data, alg.integrate(model, q, v, t), names) for t in (-h, 0.0, h)]
    fd = (x[0] - 2 * x[1] + x[2]) / h ** 2
    for i, n in enumerate(names):
        acc = alg.frame_classical_acceleration(model, data, q, v, np.zeros(model.nv), n)[3:]
        assert np.abs(acc - fd[i]).max() < 1e-5 * max(1.0, np.abs(fd).max()), n
