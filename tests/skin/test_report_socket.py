"""The clinical report's socket section (skin's entry point ``hybridlab.report_sections``): the demo's report shows the
socket pressure per stance with the peak skin's socket model computes; a model without a socket gets a note instead."""
from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from engine.clinical.events import gait_events
from engine.clinical.parameters import stances_of
from engine.demo import demo_results
from engine.io.report_file import trials_report_steps
from engine.io.results_file import load_result
from engine.progress import run
from skin.socket import Socket
from skin.skinning import Skin
from skin.report_socket import stance_rows
from skin.socket_load import socket_loads
from skin.socket_map import LOADED
from skin.scenes import skinned_bodies

DATA = Path(__file__).parents[1] / "data"


def _text(html: Path, holding: str = "") -> str:
    """The report's text (SVG text kept as text), its tags dropped: of its pages holding ``holding``."""
    pages = html.read_text(encoding="utf-8").split("</svg>")
    return " ".join(re.sub(r"<[^>]+>", " ", page) for page in pages if holding in page)


def test_the_demo_report_shows_the_socket_pressure_of_each_stance(tmp_path):
    result, settings = demo_results()
    out = tmp_path / "report.html"
    run(trials_report_steps(out, [(result, settings.forward, None)], settings=[settings]))
    text = _text(out, "Socket pressure per stance")
    assert "Socket interface pressure" in text
    # the first stance of the residual limb's side, computed here by skin's socket model frame by frame
    model = result.model
    events, _ = gait_events(result)
    a, b = next((a, b) for a, b in stances_of(events, "Right") if b is not None)
    frames = np.flatnonzero((result.motion.time >= a) & (result.motion.time <= b))
    _, loads, _ = socket_loads(result, settings, "socket_weld")
    skin = Skin.generate(model, bodies=skinned_bodies(model))
    socket = Socket.from_stump(model, skin, "tibia_r")
    peaks = [socket.pressure(model, result.motion.q[f], loads[f]).peak for f in frames]
    at = result.motion.time[frames[int(np.argmax(peaks))]]
    row = re.search(rf"{a:.3f}-{b:.3f}\s+(\S+)\s+(\S+)", text)
    assert row is not None, f"no row of the stance {a:.3f}-{b:.3f}"
    assert row.groups() == (f"{max(peaks) * 1e-3:.1f}", f"{at:.3f}")
    assert 50.0 < max(peaks) * 1e-3 < 250.0          # a loaded stance, within the published band


def test_a_model_without_a_socket_is_said_to_have_none(tmp_path):
    result, settings = load_result(DATA / "results_v1" / "gait2354_walk1.hlr")
    out = tmp_path / "report.html"
    run(trials_report_steps(out, [(result, settings.forward, None)], settings=[settings]))
    text = " ".join(_text(out).split())
    assert "Socket pressure per stance" not in text
    assert f"no socket interface pressure: the model '{result.model.name}' has no residual limb in a socket" in text


def test_a_stance_s_figures_are_over_its_frames_whose_socket_load_exceeds_200_n():
    """Five frames of one stance, the socket's force 0, 150, 600, 900, 300 N (the first two below LOADED but pressing a
    little): the mean, the loaded area and the peak are over the last three frames only."""
    force = np.array([0.0, 150.0, 600.0, 900.0, 300.0])
    load = np.zeros((5, 6))
    load[:, 4] = force
    m = SimpleNamespace(time=np.arange(5) * 0.01, computed=np.ones(5, bool), load=load,
                        area=np.array([1e-4, 5e-4, 0.03, 0.04, 0.02]), peak=np.array([1e3, 2e4, 8e4, 1.2e5, 5e4]),
                        mean=np.array([1e3, 5e3, 3e4, 4e4, 2e4]), regions=np.array([0, 0, 0, 2, 0]),
                        hot_area=np.array([0.0, 0.0, 0.0, 2e-3, 0.0]))
    assert LOADED == 200.0                        # docs/socket-pressure.md's table counts frames above 200 N
    (row,) = stance_rows(m, [(0.0, 0.04)])
    assert row["mean"] == pytest.approx(3e4)
    assert row["area"] == pytest.approx(0.03)
    assert (row["peak"], row["at"], row["regions"]) == (1.2e5, 0.03, 2)
    assert stance_rows(m, [(0.0, 0.015)]) == []   # a stance whose frames carry under 200 N has no row


def test_frames_outside_the_small_displacements_get_a_note(monkeypatch):
    """With the rotation bound at 0 every frame the socket turns in is outside the small displacements the model is
    written for: the section says at how many and when, as for frames that do not converge; at 0.1 rad, with the
    layers' strain bound at 1 (the whole thickness), the demo's bonded liner stays within them and the section has no
    such note (at the strain limit 0.3 it leaves them at the largest loads, docs/socket-pressure.md)."""
    import skin.socket as socket_module
    from skin.report_socket import socket_section_steps
    result, settings = demo_results()
    events, _ = gait_events(result)
    monkeypatch.setattr(socket_module, "STRAIN_LIMIT", 1.0)
    notes = run(socket_section_steps(result, settings, events, "demo")).notes
    assert not any("small displacements" in n for n in notes)
    monkeypatch.setattr(socket_module, "ROTATION_LIMIT", 0.0)
    notes = [n for n in run(socket_section_steps(result, settings, events, "demo")).notes if "small displacements" in n]
    assert len(notes) == 1 and re.search(r"at \d+ frames \(\d\.\d{3}, ", notes[0]), notes


def test_the_slipping_liner_s_section_names_its_liner_and_the_frames_outside_the_small_displacements():
    """The report's option ``friction`` (the application's View > Socket liner) gives the section the slipping liner's
    map, computed by the function ``hybrid socket-pressure --friction`` uses: its notes name the liner and the frames
    outside the small displacements (the first named is flagged by the socket model here, the stance frame before it
    is not)."""
    from skin.report_socket import socket_section_steps
    from skin.socket_map import SPACING, socket_for
    result, settings = demo_results()
    events, _ = gait_events(result)
    section = run(socket_section_steps(result, settings, events, "demo", friction=0.61))
    assert len(section.pages) == 1
    assert any("liner 6 mm at 0.4 MPa slipping on the skin at mu 0.61" in n for n in section.notes)
    (note,) = [n for n in section.notes if "small displacements" in n]
    named = re.search(r"rotation beyond 0.1 rad\) at (\d+) frames \((\d\.\d{3}), ", note)
    assert named is not None, note
    model, time = result.model, result.motion.time
    stances = [(a, b) for a, b in stances_of(events, "Right") if b is not None]
    frames = np.flatnonzero(np.any([(time >= a) & (time <= b) for a, b in stances], axis=0))
    first = int(np.flatnonzero(np.isclose(time, float(named[2]), atol=6e-4))[0])
    assert first in frames and first - 1 in frames
    _, loads, _ = socket_loads(result, settings, "socket_weld")
    socket = socket_for(model, "socket_weld", "tibia_r", SPACING, friction=0.61)
    before, at = (socket.pressure(model, result.motion.q[f], loads[f]) for f in (first - 1, first))
    assert before.in_range and not at.in_range
    assert 0 < int(named[1]) <= len(frames)


def test_the_section_takes_the_soft_tissue_and_the_fit(monkeypatch):
    """The report's options ``tissue``, ``tissue_modulus`` and ``fit`` (``hybrid report --tissue --fit``, the
    application's View > Socket liner) give the section the map of that socket: at the stances' largest load its
    pressure is the socket model's with these layers (moulded here), and its notes name them; an option out of range or
    unknown is an error naming it, which the report turns into a note."""
    import skin.report_socket as report_socket
    from engine.errors import SettingsError
    from skin.socket_map import SPACING, socket_for
    result, settings = demo_results()
    events, _ = gait_events(result)
    drawn = []
    monkeypatch.setattr(report_socket, "socket_page", lambda m, rows, trial, side: drawn.append(m) or "page")
    section = run(report_socket.socket_section_steps(result, settings, events, "demo", tissue=0.02,
                                                     tissue_modulus=141e3, fit=40e3))
    assert section.pages == ["page"]
    assert any("liner 6 mm at 0.4 MPa bonded to the skin on 20 mm of soft tissue at 141 kPa, pre-compressed to a "
               "nominal 40 kPa" in n for n in section.notes), section.notes
    assert any(n.startswith("socket interface pressure: the fit (nominal 40 kPa) pushes the limb out of the socket "
                            "through its open brim with ") for n in section.notes), section.notes
    (m,) = drawn
    k = np.flatnonzero(m.computed & (np.linalg.norm(m.load[:, 3:], axis=1) > LOADED))
    f = k[np.argmax(np.linalg.norm(m.load[k, 3:], axis=1))]
    model = result.model
    _, loads, _ = socket_loads(result, settings, "socket_weld")
    socket = socket_for(model, "socket_weld", "tibia_r", SPACING, tissue=0.02, tissue_modulus=141e3, fit=40e3)
    expected = socket.pressure(model, result.motion.q[f], loads[f]).pressure
    np.testing.assert_allclose(m.pressure[f], expected, rtol=1e-5, atol=1e-3 * expected.max())
    plain = socket_for(model, "socket_weld", "tibia_r", SPACING).pressure(model, result.motion.q[f], loads[f])
    assert np.abs(plain.pressure - expected).max() > 1e3      # the fit's map, not the default's
    for bad, words in (({"fit": -1.0}, "'s fit must be a finite non-negative number, got -1.0"),
                       ({"tissue_modulus": 0}, "'s tissue_modulus must be a positive number, got 0"),
                       ({"fiction": 0.6}, " has no option 'fiction'")):
        with pytest.raises(SettingsError, match=f"report option socket-pressure: the socket liner{words}"):
            run(report_socket.socket_section_steps(result, settings, events, "demo", **bad))
