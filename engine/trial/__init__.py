"""Motion-capture trials: markers, analog and EMG channels, force plates and events (SI units).

Readers live in :mod:`engine.io` (``read_c3d``, ``read_trc``, ``load_grf``); the
modules here hold the data and what is done to it: axes, gaps, filtering and the
summary shown to the user.
"""
from .axes import propose_rotation, rotation_from_axes, to_model_axes
from .filtering import lowpass, lowpass_markers, lowpass_plates, resample, resample_trial
from .forceplate import DEFAULT_THRESHOLD, ForcePlate, centre_of_pressure
from .gaps import fill_gaps, gap_report
from .summary import describe_trial
from .trial import AnalogChannel, Event, Markers, Trial

__all__ = ["Trial", "Markers", "AnalogChannel", "Event", "ForcePlate", "DEFAULT_THRESHOLD", "centre_of_pressure",
           "rotation_from_axes", "propose_rotation", "to_model_axes", "gap_report", "fill_gaps", "lowpass",
           "lowpass_markers", "lowpass_plates", "resample", "resample_trial", "describe_trial"]
