"""Numba kernels of the mechanism's kinematics (seed eqs. 2-6, 22-34) on flat arrays.

``g`` is the geometry ``[l1, a1, a2, a3, b1, b2, b3]`` (m); ``q = (alpha, beta)`` (rad). The platform's
orientation is R = Rx(alpha) Ry(beta) (eq. 2) and its origin o is p (eq. 5), which we write
p = A1 + l1 s1 - b1 R e_x with s1 = Ry(beta) Rx(-alpha) e_z = (ca sb, sa, ca cb): the passive limb of fixed
length l1 whose universal joint turns by beta about the base's Y axis, then by -alpha about its outboard axis.
Every limb's universal joint is laid out alike, so limb i's frame is Ry(chi_i) Rx(eta_i) with z along
s_i = (Bi - Ai)/l_i (singular only for a limb along +-Y, far outside the workspace); the passive limb's angles
are (chi, eta) = (beta, -alpha).

Twists are ``[omega; v_o]`` (angular velocity, velocity of the platform point at o), base axes.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def rotation(alpha, beta, R):
    """R = Rx(alpha) Ry(beta) (seed eq. 2) into R (3, 3)."""
    ca, sa, cb, sb = math.cos(alpha), math.sin(alpha), math.cos(beta), math.sin(beta)
    R[0, 0], R[0, 1], R[0, 2] = cb, 0.0, sb
    R[1, 0], R[1, 1], R[1, 2] = sa * sb, ca, -cb * sa
    R[2, 0], R[2, 1], R[2, 2] = -ca * sb, sa, ca * cb


@njit(cache=True, nogil=True)
def _triangle(x1, y2, y3, out):
    """Rows (x1, 0, 0), (0, y2, 0), (0, -y3, 0)."""
    out[:] = 0.0
    out[0, 0] = x1
    out[1, 1] = y2
    out[2, 1] = -y3


@njit(cache=True, nogil=True)
def base_points(g, A):
    """A1, A2, A3 (rows of A (3, 3), m)."""
    _triangle(g[1], g[2], g[3], A)


@njit(cache=True, nogil=True)
def platform_points_local(g, Bl):
    """B1, B2, B3 in platform axes (rows of Bl (3, 3), m)."""
    _triangle(g[4], g[5], g[6], Bl)


@njit(cache=True, nogil=True)
def platform_motion(g, q, qd, qdd, R, p, w, v, dw, a, P):
    """Platform pose and motion at (q, qd, qdd): R (eq. 2), p (eq. 5), omega w, v_o, their rates dw, a_o (base
    axes), and the velocity map P (6, 2): ``[w; v_o] = P qd``."""
    al, be = q[0], q[1]
    ca, sa, cb, sb = math.cos(al), math.sin(al), math.cos(be), math.sin(be)
    l1, a1, b1 = g[0], g[1], g[4]
    rotation(al, be, R)
    # p = A1 + l1 s1 - b1 r, s1 = (ca sb, sa, ca cb), r = R e_x = (cb, sa sb, -ca sb)
    p[0] = a1 + l1 * ca * sb - b1 * cb
    p[1] = l1 * sa - b1 * sa * sb
    p[2] = l1 * ca * cb + b1 * ca * sb
    pa = np.array([l1 * -sa * sb, l1 * ca - b1 * ca * sb, l1 * -sa * cb - b1 * sa * sb])
    pb = np.array([l1 * ca * cb + b1 * sb, -b1 * sa * cb, l1 * -ca * sb + b1 * ca * cb])
    paa = np.array([-l1 * ca * sb, -l1 * sa + b1 * sa * sb, -l1 * ca * cb - b1 * ca * sb])
    pab = np.array([-l1 * sa * cb, -b1 * ca * cb, l1 * sa * sb - b1 * sa * cb])
    pbb = np.array([-l1 * ca * sb + b1 * cb, b1 * sa * sb, -l1 * ca * cb - b1 * ca * sb])
    u = np.array([0.0, ca, sa])          # R e_y = Rx(alpha) e_y
    ua = np.array([0.0, -sa, ca])
    ad, bd = qd[0], qd[1]
    for k in range(3):
        P[k, 0] = 1.0 if k == 0 else 0.0
        P[k, 1] = u[k]
        P[3 + k, 0] = pa[k]
        P[3 + k, 1] = pb[k]
        w[k] = P[k, 0] * ad + u[k] * bd
        v[k] = pa[k] * ad + pb[k] * bd
        dw[k] = P[k, 0] * qdd[0] + u[k] * qdd[1] + ad * bd * ua[k]
        a[k] = pa[k] * qdd[0] + pb[k] * qdd[1] + paa[k] * ad * ad + 2.0 * pab[k] * ad * bd + pbb[k] * bd * bd


@njit(cache=True, nogil=True)
def _cross(x, y, out):
    out[0] = x[1] * y[2] - x[2] * y[1]
    out[1] = x[2] * y[0] - x[0] * y[2]
    out[2] = x[0] * y[1] - x[1] * y[0]


@njit(cache=True, nogil=True)
def limb_motion(g, q, qd, qdd, B, vB, aB, s, ds, dds, L, U):
    """Each limb's joint point Bi (rows of B), its velocity and acceleration (eqs. 22, 26), unit vector s_i and
    its two rates, length and rates ``L[i] = (l, dl, ddl)`` (eqs. 6, 24, 27), and its universal joint's
    ``U[i] = (chi, eta, dchi, deta, ddchi, ddeta)``."""
    R = np.empty((3, 3))
    p, w, v, dw, a = np.empty(3), np.empty(3), np.empty(3), np.empty(3), np.empty(3)
    P = np.empty((6, 2))
    platform_motion(g, q, qd, qdd, R, p, w, v, dw, a, P)
    A = np.empty((3, 3))
    Bl = np.empty((3, 3))
    base_points(g, A)
    platform_points_local(g, Bl)
    r, wr, wwr, dwr = np.empty(3), np.empty(3), np.empty(3), np.empty(3)
    for i in range(3):
        for k in range(3):
            r[k] = R[k, 0] * Bl[i, 0] + R[k, 1] * Bl[i, 1] + R[k, 2] * Bl[i, 2]
        _cross(w, r, wr)
        _cross(w, wr, wwr)
        _cross(dw, r, dwr)
        for k in range(3):
            B[i, k] = p[k] + r[k]
            vB[i, k] = v[k] + wr[k]
            aB[i, k] = a[k] + dwr[k] + wwr[k]
        d = B[i] - A[i]
        length = math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2])
        dl = 0.0
        for k in range(3):
            s[i, k] = d[k] / length
        for k in range(3):
            dl += s[i, k] * vB[i, k]
        sd2 = 0.0
        for k in range(3):
            ds[i, k] = (vB[i, k] - dl * s[i, k]) / length
            sd2 += ds[i, k] * ds[i, k]
        ddl = length * sd2
        for k in range(3):
            ddl += s[i, k] * aB[i, k]
        for k in range(3):
            dds[i, k] = (aB[i, k] - ddl * s[i, k] - 2.0 * dl * ds[i, k]) / length
        L[i, 0], L[i, 1], L[i, 2] = length, dl, ddl
        universal_angles(s[i], ds[i], dds[i], U[i])


@njit(cache=True, nogil=True)
def universal_angles(s, ds, dds, out):
    """Angles (chi, eta) of s = Ry(chi) Rx(eta) e_z = (schi ceta, -seta, cchi ceta) and their two rates."""
    eta = -math.asin(min(1.0, max(-1.0, s[1])))
    chi = math.atan2(s[0], s[2])
    ce, se = math.cos(eta), math.sin(eta)
    deta = -ds[1] / ce
    ddeta = (se * deta * deta - dds[1]) / ce
    rho2 = s[0] * s[0] + s[2] * s[2]
    num = ds[0] * s[2] - s[0] * ds[2]
    dnum = dds[0] * s[2] - s[0] * dds[2]
    dchi = num / rho2
    ddchi = (dnum * rho2 - num * 2.0 * (s[0] * ds[0] + s[2] * ds[2])) / (rho2 * rho2)
    out[0], out[1], out[2], out[3], out[4], out[5] = chi, eta, dchi, deta, ddchi, ddeta


@njit(cache=True, nogil=True)
def limb_frame(chi, eta, Ri):
    """Limb frame Ry(chi) Rx(eta) into Ri (3, 3)."""
    cc, sc, ce, se = math.cos(chi), math.sin(chi), math.cos(eta), math.sin(eta)
    Ri[0, 0], Ri[0, 1], Ri[0, 2] = cc, sc * se, sc * ce
    Ri[1, 0], Ri[1, 1], Ri[1, 2] = 0.0, ce, -se
    Ri[2, 0], Ri[2, 1], Ri[2, 2] = -sc, cc * se, cc * ce


@njit(cache=True, nogil=True)
def limb_angular_motion(U, w, dw):
    """Angular velocity and acceleration of a limb from its universal joint's angles and rates:
    omega = dchi e_y + deta Ry(chi) e_x (base axes)."""
    chi, dchi, deta, ddchi, ddeta = U[0], U[2], U[3], U[4], U[5]
    ex = np.array([math.cos(chi), 0.0, -math.sin(chi)])
    dex = np.array([-math.sin(chi), 0.0, -math.cos(chi)]) * dchi
    w[0] = deta * ex[0]
    w[1] = dchi
    w[2] = deta * ex[2]
    dw[0] = ddeta * ex[0] + deta * dex[0]
    dw[1] = ddchi
    dw[2] = ddeta * ex[2] + deta * dex[2]
