"""The socket's soft tissue under the liner and its pre-compression (``Socket(tissue=, tissue_modulus=, fit=)``) against
closed forms on a closed cube of stump: the cube's faces are pressed and sheared through the liner and the tissue in
series, each face's vertices alike, so the solve's displacement and maps follow from the springs' balance by hand."""
from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest

from engine.errors import ModelError
from skin.socket import STRAIN_LIMIT, Socket

HALF = 0.04           # m, the cube's half side
PER_SIDE = 6          # vertices along a face's side
E, T = 0.4e6, 0.006   # the liner: Pa, m
E_T, H = 100e3, 0.02  # the tissue: Pa, m


def _cube():
    """Stump vertices ``x`` (k, 3) m at the centres of a grid on each face of a cube, the faces' outward ``normals``,
    the vertices' ``areas`` (m^2, all equal) and each vertex's face (0-5: +x, -x, +y, -y, +z, -z)."""
    s = (np.arange(PER_SIDE) + 0.5) / PER_SIDE * 2 * HALF - HALF
    a, b = (v.ravel() for v in np.meshgrid(s, s))
    x, n, face = [], [], []
    for axis in range(3):
        u, w = [i for i in range(3) if i != axis]
        for sign in (1.0, -1.0):
            p = np.zeros((len(a), 3))
            p[:, axis], p[:, u], p[:, w] = sign * HALF, a, b
            x.append(p)
            n.append(np.tile(np.eye(3)[axis] * sign, (len(a), 1)))
            face.append(np.full(len(a), 2 * axis + (sign < 0)))
    x, n = np.vstack(x), np.vstack(n)
    return x, n, np.full(len(x), (2 * HALF / PER_SIDE) ** 2), np.concatenate(face)


def _socket(**layers) -> Socket:
    """A socket on the cube: its wall the liner's thickness outside each vertex along the face's normal. The solve needs
    no skin (the vertices come with their gaps), so the skin is a stand-in naming the limb."""
    x, n, _, _ = _cube()
    return Socket(SimpleNamespace(bodies=("limb",)), "limb", np.arange(len(x)), x + T * n, n, T, E, **layers)


def _carry(socket, force_z):
    """The cube's maps under a push ``force_z`` (N) on the limb along z, no moment; the wall at ``T`` everywhere."""
    x, n, areas, face = _cube()
    return socket.carry(x, n, areas, np.full(len(x), T), np.array([0, 0, 0, 0, 0, force_z], float)), face


def _series(*compliances):
    return 1.0 / sum(compliances)


def _face_area():
    return (2 * HALF) ** 2


@pytest.mark.parametrize("tissue", [0.0, H])
def test_liner_and_tissue_press_and_shear_as_springs_in_series(tissue):
    """The bonded liner on tissue, the cube pushed down by F: the top face's pressure k |d_z| and the four sides' shear
    k_s |d_z| carry F, so d_z = -F / (A (k + 4 k_s)) with k = 1 / (t / E + h / E_t) and k_s = 1 / (t / G + h / G_t),
    G = E / 3; the bottom face lifts off (no pressure, never negative). The pressure compresses the liner by p t / E and
    the tissue by p h / E_t, and the frame is in range while each stays within its layer's thickness (the test below: its STRAIN_LIMIT of it)."""
    F = 300.0
    socket = _socket(tissue=tissue, tissue_modulus=E_T)
    m, face = _carry(socket, -F)
    k = _series(T / E, tissue / E_T)
    ks = _series(3 * T / E, 3 * tissue / E_T)
    assert socket.stiffness == pytest.approx(k, rel=1e-12) and socket.shear_stiffness == pytest.approx(ks, rel=1e-12)
    dz = -F / (_face_area() * (k + 4 * ks))
    assert m.converged
    np.testing.assert_allclose(m.u, [0, 0, 0, 0, 0, dz], rtol=0, atol=1e-9 * abs(dz))
    np.testing.assert_allclose(m.pressure[face == 4], -k * dz, rtol=1e-9)
    assert (m.pressure[face == 5] == 0.0).all()
    np.testing.assert_allclose(m.pressure[face < 4], 0.0, atol=1e-9 * k * abs(dz))     # the sides only shear
    np.testing.assert_allclose(m.shear[face < 4], np.tile([0, 0, ks * dz], ((face < 4).sum(), 1)), rtol=0,
                               atol=1e-9 * ks * abs(dz))
    p = -k * dz
    assert m.compression == pytest.approx(p * T / E, rel=1e-9)
    assert m.tissue_compression == pytest.approx(p * tissue / E_T, rel=1e-9)
    assert m.in_range


@pytest.mark.parametrize("tissue", [0.0, H])
def test_each_layer_is_in_range_up_to_its_nominal_strain_limit(tissue):
    """The frame is in range while each layer's compression stays within ``STRAIN_LIMIT`` of its thickness (the
    strain its linear law is assumed to hold to), not up to the whole thickness: the cube pushed so that the softer
    layer's strain ``p / E`` (the tissue's ``p / E_t`` when there is tissue) is just below the limit, just above it,
    and at half the thickness."""
    socket = _socket(tissue=tissue, tissue_modulus=E_T)
    k, ks = socket.stiffness, socket.shear_stiffness
    softest = min(E, E_T) if tissue else E
    for strain, in_range in ((0.99 * STRAIN_LIMIT, True), (1.01 * STRAIN_LIMIT, False), (0.5, False)):
        p = strain * softest
        m, _ = _carry(socket, -p * _face_area() * (k + 4 * ks) / k)
        assert m.converged and m.peak == pytest.approx(p, rel=1e-9)
        layers = (m.compression / T, m.tissue_compression / tissue if tissue else 0.0)
        assert max(layers) == pytest.approx(strain, rel=1e-9)
        assert m.in_range == in_range, (strain, layers)


def test_the_tissue_in_series_scales_the_displacements_and_leaves_the_maps():
    """A uniform layer in series whose shear and pressure stiffnesses keep the liner's ratio (G / E = 1/3) scales both
    by one factor: the maps are the same, the displacement grows by the liner's stiffness over the series one; for
    the bonded and the slipping liner, with and without a fit pressure (interference ``fit / k``)."""
    x, n, areas, _ = _cube()
    load = np.array([3.0, -2.0, 1.0, 40.0, -60.0, -400.0])
    for layers in ({}, {"friction": 0.61}, {"fit": 20e3}, {"friction": 0.61, "fit": 20e3}):
        liner = _socket(**layers)
        on_tissue = replace(liner, tissue=H, tissue_modulus=E_T)
        a = liner.carry(x, n, areas, np.full(len(x), T), load)
        b = on_tissue.carry(x, n, areas, np.full(len(x), T), load)
        assert a.converged and b.converged
        np.testing.assert_allclose(b.pressure, a.pressure, rtol=0, atol=1e-8 * a.peak)
        np.testing.assert_allclose(b.shear, a.shear, rtol=0, atol=1e-8 * a.peak)
        np.testing.assert_allclose(b.u, a.u * liner.stiffness / on_tissue.stiffness, rtol=0,
                                   atol=1e-8 * np.abs(b.u).max())


@pytest.mark.parametrize("friction", [None, 0.61], ids=["bonded", "slipping"])
@pytest.mark.parametrize("tissue", [0.0, H])
def test_pre_compression_alone_presses_every_vertex_with_the_fit_pressure(friction, tissue):
    """No load on the closed cube: the socket stays (u = 0) and every vertex carries the fit pressure, with no shear
    and no net wrench, whatever the layers; the interference is fit / k."""
    fit = 30e3
    socket = _socket(friction=friction, tissue=tissue, tissue_modulus=E_T, fit=fit)
    m, _ = _carry(socket, 0.0)
    assert socket.interference == pytest.approx(fit * (T / E + tissue / E_T), rel=1e-12)
    np.testing.assert_allclose(m.pressure, fit, rtol=1e-12)
    np.testing.assert_allclose(m.u, 0.0, atol=1e-15)
    np.testing.assert_allclose(m.shear, 0.0, atol=1e-9)
    np.testing.assert_allclose(m.by_pressure, 0.0, atol=1e-9 * fit * m.areas.sum())
    np.testing.assert_allclose(m.carried, 0.0, atol=1e-9 * fit * m.areas.sum())


def test_the_load_comes_on_top_of_the_fit_until_the_far_side_lifts_off():
    """Bonded liner on tissue, fit pressure p_0 (interference delta_0 = p_0 / k), pushed down by F: while
    |d_z| < delta_0 the top face gains what the bottom loses, d_z = -F / (A (2 k + 4 k_s)), the sides keep p_0; beyond,
    the bottom face lifts off (zero pressure, not negative) and d_z = (A k delta_0 - F) / (A (k + 4 k_s))."""
    fit = 20e3
    socket = _socket(tissue=H, tissue_modulus=E_T, fit=fit)
    k, ks, d0, A = socket.stiffness, socket.shear_stiffness, socket.interference, _face_area()
    light = 0.5 * A * d0 * (2 * k + 4 * ks)           # half the load that lifts the bottom face
    m, face = _carry(socket, -light)
    dz = -light / (A * (2 * k + 4 * ks))
    np.testing.assert_allclose(m.u, [0, 0, 0, 0, 0, dz], rtol=0, atol=1e-9 * abs(dz))
    np.testing.assert_allclose(m.pressure[face == 4], k * (d0 - dz), rtol=1e-9)
    np.testing.assert_allclose(m.pressure[face == 5], k * (d0 + dz), rtol=1e-9)
    np.testing.assert_allclose(m.pressure[face < 4], fit, rtol=1e-9)
    heavy = 3 * light
    m, face = _carry(socket, -heavy)
    dz = (A * k * d0 - heavy) / (A * (k + 4 * ks))
    assert dz < -d0
    np.testing.assert_allclose(m.u, [0, 0, 0, 0, 0, dz], rtol=0, atol=1e-9 * abs(dz))
    np.testing.assert_allclose(m.pressure[face == 4], k * (d0 - dz), rtol=1e-9)
    assert (m.pressure[face == 5] == 0.0).all()
    np.testing.assert_allclose(m.pressure[face < 4], fit, rtol=1e-9)
    np.testing.assert_allclose(m.carried[3:], [0, 0, -heavy], rtol=0, atol=1e-9 * heavy)


def test_the_fit_gives_the_slipping_liner_friction_before_the_load():
    """The slipping liner pushed down by F: without a fit the sides are not pressed, so they cannot shear, and the top
    face carries F alone (d_z = -F / (A k)); with a fit pressure p_0 the sides stay pressed by p_0 and, once d_z passes
    mu p_0 / k_s (beyond the interference: the bottom face has lifted off), slide at Coulomb's bound mu p_0 and carry
    4 A mu p_0 of F: d_z = delta_0 - (F - 4 A mu p_0) / (A k)."""
    mu, fit = 0.61, 20e3
    loose = _socket(friction=mu, tissue=H, tissue_modulus=E_T)
    fitted = replace(loose, fit=fit)
    k, ks, d0, A = loose.stiffness, loose.shear_stiffness, fitted.interference, _face_area()
    F = 4 * A * mu * fit + 4 * A * k * d0
    m, face = _carry(loose, -F)
    np.testing.assert_allclose(m.u, [0, 0, 0, 0, 0, -F / (A * k)], rtol=0, atol=1e-9 * F / (A * k))
    np.testing.assert_allclose(m.shear, 0.0, atol=1e-9 * fit)
    m, face = _carry(fitted, -F)
    dz = d0 - (F - 4 * A * mu * fit) / (A * k)
    assert dz < -d0 and ks * abs(dz) > mu * fit          # the bottom face lifted, the sides beyond the bound
    np.testing.assert_allclose(m.u, [0, 0, 0, 0, 0, dz], rtol=0, atol=1e-9 * abs(dz))
    np.testing.assert_allclose(m.shear[face < 4], np.tile([0, 0, -mu * fit], ((face < 4).sum(), 1)), rtol=0,
                               atol=1e-9 * fit)
    np.testing.assert_allclose(m.pressure[face < 4], fit, rtol=1e-9)
    np.testing.assert_allclose(m.pressure[face == 4], k * (d0 - dz), rtol=1e-9)
    assert (m.pressure[face == 5] == 0.0).all()


def test_bad_tissue_or_fit_is_an_error():
    for layers, words in (({"tissue": -0.01}, "soft tissue's thickness"), ({"tissue_modulus": 0.0}, "soft tissue's"),
                          ({"tissue": np.inf}, "soft tissue's"), ({"fit": -1.0}, "fit pressure"),
                          ({"fit": np.nan}, "fit pressure")):
        with pytest.raises(ModelError, match=words):
            _socket(**layers)


@pytest.mark.parametrize("friction", [None, 0.61], ids=["bonded", "slipping"])
def test_the_fit_pushes_the_limb_out_through_an_open_brim(friction):
    """The fit pressure on a stump open at the top (the cube without its +y face, as the stump is open at its brim)
    pushes the limb out with ``p_0`` over the opening's area ``A``; the limb settles out by ``p_0 / (k + 4 k_s)``, where
    the four sides' shear ``4 A k_s`` times that holds it and the bottom's pressure has fallen to
    ``p_0 4 k_s / (k + 4 k_s)``: the zero-load pressures are not the nominal ``p_0`` (the sides keep it). Closed, the
    cube is pressed by ``p_0`` everywhere and not pushed (the slipping liner's friction ``mu p_0`` on the sides is more
    than the shear asked, so it holds as the bonded one does)."""
    p0 = 20e3
    x, n, areas, face = _cube()
    socket = _socket(fit=p0, friction=friction)
    closed = socket.unloaded(x, n, areas, np.full(len(x), T))
    assert closed["push"] == pytest.approx(0.0, abs=1e-9) and closed["settled"] == pytest.approx(0.0, abs=1e-12)
    assert closed["low"] == pytest.approx(p0, rel=1e-9) and closed["high"] == pytest.approx(p0, rel=1e-9)
    open_ = face != 2
    sub = Socket(SimpleNamespace(bodies=("limb",)), "limb", np.arange(open_.sum()), (x + T * n)[open_], n[open_], T, E,
                 fit=p0, friction=friction)
    out = sub.unloaded(x[open_], n[open_], areas[open_], np.full(open_.sum(), T))
    k, ks = sub.stiffness, sub.shear_stiffness
    assert out["converged"]
    assert out["opening"] == pytest.approx(_face_area(), rel=1e-12)
    assert out["push"] == pytest.approx(p0 * _face_area(), rel=1e-12)
    assert out["settled"] == pytest.approx(p0 / (k + 4 * ks), rel=1e-6)
    assert out["held"] == pytest.approx(4 * _face_area() * ks * p0 / (k + 4 * ks), rel=1e-6)
    assert out["low"] == pytest.approx(p0 * 4 * ks / (k + 4 * ks), rel=1e-6)
    assert out["high"] == pytest.approx(p0, rel=1e-6)
