"""C3D files (Vicon, Qualisys, Codamotion, Motion Analysis, BTS ...) read through ezc3d.

``read_c3d(path)`` returns a :class:`~engine.trial.trial.Trial` in SI units:

* markers in metres (POINT:UNITS mm / cm / m converted; when the unit is missing or
  unknown it is inferred from the size of the marker set and the guess recorded);
  samples whose residual is negative, or that are not finite, are missing (NaN);
  model outputs that are not markers (POINT:ANGLES, FORCES, MOMENTS, POWERS,
  SCALARS, REACTIONS) are left out and listed;
* analog channels at their own rate and time base, with ANALOG:SCALE, OFFSET and
  GEN_SCALE applied by ezc3d, converted to SI where the unit is recognised;
* force platforms of types 1, 2, 3 and 4 converted to the ground reaction acting on
  the subject (not the force on the plate), its moment about the lab origin, centre
  of pressure and free moment in the lab frame (see :func:`_plate`); COP and free
  moment are NaN below ``threshold`` newtons;
* EMG channels recognised by name or description (or named by the caller);
* events from the EVENT group (or, without it, the header events); SUBJECT metadata.

Force platforms: ezc3d's own module (``ezc3d.c3d(path, extract_forceplat_data=True)``)
was checked against the sample files and its source. Its type-2 and type-4 force and
moment at the plate centre equal ours to 1e-13 (the tests compare them), but it negates
the Kistler sensor offsets a and b together with a positive az0 (Sample26: its COP lies
15 cm from the foot), computes type-1 moments with the wrong sign (F x COP - Tz),
assumes moment channels are in N x POINT:UNITS whatever ANALOG:UNITS says, has no
COP threshold, baseline or sign check, and stops at the first plate type it does not
support. The conversion is therefore one vectorised path for the four types here,
with ezc3d's module kept as an independent reference in the tests.

Robustness: ezc3d is C++ and can crash the process (segmentation fault) or try to
allocate tens of gigabytes on corrupt input; both were observed with byte-mutated
copies of the sample files. The file is therefore parsed by ezc3d in a child
process with a memory limit (Linux) and a time limit: a crash, a timeout or an
exhausted memory budget becomes a :class:`~engine.errors.DataError`, and the
calling process (the GUI, the test run) is never taken down. The child is a plain
``python -c`` process running :func:`_extract`, which imports only ezc3d (about
0.15 s of start-up); ``multiprocessing`` was not used because its spawn and
forkserver methods re-run the caller's main script in the child, which breaks any
analysis script without an ``if __name__ == "__main__"`` guard, and its fork method
is unsafe in a threaded GUI. Consistency checks ezc3d does not make are added: the
header's counts against the parameter section (a mismatch makes ezc3d misread every frame),
truncated data (ezc3d silently drops the missing frames), analog scale arrays, and
every force-platform parameter used.
"""
from __future__ import annotations

import functools
import inspect
import pickle
import re
import signal
import struct
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..child_process import child_environment, die_with_parent, python_command, run_child
from ..errors import DataError, SettingsError
from ..work_cpu import add_child
from .c3d_analog_rate import missing_analog_rate
from ..trial.axes import detect_length_unit, implausible_unit, length_scale
from ..trial.emg_names import is_emg_name
from ..trial.forceplate import DEFAULT_THRESHOLD, ForcePlate
from ..trial.trial import AnalogChannel, Event, Markers, Trial

BASE_MEMORY = 512 * 2 ** 20
"""Memory (bytes) the reader process may use beyond its start-up size, plus ``MEMORY_PER_BYTE`` per file byte."""
MEMORY_PER_BYTE = 64
BASE_TIMEOUT = 60.0
"""Seconds allowed to read a file, plus ``TIMEOUT_PER_MB`` per megabyte."""
TIMEOUT_PER_MB = 2.0

_PROCESSORS = {84: "Intel", 85: "DEC", 86: "MIPS"}
_MODEL_OUTPUT_GROUPS = ("ANGLES", "FORCES", "MOMENTS", "POWERS", "SCALARS", "REACTIONS")

_SI_UNITS = {"v": (1.0, "V"), "volt": (1.0, "V"), "volts": (1.0, "V"), "mv": (1e-3, "V"), "uv": (1e-6, "V"),
             "µv": (1e-6, "V"), "μv": (1e-6, "V"), "n": (1.0, "N"), "nt": (1.0, "N"), "newton": (1.0, "N"),
             "newtons": (1.0, "N"), "kn": (1e3, "N"), "nmm": (1e-3, "N m"), "ntmm": (1e-3, "N m"),
             "nm": (1.0, "N m"), "ntm": (1.0, "N m"), "mm": (1e-3, "m"), "cm": (1e-2, "m"), "m": (1.0, "m")}


# ---------------------------------------------------------------------------- child process
def _limit_memory(memory_limit: int) -> None:
    """In a reader process (Linux): its address space limited to what it has now plus ``memory_limit`` bytes (within
    the hard limit), so that a file declaring more data than that is a MemoryError, not the machine's swap.
    Self-contained: its source runs in the reader processes (:func:`_helpers_code`)."""
    import os
    import sys
    if memory_limit and sys.platform.startswith("linux"):
        import resource
        with open("/proc/self/statm") as fh:
            limit = int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE") + memory_limit
        hard = resource.getrlimit(resource.RLIMIT_AS)[1]
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _parameters_of(c) -> dict:
    """An ezc3d ``c3d``'s parameters as ``{group: {name: value}}`` (their metadata left out). Self-contained, as
    :func:`_limit_memory`."""
    return {group: {name: p["value"] for name, p in values.items() if name != "__METADATA__"}
            for group, values in c["parameters"].items()}


def _extract(path: str, memory_limit: int) -> None:
    """Body of the reader process: parse ``path`` with ezc3d and write a pickle to stdout.

    Self-contained (it runs through ``python -c`` without importing HybridLab, so the
    process starts in a fraction of a second). ezc3d's own console output is sent to
    the null device so that stdout carries only the result.
    """
    import os
    import pickle
    import time

    result_fd = os.dup(1)
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    try:
        import ezc3d
        _limit_memory(memory_limit)
        c = ezc3d.c3d(path)
        swig = c.c3d_swig
        h = swig.header()
        params = _parameters_of(c)
        result = {
            "header": {"rate": h.frameRate(), "n_points": h.nb3dPoints(), "n_analogs": h.nbAnalogs(),
                       "analog_per_frame": h.nbAnalogByFrame(), "events": list(zip(h.eventsLabel(), h.eventsTime()))},
            "parameters": params,
            "point_names": list(swig.pointNames()),
            "analog_names": list(swig.channelNames()),
            "points": c["data"]["points"][:3],
            "residuals": c["data"]["meta_points"]["residuals"][0],
            "analogs": c["data"]["analogs"][0],
            "cpu_seconds": time.process_time(),      # this process's, for engine.work_cpu
        }
        data = pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)
    except MemoryError:
        data = pickle.dumps({"error": "memory"})
    except Exception as exc:  # ezc3d raises many types (OSError, RuntimeError, ValueError ...)
        data = pickle.dumps({"error": f"{type(exc).__name__}: {exc}"})
    with os.fdopen(result_fd, "wb") as fh:
        fh.write(data)


def _extract_parameters(paths: list, memory_limit: int) -> None:
    """Body of the parameters reader process: parse each of ``paths`` with ezc3d (which reads the data too: version
    1.7 has no way to read the parameters alone) and write to stdout a pickle of a list of ``(None, {group: {name:
    value}})`` or ``(problem, None)``, one per file. Self-contained, as :func:`_extract`."""
    import os
    import pickle

    result_fd = os.dup(1)
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    import ezc3d
    _limit_memory(memory_limit)
    read = []
    for path in paths:
        try:
            c = ezc3d.c3d(path)
            read.append((None, _parameters_of(c)))
            del c
        except MemoryError:
            read.append(("memory", None))
        except Exception as exc:  # ezc3d raises many types (OSError, RuntimeError, ValueError ...)
            read.append((f"{type(exc).__name__}: {exc}", None))
    with os.fdopen(result_fd, "wb") as fh:
        fh.write(pickle.dumps(read, protocol=pickle.HIGHEST_PROTOCOL))


@functools.lru_cache(maxsize=None)
def _helpers_code() -> str:
    """The source of what both reader processes run before their own function."""
    return f"{inspect.getsource(_limit_memory)}\n{inspect.getsource(_parameters_of)}\n"


@functools.lru_cache(maxsize=None)
def _parameters_code() -> str:
    return (f"import sys\n{inspect.getsource(die_with_parent)}\ndie_with_parent()\n{_helpers_code()}"
            f"{inspect.getsource(_extract_parameters)}\n_extract_parameters(sys.argv[2:], int(sys.argv[1]))\n")


@functools.lru_cache(maxsize=None)
def _worker_code() -> str:
    return (f"import sys\n{inspect.getsource(die_with_parent)}\ndie_with_parent()\n{_helpers_code()}"
            f"{inspect.getsource(_extract)}\n_extract(sys.argv[1], int(sys.argv[2]))\n")


def _ezc3d_problem(message: str) -> str:
    if "MIPS" in message:
        return ("the file is written in the SGI/MIPS (big-endian) processor format, which ezc3d, the C3D "
                "library HybridLab uses, cannot read; convert it to the Intel (PC) format, e.g. with "
                "Motion Lab Systems' C3Deditor")
    return f"ezc3d, the C3D library HybridLab uses, cannot read the file ({message})"


def _timeout_problem(seconds: float) -> str:
    """What a reader process stopped after ``seconds`` says of its file."""
    return (f"ezc3d did not finish reading the file within {seconds:g} s; the file is probably corrupt (for a very "
            "large file allow more time: hybrid's --c3d-timeout option, or File > Preferences in the application)")


def _crash_problem(proc) -> str:
    """What a reader process that crashed (or gave nothing) says of its file."""
    code = proc.returncode
    how = f"crashed with signal {signal.Signals(-code).name}" if code < 0 else f"stopped with exit code {code}"
    detail = proc.stderr.decode(errors="replace").strip().splitlines()[-1:]
    return (f"ezc3d, the C3D library HybridLab uses, {how} while reading the file; the file is corrupt or in a form "
            "ezc3d cannot handle" + (f" ({detail[0]})" if detail else ""))


def _run_ezc3d(path: Path, timeout: float, memory_limit: int, cancel=None) -> dict:
    """Parse ``path`` with ezc3d in a child process (killed with this one, on a timeout or when ``cancel``, a
    ``threading.Event``, is set: :func:`~engine.child_process.run_child`); every failure becomes a DataError."""
    command = python_command("-c", _worker_code(), str(path), str(int(memory_limit)))
    try:
        proc = run_child(command, env=child_environment(), timeout=timeout, cancel=cancel)
    except subprocess.TimeoutExpired:
        raise DataError(_timeout_problem(timeout), file=path) from None
    if proc.returncode != 0 or not proc.stdout:
        raise DataError(_crash_problem(proc), file=path)
    try:
        result = pickle.loads(proc.stdout)
    except Exception:  # the child is ours; anything unreadable means it was interrupted
        raise DataError("the reader process returned an incomplete result", file=path) from None
    if result.get("error") == "memory" or "bad_alloc" in result.get("error", ""):
        raise DataError(f"reading the file needed more than {memory_limit / 2 ** 20:.0f} MB of memory: its header "
                        "or parameters declare far more data than a file of this size can hold (corrupt file; "
                        "pass a larger memory_limit if the file really is that large)", file=path)
    if "error" in result:
        raise DataError(_ezc3d_problem(result["error"]), file=path)
    add_child(result.pop("cpu_seconds"))
    return result


# ---------------------------------------------------------------------------- raw header
def _raw_header(path: Path) -> dict:
    """The header words ezc3d overwrites from the parameters, read as stored (for consistency checks)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(512)
            if len(head) < 512:
                raise DataError(f"the file has {len(head)} bytes, fewer than a C3D header (512)", file=path)
            if head[1] != 0x50:
                raise DataError(f"not a C3D file: the header's second byte is {head[1]}, not 80", file=path)
            if head[0] < 2:
                raise DataError(f"the header points to parameter block {head[0]}, which cannot exist",
                                element="header word 1", file=path)
            fh.seek((head[0] - 1) * 512)
            start = fh.read(4)
    except OSError as exc:
        raise DataError(f"cannot read the file ({exc.strerror or exc})", file=path) from None
    if len(start) < 4:
        raise DataError("the file ends before its parameter section", file=path)
    processor = _PROCESSORS.get(start[3])
    if processor is None:
        raise DataError(f"unknown processor type {start[3]} in the parameter section (expected 84, 85 or 86)",
                        element="parameter header", file=path)
    if processor == "MIPS":
        raise DataError(_ezc3d_problem("MIPS"), file=path)
    n_points, n_analog_values, first, last = struct.unpack("<4H", head[2:10])
    rate = head[20:24] if processor == "Intel" else head[22:24] + head[20:22]     # header words 11-12
    rate = struct.unpack("<f", rate)[0] / (1 if processor == "Intel" else 4)      # DEC: words swapped, exponent +2
    return {"processor": processor, "n_points": n_points, "n_analog_values": n_analog_values,
            "first": first, "last": last, "rate": rate, "size": path.stat().st_size}


def read_c3d_span(path) -> tuple[float, float, int | None]:
    """A C3D file's first frame's time (s, as :func:`read_c3d` gives it), point rate (Hz) and frame count, from its
    512-byte header only (:func:`read_c3d` checks them against the parameters); the count None when the header cannot
    hold it (its last frame word at 65535: more frames than 16 bits count, the parameters give them). A DataError
    when the file is not a C3D file or its header's rate is not a positive number."""
    path = Path(path)
    raw = _raw_header(path)
    rate = raw["rate"]
    if not (np.isfinite(rate) and rate > 0):
        raise DataError(f"the header's frame rate is {rate} Hz", element="header words 11-12", file=path)
    first = max(raw["first"], 1)
    frames = raw["last"] - first + 1 if raw["last"] < 65535 else None
    if frames is not None and frames < 1:
        raise DataError(f"the header's last frame {raw['last']} comes before its first {first}",
                        element="header words 4-5", file=path)
    return (first - 1) / rate, rate, frames


# ---------------------------------------------------------------------------- parameters
class _Params:
    """Typed access to the parameter section, raising DataError naming GROUP:NAME."""

    def __init__(self, params: dict, path: Path):
        self.params = params
        self.path = path

    def has(self, group, name) -> bool:
        return name in self.params.get(group, {})

    def raw(self, group, name, default=None):
        return self.params.get(group, {}).get(name, default)

    def error(self, group, name, problem) -> DataError:
        return DataError(problem, element=f"parameter {group}:{name}", file=self.path)

    def numbers(self, group, name, default=None) -> np.ndarray | None:
        value = self.raw(group, name)
        if value is None:
            return default
        if isinstance(value, list):
            raise self.error(group, name, "holds text where numbers are required")
        array = np.asarray(value, dtype=float)
        if not np.all(np.isfinite(array)):
            raise self.error(group, name, "holds values that are not finite numbers")
        return array

    def integers(self, group, name, default=None) -> np.ndarray | None:
        array = self.numbers(group, name)
        if array is None:
            return default
        if np.any(array != np.round(array)) or np.any(np.abs(array) > 2 ** 31):
            raise self.error(group, name, "holds fractional or huge values where whole numbers are required")
        return array.astype(np.int64)

    def scalar(self, group, name, default=None):
        array = self.numbers(group, name)
        if array is None or array.size == 0:
            return default
        return float(array.reshape(-1)[0])

    def texts(self, group, name) -> list[str]:
        value = self.raw(group, name)
        if value is None:
            return []
        if not isinstance(value, list):
            raise self.error(group, name, "holds numbers where text is required")
        return [str(v).strip() for v in value]


# ---------------------------------------------------------------------------- units
def _unit_key(unit: str) -> str:
    return re.sub(r"[\s.*·\-]", "", unit.strip().lower())


def _si(unit: str) -> tuple[float, str] | None:
    """(factor to SI, SI unit) for a recognised analog unit string, else None."""
    return _SI_UNITS.get(_unit_key(unit))


class _ChannelUnits:
    """Scale factors of one plate's channels to N, N m or m, remembering the units it had to assume."""

    _WANTED = {"force": "N", "moment": "N m", "length": "m"}
    _ASSUMED = {"force": "N", "moment": "N x POINT:UNITS", "length": "POINT:UNITS"}

    def __init__(self, units, names, length):
        self.units, self.names, self.length = units, names, length
        self.assumed = {}

    def scale(self, k: int, kind: str) -> float:
        si = _si(self.units[k])
        if si is not None and si[1] == self._WANTED[kind]:
            return si[0]
        self.assumed.setdefault((self.units[k], self._ASSUMED[kind]), []).append(self.names[k])
        return 1.0 if kind == "force" else self.length

    def notes(self, plate: str) -> list[str]:
        return [f"{plate}: channels {', '.join(names)} labelled {unit!r}, read as {assumed}"
                for (unit, assumed), names in self.assumed.items()]


# ---------------------------------------------------------------------------- force plates
def _plate_axes(corners, plate, path):
    """Rotation plate -> lab and centre from the four corners (m), following the C3D corner numbering:
    plate X from corner 2 to corner 1, plate Y from corner 4 to corner 1, plate Z = X x Y (into the floor)."""
    x = corners[0] - corners[1]
    y = corners[0] - corners[3]
    z = np.cross(x, y)
    if not np.all(np.isfinite(z)) or np.linalg.norm(z) < 1e-12 or np.linalg.norm(x) < 1e-9:
        raise DataError("the four corners do not span a plate surface", element=f"FORCE_PLATFORM:CORNERS of {plate}",
                        file=path)
    y = np.cross(z, x)
    R = np.column_stack([x / np.linalg.norm(x), y / np.linalg.norm(y), z / np.linalg.norm(z)])
    return R, corners.mean(axis=0)


def _plate_frame_loads(ptype, S, scale, origin, cal):
    """Force and moment at the centre of the plate surface, in the plate frame (Z into the floor).

    ``S`` is (n, k) channel data, ``scale`` (k,) factors to N, N m or m, ``origin`` the
    corrected FORCE_PLATFORM:ORIGIN in metres, ``cal`` the type-4 CAL_MATRIX.

      type 1: F = (Fx, Fy, Fz), COP (Px, Py, 0), free moment Tz: M = COP x F + Tz z;
      type 2: F, M from the six channels, moved from the transducer origin to the
        surface centre: M_c = M + F x ORIGIN (ORIGIN points from the transducer origin
        to the surface centre, in the plate frame);
      type 4: as type 2 after multiplying the channels by CAL_MATRIX (outputs = rows);
      type 3 (Kistler, fx12 fx34 fy14 fy23 fz1 fz2 fz3 fz4, ORIGIN = (a, b, az0)):
        Mx = b (fz1 + fz2 - fz3 - fz4) + Fy az0, My = a (fz2 + fz3 - fz1 - fz4) - Fx az0,
        Mz = b (fx34 - fx12) + a (fy14 - fy23).
    """
    if ptype == 3:
        fx12, fx34, fy14, fy23, fz1, fz2, fz3, fz4 = (S * scale).T
        a, b, az0 = origin
        F = np.column_stack([fx12 + fx34, fy14 + fy23, fz1 + fz2 + fz3 + fz4])
        M = np.column_stack([b * (fz1 + fz2 - fz3 - fz4) + F[:, 1] * az0,
                             a * (fz2 + fz3 - fz1 - fz4) - F[:, 0] * az0,
                             b * (fx34 - fx12) + a * (fy14 - fy23)])
        return F, M
    if ptype == 1:
        S = S * scale
        F = S[:, :3]
        cop = np.column_stack([S[:, 3], S[:, 4], np.zeros(len(S))])
        M = np.cross(cop, F)
        M[:, 2] += S[:, 5]
        return F, M
    raw = (S @ cal.T if ptype == 4 else S) * scale
    return raw[:, :3], raw[:, 3:] + np.cross(raw[:, :3], origin)


_UNIT_KINDS = {1: ("force",) * 3 + ("length",) * 2 + ("moment",), 2: ("force",) * 3 + ("moment",) * 3,
               3: ("force",) * 8, 4: ("force",) * 3 + ("moment",) * 3}
_LOAD_CHANNELS = {1: [0, 1, 2, 5], 2: list(range(6)), 3: list(range(8)), 4: list(range(6))}

ZERO_UNLOADED = 100.0
"""N; the FORCE_PLATFORM:ZERO baseline is subtracted only if the plate's force stays below this in those frames."""


def _plate(index, ptype, S, units, names, corners, origin, cal, length, rate, t0, threshold, zero, path):
    """One C3D force platform as a ForcePlate (lab frame, reaction on the subject), and notes.

    ``S`` is (n, k) channel data as scaled by ezc3d; ``corners`` (4, 3) m; ``origin``
    the raw FORCE_PLATFORM:ORIGIN (file length units) or None; ``cal`` (6, 6) or None;
    ``zero`` the slice of samples of the FORCE_PLATFORM:ZERO frames, or None.

    An ORIGIN with a positive Z (transducer origin above the surface, a common storage
    error) is corrected: all three components negated for types 2 and 4 (as Visual3D
    and ezc3d do), only az0 for type 3 (a and b are distances). If the plate is
    unloaded in the ZERO frames (force below ``ZERO_UNLOADED``), the mean of each load
    channel over them is subtracted. The loads are rotated into the lab by the corner
    axes and the moment referred to the lab origin.

    Sign: what is stored is the ground reaction acting *on the subject*. C3D plate
    channels are often described as the force the subject applies to the plate, in
    the plate frame (Z into the floor); but in every c3d.org sample file (AMASS/Vicon
    AMTI plates, Qualisys and Codamotion Kistler plates) the channels rotated by the
    corner axes already point up, out of the plate, during stance, i.e. they are the
    reaction. So the sign is decided per plate from the data: the normal force must
    point out of the plate surface while loaded; channels giving the force on the plate
    are negated. Every such decision is returned as a note.
    """
    name = f"FP{index + 1}"
    notes = []
    cu = _ChannelUnits(units, names, length)
    scale = np.array([cu.scale(k, kind) for k, kind in enumerate(_UNIT_KINDS[ptype])])
    notes += cu.notes(name)
    R, centre = _plate_axes(corners, name, path)
    if ptype in (2, 4):
        o = origin * length
        if o[2] > 0:
            notes.append(f"{name}: ORIGIN {np.round(origin, 4).tolist()} has a positive Z (transducer origin "
                         "above the surface); negated, the usual correction of this storage error")
            o = -o
        measurement_origin = centre - R @ o
    elif ptype == 3:
        o = origin * length
        if o[2] > 0:
            notes.append(f"{name}: ORIGIN az0 = {origin[2]:g} is positive (sensors above the surface); "
                         "taken as the depth below the surface, az0 negated (a and b kept)")
            o = o * [1.0, 1.0, -1.0]
        measurement_origin = centre + R @ np.array([0.0, 0.0, -o[2]])
    else:
        o = None
        measurement_origin = centre
    if not np.all(np.isfinite(S)):
        k, j = np.argwhere(~np.isfinite(S))[0]
        raise DataError(f"channel {names[j]} holds a non-finite value at sample {k + 1}",
                        element=f"force platform {name}", file=path)
    with np.errstate(over="ignore", invalid="ignore"):
        F_p, M_p = _plate_frame_loads(ptype, S, scale, o, cal)
    if not (np.all(np.isfinite(F_p)) and np.all(np.isfinite(M_p))):
        raise DataError("the channel values overflow when converted to forces and moments: they are not physical",
                        element=f"force platform {name}", file=path)
    if zero is not None:
        during = np.linalg.norm(F_p[zero], axis=1)
        if during.max() < ZERO_UNLOADED:
            S = np.array(S)
            offsets = S[zero, :].mean(axis=0)
            S[:, _LOAD_CHANNELS[ptype]] -= offsets[_LOAD_CHANNELS[ptype]]
            F_p, M_p = _plate_frame_loads(ptype, S, scale, o, cal)
            notes.append(f"{name}: baseline of the FORCE_PLATFORM:ZERO frames subtracted "
                         f"(force offset {during.mean():.1f} N removed)")
        else:
            notes.append(f"{name}: FORCE_PLATFORM:ZERO baseline not applied: the plate is loaded in those "
                         f"frames (up to {during.max():.0f} N)")
    F = F_p @ R.T
    M = M_p @ R.T + np.cross(centre, F)
    n_up = -R[:, 2]
    fn = F @ n_up
    contact = np.abs(fn) >= threshold
    if contact.any() and np.median(fn[contact]) < 0:
        F, M = -F, -M
        notes.append(f"{name}: the channels give the force on the plate; negated to the reaction on the subject")
    elif contact.any():
        notes.append(f"{name}: the channels give the reaction on the subject (normal force out of the plate "
                     "surface during contact); used as they are")
    plate = ForcePlate.from_loads(F, M, normal=n_up, surface_point=centre, threshold=threshold, name=name,
                                  number=index + 1, type=ptype, rate=rate, t0=t0, corners=corners,
                                  origin=measurement_origin, calibration=cal if ptype == 4 else None,
                                  channels=tuple(names))
    return plate, notes


def _per_plate(P: _Params, name: str, shape: tuple[int, ...]):
    """FORCE_PLATFORM:<name> as an array of shape ``shape + (plates,)``, or None when absent or empty."""
    values = P.numbers("FORCE_PLATFORM", name)
    if values is None or values.size == 0:
        return None
    if values.ndim == len(shape) + 1 and values.shape[:-1] == shape:
        return values
    block = int(np.prod(shape))
    if values.size % block:
        raise P.error("FORCE_PLATFORM", name, f"has {values.size} values, not a whole number of "
                                              f"{'x'.join(map(str, shape))} blocks")
    return values.reshape(shape + (-1,), order="F")


def _zero_samples(P: _Params, first_frame, n_frames, per_frame, notes):
    """Sample slice of the FORCE_PLATFORM:ZERO frames, or None (no baseline requested or possible)."""
    zero = P.integers("FORCE_PLATFORM", "ZERO")
    if zero is None or zero.size < 2:
        return None
    a, b = (int(v) for v in zero.reshape(-1)[:2])
    if a == 0 and b == 0:
        return None
    a = max(a, 1)
    if b < a or a < first_frame or b > first_frame + n_frames - 1:
        notes.append(f"FORCE_PLATFORM:ZERO frames {a}-{b} are not within the data (frames {first_frame}-"
                     f"{first_frame + n_frames - 1}); no baseline subtracted")
        return None
    return slice((a - first_frame) * per_frame, (b - first_frame + 1) * per_frame)


def _plates(P: _Params, analogs, analog_names, analog_units, length, rate, t0, threshold, zero, path):
    """All force platforms: (plates, indices of the analog channels they use, notes, warnings)."""
    used = int(P.scalar("FORCE_PLATFORM", "USED", 0) or 0)
    if used <= 0:
        return [], set(), [], []
    group = "FORCE_PLATFORM"
    types = P.integers(group, "TYPE")
    if types is None or types.size < used:
        raise P.error(group, "TYPE", f"gives {0 if types is None else types.size} types for {used} plates")
    types = types.reshape(-1)
    channel = P.integers(group, "CHANNEL")
    if channel is None or channel.size == 0:
        raise P.error(group, "CHANNEL", f"is missing but {used} plates are used")
    channel = channel.reshape(channel.shape[0], -1) if channel.ndim else channel.reshape(1, 1)
    corners_all = _per_plate(P, "CORNERS", (3, 4))
    origin_all = _per_plate(P, "ORIGIN", (3,))
    cal_all = _per_plate(P, "CAL_MATRIX", (6, 6))
    n_analog = analogs.shape[0]
    plates, used_channels, notes, warnings = [], set(), [], []
    for i in range(used):
        ptype = int(types[i])
        name = f"FP{i + 1}"
        if ptype not in _UNIT_KINDS:
            warnings.append(f"{name} has type {ptype}, which HybridLab does not convert (types 1-4 only); "
                            "its channels stay available as analog channels")
            continue
        k = len(_UNIT_KINDS[ptype])
        if channel.shape[0] < k or channel.shape[1] <= i:
            raise P.error(group, "CHANNEL", f"has shape {channel.shape}; plate {i + 1} (type {ptype}) needs "
                                            f"{k} channel numbers")
        chans = channel[:k, i]
        bad = [int(c) for c in chans if not 1 <= c <= n_analog]
        if bad:
            raise P.error(group, "CHANNEL", f"plate {i + 1} uses analog channel {bad[0]}, but the file has "
                                            f"{n_analog} analog channels")
        if corners_all is None or corners_all.shape[-1] <= i:
            raise P.error(group, "CORNERS", f"has no corners for plate {i + 1}")
        corners = corners_all[:, :, i].T * length
        origin = None
        if ptype in (2, 3, 4):
            if origin_all is None or origin_all.shape[-1] <= i:
                raise P.error(group, "ORIGIN", f"has no values for plate {i + 1} (type {ptype} needs them)")
            origin = origin_all[:, i]
        cal = None
        if ptype == 4:
            if cal_all is None:
                cal = np.eye(6)
                notes.append(f"{name}: type 4 without CAL_MATRIX values; identity used (channels already "
                             "calibrated, as Motion Analysis files store them)")
            elif cal_all.shape[-1] <= i:
                raise P.error(group, "CAL_MATRIX", f"has no 6x6 matrix for plate {i + 1}")
            else:
                cal = cal_all[:, :, i]
        if ptype == 3 and P.has(group, "FPCOPPOLY") and np.any(P.numbers(group, "FPCOPPOLY") != 0):
            warnings.append(f"{name}: FORCE_PLATFORM:FPCOPPOLY (Kistler COP correction) is present but not applied")
        idx = [int(c) - 1 for c in chans]
        plate, plate_notes = _plate(i, ptype, analogs[idx].T, [analog_units[j] for j in idx],
                                    [analog_names[j] for j in idx], corners, origin, cal, length, rate, t0,
                                    threshold, zero, path)
        plates.append(plate)
        notes += plate_notes
        used_channels.update(idx)
    return plates, used_channels, notes, warnings


# ---------------------------------------------------------------------------- other parts
def _labels(names, count, what, warnings):
    """``count`` unique labels from ``names``: missing or empty ones numbered, repeated ones suffixed."""
    names = [str(n).strip() for n in names[:count]]
    if len(names) < count:
        warnings.append(f"{count} {what}s but only {len(names)} labels; the others are numbered")
        names += [""] * (count - len(names))
    out, seen = [], {}
    for i, name in enumerate(names):
        name = name or f"{what}{i + 1}"
        if name in seen:
            seen[name] += 1
            new = f"{name}#{seen[name]}"
            warnings.append(f"{what} label {name!r} is used more than once; occurrence {seen[name]} renamed {new!r}")
            name = new
        else:
            seen[name] = 1
        out.append(name)
    return out


def _events(P: _Params, header_events, notes):
    if P.has("EVENT", "USED") or P.has("EVENT", "TIMES"):
        used = int(P.scalar("EVENT", "USED", 0) or 0)
        times = P.numbers("EVENT", "TIMES", np.zeros((2, 0)))
        if times.size % 2 or (times.ndim == 2 and times.shape[0] != 2):
            raise P.error("EVENT", "TIMES", f"has shape {times.shape}; expected (2, events): minutes and seconds")
        times = times.reshape(2, -1, order="F")
        labels, contexts = P.texts("EVENT", "LABELS"), P.texts("EVENT", "CONTEXTS")
        if times.shape[1] < used or len(labels) < used:
            raise P.error("EVENT", "TIMES", f"{used} events declared but {times.shape[1]} times and "
                                            f"{len(labels)} labels stored")
        contexts = contexts + [""] * (used - len(contexts))
        events = [Event(labels[k], contexts[k], float(60.0 * times[0, k] + times[1, k])) for k in range(used)]
        return tuple(sorted(events, key=lambda e: e.time))
    events = [Event(label.strip(), "", float(t)) for label, t in header_events if label.strip()]
    if events:
        notes.append(f"{len(events)} events read from the C3D header (the file has no EVENT group)")
    return tuple(sorted(events, key=lambda e: e.time))


def _plain(value):
    if isinstance(value, list):
        return value[0] if len(value) == 1 else list(value)
    array = np.asarray(value)
    if array.size == 1:
        return array.reshape(-1)[0].item()
    return array.tolist()


def _check_header(raw, result, P, path):
    h = result["header"]
    if raw["n_points"] != h["n_points"]:
        raise DataError(f"the header declares {raw['n_points']} points per frame but POINT:USED gives "
                        f"{h['n_points']}; the data cannot be read consistently", element="POINT:USED", file=path)
    analog_values = h["n_analogs"] * h["analog_per_frame"]
    if raw["n_analog_values"] != analog_values and analog_values < 65536:   # larger counts do not fit the word
        raise DataError(f"the header declares {raw['n_analog_values']} analog samples per frame but the ANALOG "
                        f"parameters give {h['n_analogs']} channels x {h['analog_per_frame']} samples = "
                        f"{analog_values}; ezc3d would misread every frame", element="ANALOG:USED", file=path)
    frames = result["points"].shape[2]
    if raw["last"] < 65535 and raw["last"] >= raw["first"]:
        declared = raw["last"] - raw["first"] + 1
        if frames < declared:
            raise DataError(f"the file is truncated: its header declares {declared} frames but only {frames} "
                            "are present", element="data section", file=path)
    for name in ("SCALE", "OFFSET"):
        values = P.numbers("ANALOG", name)
        if h["n_analogs"] and (values is None or values.size < h["n_analogs"]):
            have = 0 if values is None else values.size
            raise P.error("ANALOG", name, f"has {have} values for {h['n_analogs']} analog channels")


def _markers(result, P: _Params, rate, t0, notes, warnings):
    """Markers in metres (model outputs left out) and the length scale of the file (m per unit)."""
    positions = np.transpose(result["points"], (2, 1, 0)).astype(float)
    names = _labels(list(result["point_names"]), positions.shape[1], "point", warnings)
    residuals = np.asarray(result["residuals"], dtype=float).T
    missing = (residuals < 0) | ~np.isfinite(positions).all(axis=2)
    positions[missing] = np.nan
    outputs = {label for group in _MODEL_OUTPUT_GROUPS for label in P.texts("POINT", group)}
    keep = [i for i, n in enumerate(names) if n not in outputs]
    if len(keep) < len(names):
        dropped = [names[i] for i in range(len(names)) if i not in keep]
        notes.append(f"{len(dropped)} model-output points (POINT:{'/'.join(_MODEL_OUTPUT_GROUPS)}) not imported "
                     f"as markers: {', '.join(dropped)}")
    names = [names[i] for i in keep]
    positions = positions[:, keep]

    declared = (P.texts("POINT", "UNITS") or [""])[0]
    length = length_scale(declared)
    if length is None:
        detected = detect_length_unit(positions)
        unit, length, why = detected if detected else ("mm", 1e-3, "no unit fits the marker data; mm is the "
                                                                   "most common C3D unit")
        message = f"POINT:UNITS is {declared or 'missing'!r}: positions taken as {unit} ({why})"
        notes.append(message)
        warnings.append(message)
    elif implausible_unit(positions, length):
        detected = detect_length_unit(positions)
        if detected and detected[1] != length:
            message = (f"POINT:UNITS says {declared!r}, which makes the markers implausibly sized; "
                       f"taken as {detected[0]} ({detected[2]})")
            notes.append(message)
            warnings.append(message)
            length = detected[1]
    elif length != 1.0:
        notes.append(f"positions converted from {declared} to m")
    n_frames = positions.shape[0]
    return Markers(tuple(names), t0 + np.arange(n_frames) / rate, positions * length, rate), length


def _emg_indices(emg_channels, analog_names, descriptions, plate_channels, notes, path):
    if emg_channels is None:
        emg = {i for i in range(len(analog_names))
               if i not in plate_channels and is_emg_name(analog_names[i], descriptions[i])}
        if emg:
            notes.append("EMG channels recognised by name: " + ", ".join(analog_names[i] for i in sorted(emg)))
        return emg
    for name in emg_channels:
        if name not in analog_names:
            raise DataError(f"no analog channel is named {name!r} (EMG channel requested)",
                            element="ANALOG:LABELS", file=path)
    return {analog_names.index(name) for name in emg_channels}


def _analog_channels(analogs, names, units, descriptions, rate, t0, plate_channels, emg, notes):
    """Analog channels converted to SI where the unit is recognised (conversions listed in ``notes``)."""
    channels, converted = [], {}
    for i in range(analogs.shape[0]):
        si = _si(units[i])
        factor, unit = si if si else (1.0, units[i])
        if si and (factor != 1.0 or unit != units[i]):
            converted.setdefault(f"{units[i]} -> {unit}", []).append(names[i])
        kind = "force plate" if i in plate_channels else "emg" if i in emg else "analog"
        channels.append(AnalogChannel(names[i], rate, unit, analogs[i] * factor, t0, descriptions[i], kind))
    notes += [f"analog units {change}: {', '.join(which)}" for change, which in converted.items()]
    return tuple(channels)


def _subject_and_metadata(P: _Params, raw: dict) -> tuple[dict, dict]:
    """A trial's ``subject`` (the SUBJECT and SUBJECTS groups) and ``metadata`` (format, processor, first frame,
    MANUFACTURER and PROCESSING groups), as :func:`read_c3d` and :func:`read_c3d_parameters` give them."""
    subject = {}
    for group in ("SUBJECT", "SUBJECTS"):
        subject.update({name: _plain(value) for name, value in P.params.get(group, {}).items()})
    metadata = {"format": "C3D", "processor": raw["processor"], "first_frame": max(raw["first"], 1),
                "manufacturer": {k: _plain(v) for k, v in P.params.get("MANUFACTURER", {}).items()},
                "processing": {k: _plain(v) for k, v in P.params.get("PROCESSING", {}).items()}}
    return subject, metadata


# ---------------------------------------------------------------------------- public
@dataclass(frozen=True)
class C3DParameters:
    """What a C3D file's parameters say of its subject, as :func:`read_c3d`'s Trial has it: ``subject`` (the SUBJECT
    and SUBJECTS groups), ``metadata`` (format, processor, first frame, MANUFACTURER and PROCESSING groups) and
    ``source`` (the file). ``engine.trial.body_measures`` reads a height and mass from it as from the Trial."""

    subject: dict
    metadata: dict
    source: str


def read_c3d_parameters(paths, timeout: float | None = None) -> list:
    """Each C3D file of ``paths``'s :class:`C3DParameters`, or the DataError saying why it could not be read, in one
    reader process for all (a process per file costs about 0.3-0.5 s to start, the parsing 0.01-0.05 s a file:
    ``benchmarks/bench_c3d_parameters.py``); ezc3d 1.7 reads each file's data too, having no way to read only its
    header and parameters. That process may take one ``BASE_TIMEOUT`` plus ``TIMEOUT_PER_MB`` per MB of every file,
    and ``BASE_MEMORY`` plus ``MEMORY_PER_BYTE`` per byte of the largest. When it crashes or times out (a corrupt
    file), the same parameters-only reading runs again one process per file, with that file's own limits, so that
    only the file at fault fails. ``timeout``: s allowed to each reader process instead (None: as above). The data
    are not checked (:func:`read_c3d` does): a file that passes here may still fail there."""
    paths = [Path(p) for p in paths]
    out: list = [None] * len(paths)
    todo, raws = [], {}
    for i, path in enumerate(paths):
        try:
            if not path.is_file():
                raise DataError("the file does not exist", file=path)
            raws[i] = _raw_header(path)      # ezc3d reads a file without ANALOG:RATE (read_c3d repairs it for its data)
            todo.append(i)
        except DataError as exc:
            out[i] = exc
    if not todo:
        return out

    def read(indices) -> str | None:
        """Read the files ``indices`` in one process into ``out``; what went wrong with the process, if it did."""
        seconds = (BASE_TIMEOUT + sum(TIMEOUT_PER_MB * raws[i]["size"] / 2 ** 20 for i in indices)
                   if timeout is None else timeout)
        memory = BASE_MEMORY + MEMORY_PER_BYTE * max(raws[i]["size"] for i in indices)
        command = python_command("-c", _parameters_code(), str(int(memory)), *(str(paths[i]) for i in indices))
        try:
            proc = run_child(command, env=child_environment(), timeout=seconds)
        except subprocess.TimeoutExpired:
            return _timeout_problem(seconds)
        if proc.returncode != 0 or not proc.stdout:
            return _crash_problem(proc)
        try:
            got = pickle.loads(proc.stdout)
        except Exception:  # the child is ours; anything unreadable means it was interrupted
            got = None
        if not isinstance(got, list) or len(got) != len(indices):
            return "the reader process returned an incomplete result"
        for i, (error, params) in zip(indices, got):
            if error is None:
                out[i] = C3DParameters(*_subject_and_metadata(_Params(params, paths[i]), raws[i]), str(paths[i]))
            elif error == "memory" or "bad_alloc" in error:
                out[i] = DataError(f"reading the file needed more than {memory / 2 ** 20:.0f} MB of memory (the limit "
                                   f"of the reader process of {len(indices)} file(s)): its header or parameters "
                                   "declare far more data than a file of this size can hold (corrupt file)",
                                   file=paths[i])
            else:
                out[i] = DataError(_ezc3d_problem(error), file=paths[i])
        return None

    if read(todo) is not None:
        for i in todo:                         # one process each: the file at fault is the one that fails
            problem = read([i])
            if problem is not None:
                out[i] = DataError(problem, file=paths[i])
    return out


def read_c3d(path, *, threshold: float = DEFAULT_THRESHOLD, zero_baseline: bool = True, emg_channels=None,
             timeout: float | None = None, memory_limit: int | None = None, cancel=None) -> Trial:
    """Read a C3D file into a :class:`~engine.trial.trial.Trial` (SI units, lab frame).

    Parameters
    ----------
    path : the .c3d file.
    threshold : N; force-plate centre of pressure and free moment are NaN while the
        normal force is below it (default 20 N, see ``engine.trial.forceplate``).
    zero_baseline : subtract the mean of each plate channel over the FORCE_PLATFORM:ZERO
        frames (as the C3D specification suggests), for each plate unloaded in them.
    emg_channels : names of the analog channels that hold EMG; when None they are
        recognised from labels and descriptions ("EMG", a muscle name or a usual
        abbreviation such as TA, SOL, VL), and listed in ``conversions``.
    timeout : s allowed to parse the file (default 60 s + 2 s per MB).
    memory_limit : bytes the parser may allocate (default 512 MB + 64 x file size;
        enforced on Linux).
    cancel : a ``threading.Event``; setting it stops the read (the reader process is killed) with
        :class:`~engine.child_process.Cancelled`.

    Raises
    ------
    DataError
        naming the file and the reason when ezc3d cannot read the file, crashes, or
        the file is inconsistent (header against parameters, truncated data, analog
        scales, force-platform parameters, events).
    """
    path = Path(path)
    if not (np.isfinite(threshold) and threshold >= 0):
        raise SettingsError(f"the force threshold must be a non-negative number of newtons, got {threshold}")
    if not path.is_file():
        raise DataError("the file does not exist", file=path)
    raw = _raw_header(path)
    size_mb = raw["size"] / 2 ** 20
    timeout = BASE_TIMEOUT + TIMEOUT_PER_MB * size_mb if timeout is None else timeout
    if not (isinstance(timeout, (int, float)) and np.isfinite(timeout) and timeout > 0):
        raise SettingsError(f"the C3D read timeout must be a positive number of seconds, got {timeout!r}")
    memory_limit = BASE_MEMORY + MEMORY_PER_BYTE * raw["size"] if memory_limit is None else memory_limit
    repaired = missing_analog_rate(path, raw)
    if repaired is None:
        result = _run_ezc3d(path, timeout, memory_limit, cancel)
    else:
        with tempfile.TemporaryDirectory(prefix="hybridlab-c3d-") as folder:
            copy = Path(folder) / path.name
            copy.write_bytes(repaired[0])
            try:
                result = _run_ezc3d(copy, timeout, memory_limit, cancel)
            except DataError as exc:        # the user's file, not the repaired copy, is the one named
                raise exc.in_file(path) from exc.__cause__
    P = _Params(result["parameters"], path)
    _check_header(raw, result, P, path)
    h = result["header"]
    notes, warnings = [f"read with ezc3d ({raw['processor']} processor format)"], []
    if repaired is not None:
        warnings.append(f"ANALOG:RATE is missing: read as {repaired[1]:g} Hz, the point rate times the header's "
                        f"{raw['n_analog_values']} analog values per frame over ANALOG:USED (the C3D rule), from a "
                        "copy of the file with that parameter added")

    rate = float(h["rate"])
    if not (np.isfinite(rate) and rate > 0):
        raise DataError(f"the point rate is {rate} Hz", element="POINT:RATE", file=path)
    n_frames = result["points"].shape[2]
    if n_frames == 0:
        raise DataError("the file holds no frames", element="header", file=path)
    first = max(raw["first"], 1)
    t0 = (first - 1) / rate

    markers, length = _markers(result, P, rate, t0, notes, warnings)

    analogs = np.asarray(result["analogs"], dtype=float)
    analog_rate = rate * h["analog_per_frame"]
    param_rate = P.scalar("ANALOG", "RATE")
    if analogs.shape[0] and param_rate is not None and abs(param_rate - analog_rate) > 1e-6 * analog_rate:
        warnings.append(f"ANALOG:RATE says {param_rate:g} Hz but the data hold {h['analog_per_frame']} samples "
                        f"per frame, i.e. {analog_rate:g} Hz; the latter is used")
    analog_names = _labels(list(result["analog_names"]), analogs.shape[0], "analog", warnings)
    units = P.texts("ANALOG", "UNITS")
    units += [""] * (analogs.shape[0] - len(units))
    descriptions = P.texts("ANALOG", "DESCRIPTIONS")
    descriptions += [""] * (analogs.shape[0] - len(descriptions))
    zero = _zero_samples(P, first, n_frames, h["analog_per_frame"], notes) if zero_baseline else None
    plates, plate_channels, plate_notes, plate_warnings = _plates(P, analogs, analog_names, units, length,
                                                                  analog_rate, t0, threshold, zero, path)
    notes += plate_notes
    warnings += plate_warnings
    emg = _emg_indices(emg_channels, analog_names, descriptions, plate_channels, notes, path)
    channels = _analog_channels(analogs, analog_names, units, descriptions, analog_rate, t0, plate_channels, emg,
                                notes)

    subject, metadata = _subject_and_metadata(P, raw)
    if P.scalar("ROTATION", "USED", 0):
        warnings.append("the file holds rotation data (ROTATION group), which HybridLab does not import")
    return Trial(markers=markers, analogs=channels, plates=tuple(plates),
                 events=_events(P, h["events"], notes), subject=subject, metadata=metadata, source=str(path),
                 conversions=notes, warnings=warnings)
