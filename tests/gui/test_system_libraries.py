"""The system libraries Qt needs are checked before Qt starts: the lists cover what the installed Qt links (read
from its ELF files), a library the loader cannot find (as ``ldd`` reports it) is named with its package in one
``apt-get install`` line, and the application stops with that line instead of letting Qt abort."""
import subprocess
from pathlib import Path

import PySide6
import shiboken6
from elftools.elf.dynamic import DynamicSection
from elftools.elf.elffile import ELFFile

from hybridgui import app, system_libraries as sl

QT = Path(PySide6.__file__).parent / "Qt"
WHEELS = (QT / "lib", Path(PySide6.__file__).parent, Path(shiboken6.__file__).parent)
"""Where the wheels keep the libraries they ship."""
BASE = {"libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0", "librt.so.1", "libstdc++.so.6", "libgcc_s.so.1",
        "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1", "libz.so.1", "libzstd.so.1"}
"""glibc, the C++ runtime, zlib and zstd: on every Debian/Ubuntu system (dpkg itself needs them)."""
ABSENT = "libhybridlab-absent.so.7"


def linked(path: Path) -> set[str]:
    """DT_NEEDED entries of an ELF file."""
    with open(path, "rb") as f:
        return {tag.needed for section in ELFFile(f).iter_sections() if isinstance(section, DynamicSection)
                for tag in section.iter_tags() if tag.entry.d_tag == "DT_NEEDED"}


def system_needs(files) -> set[str]:
    """The libraries outside the wheel and outside BASE that ``files`` and the wheel's Qt libraries they link
    need."""
    seen, todo, out = set(), list(files), set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for name in linked(path):
            shipped = [folder / name for folder in WHEELS if (folder / name).is_file()]
            if shipped:
                todo.append(shipped[0])
            elif name not in BASE:
                out.add(name)
    return out


def qt_files(platform: str) -> list[Path]:
    modules = [p for p in Path(PySide6.__file__).parent.glob("Qt*.abi3.so")
               if p.name.split(".")[0] in ("QtCore", "QtGui", "QtWidgets", "QtOpenGL", "QtOpenGLWidgets")]
    return modules + [QT / "plugins" / "platforms" / f"libq{platform}.so"]


def test_the_lists_cover_what_the_installed_qt_links():
    for platform in ("offscreen", "xcb", "wayland"):
        needs = system_needs(qt_files(platform))
        assert needs <= set(sl.needed(platform)), (platform, needs - set(sl.needed(platform)))
        assert all(name in sl.PACKAGES for name in sl.needed(platform))
    assert "libxcb-cursor.so.0" in system_needs(qt_files("xcb"))      # the library the issue met missing


def not_found(path: Path) -> set[str]:
    """The libraries the system's loader does not find for ``path`` (``ldd``)."""
    out = subprocess.run(["ldd", str(path)], capture_output=True, text=True, check=True).stdout
    return {line.split("=>")[0].strip() for line in out.splitlines() if "not found" in line}


def test_a_missing_library_is_named_with_its_package():
    for platform in ("offscreen", "xcb"):
        missing = not_found(QT / "plugins" / "platforms" / f"libq{platform}.so")
        assert set(sl.absent(sl.needed(platform))) == missing
        message = sl.problems(platform)
        if missing:         # this machine lacks some of them (e.g. libxcb-icccm4 on the project's machines)
            assert sl.install_line(sl.PACKAGES[name] for name in missing) in message
        else:
            assert message is None
    assert sl.problems("offscreen") is None        # the platform the tests run on has all it needs


def test_a_library_unknown_to_the_lists_is_named(tmp_path):
    message = sl.problems("offscreen", libraries=sl.needed("offscreen") + (ABSENT,))
    assert ABSENT in message and "apt-file search" in message
    sl.PACKAGES[ABSENT] = "hybridlab-absent"
    try:
        message = sl.problems("offscreen", libraries=sl.needed("offscreen") + (ABSENT,))
    finally:
        del sl.PACKAGES[ABSENT]
    assert "\n    sudo apt-get install hybridlab-absent\n" in message


def test_the_platform_is_the_one_qt_chooses():
    assert sl.platform_name({"QT_QPA_PLATFORM": "offscreen"}) == "offscreen"
    assert sl.platform_name({"QT_QPA_PLATFORM": "xcb:nograb;wayland"}) == "xcb"
    assert sl.platform_name({"DISPLAY": ":0"}) == "xcb"
    assert sl.platform_name({"WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "wayland"}) == "wayland"


def test_the_application_stops_with_the_install_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sl.PLATFORMS, "offscreen", (ABSENT,))
    monkeypatch.setitem(sl.PACKAGES, ABSENT, "hybridlab-absent")
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    shot = tmp_path / "window.png"
    assert app.main(["--screenshot", str(shot)]) == 1
    assert "sudo apt-get install hybridlab-absent" in capsys.readouterr().err
    assert not shot.exists()


def test_the_readme_names_every_package():
    words = set((Path(__file__).parents[2] / "README.md").read_text().replace("(", " ").replace(")", " ").split())
    assert set(sl.ALL_PACKAGES) <= words, set(sl.ALL_PACKAGES) - words
