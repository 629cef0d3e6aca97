"""How ``curves.csv`` was made: OpenSim 4.6's Millard 2012 curves with their default properties, evaluated by
OpenSim (run once, not by the tests; ``python make_curves.py`` with ``opensim==4.6`` installed).

Columns: curve (active, force-velocity, passive, tendon), x (normalised fibre length, normalised fibre velocity,
normalised fibre length, normalised tendon length), y (``calcValue``) and dydx (``calcDerivative(x, 1)``).
"""
from pathlib import Path

import numpy as np
import opensim as osim

CURVES = {
    "active": (osim.ActiveForceLengthCurve(), np.linspace(0.3, 2.0, 69)),
    "force-velocity": (osim.ForceVelocityCurve(), np.linspace(-1.1, 1.1, 45)),
    "passive": (osim.FiberForceLengthCurve(), np.linspace(0.9, 1.9, 41)),
    "tendon": (osim.TendonForceLengthCurve(), np.linspace(0.99, 1.08, 37)),
}


def main():
    rows = ["curve,x,y,dydx"]
    for name, (curve, xs) in CURVES.items():
        for x in xs:
            rows.append(f"{name},{float(x)!r},{curve.calcValue(float(x))!r},{curve.calcDerivative(float(x), 1)!r}")
    (Path(__file__).resolve().parent / "curves.csv").write_text("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
