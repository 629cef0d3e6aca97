"""The socket model's default values (``skin.socket``) with their sources, in a module of their own without numerics so
that the command-line options (``skin.liner_options``, built for every ``hybrid`` command) and the application's
dialogs take them from here rather than repeat them."""

LINER_THICKNESS = 0.006      # m, a common silicone liner (3-9 mm)
LINER_MODULUS = 0.4e6        # Pa, silicone liner compressive modulus (Sanders et al. 2004, J Rehabil Res Dev 41(2):
                             # 0.1-1 MPa at the stresses measured on transtibial amputees)
TISSUE_MODULUS = 100e3       # Pa, the residual limb's soft tissue's effective Young's modulus where ``tissue`` > 0:
                             # assumed, of the order of in vivo indentation moduli of limb soft tissue, not measured on
                             # a residual limb. Checked: Zheng and Mak 1999 (J Biomech Eng 121(3):330-339; four lower
                             # limb sites of eight normal young subjects in three postures) fit an initial modulus of
                             # 0.22-58.4 kPa and a nonlinear factor of 21.7-547 kPa: the tissue stiffens as it is
                             # compressed. Not checked: 53-141 kPa over below-knee residual limbs (attributed to Mak,
                             # Liu and Lee 1994, J Rehabil Res Dev 31(3):188-198); docs/socket-pressure.md
LINER_FRICTION = 0.61        # silicone on skin in vivo, 0.61 +- 0.21 (Zhang and Mak 1999, Prosthet Orthot Int 23(2):
                             # 135-141: the highest of five prosthetic materials on ten subjects' dry skin)
THRESHOLD = 100e3            # Pa, regions above this pressure are listed (pain thresholds ~ 100-200 kPa)
