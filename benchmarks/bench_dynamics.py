"""Per-frame cost of forward kinematics, all marker Jacobians, M (CRBA) and RNEA.

(a) full-body model (~37 DoF) with a 6-segment PCS blade, (b) the same without the
blade, and Pinocchio on (b) in the same run, called per frame from Python as a user
would. Ours run as batch kernels over all frames. Also measures the numba compile
time on a cold cache (in a subprocess with an empty cache directory).

Run: python benchmarks/bench_dynamics.py
Last line: RESULT rnea_ratio=R1 crba_ratio=R2 jacobians_ratio=R3 (ours / Pinocchio, lower is better).
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.fullbody import build  # noqa: E402
from benchmarks.timing import timings  # noqa: E402
from benchmarks.to_pinocchio import q_to_pinocchio, to_pinocchio, v_to_pinocchio  # noqa: E402
from engine import algorithms as alg  # noqa: E402
from engine.data import Data

FRAMES = 400
REPEATS = 7


def best_per_frame(fn, frames):
    return min(timings(fn, REPEATS)) / frames * 1e6


def states(model, rng):
    Q = np.array([alg.integrate(model, alg.neutral(model), rng.normal(size=model.nv) * 0.5) for _ in range(FRAMES)])
    return Q, rng.normal(size=(FRAMES, model.nv)), rng.normal(size=(FRAMES, model.nv))


def ours(model, rng):
    data = Data(model)
    Q, V, A = states(model, rng)
    names = [m.name for m in model.markers]
    return {
        "fk": best_per_frame(lambda: alg.marker_positions_batch(model, data, Q), FRAMES),
        "jacobians": best_per_frame(lambda: alg.point_jacobians_batch(model, data, Q, names), FRAMES),
        "crba": best_per_frame(lambda: alg.crba_batch(model, data, Q), FRAMES),
        "rnea": best_per_frame(lambda: alg.rnea_batch(model, data, Q, V, A), FRAMES),
    }


def pinocchio(model, rng):
    import pinocchio as pin
    pm, _, _ = to_pinocchio(model)
    pd = pm.createData()
    Q, V, A = states(model, rng)
    Qp, Vp, Ap = q_to_pinocchio(model, pm, Q), v_to_pinocchio(model, pm, V), v_to_pinocchio(model, pm, A)
    fids = [pm.getFrameId(m.name) for m in model.markers]
    lwa = pin.ReferenceFrame.LOCAL_WORLD_ALIGNED

    def fk():
        for q in Qp:
            pin.forwardKinematics(pm, pd, q)
            pin.updateFramePlacements(pm, pd)

    def jac():
        for q in Qp:
            pin.computeJointJacobians(pm, pd, q)
            pin.updateFramePlacements(pm, pd)
            for f in fids:
                pin.getFrameJacobian(pm, pd, f, lwa)

    def crba():
        for q in Qp:
            pin.crba(pm, pd, q)

    def rnea():
        for q, v, a in zip(Qp, Vp, Ap):
            pin.rnea(pm, pd, q, v, a)

    return {"fk": best_per_frame(fk, FRAMES), "jacobians": best_per_frame(jac, FRAMES),
            "crba": best_per_frame(crba, FRAMES), "rnea": best_per_frame(rnea, FRAMES)}


def cold_compile_seconds() -> float:
    """Time to import and run every benchmarked kernel once with an empty numba cache."""
    code = ("import time, numpy as np; t=time.perf_counter();"
            "from benchmarks.fullbody import build; from engine import algorithms as alg;"
            "m=build(True); d=Data(m); Q=np.tile(alg.neutral(m),(2,1)); V=np.zeros((2,m.nv));"
            "alg.marker_positions_batch(m,d,Q); alg.point_jacobians_batch(m,d,Q,[k.name for k in m.markers]);"
            "alg.crba_batch(m,d,Q); alg.rnea_batch(m,d,Q,V,V); print(time.perf_counter()-t)")
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=str(ROOT))
        out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True,
                             check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main():
    rng = np.random.default_rng(7)
    compile_s = cold_compile_seconds()
    a_model, b_model = build(True), build(False)
    a = ours(a_model, rng)
    b = ours(b_model, rng)
    p = pinocchio(b_model, rng)
    print(f"numba compile on a cold cache: {compile_s:.1f} s")
    print(f"(a) {a_model.name}: nv={a_model.nv}, {len(a_model.markers)} markers; "
          f"(b) {b_model.name}: nv={b_model.nv}, {len(b_model.markers)} markers; {FRAMES} frames")
    print(f"{'microseconds per frame':24s} {'(a) ours':>10s} {'(b) ours':>10s} {'(b) pin':>10s} {'ratio b/pin':>12s}")
    for key in ("fk", "jacobians", "crba", "rnea"):
        print(f"{key:24s} {a[key]:10.2f} {b[key]:10.2f} {p[key]:10.2f} {b[key] / p[key]:12.2f}")
    print(f"RESULT rnea_ratio={b['rnea'] / p['rnea']:.3f} crba_ratio={b['crba'] / p['crba']:.3f} "
          f"jacobians_ratio={b['jacobians'] / p['jacobians']:.3f}")


if __name__ == "__main__":
    main()
