"""A height or mass a C3D writes as text with its unit ("1.75 m", as HybridLab's own demo does) is read in that unit,
or refused with the reason; never by its size, never in a unit not known."""
from pathlib import Path
from types import SimpleNamespace

import pytest

from engine.trial.body_measures import recorded_height, recorded_mass

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo" / "run.c3d"


def _trial(**subject):
    return SimpleNamespace(subject=subject, metadata={})


def test_the_demos_own_height_and_mass_are_read():
    import ezc3d

    from engine.demo.athlete import HEIGHT, MASS
    from engine.io.c3d import read_c3d_parameters
    parameters = ezc3d.c3d(str(DEMO))["parameters"]
    written = parameters["SUBJECTS" if "SUBJECTS" in parameters else "SUBJECT"]
    assert (written["HEIGHT"]["value"][0], written["WEIGHT"]["value"][0]) == (f"{HEIGHT} m", f"{MASS} kg")
    (parameters,) = read_c3d_parameters([DEMO])
    height, mass = recorded_height(parameters), recorded_mass(parameters)
    assert (height.value, height.reading, height.rejected) == (HEIGHT, "SUBJECT:HEIGHT 1.75 m", ())
    assert (mass.value, mass.reading, mass.rejected) == (MASS, "SUBJECT:WEIGHT 70 kg", ())


@pytest.mark.parametrize("written, metres, reading", [
    ("175 cm", 1.75, "SUBJECT:HEIGHT 175 cm"), ("1750mm", 1.75, "SUBJECT:HEIGHT 1750 mm"),
    (["1.8 M"], 1.8, "SUBJECT:HEIGHT 1.8 m"), (" 1.62  m ", 1.62, "SUBJECT:HEIGHT 1.62 m"),
    ("1.8", 1.8, "SUBJECT:HEIGHT 1.8 m"),              # a number as text, no unit: by its size, as a number is
])
def test_a_height_written_with_its_unit_is_read_in_it(written, metres, reading):
    read = recorded_height(_trial(HEIGHT=written))
    assert (read.value, read.reading) == (pytest.approx(metres, abs=1e-12), reading)


@pytest.mark.parametrize("written, why", [
    ("175 m", "read in m as written, it is not within 1-2.5 m"),       # by its size it would be 1.75 m: not guessed
    ("5 ft", "its unit 'ft' is not one of m, cm, mm (no other unit is converted)"),
    ("1,75 m", "it is not a number"),
    ("tall", "it is not a number"),
])
def test_a_height_written_otherwise_is_refused_with_the_reason(written, why):
    read = recorded_height(_trial(HEIGHT=written))
    assert read.value is None and read.refused
    assert read.rejected == (f"the trial's SUBJECT:HEIGHT {written!r} was not used as the subject's stature: {why}",)


def test_a_mass_written_with_its_unit_is_read_in_it_and_still_checked():
    assert recorded_mass(_trial(WEIGHT="70000 g", HEIGHT=1.75)).value == pytest.approx(70.0, abs=1e-9)
    pounds = recorded_mass(_trial(WEIGHT="154 lb", HEIGHT=1.6))
    assert pounds.value is None and "its unit 'lb' is not one of kg, g" in pounds.rejected[0]
    heavy = recorded_mass(_trial(WEIGHT="154 kg", HEIGHT="1.6 m"))         # a body mass index of 60: refused
    assert heavy.value is None and f"{154 / 1.6 ** 2:.1f} kg/m^2" in heavy.rejected[0]
