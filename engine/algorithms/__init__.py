"""Algorithms as free functions of ``(model, data, q, v, a)``, named as in Pinocchio."""
from .batch import (crba_batch, frame_jacobians_batch, frame_placements_batch, frame_positions_batch,
                    joint_wrenches_batch, marker_positions_batch, point_jacobians_batch, rnea_batch)
from .dynamics import coriolis_matrix, crba, external_wrenches, forward_dynamics, generalized_gravity, nle, rnea, rod_forces
from .energy import (center_of_mass, elastic_energy, kinetic_energy, potential_energy, rod_stiffness,
                     spatial_momentum)
from .integration import difference, integrate, neutral, normalize, simulate
from .statics import StaticResult, static_equilibrium
from .jacobians import (frame_classical_acceleration, frame_classical_accelerations, frame_jacobian, marker_jacobians,
                        point_jacobians)
from .kinematics import (body_placements, forward_kinematics, frame_id, frame_placement, frame_positions,
                         marker_positions, rod_frames)

__all__ = [
    "forward_kinematics", "frame_id", "frame_placement", "frame_positions", "body_placements", "marker_positions",
    "rod_frames", "frame_jacobian", "point_jacobians", "marker_jacobians", "frame_classical_acceleration",
    "frame_classical_accelerations",
    "rnea", "nle", "generalized_gravity", "crba", "forward_dynamics", "rod_forces", "coriolis_matrix",
    "external_wrenches", "kinetic_energy", "potential_energy", "elastic_energy", "rod_stiffness", "center_of_mass", "spatial_momentum",
    "crba_batch", "rnea_batch", "joint_wrenches_batch", "frame_jacobians_batch", "frame_placements_batch", "frame_positions_batch", "marker_positions_batch", "point_jacobians_batch",
    "neutral", "integrate", "difference", "normalize", "simulate", "static_equilibrium", "StaticResult",
]
