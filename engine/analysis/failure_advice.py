"""What to change when an analysis stopped on a failure that is not already a sentence about a setting: the
setting to look at, in a clinician's words (the application shows it under the error, the command line prints it).

Errors of HybridLab's own types already name the file, the element and the problem; a numerical failure (a matrix
that cannot be factorised, a solver that finds no answer) says nothing a clinician can act on, so it is matched
here to the step it happened in (the last ``Progress.stage`` reported) and the settings that usually cause it.
"""
from __future__ import annotations

import numpy as np

from ..errors import HybridLabError

_NUMERICAL = (np.linalg.LinAlgError, ValueError, ArithmeticError)


def failure_advice(exc: BaseException, stage: str | None, settings) -> str | None:
    """A sentence or two saying which setting to change after the analysis stopped on ``exc`` in ``stage``
    (with ``settings``, an AnalysisSettings); None when ``exc`` already says it or nothing can be advised."""
    if isinstance(exc, HybridLabError) or not isinstance(exc, _NUMERICAL):
        return None
    stage = stage or ""
    if "kinematics" in stage or stage in ("", "preparing"):
        axes = getattr(settings, "axes", None)
        where = (f"The lab axes are set to '{axes}': clear them (the Lab axes field; --axes on the command line) so "
                 "that they are proposed from this trial, or give the axes this lab uses." if axes else
                 "The lab axes were proposed from the trial: if the markers lie tilted or upside down in the 3D "
                 "view, give the axes this lab uses (the Lab axes field, or --axes; e.g. 'Y-up, X-forward').")
        return ("The model could not be fitted to the markers. This usually means the trial is turned the wrong way "
                "for the model. " + where + " Also check that the model's markers carry the trial's marker names.")
    if "ground" in stage or "QP" in stage or "dynamics" in stage:
        return ("The ground reactions could not be estimated from the motion. Check the lab axes first (the feet "
                "must be on the floor in the 3D view), then the Height and Speed thresholds (a contact point must "
                "come below the height and slower than the speed to carry load), or turn Estimate ground reactions "
                "off to use the force plates alone.")
    if "muscle" in stage:
        return ("The muscle forces could not be found for these joint torques. Turn Hill-model force bounds off, or "
                "lower the EMG reference weight, or run without Estimate muscle forces.")
    return (f"The analysis stopped in the step '{stage}'. Check the lab axes and the filter cut-off first (the "
            "markers should stand upright in the 3D view and move smoothly), then run again.")
