"""check_bundle.py's probe of Dask's dashboard (run by the bundle's Python there) run by this Python: it fetches the
list of plots hybrid batch asks for, finds the status page's scripts and style sheets, bokeh's and distributed's files,
and fetches each, so that the bundle's check fails on a missing one rather than passing on a page it did not read."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import bokeh

PACKAGING = Path(__file__).resolve().parents[2] / "packaging"


def test_the_dashboard_probe_fetches_the_plot_list_bokehs_scripts_and_distributeds_files(monkeypatch):
    monkeypatch.syspath_prepend(str(PACKAGING))
    from check_bundle import DASHBOARD_PROBE
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-P", "-c", DASHBOARD_PROBE], capture_output=True, text=True, env=env,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    served = dict(line.removeprefix("dashboard: ").rsplit(" ", 2)[:2] for line in done.stdout.splitlines())
    bokeh_js = Path(bokeh.__file__).parent / "server" / "static" / "js" / "bokeh.min.js"
    assert int(served["static/js/bokeh.min.js"]) == bokeh_js.stat().st_size
    assert any(name.startswith("statics/css/") for name in served)
    assert "individual-plots.json" in served and any(name.startswith("statics/individual-") for name in served)
