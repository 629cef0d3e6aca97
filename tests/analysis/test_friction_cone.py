"""The QP's friction cone (seed eq. 35: unilateral contact inside the Coulomb cone |f_t| <= mu f_n), probed from
outside through ``solve_qp_id`` with known pushes, and checked from first principles, not against the
implementation's own pyramid.

A body whose only contact candidate sits at its centre of mass (so the contact force has no moment arm) is held at
rest on the floor while a known push acts on it (``node_wrenches``, as a force plate's load is given). The QP then
picks the contact force ``f`` closest to the force ``d`` the floor must supply (weight plus push) inside its cone:
the Euclidean projection of ``d`` onto the cone (scaled by ``w_base / (w_base + w_force)``, 0.9999).

- Pushed far outside the cone in every direction of the floor's plane, the projection lands on the cone's boundary:
  its ratio ``|f_t| / f_n`` may never exceed mu (the linearised cone is inside Coulomb's), reaches mu on the
  pyramid's edges (each generator lies on Coulomb's cone: the pyramid is inscribed, not circumscribed) and, for
  a regular pyramid of n faces, never falls below mu cos(pi / n) (the circle's inscribed polygon's apothem);
  it reaches mu on exactly n generators.
- A box pushed sideways along a generator is held while the push stays below mu N and cannot be held above it
  (the contact force balances the push exactly below; above, the base keeps what the cone cannot hold).
"""
import numpy as np
import pytest

from engine.algorithms import neutral
from engine.analysis.derivatives import Motion
from engine.analysis.qp_id import QPSettings, solve_qp_id
from engine.model import Body, ContactPoint, FreeJoint, Model
from engine.tree import compile_tree

MASS = 10.0
G = 9.80665
MU = 0.8
FACETS = 8


def point_on_floor():
    """A body at the origin, its centre of mass and its one contact candidate at its origin (on the floor y = 0)."""
    body = Body("box", MASS, (0.0, 0.0, 0.0), np.diag([0.1, 0.1, 0.1]))
    return Model("point", [body], [FreeJoint("free", "ground", "box")],
                 contacts=[ContactPoint("c", "box", (0.0, 0.0, 0.0), group="box")])


def held_under_pushes(pushes, mu=MU, facets=FACETS):
    """The QP's contact forces (T, 3) and base residual forces (T, 3) for the body at rest under each push (T, 3) N
    (world, at the centre of mass)."""
    model = point_on_floor()
    T = len(pushes)
    motion = Motion(np.arange(T) * 0.01, np.tile(neutral(model), (T, 1)), np.zeros((T, 6)), np.zeros((T, 6)), None, 3)
    wrenches = np.zeros((T, compile_tree(model).n_nodes, 6))
    wrenches[:, 0, 3:] = pushes          # applied at the origin: no moment
    res = solve_qp_id(model, motion, QPSettings(friction=mu, facets=facets, floor=0.0, floor_velocity=(0, 0, 0)),
                      node_wrenches=wrenches)
    assert res.status.all()
    return res.forces[:, 0], res.tau[:, 3:6]


def ratios(forces):
    return np.hypot(forces[:, 0], forces[:, 2]) / forces[:, 1]


def test_every_generator_lies_on_coulombs_cone_and_the_pyramid_never_leaves_it():
    theta = np.linspace(0.0, 2 * np.pi, 1440, endpoint=False)
    weight = MASS * G
    # the floor must supply the weight and 3 mu weight sideways (the push's opposite): far outside the cone
    pushes = -3 * MU * weight * np.column_stack([np.cos(theta), np.zeros_like(theta), np.sin(theta)])
    f, _ = held_under_pushes(pushes)
    assert np.all(f[:, 1] > 0)                                     # the floor only pushes
    rho = ratios(f)
    assert rho.max() <= MU * (1 + 1e-9)                            # never outside Coulomb's cone
    assert rho.max() >= MU * (1 - 1e-9)                            # touches it (inscribed)
    apothem = MU * np.cos(np.pi / FACETS)
    assert rho.min() == pytest.approx(apothem, rel=1e-3)           # the faces' middles: cos(pi / n) of the circle
    # the generators reached: azimuths where rho = mu, grouped; n of them, 2 pi / n apart
    azimuth = np.arctan2(f[:, 2], f[:, 0])
    on_circle = np.sort(np.mod(azimuth[rho >= MU * (1 - 1e-9)], 2 * np.pi))
    gaps = np.diff(np.concatenate([on_circle, on_circle[:1] + 2 * np.pi]))
    generators = on_circle[np.concatenate([gaps[-1:], gaps[:-1]]) > 1e-6]
    assert len(generators) == FACETS
    spacing = np.diff(np.concatenate([generators, generators[:1] + 2 * np.pi]))
    assert np.allclose(spacing, 2 * np.pi / FACETS, atol=1e-6)


@pytest.mark.parametrize("facets", [4, 6, 12])
def test_the_inscribed_polygon_follows_the_number_of_faces(facets):
    theta = np.linspace(0.0, 2 * np.pi, 720, endpoint=False)
    pushes = -3 * MU * MASS * G * np.column_stack([np.cos(theta), np.zeros_like(theta), np.sin(theta)])
    rho = ratios(held_under_pushes(pushes, facets=facets)[0])
    assert rho.max() == pytest.approx(MU, rel=1e-9)
    assert rho.min() == pytest.approx(MU * np.cos(np.pi / facets), rel=2e-3)


def generator_direction():
    """The horizontal direction of one generator, found as above (a push far outside the cone that the QP resolves
    onto an edge)."""
    theta = np.linspace(0.0, 2 * np.pi, 360, endpoint=False)
    pushes = -3 * MU * MASS * G * np.column_stack([np.cos(theta), np.zeros_like(theta), np.sin(theta)])
    f, _ = held_under_pushes(pushes)
    k = int(np.argmax(ratios(f)))
    t = np.array([f[k, 0], 0.0, f[k, 2]])
    return t / np.linalg.norm(t)


@pytest.mark.parametrize("fraction", [0.5, 0.9, 0.99])
def test_a_box_pushed_below_mu_n_along_a_generator_is_held(fraction):
    t = generator_direction()
    N = MASS * G
    push = fraction * MU * N * t
    f, residual = held_under_pushes(np.array([push]))
    assert f[0] @ t == pytest.approx(-fraction * MU * N, rel=1e-3)   # friction balances the push
    assert f[0, 1] == pytest.approx(N, rel=1e-3)
    assert np.abs(residual).max() < 1e-3 * N


@pytest.mark.parametrize("fraction", [1.01, 1.2, 2.0])
def test_a_box_pushed_beyond_mu_n_cannot_be_held(fraction):
    """Beyond mu N the contact force is the projection of the needed force ``d = N up - P t`` onto the generator
    ``e = (up - mu t) / sqrt(1 + mu^2)``; the base keeps the rest, ``d - (d . e) e``."""
    t = generator_direction()
    N = MASS * G
    up = np.array([0.0, 1.0, 0.0])
    push = fraction * MU * N * t
    f, residual = held_under_pushes(np.array([push]))
    assert np.hypot(f[0, 0], f[0, 2]) == pytest.approx(MU * f[0, 1], rel=1e-9)
    d = N * up - push
    e = (up - MU * t) / np.hypot(1.0, MU)
    assert np.allclose(residual[0], d - (d @ e) * e, atol=2e-3 * N)
    assert residual[0] @ t < -0.9 * (fraction - 1) * MU * N / (1 + MU ** 2)


def test_a_push_between_generators_is_held_up_to_the_face():
    """Along a face's middle ``m`` the pyramid holds mu cos(pi / n) N (the linearisation's price), and no more: beyond
    it the contact force is the projection of ``d = N up - P m`` onto the face ``g . f = 0``,
    ``g = -m - mu cos(pi / n) up``, and the base keeps ``(d . g / |g|^2) g``."""
    t = generator_direction()
    half = np.pi / FACETS
    c, s = np.cos(half), np.sin(half)
    middle = np.array([c * t[0] - s * t[2], 0.0, s * t[0] + c * t[2]])     # rotated by pi / n about up
    N = MASS * G
    up = np.array([0.0, 1.0, 0.0])
    mu_face = MU * np.cos(half)
    pushes = np.array([0.99 * mu_face * N * middle, 1.05 * mu_face * N * middle])
    f, residual = held_under_pushes(pushes)
    assert np.abs(residual[0]).max() < 1e-3 * N
    d = N * up - pushes[1]
    g = -middle - mu_face * up
    assert np.allclose(residual[1], (d @ g) / (g @ g) * g, atol=2e-3 * N)
