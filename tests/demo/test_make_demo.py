"""``hybrid make-demo`` regenerates the shipped demo: the same model, trial and truth to 1e-9 relative."""
import numpy as np

from engine.analysis.progress import run
from engine.demo import demo_files
from engine.demo.generate import make_demo
from engine.demo.truth import load_truth
from engine.io.c3d import read_c3d
from engine.io.model_file import load_model


def close(a, b):
    scale = max(1.0, float(np.nanmax(np.abs(b))))
    return np.allclose(a, b, rtol=1e-9, atol=1e-9 * scale, equal_nan=True)


def test_make_demo_reproduces_the_shipped_files(tmp_path):
    files = run(make_demo(tmp_path, analyse=False))
    shipped = demo_files()
    assert load_model(files.model) == load_model(shipped.model)
    new, old = load_truth(files.truth), load_truth(shipped.truth)
    for name in ("time", "q", "v", "a", "tau", "tau_rod", "contact_forces", "muscle_forces", "activations",
                 "excitations"):
        assert close(getattr(new, name), getattr(old, name)), name
    a, b = read_c3d(files.trial), read_c3d(shipped.trial)
    assert close(a.markers.positions, b.markers.positions)
    for p, q in zip(a.plates, b.plates):
        assert close(p.force, q.force) and close(p.moment, q.moment)
    for c, d in zip(a.emg, b.emg):
        assert c.name == d.name and close(c.data, d.data)
