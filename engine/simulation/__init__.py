"""Forward simulation of a model on the ground: penalty contact with regularised Coulomb friction
(seed 002, eqs. 6-7) and a linearly implicit integrator that stays stable with stiff rods and contacts."""
from .ground_contact import GroundContact
from .simulator import JointSpring, Simulator, StepResult

__all__ = ["GroundContact", "JointSpring", "Simulator", "StepResult"]
