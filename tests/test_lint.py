"""The code has no unused imports or variables, undefined names or syntax errors (ruff's pyflakes rules)."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_pyflakes_rules_pass():
    out = subprocess.run([sys.executable, "-m", "ruff", "check", "engine", "hip_mechanism", "hybridgui", "tests", "benchmarks",
                          "--output-format", "concise"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
