"""The kinds of object a results or session file may hold, under stable type tags.

A stored object is written as ``{type: TAG, fields: {...}}``. The tag names the kind of object, not where its
class lives, so classes can move between modules without breaking saved files, and a file can only ever rebuild
the classes listed here (a crafted file cannot choose what gets imported). Add a class here, with a new tag,
to make it storable; never reuse or rename a tag (map an old tag to the class that replaces it instead).

Files of format version 1 named classes by module path (``engine.analysis.ik:IKResult``): ``LEGACY_V1`` maps
each path that version wrote to its tag.
"""
from __future__ import annotations

from ..analysis.derivatives import Motion
from ..analysis.ik import CoordinateTrack, IKResult, IKSettings
from ..analysis.inverse_dynamics import IDResult
from ..analysis.joint_reactions import JointReactions
from ..analysis.metrics import MarkerMetric, PlateMetric
from ..analysis.pipeline import AnalysisResult, AnalysisSettings
from ..progress import Progress
from ..analysis.qp_id import GroupForces, QPResult, QPSettings
from ..muscles.emg.processing import EMGProcessing
from ..muscles.emg.comparison import ForceComparison
from ..muscles.pipeline import MuscleOutputs, MusclePipelineSettings
from ..muscles.forces.reserves import Actuator, ReserveActuators
from ..muscles.forces.results import MuscleForceResult
from ..muscles.forces.static_optimization import MuscleForceSettings
from ..trial.forceplate import ForcePlate
from ..trial.trial import AnalogChannel, Event, Markers, Trial

TYPES: dict[str, type] = {
    "AnalysisResult": AnalysisResult, "AnalysisSettings": AnalysisSettings,
    "IKResult": IKResult, "IKSettings": IKSettings, "Motion": Motion, "IDResult": IDResult,
    "QPResult": QPResult, "QPSettings": QPSettings, "GroupForces": GroupForces,
    "PlateMetric": PlateMetric, "MarkerMetric": MarkerMetric, "Progress": Progress,
    "MuscleOutputs": MuscleOutputs, "MusclePipelineSettings": MusclePipelineSettings,
    "MuscleForceSettings": MuscleForceSettings, "MuscleForceResult": MuscleForceResult,
    "ReserveActuators": ReserveActuators, "Actuator": Actuator,
    "EMGProcessing": EMGProcessing, "ForceComparison": ForceComparison,
    "Trial": Trial, "Markers": Markers, "AnalogChannel": AnalogChannel, "Event": Event, "ForcePlate": ForcePlate,
    "JointReactions": JointReactions, "CoordinateTrack": CoordinateTrack,
}

TAGS: dict[type, str] = {cls: tag for tag, cls in TYPES.items()}

LEGACY_V1: dict[str, str] = {
    "engine.analysis.pipeline:AnalysisResult": "AnalysisResult",
    "engine.analysis.pipeline:AnalysisSettings": "AnalysisSettings",
    "engine.analysis.ik:IKResult": "IKResult", "engine.analysis.ik:IKSettings": "IKSettings",
    "engine.analysis.derivatives:Motion": "Motion",
    "engine.analysis.inverse_dynamics:IDResult": "IDResult",
    "engine.analysis.qp_id:QPResult": "QPResult", "engine.analysis.qp_id:QPSettings": "QPSettings",
    "engine.analysis.qp_id:GroupForces": "GroupForces",
    "engine.analysis.metrics:PlateMetric": "PlateMetric", "engine.analysis.metrics:MarkerMetric": "MarkerMetric",
    "engine.analysis.progress:Progress": "Progress",
    "engine.muscles.pipeline:MuscleOutputs": "MuscleOutputs",
    "engine.muscles.pipeline:MusclePipelineSettings": "MusclePipelineSettings",
    "engine.muscles.static_optimization:MuscleForceSettings": "MuscleForceSettings",
    "engine.muscles.results:MuscleForceResult": "MuscleForceResult",
    "engine.muscles.reserves:ReserveActuators": "ReserveActuators", "engine.muscles.reserves:Actuator": "Actuator",
    "engine.muscles.emg:EMGProcessing": "EMGProcessing",
    "engine.muscles.emg_comparison:ForceComparison": "ForceComparison",
    "engine.trial.trial:Trial": "Trial", "engine.trial.trial:Markers": "Markers",
    "engine.trial.trial:AnalogChannel": "AnalogChannel", "engine.trial.trial:Event": "Event",
    "engine.trial.forceplate:ForcePlate": "ForcePlate",
}
