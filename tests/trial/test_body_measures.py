"""The subject's height and body mass a trial records, read from the C3D parameters labs write (c3d.org's samples:
SUBJECT:HEIGHT in m or cm, SUBJECT:WEIGHT in kg; Vicon Nexus's PROCESSING:Height in mm and Bodymass in kg, added
to a copy of a sample by ezc3d), converted to m and kg with where each came from; values not usable are said, never
taken; a height or mass given by the user outside the plausible range is refused naming it."""
from pathlib import Path
from types import SimpleNamespace

import ezc3d
import pytest

from engine.errors import SettingsError
from engine.io.c3d import read_c3d
from engine.trial.body_measures import BMI_RANGE, check_height, check_mass, recorded_height, recorded_mass


def _parameter(path: Path, group: str, name: str) -> float:
    """The parameter's value as ezc3d reads it from the file (the independent reference)."""
    return float(ezc3d.c3d(str(path))["parameters"][group][name]["value"][0])


@pytest.mark.parametrize("sample, height_name, metres_per_unit, unit", [
    (("Sample01", "Eb015pi.c3d"), "HEIGHT", 1.0, "m"),            # AMASS (Vicon 370): 1.63
    (("Sample02", "pc_real.c3d"), "HEIGHT", 1.0, "m"),            # 1.78
    (("Sample28", "dynamic.C3D"), "Height", 0.01, "cm"),          # BTS: 166
])
def test_the_c3d_samples_heights_and_weights_in_si_with_their_source(test_data, sample, height_name,
                                                                      metres_per_unit, unit):
    path = test_data.joinpath("c3d", *sample)
    trial = read_c3d(path)
    written = _parameter(path, "SUBJECT", height_name)
    height = recorded_height(trial)
    assert height.value == pytest.approx(written * metres_per_unit, rel=1e-12)
    assert height.source == f"the trial's SUBJECT:{height_name} {written:g} {unit}" and height.rejected == ()
    weight_name = height_name.replace("HEIGHT", "WEIGHT").replace("Height", "Weight")
    mass = recorded_mass(trial)
    assert mass.value == pytest.approx(_parameter(path, "SUBJECT", weight_name), rel=1e-12)
    assert mass.source == f"the trial's SUBJECT:{weight_name} {mass.value:g}, taken as kg (C3D gives no unit)"


def test_nexus_processing_height_is_read_in_millimetres_and_bodymass_in_kilograms(test_data, tmp_path):
    c3d = ezc3d.c3d(str(test_data / "c3d" / "Sample26" / "Capture0002.c3d"))      # Qualisys: neither recorded
    assert recorded_height(read_c3d(test_data / "c3d" / "Sample26" / "Capture0002.c3d")).found is None
    c3d.add_parameter("PROCESSING", "Height", [1745.0])
    c3d.add_parameter("PROCESSING", "Bodymass", [68.4])
    c3d.write(str(tmp_path / "nexus.c3d"))
    trial = read_c3d(tmp_path / "nexus.c3d")
    height, mass = recorded_height(trial), recorded_mass(trial)
    assert height.value == pytest.approx(1.745, rel=1e-12) and height.source == "the trial's PROCESSING:Height 1745 mm"
    assert mass.value == pytest.approx(68.4, rel=1e-6) and mass.source.startswith("the trial's PROCESSING:Bodymass 68.4")


def _trial(subject=None, processing=None):
    return SimpleNamespace(subject=subject or {}, metadata={"processing": processing or {}})


def test_values_not_usable_are_said_and_never_taken():
    unfilled = recorded_height(_trial(processing={"Height": 0.0}))       # Nexus's measurement not filled in
    assert unfilled.value is None and unfilled.found == ("PROCESSING:Height", 0.0)
    assert unfilled.rejected == ("the trial's PROCESSING:Height 0 was not used as the subject's stature: it is 0 "
                                 "(not recorded)",)
    metres = recorded_height(_trial(processing={"Height": 1.75}))        # PROCESSING is mm: 1.75 mm is no stature
    assert metres.value is None and "read in mm it is not within 1-2.5 m" in metres.rejected[0]
    text = recorded_mass(_trial(subject={"WEIGHT": "heavy"}))
    assert text.value is None and text.rejected == ("the trial's SUBJECT:WEIGHT 'heavy' was not used as the "
                                                    "subject's body mass: it is not a number",)
    pounds = recorded_mass(_trial(subject={"Weight": 400.0}, processing={"Bodymass": 72.0}))
    assert pounds.value == 72.0 and "PROCESSING:Bodymass" in pounds.source
    assert pounds.rejected == ("the trial's SUBJECT:Weight 400 was not used as the subject's body mass: read in kg "
                               "it is not within 20-250 kg",)


def test_a_mass_in_pounds_is_refused_by_the_body_mass_index_it_gives_with_the_trials_height():
    # 154 lb (69.9 kg) taken as kg for a 1.60 m subject: 154 / 1.60^2 = 60.16 kg/m^2, over 50; the note names both
    pounds = recorded_mass(_trial(subject={"HEIGHT": 1.60, "WEIGHT": 154.0}))
    assert pounds.value is None and pounds.refused
    assert pounds.rejected == ("the trial's SUBJECT:WEIGHT 154 was not used as the subject's body mass: taken as kg, "
                               "with the trial's SUBJECT:HEIGHT 1.6 m (recorded with it) it gives a body mass index "
                               f"of {154 / 1.6 ** 2:.1f} kg/m^2, not within 12-50 kg/m^2 (pounds, or another "
                               "subject's mass?)",)
    assert BMI_RANGE == (12.0, 50.0)
    light = recorded_mass(_trial(subject={"Height": 190.0, "MASS": 40.0}))       # 40 / 1.9^2 = 11.08 < 12
    assert light.value is None and "SUBJECT:Height 190 cm" in light.rejected[0] and "of 11.1 kg/m^2" in light.rejected[0]
    # the next parameter is still read: Nexus's Bodymass (kg) gives 70 / 1.6^2 = 27.3
    nexus = recorded_mass(_trial(subject={"HEIGHT": 1.60, "WEIGHT": 154.0}, processing={"Bodymass": 70.0}))
    assert nexus.value == 70.0 and nexus.source == "the trial's PROCESSING:Bodymass 70 kg" and len(nexus.rejected) == 1
    # without a height there is nothing to check it by: taken, the assumption said
    alone = recorded_mass(_trial(subject={"WEIGHT": 154.0}))
    assert alone.value == 154.0 and alone.source == "the trial's SUBJECT:WEIGHT 154, taken as kg (C3D gives no unit)"
    assert not alone.refused and alone.rejected == ()


def test_a_mass_recorded_without_a_height_is_checked_by_the_subjects_height_known_elsewhere():
    # the trial records 154 (lb) and no height; the subject's height is known elsewhere (given, another trial's):
    # 154 / 1.6^2 = 60.2 kg/m^2 is refused naming that height; 70 / 1.6^2 = 27.3 is taken
    given = (1.6, "the height given with --height on the command line, 1.600 m")
    pounds = recorded_mass(_trial(subject={"WEIGHT": 154.0}), height=given)
    assert pounds.value is None and pounds.refused
    assert pounds.rejected == ("the trial's SUBJECT:WEIGHT 154 was not used as the subject's body mass: taken as kg, "
                               "with the height given with --height on the command line, 1.600 m (the trial records "
                               f"none) it gives a body mass index of {154 / 1.6 ** 2:.1f} kg/m^2, not within 12-50 "
                               "kg/m^2 (pounds, or another subject's mass?)",)
    kilograms = recorded_mass(_trial(subject={"WEIGHT": 70.0}), height=given)
    assert kilograms.value == 70.0 and kilograms.rejected == ()
    # the height recorded with the mass is the one it is checked by: 154 / 1.9^2 = 42.7
    tall = recorded_mass(_trial(subject={"HEIGHT": 1.9, "WEIGHT": 154.0}), height=given)
    assert tall.value == 154.0 and tall.rejected == ()
    static = recorded_mass(_trial(subject={"WEIGHT": 154.0}), "the static trial s.c3d's", (1.6, "the trial's "
                                                                                           "SUBJECT:HEIGHT 1.6 m"))
    assert "with the trial's SUBJECT:HEIGHT 1.6 m (the static trial s.c3d records none) it gives" in static.rejected[0]


def test_only_a_value_other_than_0_is_refused():
    assert not recorded_height(_trial(processing={"Height": 0.0})).refused       # Nexus: not filled in
    assert recorded_height(_trial(subject={"HEIGHT": 17.8})).refused
    assert recorded_mass(_trial(subject={"WEIGHT": "heavy"})).refused


@pytest.mark.parametrize("check, value, said", [
    (check_height, 180.0, "height must be the subject's height in metres, between 1 and 2.5; got 180"),
    (check_height, float("nan"), "got nan"),
    (check_mass, 0.0, "mass must be the subject's body mass in kilograms, positive and between 20 and 250; got 0"),
    (check_mass, -70.0, "got -70"),
    (check_mass, 7000.0, "between 20 and 250; got 7000"),
])
def test_a_given_height_or_mass_outside_its_range_is_refused_naming_the_range(check, value, said):
    with pytest.raises(SettingsError) as err:
        check(value, "--x")
    assert said in err.value.problem and err.value.element == "--x"


def test_a_given_height_or_mass_within_its_range_is_taken():
    assert (check_height(1.0, "h"), check_height(2.5, "h"), check_mass(20, "m"), check_mass(250.0, "m")) == (
        1.0, 2.5, 20.0, 250.0)


def test_whose_names_the_trial_in_the_source_and_notes_and_the_reading_is_bare():
    trial = _trial({"HEIGHT": 178.0, "WEIGHT": 0})
    height, mass = recorded_height(trial, "the static trial s.c3d's"), recorded_mass(trial, "the static trial s.c3d's")
    assert (height.source, height.reading) == ("the static trial s.c3d's SUBJECT:HEIGHT 178 cm", "SUBJECT:HEIGHT 178 cm")
    assert mass.rejected == ("the static trial s.c3d's SUBJECT:WEIGHT 0 was not used as the subject's body mass: it "
                             "is 0 (not recorded)",)
    assert recorded_height(trial).source == "the trial's SUBJECT:HEIGHT 178 cm"


def test_a_check_named_by_where_it_was_given_says_the_name_once():
    # hybrid analyze/scale check --mass under its own name: "--mass: must be ...", not "--mass: --mass must be ..."
    with pytest.raises(SettingsError) as err:
        check_mass(0.0, "--mass", "--mass")
    assert str(err.value) == ("--mass: must be the subject's body mass in kilograms, positive and between 20 and 250; "
                              "got 0")
    with pytest.raises(SettingsError) as err:
        check_height(3.0, "Markers panel")
    assert str(err.value).startswith("Markers panel: height must be")


def test_values_are_quoted_as_written():
    from engine.trial.body_measures import as_written
    assert [as_written(v) for v in (1.60, [154.0], 80, "heavy", [1.0, 2.0], True)] == [
        "1.6", "154", "80", "'heavy'", "[1.0, 2.0]", "True"]
