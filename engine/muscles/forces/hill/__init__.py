"""Hill-type muscle models: Thelen 2003 and Millard 2012 curves, pennation, rigid-tendon force bounds."""
from .bezier import SmoothSegmentedFunction
from .millard import (active_force_length_curve, fiber_force_length_curve, force_velocity_curve,
                      tendon_force_length_curve)
from .rigid_tendon import HillMuscles, RigidTendonForces

__all__ = ["HillMuscles", "RigidTendonForces", "SmoothSegmentedFunction", "active_force_length_curve",
           "force_velocity_curve", "fiber_force_length_curve", "tendon_force_length_curve"]
