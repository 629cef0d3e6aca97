"""The system libraries Qt and VTK need on Linux, checked before Qt starts: without one, Qt's platform plugin
aborts the process with a message that does not say what to install. :func:`check` loads each library the chosen
platform needs (``dlopen``, as Qt will) and names the Debian/Ubuntu packages of those missing in one
``apt-get install`` line; then it loads the platform plugin itself, so that a library this list does not know
is named too. On macOS and Windows the wheels carry everything: nothing is checked there.

Imports nothing of Qt (it runs before Qt is loaded).

The lists are the libraries the PySide6 6.x and VTK 9 wheels link (``readelf -d``) or load at run time,
besides glibc and the libraries the wheels ship; ``tests/gui/test_system_libraries.py`` checks them against
``ldd`` of the installed plugins.
"""
from __future__ import annotations

import ctypes
import importlib.util
import os
import re
import sys
from pathlib import Path

PACKAGES = {
    # Qt Core, Gui, Widgets, OpenGL, DBus; VTK's OpenGL loader (libGL, libEGL, and libX11, libXcursor on X)
    "libGL.so.1": "libgl1",
    "libEGL.so.1": "libegl1",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libdbus-1.so.3": "libdbus-1-3",
    "libX11.so.6": "libx11-6",
    "libXcursor.so.1": "libxcursor1",
    # the xcb platform
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxcb.so.1": "libxcb1",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    # the wayland platform
    "libwayland-client.so.0": "libwayland-client0",
    "libwayland-cursor.so.0": "libwayland-cursor0",
    "libwayland-egl.so.1": "libwayland-egl1",     # its EGL integration plugin
}
"""Library (soname) -> the Debian/Ubuntu package that installs it."""

COMMON = ("libGL.so.1", "libEGL.so.1", "libfontconfig.so.1", "libfreetype.so.6", "libxkbcommon.so.0",
          "libglib-2.0.so.0", "libgthread-2.0.so.0", "libdbus-1.so.3", "libX11.so.6")
"""Needed whatever the platform: Qt's own libraries link them."""

PLATFORMS = {
    "offscreen": (),
    "minimal": (),
    "xcb": ("libXcursor.so.1", "libxkbcommon-x11.so.0", "libxcb.so.1", "libX11-xcb.so.1", "libxcb-cursor.so.0",
            "libxcb-icccm.so.4", "libxcb-util.so.1", "libxcb-image.so.0", "libxcb-keysyms.so.1", "libxcb-randr.so.0",
            "libxcb-render-util.so.0", "libxcb-render.so.0", "libxcb-shape.so.0", "libxcb-shm.so.0",
            "libxcb-sync.so.1", "libxcb-xfixes.so.0", "libxcb-xkb.so.1"),
    "wayland": ("libwayland-client.so.0", "libwayland-cursor.so.0", "libwayland-egl.so.1"),
}
"""Further libraries of each Qt platform (its plugin and the libraries only it links)."""

DRIVERS = ("libegl-mesa0", "libglx-mesa0", "libgl1-mesa-dri")
"""Mesa's OpenGL drivers, which libEGL and libGL load at run time to draw the 3D view (any vendor's driver does:
not checked, a machine with another one works)."""

ALL_PACKAGES = sorted(set(PACKAGES.values()) | set(DRIVERS))
"""Every package above and the drivers: the README's install line for a bare machine."""


def platform_name(environ=None) -> str:
    """The Qt platform Qt will choose: ``QT_QPA_PLATFORM``'s first entry (without its options), else wayland in a
    Wayland session, else xcb (Qt's own order on Linux)."""
    environ = os.environ if environ is None else environ
    chosen = environ.get("QT_QPA_PLATFORM", "")
    if chosen:
        return chosen.split(";")[0].split(":")[0].strip()
    if environ.get("WAYLAND_DISPLAY") and environ.get("XDG_SESSION_TYPE") == "wayland":
        return "wayland"
    return "xcb"


def loads(library: str) -> str | None:
    """None when ``library`` (a soname or a path) loads with everything it links; else the loader's message."""
    try:
        ctypes.CDLL(library)
    except OSError as exc:
        return str(exc)
    return None


def needed(platform: str) -> tuple[str, ...]:
    """The system libraries ``platform`` needs (a platform this module does not know: the common ones)."""
    return COMMON + PLATFORMS.get(platform, ())


def absent(libraries) -> list[str]:
    """Those of ``libraries`` (sonames) that do not load."""
    return [name for name in libraries if loads(name) is not None]


def plugin_file(platform: str) -> Path | None:
    """Qt's plugin file of ``platform`` in the installed PySide6 (None when there is none)."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(list(spec.submodule_search_locations)[0]) / "Qt" / "plugins" / "platforms" / f"libq{platform}.so"
    return path if path.is_file() else None


def install_line(packages) -> str:
    """The one command that installs ``packages``."""
    return "sudo apt-get install " + " ".join(sorted(set(packages)))


def problems(platform: str, libraries=None, plugin: Path | None = None) -> str | None:
    """What to tell the user before Qt starts on ``platform``: None when ``libraries`` (default: those the
    platform needs) and the ``plugin`` file (default: the installed one) all load; else the libraries missing and
    the ``apt-get install`` line."""
    missing = absent(needed(platform) if libraries is None else libraries)
    if not missing:
        plugin = plugin_file(platform) if plugin is None else plugin
        failure = None if plugin is None else loads(str(plugin))
        if failure is None:
            return None
        name = re.match(r"\s*([^:]+\.so[.\d]*)\s*:", failure)
        if name is None or name.group(1) == str(plugin):
            return f"Qt's '{platform}' platform plugin {plugin} cannot be loaded: {failure}"
        missing = [name.group(1)]
    known = [PACKAGES[name] for name in missing if name in PACKAGES]
    unknown = [name for name in missing if name not in PACKAGES]
    lines = [f"HybridLab cannot start: Qt's '{platform}' platform needs system libraries that are not installed "
             f"({', '.join(missing)})."]
    if known:
        lines.append("Install them with:\n\n    " + install_line(known) + "\n")
    if unknown:
        lines.append(f"Find the package of {', '.join(unknown)} with 'apt-file search NAME' (Debian/Ubuntu).")
    lines.append("Or run without a screen: QT_QPA_PLATFORM=offscreen hybridgui --screenshot FILE.png")
    return "\n".join(lines)


def check(environ=None) -> str | None:
    """:func:`problems` of the platform Qt will choose, on Linux; None elsewhere (the wheels carry everything)."""
    if not sys.platform.startswith("linux"):
        return None
    return problems(platform_name(environ))
