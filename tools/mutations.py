"""Mutation check: do the tests fail when the physics is wrong?

Each entry of :data:`MUTATIONS` is a physically meaningful fault (a sign, a factor, an order, a frame) in the
engine, with the tests that compare the quantity it spoils with an independent reference (closed forms, OpenSim's
outputs, Pinocchio, published figures), never with golden files. The check copies the working tree once to a
scratch folder (numba's caches included, their timestamps kept, so unmutated kernels are not compiled again),
runs the listed tests unmutated (they must pass), then applies each mutation alone, runs its tests and restores
the file. A mutation is *killed* when its tests fail, *survived* when they pass.

Run on demand, not in the test suite (about 15 minutes on a 2-core machine)::

    python tools/mutations.py              # every mutation
    python tools/mutations.py cone EMG     # the mutations whose name contains one of these words
    python tools/mutations.py --list

It prints a table and ends with ``RESULT killed=K survived=S errors=E``. A mutation whose text is no longer in
its file is an error (the entry must follow the code). Mutations of numba kernels that other kernels call
(``kernel=True``) run with an empty numba cache, since numba does not recompile a caller when a callee's file
changes.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Mutation:
    """``old`` replaced by ``new`` (each must occur once) in ``path`` (relative to the repository)."""

    name: str
    path: str
    old: str
    new: str
    tests: tuple
    kernel: bool = False


MUTATIONS = (
    Mutation("friction pyramid circumscribed (mu_eff = mu)", "engine/analysis/qp_id.py",
             "mu_eff = mu * np.cos(np.pi / facets)", "mu_eff = mu",
             ("tests/analysis/test_friction_cone.py",)),
    Mutation("friction cone four times too narrow", "engine/analysis/qp_id.py",
             "mu_eff = mu * np.cos(np.pi / facets)", "mu_eff = mu * np.cos(np.pi / facets) / 4",
             ("tests/analysis/test_friction_cone.py",)),
    Mutation("QP friction pyramid built about the floor's downward normal (frame)", "engine/analysis/qp_id.py",
             "pyramid = _pyramid(s.friction, s.facets, up, t1, t2)",
             "pyramid = _pyramid(s.friction, s.facets, -up, t1, t2)",
             ("tests/analysis/test_friction_cone.py",)),
    Mutation("EMG envelope order halved", "engine/muscles/emg/processing.py",
             "sos = butter(settings.envelope_order, settings.envelope_cutoff,",
             "sos = butter(max(1, settings.envelope_order // 2), settings.envelope_cutoff,",
             ("tests/muscles/test_emg_envelope_response.py",)),
    Mutation("EMG envelope filtered forwards only (lag)", "engine/muscles/emg/processing.py",
             "env = _filtfilt(sos, x, signals)",
             "env = __import__('scipy.signal', fromlist=['sosfilt']).sosfilt(sos, x, axis=0)",
             ("tests/muscles/test_emg_envelope_response.py",)),
    Mutation("passive fibre force's sign flipped in static optimisation", "engine/muscles/forces/static_optimization.py",
             "b = tau[t] + (J_l[t].T @ passive[t] if with_passive else 0.0)",
             "b = tau[t] - (J_l[t].T @ passive[t] if with_passive else 0.0)",
             ("tests/muscles/test_static_opt_gait2354.py",)),
    Mutation("Thelen passive force-length: strain at F_max doubled", "engine/muscles/forces/hill/thelen.py",
             "np.expm1(KshapePassive * stretched / FmaxMuscleStrain)",
             "np.expm1(KshapePassive * stretched / (2 * FmaxMuscleStrain))",
             ("tests/muscles/test_static_opt_gait2354.py",)),
    Mutation("muscles' generalized forces +J_l^T f in static optimisation (moment-arm sign)",
             "engine/muscles/forces/static_optimization.py",
             "A = np.concatenate([-J_l[t].T * active[t], R[t] * opt], axis=1)[rows]",
             "A = np.concatenate([J_l[t].T * active[t], R[t] * opt], axis=1)[rows]",
             ("tests/muscles/test_static_opt_gait2354.py",)),
    Mutation("moment arm's sign (r = +J_l)", "engine/muscles/path/geometry.py",
             "return -self.J_l", "return self.J_l",
             ("tests/muscles/test_paths_opensim.py",)),
    Mutation("demo torque score halved", "engine/demo/truth.py",
             "scored[c] = 100.0 * float(", "scored[c] = 50.0 * float(",
             ("tests/demo/test_truth_scores.py",)),
    Mutation("kinetic energy doubled (v^T M v)", "engine/algorithms/energy.py",
             "return float(0.5 * v @ crba(model, data, q) @ v)", "return float(v @ crba(model, data, q) @ v)",
             ("tests/demo/test_truth_balances.py",)),
    Mutation("gravity sign", "engine/tree.py",
             "gravity=np.array(self.model.gravity, float)", "gravity=-np.array(self.model.gravity, float)",
             ("tests/engine/test_rigid_vs_pinocchio.py", "tests/analysis/test_friction_cone.py")),
    Mutation("coordinate filter's order halved", "engine/trial/filtering.py",
             'sos = butter(int(order), cutoff, btype="low", fs=rate, output="sos")',
             'sos = butter(max(1, int(order) // 2), cutoff, btype="low", fs=rate, output="sos")',
             ("tests/trial/test_filtering.py",)),
    Mutation("simulator's friction coefficient halved", "engine/simulation/ground_contact.py",
             "k, c, delta, mu, eps, floor = par[0], par[1], par[2], par[3], par[4], par[5]",
             "k, c, delta, mu, eps, floor = par[0], par[1], par[2], 0.5 * par[3], par[4], par[5]",
             ("tests/simulation/test_sliding_box.py",), kernel=True),
)


def scratch_copy(dest: Path) -> Path:
    """The working tree (without .git and the virtual environment) copied to ``dest``, timestamps kept."""
    shutil.copytree(ROOT, dest, symlinks=True,
                    ignore=shutil.ignore_patterns(".git", ".venv", ".ruff_cache", ".pytest_cache", "*.egg-info"))
    return dest


def run_tests(tree: Path, tests, numba_cache: Path | None = None) -> tuple[int, str]:
    """pytest's exit code and what it said (the first failed test, else its last line), for ``tests`` run in
    ``tree`` (its ``engine`` imported first)."""
    env = dict(os.environ, PYTHONPATH=str(tree), QT_QPA_PLATFORM="offscreen")
    if numba_cache is not None:
        env["NUMBA_CACHE_DIR"] = str(numba_cache)
    out = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests],
                         cwd=tree, env=env, capture_output=True, text=True)
    lines = [line for line in out.stdout.splitlines() if line.strip()]
    failed = [line.split(" - ")[0].removeprefix("FAILED ") for line in lines if line.startswith("FAILED ")]
    return out.returncode, failed[0] if failed else lines[-1] if lines else out.stderr.strip()[-200:]


def check_imports(tree: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([sys.executable, "-c", "import engine; print(engine.__file__)"], cwd=tree, env=env,
                         capture_output=True, text=True, check=True)
    if not Path(out.stdout.strip()).is_relative_to(tree):
        raise SystemExit(f"the scratch copy's engine is not the one imported ({out.stdout.strip()})")


def apply(tree: Path, m: Mutation) -> tuple[Path, str, os.stat_result]:
    path = tree / m.path
    text = path.read_text()
    if text.count(m.old) != 1:
        raise ValueError(f"{m.path}: the text to mutate occurs {text.count(m.old)} times (expected once)")
    stat = path.stat()
    path.write_text(text.replace(m.old, m.new))
    return path, text, stat


def restore(path: Path, text: str, stat: os.stat_result) -> None:
    path.write_text(text)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("words", nargs="*", help="run only mutations whose name contains one of these words")
    parser.add_argument("--list", action="store_true", help="list the mutations and their tests")
    args = parser.parse_args(argv)
    chosen = [m for m in MUTATIONS if not args.words or any(w.lower() in m.name.lower() for w in args.words)]
    if args.list:
        for m in chosen:
            print(f"{m.name}: {m.path} -> {', '.join(m.tests)}")
        return 0
    with tempfile.TemporaryDirectory(prefix="hybridlab-mutations-") as tmp:
        tree = scratch_copy(Path(tmp) / "tree")
        check_imports(tree)
        baseline = sorted({t for m in chosen for t in m.tests})
        code, last = run_tests(tree, baseline)
        print(f"baseline ({len(baseline)} test files, unmutated): {last}", flush=True)
        if code != 0:
            print("RESULT killed=0 survived=0 errors=1 (the unmutated tests fail)")
            return 1
        rows = []
        for m in chosen:
            t0 = time.perf_counter()
            try:
                path, text, stat = apply(tree, m)
            except ValueError as exc:
                rows.append((m, "error", str(exc), 0.0))
                continue
            try:
                cache = Path(tmp) / "numba-cold" if m.kernel else None
                if cache is not None:
                    shutil.rmtree(cache, ignore_errors=True)
                code, last = run_tests(tree, m.tests, cache)
            finally:
                restore(path, text, stat)
            outcome = {0: "survived", 1: "killed"}.get(code, "error")
            rows.append((m, outcome, last, time.perf_counter() - t0))
            print(f"  {outcome:8s} {m.name} ({time.perf_counter() - t0:.0f} s): {last}", flush=True)
    width = max(len(m.name) for m, *_ in rows)
    print()
    print(f"{'mutation':{width}s}  {'result':8s}  {'s':>4s}  first failed test (or pytest's last line)")
    for m, outcome, said, seconds in rows:
        print(f"{m.name:{width}s}  {outcome:8s}  {seconds:4.0f}  {said}")
    counts = {k: sum(1 for _, o, *_ in rows if o == k) for k in ("killed", "survived", "error")}
    print(f"RESULT killed={counts['killed']} survived={counts['survived']} errors={counts['error']}")
    return 0 if counts["survived"] == counts["error"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
