"""The socket's liner as options, one definition for every place that chooses it: the command-line arguments of
``hybrid socket-pressure`` and ``hybrid report`` (the report's by the entry point ``hybridlab.report_options``, since
the engine never imports skin), and the checks of the keyword arguments they become, which the report's socket section
takes (``engine.io.report_sections``) and a session keeps (``Session.report``, the application's View > Socket liner).

The keyword arguments are ``skin.socket.Socket``'s, in SI units: the liner's ``thickness`` (m) and ``modulus`` (Pa),
its Coulomb ``friction`` on the skin (None: bonded to it), the soft tissue's ``tissue`` thickness (m, 0: none) and
``tissue_modulus`` (Pa), the ``fit`` pressure (Pa, 0: moulded on the unloaded stump). Light on purpose: every ``hybrid``
command's parser is built with it."""
from __future__ import annotations

import argparse
import math

from engine.errors import HybridLabError, SettingsError

from .socket_defaults import LINER_FRICTION, LINER_MODULUS, LINER_THICKNESS, TISSUE_MODULUS

SECTION = "socket-pressure"
"""The report's socket section's entry point name (``hybridlab.report_sections``), under which the report's options
and a session hold the liner's."""

# option -> (its command-line flag, the flag's unit over SI, whether it must be positive (else non-negative), its
# default (SI), its largest value (SI))
OPTIONS = {"thickness": ("--liner", 1e-3, True, LINER_THICKNESS, math.inf),
           "modulus": ("--modulus", 1e6, True, LINER_MODULUS, math.inf),
           "friction": ("--friction", 1.0, False, None, 10.0),
           "tissue": ("--tissue", 1e-3, False, 0.0, 0.2),
           "tissue_modulus": ("--tissue-modulus", 1e3, True, TISSUE_MODULUS, 10e6),
           "fit": ("--fit", 1e3, False, 0.0, 1e6)}
"""The liner's keyword arguments: their flag, the factor from the flag's unit (mm, MPa, kPa) to SI, whether the
value must be positive (True) or may be zero (False), the default (``skin.socket_defaults``; ``friction`` None: the
liner bonded to the skin) and the largest value accepted (a Coulomb coefficient of 10, 20 cm of tissue, 10 MPa, 1 MPa
of fit: far beyond any liner's or limb's, so a slip of the keyboard), in SI; each must be finite, ``friction`` may be
None. The command line, the session's check and the application's dialogs take their limits from here."""


def add_arguments(parser, defaults: bool = True) -> None:
    """The liner's arguments on ``parser`` (an argparse parser or group); ``defaults`` False: an argument not given is
    left out of the namespace (``hybrid report``: the session's own liner then applies)."""
    kept = {} if defaults else {"default": argparse.SUPPRESS}

    def add(name, type=float, **kw):
        flag, unit, _, default, _ = OPTIONS[name]
        parser.add_argument(flag, type=type, **({"default": default if default is None else default / unit} | kept),
                            **kw)

    def shown(name):
        return f"{OPTIONS[name][3] / OPTIONS[name][1]:g}"

    add("thickness", metavar="MM", help=f"liner thickness, mm (default {shown('thickness')})")
    add("modulus", metavar="MPA", help=f"liner modulus, MPa (default {shown('modulus')})")
    add("friction", type=friction, metavar="MU",
        help=f"the liner slips on the skin with this Coulomb coefficient (silicone on skin: {LINER_FRICTION:g}, Zhang "
             "and Mak 1999); 'none' or default: the liner is bonded to the skin")
    add("tissue", metavar="MM", help="soft tissue under the liner, in series with it, this thick (mm; e.g. 20); "
                                     "default 0: the limb rigid under the liner")
    add("tissue_modulus", metavar="KPA",
        help=f"the soft tissue's Young's modulus, kPa (default {shown('tissue_modulus')}: assumed, of the order of in "
             "vivo indentation moduli of limb soft tissue; docs/socket-pressure.md)")
    add("fit", metavar="KPA",
        help="pre-compression: the socket rectified smaller than the limb so that it presses the stump with this "
             "nominal fit pressure at zero load (kPa; not measured: tens of kPa assumed); default 0: moulded on the "
             "unloaded stump")


def friction(text: str) -> float | None:
    """``--friction``'s value: a number, or None for ``none`` (the liner bonded to the skin, in place of a session's
    slipping liner)."""
    return None if text.strip().lower() == "none" else float(text)


def options(args) -> dict:
    """The liner's keyword arguments (SI) of the parsed ``args`` (those given, when :func:`add_arguments` left the
    others out); SettingsError naming the flag of a value out of range."""
    given = {name: getattr(args, flag[2:].replace("-", "_")) for name, (flag, *_) in OPTIONS.items()
             if hasattr(args, flag[2:].replace("-", "_"))}
    for name, value in given.items():
        flag, unit, positive, _, largest = OPTIONS[name]
        if value is not None and not _valid(value, positive):
            raise SettingsError(f"{flag} must be {'positive' if positive else 'finite and non-negative'}, got {value}")
        if value is not None and value * unit > largest:
            raise SettingsError(f"{flag} must be at most {largest / unit:g}, got {value}")
    return {name: None if value is None else value * OPTIONS[name][1] for name, value in given.items()}


def checked(values, element: str, file=None, error: type[HybridLabError] = SettingsError) -> dict:
    """``values`` (a dict of the liner's keyword arguments, SI, as a session or the report's options hold them) when
    each is known and in range; else ``error`` naming ``file``, ``element`` and the option: an unknown name, a value
    that is not a number (``friction`` may be None), or one out of range."""
    if not isinstance(values, dict):
        raise error(f"the socket liner's options must be a table of option names and values, got {values!r}", element,
                    file)
    for name, value in values.items():
        if name not in OPTIONS:
            raise error(f"the socket liner has no option {name!r} (its options: {', '.join(OPTIONS)})", element, file)
        _, _, positive, _, largest = OPTIONS[name]
        if value is None and name == "friction":
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not _valid(value, positive):
            what = "a positive number" if positive else "a finite non-negative number"
            raise error(f"the socket liner's {name} must be {what}{' or none' if name == 'friction' else ''}, got "
                        f"{value!r}", element, file)
        if value > largest:
            raise error(f"the socket liner's {name} must be at most {largest:g}, got {value!r}", element, file)
    return {name: None if value is None else float(value) for name, value in values.items()}


def _valid(value: float, positive: bool) -> bool:
    return math.isfinite(value) and (value > 0 if positive else value >= 0)
